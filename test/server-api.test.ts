import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadPrxConfig } from '../src/dialects/prx/source.ts';
import { createHookEngine } from '../src/engine.ts';
import type { HookEngine, HookEngineOptions } from '../src/engine-api.ts';
import type { RunRecord } from '../src/records/run-record.ts';
import { createApp, type HookwerkApp, MAX_BODY_BYTES } from '../src/server/app.ts';
import type { Hook } from '../src/server/hooks-store.ts';
import { captureLogger, sleep, tempDir, waitFor, writeHooks, writeScript } from './helpers.ts';
import { serveApp } from './server-harness.ts';

// [P-API-1..4] The management API on a real HTTP server on 127.0.0.1 (in this process), with a
// real engine, real hooks.json files and real hook processes. No mocks.

const TOKEN = 'test-token-0123456789abcdef';
const TOOL_CALL = { tool: 'shell', success: true, output: 'ok' };

interface Harness {
  dir: string;
  url: string;
  engine: HookEngine;
  app: HookwerkApp;
  logs: string[];
  /** fetch with the token (unless `auth` overrides the Authorization header). */
  call(method: string, route: string, body?: unknown, headers?: Record<string, string>): Promise<Answer>;
  stop(): Promise<void>;
}

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: JSON answers are inspected field by field.
  json: any;
}

const running: Harness[] = [];

afterEach(async () => {
  for (const h of running.splice(0)) await h.stop();
});

/** An engine on `dir` (a fresh temp workspace by default) behind the API on 127.0.0.1:<free port>. */
async function start(
  opts: { dir?: string; engine?: Omit<HookEngineOptions, 'workspace'>; now?: () => Date } = {},
): Promise<Harness> {
  const dir = opts.dir ?? tempDir('hw-api-');
  const logs: string[] = [];
  const logger = captureLogger(logs);
  const engine = await createHookEngine({ workspace: dir, logger, ...opts.engine });
  const app = createApp({ engine, token: TOKEN, logger, ...(opts.now ? { now: opts.now } : {}) });
  const { url, stop } = await serveApp(engine, app);
  const h: Harness = {
    dir,
    url,
    engine,
    app,
    logs,
    async call(method, route, body, headers = {}) {
      const init: RequestInit = {
        method,
        headers: { authorization: `Bearer ${TOKEN}`, ...headers },
      };
      if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
      const res = await fetch(url + route, init);
      const text = await res.text();
      let json: unknown;
      try {
        json = text === '' ? undefined : JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: res.status, headers: res.headers, text, json };
    },
    stop,
  };
  running.push(h);
  return h;
}

/** hooks.json as JSON. */
function readFile(dir: string) {
  return JSON.parse(readFileSync(path.join(dir, 'hooks.json'), 'utf8'));
}

/** A script that appends its first argument and some of its environment to `marks.txt`. */
function markScript(dir: string): string {
  return writeScript(
    dir,
    'mark.sh',
    'printf "%s depth=%s session=%s\\n" "$1" "$ZERO_HOOK_DEPTH" "$ZERO_HOOK_SESSION" >> "$(dirname "$0")/marks.txt"',
  );
}

function marks(dir: string): string[] {
  const file = path.join(dir, 'marks.txt');
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
}

const hookBody = (command: string, args: string[] = [], event = 'tool_call', extra: object = {}) => ({
  event,
  action: { command, args, ...extra },
});

describe('[P-API-1] authentication, JSON answers, body limit', () => {
  it('[P-API-1] every endpoint answers 401 JSON without the token, with a wrong one, or another scheme', async () => {
    const h = await start();
    const routes: Array<[string, string]> = [
      ['GET', '/api/hooks'],
      ['POST', '/api/hooks'],
      ['PUT', '/api/hooks/hook_01'],
      ['DELETE', '/api/hooks/hook_01'],
      ['PATCH', '/api/hooks/hook_01/toggle'],
      ['POST', '/api/events'],
      ['POST', '/api/decide'],
      ['GET', '/api/runs'],
      ['GET', '/api/events/stream'],
      ['GET', '/metrics'],
    ];
    const wrong: Array<Record<string, string>> = [
      {},
      { authorization: 'Bearer nope' },
      { authorization: `Bearer ${TOKEN}x` },
      { authorization: `Bearer ${TOKEN.slice(0, -1)}` },
      { authorization: `Basic ${Buffer.from(`u:${TOKEN}`).toString('base64')}` },
      { authorization: TOKEN },
    ];
    for (const [method, route] of routes) {
      for (const headers of wrong) {
        const res = await fetch(h.url + route, {
          method,
          headers,
          ...(method === 'GET' ? {} : { body: '{}' }),
        });
        expect(res.status, `${method} ${route} ${JSON.stringify(headers)}`).toBe(401);
        expect(res.headers.get('content-type')).toMatch(/^application\/json/);
        expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
        expect(((await res.json()) as { error: string }).error).toMatch(/token/);
      }
    }
    // Nothing was written by the refused requests.
    expect(existsSync(path.join(h.dir, 'hooks.json'))).toBe(false);
  });

  it('[P-API-1] the scheme is case-insensitive; /healthz needs no token and says only that it is up', async () => {
    const h = await start();
    expect((await h.call('GET', '/api/hooks', undefined, { authorization: `bearer ${TOKEN}` })).status).toBe(
      200,
    );
    const health = await fetch(`${h.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ ok: true });
  });

  it('[P-API-1] unknown routes answer 404 JSON (after the token check)', async () => {
    const h = await start();
    const res = await h.call('GET', '/api/nope');
    expect(res.status).toBe(404);
    expect(res.json.error).toMatch(/no route/);
    expect((await fetch(`${h.url}/api/nope`)).status).toBe(401);
  });

  it('[P-API-1] a body over 1 MiB → 413 JSON and nothing is written or emitted; 1 MiB exactly is accepted', async () => {
    const h = await start();
    const big = JSON.stringify({
      event: 'tool_call',
      action: { command: '/bin/true', args: ['x'.repeat(MAX_BODY_BYTES)] },
    });
    const res = await h.call('POST', '/api/hooks', big);
    expect(res.status).toBe(413);
    expect(res.json.error).toMatch(/larger than 1048576 bytes/);
    expect(existsSync(path.join(h.dir, 'hooks.json'))).toBe(false);

    const envelope = (n: number) =>
      JSON.stringify({ event: 'tool_call', payload: { tool: 'x', success: true, output: 'y'.repeat(n) } });
    const overhead = envelope(0).length;
    const exact = envelope(MAX_BODY_BYTES - overhead);
    expect(Buffer.byteLength(exact)).toBe(MAX_BODY_BYTES);
    expect((await h.call('POST', '/api/events', exact)).status).toBe(202);
    const over = envelope(MAX_BODY_BYTES - overhead + 1);
    expect((await h.call('POST', '/api/events', over)).status).toBe(413);
  });

  it('[P-API-1] a 413 also applies to a chunked body without Content-Length', async () => {
    const h = await start();
    const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > MAX_BODY_BYTES + chunk.length) controller.close();
        else {
          sent += chunk.length;
          controller.enqueue(chunk);
        }
      },
    });
    const res = await fetch(`${h.url}/api/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}` },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
  });
});

describe('[P-API-2] hooks CRUD', () => {
  it('[P-API-2] POST → 201 HOOK with hook_01, defaults and timestamps; GET lists it; the file holds it', async () => {
    let clock = Date.parse('2030-01-02T03:04:05.678Z');
    const h = await start({ now: () => new Date(clock) });
    const res = await h.call('POST', '/api/hooks', hookBody('/bin/echo', ['hi']));
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.json).toEqual({
      id: 'hook_01',
      event: 'tool_call',
      action: { command: '/bin/echo', args: ['hi'], env: {}, timeout_ms: 30000, stdin_json: false },
      enabled: true,
      created_at: '2030-01-02T03:04:05.678Z',
      updated_at: '2030-01-02T03:04:05.678Z',
    });
    const list = await h.call('GET', '/api/hooks');
    expect(list.status).toBe(200);
    expect(list.json).toEqual({ hooks: [res.json] });
    expect((await h.call('GET', '/api/hooks/hook_01')).json).toEqual(res.json);
    expect(readFile(h.dir).hooks.tool_call).toEqual([
      {
        id: 'hook_01',
        enabled: true,
        command: '/bin/echo',
        args: ['hi'],
        env: {},
        timeout_ms: 30000,
        stdin_json: false,
        created_at: '2030-01-02T03:04:05.678Z',
        updated_at: '2030-01-02T03:04:05.678Z',
      },
    ]);

    // PUT: a full replacement that keeps id and created_at; enabled may be given or kept.
    clock += 60_000;
    const put = await h.call('PUT', '/api/hooks/hook_01', {
      event: 'tool_call',
      action: {
        command: '/bin/printf',
        args: ['%s', 'x'],
        env: { MODE: 'a' },
        cwd: 'sub',
        timeout_ms: 500,
        stdin_json: true,
      },
      enabled: false,
    });
    expect(put.status).toBe(200);
    expect(put.json).toEqual({
      id: 'hook_01',
      event: 'tool_call',
      action: {
        command: '/bin/printf',
        args: ['%s', 'x'],
        env: { MODE: 'a' },
        cwd: 'sub',
        timeout_ms: 500,
        stdin_json: true,
      },
      enabled: false,
      created_at: '2030-01-02T03:04:05.678Z',
      updated_at: '2030-01-02T03:05:05.678Z',
    });
    // Moving to another event: the hook leaves tool_call (its list stays, empty) and joins error.
    const moved = await h.call('PUT', '/api/hooks/hook_01', hookBody('/bin/true', [], 'error'));
    expect(moved.status).toBe(200);
    expect(moved.json.event).toBe('error');
    expect(moved.json.enabled).toBe(false);
    expect(readFile(h.dir).hooks).toEqual({
      tool_call: [],
      error: [expect.objectContaining({ id: 'hook_01' })],
    });
    expect(h.engine.actions().map((a) => [a.name, a.event])).toEqual([['hook_01', 'error']]);

    // DELETE: 204 with an empty body, then it is gone everywhere.
    const del = await h.call('DELETE', '/api/hooks/hook_01');
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expect((await h.call('GET', '/api/hooks')).json).toEqual({ hooks: [] });
    expect(readFile(h.dir).hooks).toEqual({ tool_call: [], error: [] });
    expect(h.engine.actions()).toHaveLength(0);
  });

  it('[P-API-2] [P-SEC-7] sandbox settings survive the API: POST writes them to the file, GET and PUT keep them', async () => {
    const h = await start();
    const body = {
      event: 'tool_call',
      action: { command: '/bin/true', sandbox: 'bwrap', sandbox_workspace: 'ro' },
    };
    const res = await h.call('POST', '/api/hooks', body);
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ action: { sandbox: 'bwrap', sandbox_workspace: 'ro' } });
    expect(readFile(h.dir).hooks.tool_call[0]).toMatchObject({ sandbox: 'bwrap', sandbox_workspace: 'ro' });
    const put = await h.call('PUT', '/api/hooks/hook_01', {
      ...body,
      action: { ...body.action, timeout_ms: 500 },
    });
    expect(put.json).toMatchObject({
      action: { sandbox: 'bwrap', sandbox_workspace: 'ro', timeout_ms: 500 },
    });
    expect(readFile(h.dir).hooks.tool_call[0]).toMatchObject({ sandbox: 'bwrap', sandbox_workspace: 'ro' });
  });

  it('[P-API-3] a change is in force before the response: the engine holds the new action at once', async () => {
    const h = await start({ engine: { watch: true, reloadDebounceMs: 5000 } });
    const res = await h.call('POST', '/api/hooks', hookBody('/bin/true'));
    expect(res.status).toBe(201);
    // The watcher waits 5 s here: what is in force came from the API's own reload.
    expect(h.engine.actions().map((a) => a.name)).toEqual(['hook_01']);
    await h.call('PATCH', '/api/hooks/hook_01/toggle');
    expect(h.engine.actions()[0]!.enabled).toBe(false);
    await h.call('DELETE', '/api/hooks/hook_01');
    expect(h.engine.actions()).toHaveLength(0);
  });

  it('[P-API-3] [P-CFG-2] bad bodies → 400 naming the field and the reason; nothing is written', async () => {
    const h = await start();
    const cases: Array<[unknown, string, RegExp]> = [
      [hookBody('/bin/true', [], 'tool_call', { env: { HOME: '/x' } }), 'action.env.HOME', /HOME/],
      [
        hookBody('/bin/true', [], 'tool_call', { env: { ld_preload: 'x' } }),
        'action.env.ld_preload',
        /blocked/,
      ],
      [hookBody('echo hi; rm -rf /'), 'action.command', /metacharacter ";"/],
      [hookBody(''), 'action.command', /empty/],
      [hookBody('/bin/true', ['ok', 'a\u0000b']), 'action.args[1]', /NUL/],
      [hookBody('/bin/true', [], 'tool_call', { timeout_ms: 1.5 }), 'action.timeout_ms', /whole number/],
      [hookBody('/bin/true', [], 'tool_call', { timeout_ms: '100' }), 'action.timeout_ms', /number/],
      [hookBody('/bin/true', [], 'tool_call', { stdin_json: 'yes' }), 'action.stdin_json', /boolean/],
      [hookBody('/bin/true', [], 'tool_call', { cwd: '../outside' }), 'action.cwd', /outside the workspace/],
      [hookBody('/bin/true', [], 'tool_call', { cwd: '/tmp/../etc' }), 'action.cwd', /\.\./],
      [hookBody('/bin/true', [], 'tool_call', { id: 'mine' }), 'action.id', /unknown field "id"/],
      [hookBody('/bin/true', [], 'tool_call', { bogus: 1 }), 'action.bogus', /unknown field "bogus"/],
      [hookBody('/bin/true', [], 'tool_cal'), 'event', /event must be one of agent_start/],
      [{ event: 'tool_call' }, 'action', /object/],
      [{ ...hookBody('/bin/true'), enabled: 'no' }, 'enabled', /boolean/],
      [{ ...hookBody('/bin/true'), extra: true }, 'extra', /unknown field "extra"/],
      [[], '(body)', /object/],
    ];
    for (const [body, field, reason] of cases) {
      const res = await h.call('POST', '/api/hooks', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const issue = res.json.issues.find((i: { path: string }) => i.path === field);
      expect(issue, `${JSON.stringify(body)} → ${JSON.stringify(res.json)}`).toBeDefined();
      expect(issue.message).toMatch(reason);
      expect(res.json.error).toContain(field);
    }
    const broken = await h.call('POST', '/api/hooks', '{"event": "tool_call", ');
    expect(broken.status).toBe(400);
    expect(broken.json.error).toMatch(/invalid JSON/);
    const empty = await h.call('POST', '/api/hooks', '');
    expect(empty.status).toBe(400);
    expect(empty.json.error).toMatch(/invalid JSON: the body is empty/);
    expect(existsSync(path.join(h.dir, 'hooks.json'))).toBe(false);

    // A bad PUT leaves the existing hook exactly as it was.
    await h.call('POST', '/api/hooks', hookBody('/bin/true'));
    const before = readFileSync(path.join(h.dir, 'hooks.json'), 'utf8');
    const bad = await h.call(
      'PUT',
      '/api/hooks/hook_01',
      hookBody('/bin/true', [], 'tool_call', { env: { PATH: '/evil' } }),
    );
    expect(bad.status).toBe(400);
    expect(bad.json.issues).toEqual([{ path: 'action.env.PATH', message: expect.stringMatching(/PATH/) }]);
    expect(readFileSync(path.join(h.dir, 'hooks.json'), 'utf8')).toBe(before);
  });

  it('[P-API-3] unknown ids → 404 for GET, PUT, DELETE and toggle', async () => {
    const h = await start();
    await h.call('POST', '/api/hooks', hookBody('/bin/true'));
    const before = readFileSync(path.join(h.dir, 'hooks.json'), 'utf8');
    for (const [method, route, body] of [
      ['GET', '/api/hooks/hook_02', undefined],
      ['PUT', '/api/hooks/hook_02', hookBody('/bin/true')],
      ['DELETE', '/api/hooks/hook_02', undefined],
      ['PATCH', '/api/hooks/hook_02/toggle', undefined],
      ['DELETE', '/api/hooks/hook_1', undefined],
    ] as const) {
      const res = await h.call(method, route, body);
      expect(res.status, `${method} ${route}`).toBe(404);
      expect(res.json.error).toMatch(/no hook with id/);
    }
    expect(readFileSync(path.join(h.dir, 'hooks.json'), 'utf8')).toBe(before);
  });

  it('[P-API-3] 50 concurrent POSTs all land, with distinct ids, in a file that parses with 50 actions', async () => {
    const h = await start({ engine: { watch: true } });
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => h.call('POST', '/api/hooks', hookBody('/bin/echo', [`n${i}`]))),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(201));
    const ids = answers.map((a) => a.json.id as string);
    expect(new Set(ids).size).toBe(50);
    expect([...ids].sort()).toEqual(
      Array.from({ length: 50 }, (_, i) => `hook_${String(i + 1).padStart(2, '0')}`),
    );
    const loaded = loadPrxConfig(h.dir);
    expect(loaded.ok).toBe(true);
    if (!loaded.ok) return;
    expect(loaded.actions).toHaveLength(50);
    expect(new Set(loaded.actions.map((a) => a.config.args[0])).size).toBe(50);
    expect(h.engine.actions()).toHaveLength(50);
    expect((await h.call('GET', '/api/hooks')).json.hooks).toHaveLength(50);
    // No temp file is left behind.
    expect(readdirSync(h.dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('[P-API-3] a hand edit between two API writes is kept (and the hand-written action gets an id)', async () => {
    const h = await start({ engine: { watch: true } });
    await h.call('POST', '/api/hooks', hookBody('/bin/echo', ['first']));
    // A person edits the file: adds an action (no id, no timestamps) and a new event.
    const doc = readFile(h.dir);
    doc.hooks.tool_call.push({ command: '/bin/echo', args: ['by hand'], timeout_ms: 1234 });
    doc.hooks.agent_start = [{ command: '/bin/true' }];
    writeFileSync(path.join(h.dir, 'hooks.json'), JSON.stringify(doc, null, 2));
    const second = await h.call('POST', '/api/hooks', hookBody('/bin/echo', ['second']));
    expect(second.status).toBe(201);
    const after = readFile(h.dir);
    expect(after.hooks.tool_call.map((a: { args: string[] }) => a.args[0])).toEqual([
      'first',
      'by hand',
      'second',
    ]);
    expect(after.hooks.agent_start).toHaveLength(1);
    // The hand-written actions got their derived ids (issue 11: no hook_NN spent on them) and
    // timestamps, and kept what the person wrote, no defaults added.
    const handId = expect.stringMatching(/^hand_[0-9a-f]{12}$/);
    expect(after.hooks.tool_call[1]).toEqual({
      id: handId,
      command: '/bin/echo',
      args: ['by hand'],
      timeout_ms: 1234,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(after.hooks.agent_start[0].id).toEqual(handId);
    expect(second.json.id).toBe('hook_02');
    expect(h.engine.actions().map((a) => a.name)).toEqual([
      after.hooks.agent_start[0].id,
      'hook_01',
      after.hooks.tool_call[1].id,
      'hook_02',
    ]);
  });

  it('[P-API-2] GET gives hand-written actions derived ids without writing; the first write stores them, so the ids work (issue 11)', async () => {
    const dir = tempDir('hw-api-');
    const file = writeHooks(dir, {
      error: [{ command: '/bin/true' }],
      tool_call: [{ id: 'mine', command: '/bin/false' }],
    });
    const text = readFileSync(file, 'utf8');
    const h = await start({ dir });
    const list = await h.call('GET', '/api/hooks');
    const derived = list.json.hooks[0].id;
    expect(derived).toMatch(/^hand_[0-9a-f]{12}$/);
    expect(list.json.hooks.map((x: Hook) => [x.id, x.event, x.action.command])).toEqual([
      [derived, 'error', '/bin/true'],
      ['mine', 'tool_call', '/bin/false'],
    ]);
    // The file's mtime stands in for the missing timestamps.
    const mtime = statSync(file).mtime.toISOString();
    expect(list.json.hooks[0]).toMatchObject({ created_at: mtime, updated_at: mtime });
    expect(readFileSync(file, 'utf8')).toBe(text);
    // A second GET gives the same answer and still leaves the file alone.
    expect((await h.call('GET', '/api/hooks')).json).toEqual(list.json);
    expect(readFileSync(file, 'utf8')).toBe(text);
    // Hand-chosen ids are managed like ours; the first write stores the derived id as shown.
    expect((await h.call('PATCH', '/api/hooks/mine/toggle')).json).toEqual({ id: 'mine', enabled: false });
    expect(readFile(dir).hooks.error[0]).toEqual({
      id: derived,
      command: '/bin/true',
      created_at: mtime,
      updated_at: mtime,
    });
    expect((await h.call('GET', `/api/hooks/${derived}`)).json).toEqual(list.json.hooks[0]);
    expect((await h.call('PATCH', `/api/hooks/${derived}/toggle`)).json).toEqual({
      id: derived,
      enabled: false,
    });
  });

  it('[P-API-2] ids are never reused: not after a delete, not after a restart, not below a hand-written hook_NN', async () => {
    const dir = tempDir('hw-api-');
    let h = await start({ dir });
    for (let i = 0; i < 3; i++) await h.call('POST', '/api/hooks', hookBody('/bin/true'));
    expect((await h.call('DELETE', '/api/hooks/hook_03')).status).toBe(204);
    expect((await h.call('POST', '/api/hooks', hookBody('/bin/true'))).json.id).toBe('hook_04');
    expect((await h.call('DELETE', '/api/hooks/hook_04')).status).toBe(204);
    await h.stop();

    // A new engine and app on the same workspace: the mark survived in .hookwerk/state.json.
    h = await start({ dir });
    expect((await h.call('POST', '/api/hooks', hookBody('/bin/true'))).json.id).toBe('hook_05');
    expect(JSON.parse(readFileSync(path.join(dir, '.hookwerk', 'state.json'), 'utf8'))).toEqual({
      hook_id_high_water: 5,
    });
    expect(statSync(path.join(dir, '.hookwerk')).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(dir, '.hookwerk', 'state.json')).mode & 0o777).toBe(0o600);

    // A hand-written hook_41 pushes the next id above it.
    const doc = readFile(dir);
    doc.hooks.tool_call.push({ id: 'hook_41', command: '/bin/true' });
    writeFileSync(path.join(dir, 'hooks.json'), JSON.stringify(doc));
    expect((await h.call('POST', '/api/hooks', hookBody('/bin/true'))).json.id).toBe('hook_42');

    // Even with the state file lost, ids continue above every id still in the file.
    unlinkSync(path.join(dir, '.hookwerk', 'state.json'));
    expect((await h.call('POST', '/api/hooks', hookBody('/bin/true'))).json.id).toBe('hook_43');
    const ids = (await h.call('GET', '/api/hooks')).json.hooks.map((x: Hook) => x.id);
    expect(ids).toEqual(['hook_01', 'hook_02', 'hook_05', 'hook_41', 'hook_42', 'hook_43']);
  });

  it('[P-API-2] past hook_99 ids simply grow: hook_100', async () => {
    const dir = tempDir('hw-api-');
    writeHooks(dir, { tool_call: [{ id: 'hook_99', command: '/bin/true' }] });
    const h = await start({ dir });
    expect((await h.call('POST', '/api/hooks', hookBody('/bin/true'))).json.id).toBe('hook_100');
  });

  it('[P-API-3] toggle off → the hook stays in the file with "enabled": false and stops running; on again → runs', async () => {
    const h = await start();
    markScript(h.dir);
    const a = (await h.call('POST', '/api/hooks', hookBody('./mark.sh', ['a']))).json as Hook;
    const b = (await h.call('POST', '/api/hooks', hookBody('./mark.sh', ['b']))).json as Hook;
    const off = await h.call('PATCH', `/api/hooks/${a.id}/toggle`);
    expect(off.status).toBe(200);
    expect(off.json).toEqual({ id: a.id, enabled: false });
    const inFile = readFile(h.dir).hooks.tool_call;
    expect(inFile.map((x: { id: string; enabled: boolean }) => [x.id, x.enabled])).toEqual([
      [a.id, false],
      [b.id, true],
    ]);
    expect((await h.call('GET', `/api/hooks/${a.id}`)).json.enabled).toBe(false);

    expect((await h.call('POST', '/api/events', { event: 'tool_call', payload: TOOL_CALL })).status).toBe(
      202,
    );
    await h.engine.drain();
    expect(marks(h.dir).map((m) => m.split(' ')[0])).toEqual(['b']);
    expect(h.engine.runs().map((r) => r.hook)).toEqual([b.id]);

    expect((await h.call('PATCH', `/api/hooks/${a.id}/toggle`)).json).toEqual({ id: a.id, enabled: true });
    await h.call('POST', '/api/events', { event: 'tool_call', payload: TOOL_CALL });
    await h.engine.drain();
    expect(
      h.engine
        .runs({ limit: 2 })
        .map((r) => r.hook)
        .sort(),
    ).toEqual([a.id, b.id]);
  });

  it('[P-API-2] the $schema key, the event order and the file mode are kept', async () => {
    const dir = tempDir('hw-api-');
    const file = writeHooks(
      dir,
      JSON.stringify({
        $schema: '../schema/prx-hooks.schema.json',
        hooks: { error: [{ id: 'e', command: '/bin/true' }], agent_start: [], tool_call: [] },
      }),
    );
    chmodSync(file, 0o640);
    const h = await start({ dir });
    await h.call('POST', '/api/hooks', hookBody('/bin/true', [], 'agent_end'));
    const text = readFileSync(file, 'utf8');
    const doc = JSON.parse(text);
    expect(Object.keys(doc)).toEqual(['$schema', 'hooks']);
    expect(doc.$schema).toBe('../schema/prx-hooks.schema.json');
    expect(Object.keys(doc.hooks)).toEqual(['error', 'agent_start', 'tool_call', 'agent_end']);
    expect(statSync(file).mode & 0o777).toBe(0o640);
    expect(text.endsWith('\n')).toBe(true);
  });

  it('[P-CFG-3] [P-API-3] a hand-broken hooks.json is never overwritten: writes answer 409 with its problems', async () => {
    const h = await start({ engine: { watch: false } });
    await h.call('POST', '/api/hooks', hookBody('/bin/true'));
    const broken = '{"hooks": {"tool_call": [{"command": "/bin/true", "env": {"HOME": "x"}}]}}';
    writeFileSync(path.join(h.dir, 'hooks.json'), broken);
    for (const [method, route, body] of [
      ['POST', '/api/hooks', hookBody('/bin/true')],
      ['GET', '/api/hooks', undefined],
      ['PATCH', '/api/hooks/hook_01/toggle', undefined],
      ['DELETE', '/api/hooks/hook_01', undefined],
    ] as const) {
      const res = await h.call(method, route, body);
      expect(res.status, `${method} ${route}`).toBe(409);
      expect(res.json.error).toMatch(/invalid on disk/);
      expect(res.json.issues).toEqual([
        {
          file: path.join(h.dir, 'hooks.json'),
          path: '$.hooks.tool_call[0].env.HOME',
          message: expect.stringMatching(/HOME/),
        },
      ]);
    }
    expect(readFileSync(path.join(h.dir, 'hooks.json'), 'utf8')).toBe(broken);
    writeFileSync(path.join(h.dir, 'hooks.json'), '{"hooks": {"tool_call": [');
    const syntax = await h.call('POST', '/api/hooks', hookBody('/bin/true'));
    expect(syntax.status).toBe(409);
    expect(syntax.json.issues[0].message).toMatch(/invalid JSON/);
  });

  it('[P-API-3] a change that would break a whole-file limit answers 409 (1000 actions)', async () => {
    const dir = tempDir('hw-api-');
    writeHooks(dir, { tool_call: Array.from({ length: 1000 }, () => ({ command: '/bin/true' })) });
    const h = await start({ dir });
    const res = await h.call('POST', '/api/hooks', hookBody('/bin/true'));
    expect(res.status).toBe(409);
    expect(res.json.issues[0].message).toMatch(/limit is 1000/);
  });
});

describe('[P-API-4] sidecar: events, runs, decide, metrics', () => {
  it('[P-API-4] a hook created through the API runs for an event sent through POST /api/events; GET /api/runs shows it', async () => {
    const h = await start();
    markScript(h.dir);
    const hook = (await h.call('POST', '/api/hooks', hookBody('./mark.sh', ['api']))).json as Hook;
    const res = await h.call('POST', '/api/events', {
      event: 'tool_call',
      session_id: 'sess-api',
      payload: TOOL_CALL,
    });
    expect(res.status).toBe(202);
    expect(res.json).toEqual({ accepted: true });
    await waitFor(() => marks(h.dir).length === 1, 'the hook to run');
    expect(marks(h.dir)).toEqual(['api depth=1 session=sess-api']);
    const runs = await waitFor(async () => {
      const r = await h.call('GET', '/api/runs');
      return r.json.runs.length === 1 ? (r.json.runs as RunRecord[]) : undefined;
    }, 'the run record');
    expect(runs![0]).toMatchObject({
      hook: hook.id,
      event: 'tool_call',
      outcome: 'ok',
      exitCode: 0,
      sessionId: 'sess-api',
      depth: 1,
    });
  });

  it('[P-API-4] GET /api/runs: newest first, limit / outcome / event filters, bad parameters → 400', async () => {
    const h = await start();
    await h.call('POST', '/api/hooks', hookBody('/bin/true'));
    await h.call('POST', '/api/hooks', hookBody('/bin/false'));
    await h.call('POST', '/api/hooks', hookBody('/bin/true', [], 'agent_start'));
    await h.call('POST', '/api/events', { event: 'tool_call', payload: TOOL_CALL });
    await h.engine.drain();
    await h.call('POST', '/api/events', { event: 'agent_start', payload: { agent: 'a', session: 's' } });
    await h.engine.drain();
    const all = (await h.call('GET', '/api/runs')).json.runs as RunRecord[];
    expect(all).toHaveLength(3);
    expect(all[0]!.event).toBe('agent_start');
    expect((await h.call('GET', '/api/runs?limit=1')).json.runs).toEqual([all[0]]);
    // Empty values mean "not given".
    expect((await h.call('GET', '/api/runs?limit=&outcome=&event=')).json.runs).toEqual(all);
    const errors = (await h.call('GET', '/api/runs?outcome=error')).json.runs as RunRecord[];
    expect(errors.map((r) => [r.hook, r.outcome, r.exitCode])).toEqual([['hook_02', 'error', 1]]);
    expect(
      (await h.call('GET', '/api/runs?event=tool_call&outcome=ok')).json.runs.map((r: RunRecord) => r.hook),
    ).toEqual(['hook_01']);
    for (const [query, field] of [
      ['limit=0', 'limit'],
      ['limit=abc', 'limit'],
      ['limit=1001', 'limit'],
      ['outcome=fine', 'outcome'],
      ['event=tool_cal', 'event'],
      ['since=1', 'since'],
    ]) {
      const res = await h.call('GET', `/api/runs?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.json.issues[0].path).toBe(field);
    }
  });

  it('[P-API-4] [P-EV-3] POST /api/events validates like emit(): 400 with the reason, nothing emitted', async () => {
    const h = await start();
    const cases: Array<[unknown, string, RegExp]> = [
      [{ event: 'tool_cal', payload: TOOL_CALL }, 'event', /unknown event "tool_cal"/],
      [
        { event: 'tool_call', payload: { tool: 'x', success: true } },
        'payload.output',
        /field "output" is missing/,
      ],
      [
        { event: 'tool_call', payload: { ...TOOL_CALL, success: 'yes' } },
        'payload.success',
        /must be a boolean/,
      ],
      [{ event: 'tool_call', payload: [] }, 'payload', /must be an object/],
      [{ event: 'tool_call', payload: TOOL_CALL, session_id: 7 }, 'session_id', /string/],
      [{ event: 'tool_call', payload: TOOL_CALL, sessionId: 's' }, 'sessionId', /unknown field/],
      [{ payload: TOOL_CALL }, 'event', /string/],
    ];
    for (const [body, field, reason] of cases) {
      const res = await h.call('POST', '/api/events', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.issues[0].path).toBe(field);
      expect(res.json.error).toMatch(reason);
    }
    expect((await h.call('POST', '/api/events', 'not json')).status).toBe(400);
    // turn_complete has no fields: the payload may be left out.
    expect((await h.call('POST', '/api/events', { event: 'turn_complete' })).status).toBe(202);
    const metrics = (await h.call('GET', '/metrics')).text;
    expect(metrics).toMatch(/^events_emitted_total\{event="turn_complete"\} 1$/m);
    expect(metrics).not.toMatch(/^events_emitted_total\{event="tool_call"\}/m);
  });

  it('[P-BUS-4] X-Hook-Depth: 3 → the hook sees ZERO_HOOK_DEPTH=4; above 8 → not accepted, counted; a bad header → 400', async () => {
    const h = await start();
    markScript(h.dir);
    await h.call('POST', '/api/hooks', hookBody('./mark.sh', ['deep']));
    const res = await h.call(
      'POST',
      '/api/events',
      { event: 'tool_call', payload: TOOL_CALL },
      { 'X-Hook-Depth': '3' },
    );
    expect(res.status).toBe(202);
    expect(res.json).toEqual({ accepted: true, depth: 4 });
    await h.engine.drain();
    expect(marks(h.dir)[0]).toMatch(/^deep depth=4 /);

    const deep = await h.call(
      'POST',
      '/api/events',
      { event: 'tool_call', payload: TOOL_CALL },
      { 'X-Hook-Depth': '8' },
    );
    expect(deep.status).toBe(202);
    expect(deep.json).toEqual({ accepted: false, reason: 'depth', depth: 9 });
    await h.engine.drain();
    expect(marks(h.dir)).toHaveLength(1);
    expect((await h.call('GET', '/metrics')).text).toMatch(/^events_dropped_total\{reason="depth"\} 1$/m);

    for (const bad of ['-1', 'three', '1.5', '', '9999999']) {
      const r = await h.call(
        'POST',
        '/api/events',
        { event: 'tool_call', payload: TOOL_CALL },
        { 'X-Hook-Depth': bad },
      );
      expect(r.status, bad).toBe(400);
      expect(r.json.issues[0].path).toBe('X-Hook-Depth');
    }
    // A bad header is refused even with a bad body: nothing ran.
    await h.engine.drain();
    expect(marks(h.dir)).toHaveLength(1);
  });

  it('[P-API-4] [§2.5] POST /api/decide runs the gate: a trusted project deny hook blocks PreToolUse', async () => {
    const project = tempDir('hw-api-proj-');
    const home = tempDir('hw-api-home-');
    mkdirSync(path.join(project, '.lurus'));
    writeFileSync(
      path.join(project, '.lurus', 'hooks.json'),
      JSON.stringify({
        PreToolUse: [
          {
            matcher: 'Write',
            hooks: [{ type: 'command', command: `echo '{"decision":"deny","reason":"no writes here"}'` }],
          },
        ],
      }),
    );
    const h = await start({
      engine: { projectDir: project, home, trust: () => ({ trusted: true, reason: 'test' }) },
    });
    const deny = await h.call('POST', '/api/decide', {
      event: 'PreToolUse',
      context: { toolName: 'Write', toolInput: { path: 'a.txt' } },
    });
    expect(deny.status).toBe(200);
    expect(deny.json).toMatchObject({ decision: 'deny', blocked: true, reason: 'no writes here' });
    expect(deny.json.runs).toHaveLength(1);
    expect(deny.json.runs[0]).toMatchObject({ outcome: 'deny', event: 'PreToolUse' });

    const allow = await h.call('POST', '/api/decide', { event: 'PreToolUse', context: { toolName: 'Read' } });
    expect(allow.json).toEqual({ decision: 'allow', blocked: false, runs: [] });
    // The gate run is a run record like any other.
    expect((await h.call('GET', '/api/runs?event=PreToolUse')).json.runs[0]).toMatchObject({
      outcome: 'deny',
    });

    for (const [body, field] of [
      [{ event: 'PreToolUsed', context: {} }, 'event'],
      [{ event: 'PreToolUse', context: 'Write' }, 'context'],
      [{ event: 'PreToolUse', context: [] }, 'context'],
      [{ event: 'PreToolUse', ctx: {} }, 'ctx'],
    ] as const) {
      const res = await h.call('POST', '/api/decide', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.issues[0].path).toBe(field);
    }
  });

  it('[P-API-4] [P-API-1] /api/decide without consent: the project hook is skipped (skipped_untrusted), the action allowed', async () => {
    const project = tempDir('hw-api-proj-');
    const home = tempDir('hw-api-home-');
    mkdirSync(path.join(project, '.lurus'));
    writeFileSync(
      path.join(project, '.lurus', 'hooks.json'),
      JSON.stringify({ PreToolUse: [{ hooks: [{ type: 'command', command: 'exit 2' }] }] }),
    );
    const h = await start({ engine: { projectDir: project, home } });
    const res = await h.call('POST', '/api/decide', { event: 'PreToolUse', context: { toolName: 'Bash' } });
    expect(res.json).toMatchObject({ decision: 'allow', blocked: false });
    expect(res.json.runs[0].outcome).toBe('skipped_untrusted');
  });

  it('[P-API-4] GET /metrics: Prometheus text with hook_runs_total, and a timeout counted in hook_timeouts_total', async () => {
    const h = await start();
    // Ends as soon as it gets the timeout's SIGTERM (its sleep is in the same process group).
    writeScript(h.dir, 'slow.sh', "trap 'exit 0' TERM\nsleep 5 &\nwait");
    await h.call('POST', '/api/hooks', hookBody('/bin/true'));
    await h.call('POST', '/api/hooks', hookBody('./slow.sh', [], 'tool_call', { timeout_ms: 200 }));
    await h.call('POST', '/api/events', { event: 'tool_call', payload: TOOL_CALL });
    await h.engine.drain();

    const res = await fetch(`${h.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(text).toMatch(/^# TYPE hook_runs_total counter$/m);
    expect(text).toMatch(/^hook_runs_total\{event="tool_call",outcome="ok"\} 1$/m);
    expect(text).toMatch(/^hook_runs_total\{event="tool_call",outcome="timeout"\} 1$/m);
    expect(text).toMatch(/^hook_timeouts_total\{event="tool_call"\} 1$/m);
    expect(text).toMatch(/^hook_run_duration_seconds_count\{event="tool_call"\} 2$/m);
    expect(text).toMatch(/^config_reloads_total \d+$/m);
    expect(text).toMatch(/^config_reload_errors_total 0$/m);
    expect(text).toMatch(/^hook_queue_depth 0$/m);
    expect(text).toMatch(/^sse_clients 0$/m);
    expect(h.engine.runs({ outcome: 'timeout' })[0]).toMatchObject({ hook: 'hook_02', outcome: 'timeout' });
  });

  it('[P-API-4] a slow /api/decide does not hold up hooks reads and writes', async () => {
    const project = tempDir('hw-api-proj-');
    mkdirSync(path.join(project, '.lurus'));
    writeFileSync(
      path.join(project, '.lurus', 'hooks.json'),
      JSON.stringify({ Stop: [{ hooks: [{ type: 'command', command: 'sleep 1; echo {}' }] }] }),
    );
    const h = await start({
      engine: {
        projectDir: project,
        home: tempDir('hw-api-home-'),
        trust: () => ({ trusted: true, reason: 't' }),
      },
    });
    let decided = false;
    const slow = h.call('POST', '/api/decide', { event: 'Stop', context: {} }).then((r) => {
      decided = true;
      return r;
    });
    await sleep(100);
    expect((await h.call('GET', '/api/hooks')).status).toBe(200);
    expect((await h.call('POST', '/api/hooks', hookBody('/bin/true'))).status).toBe(201);
    expect(decided).toBe(false);
    expect((await slow).json.decision).toBe('allow');
  });
});
