import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  readdirSync,
  readFileSync,
  type Stats,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHookEngine } from '../src/engine.ts';
import type { HookEngine } from '../src/engine-api.ts';
import { createApp } from '../src/server/app.ts';
import { runCli, STACK } from './cli-runner.ts';
import { captureLogger, tempDir, writeHooks } from './helpers.ts';
import { serveApp } from './server-harness.ts';

// Issue 11, the hooks API store: lost updates (ETag / If-Match), reads that wrote hooks.json,
// duplicate keys, and writes that must replace the file by rename. Real engine, real HTTP server
// on 127.0.0.1, real files; no mocks.

const TOKEN = 'test-token-0123456789abcdef';

interface Answer {
  status: number;
  etag: string | null;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: JSON answers are inspected field by field.
  json: any;
}

interface Api {
  dir: string;
  file: string;
  engine: HookEngine;
  call(method: string, route: string, body?: unknown, headers?: Record<string, string>): Promise<Answer>;
  stop(): Promise<void>;
}

const running: Api[] = [];
afterEach(async () => {
  for (const api of running.splice(0)) await api.stop();
});

async function start(dir = tempDir('hw-etag-')): Promise<Api> {
  const logger = captureLogger([]);
  const engine = await createHookEngine({ workspace: dir, logger, watch: false });
  const app = createApp({ engine, token: TOKEN, logger });
  const { url, stop } = await serveApp(engine, app);
  const api: Api = {
    dir,
    file: path.join(dir, 'hooks.json'),
    engine,
    async call(method, route, body, headers = {}) {
      const init: RequestInit = { method, headers: { authorization: `Bearer ${TOKEN}`, ...headers } };
      if (body !== undefined) init.body = JSON.stringify(body);
      const res = await fetch(url + route, init);
      const text = await res.text();
      return {
        status: res.status,
        etag: res.headers.get('etag'),
        text,
        json: text ? JSON.parse(text) : undefined,
      };
    },
    stop,
  };
  running.push(api);
  return api;
}

const hookBody = (command: string, args: string[] = [], event = 'tool_call') => ({
  event,
  action: { command, args },
});

/** The documented ETag: the SHA-256 of the answer's body, base64url, quoted. */
const sha256Etag = (text: string) => `"${createHash('sha256').update(text, 'utf8').digest('base64url')}"`;

/** Bytes, inode and mtime: a read that rewrote the file, even with the same bytes, shows here. */
function fingerprint(file: string) {
  const st: Stats = statSync(file);
  return { bytes: readFileSync(file, 'utf8'), ino: st.ino, mtimeMs: st.mtimeMs };
}

describe('[P-API-2] [P-API-3] issue 11: ETag and If-Match on the hooks API', () => {
  it('[P-API-2] issue 11: GET of the list and of one hook carry a strong ETag (SHA-256 of the body); every write answers the new one', async () => {
    const api = await start();
    const created = await api.call('POST', '/api/hooks', hookBody('/bin/echo', ['a']));
    expect(created.status).toBe(201);
    expect(created.etag).toBe(sha256Etag(created.text));

    const one = await api.call('GET', `/api/hooks/${created.json.id}`);
    expect(one.etag).toBe(sha256Etag(one.text));
    expect(one.etag).toBe(created.etag);
    const list = await api.call('GET', '/api/hooks');
    expect(list.etag).toBe(sha256Etag(list.text));
    expect(list.etag).not.toBe(one.etag);

    const put = await api.call('PUT', `/api/hooks/${created.json.id}`, hookBody('/bin/echo', ['b']));
    expect(put.status).toBe(200);
    expect(put.etag).toBe(sha256Etag(put.text));
    expect(put.etag).not.toBe(created.etag);
    expect((await api.call('GET', `/api/hooks/${created.json.id}`)).etag).toBe(put.etag);

    // toggle answers {id, enabled}; its ETag is the toggled hook's, good for the next write.
    const toggled = await api.call('PATCH', `/api/hooks/${created.json.id}/toggle`);
    const after = await api.call('GET', `/api/hooks/${created.json.id}`);
    expect(after.json.enabled).toBe(false);
    expect(toggled.etag).toBe(after.etag);
    expect(toggled.etag).not.toBe(put.etag);
    // The list's ETag follows its content: unchanged reads, unchanged tag.
    const again = await api.call('GET', '/api/hooks');
    expect((await api.call('GET', '/api/hooks')).etag).toBe(again.etag);
    expect(again.etag).not.toBe(list.etag);
  });

  it('[P-API-3] issue 11: two clients read-modify-write the same hook; the second, with the stale ETag, gets 412 and the first update stays', async () => {
    const api = await start();
    const id = (await api.call('POST', '/api/hooks', hookBody('/bin/echo', ['base']))).json.id;
    const alice = await api.call('GET', `/api/hooks/${id}`);
    const bob = await api.call('GET', `/api/hooks/${id}`);
    expect(bob.etag).toBe(alice.etag);

    const byAlice = { event: 'tool_call', action: { ...alice.json.action, args: ['alice'] } };
    const a = await api.call('PUT', `/api/hooks/${id}`, byAlice, { 'if-match': alice.etag! });
    expect(a.status).toBe(200);
    const written = fingerprint(api.file);

    const byBob = { event: 'tool_call', action: { ...bob.json.action, env: { BOB: '1' } } };
    const b = await api.call('PUT', `/api/hooks/${id}`, byBob, { 'if-match': bob.etag! });
    expect(b.status).toBe(412);
    expect(b.json.error).toMatch(/If-Match/);
    expect(fingerprint(api.file)).toEqual(written);
    expect((await api.call('GET', `/api/hooks/${id}`)).json.action).toMatchObject({
      args: ['alice'],
      env: {},
    });

    // Bob reads again, merges, and his write with the fresh ETag lands on top of Alice's.
    const fresh = await api.call('GET', `/api/hooks/${id}`);
    const merged = { event: 'tool_call', action: { ...fresh.json.action, env: { BOB: '1' } } };
    const retry = await api.call('PUT', `/api/hooks/${id}`, merged, { 'if-match': fresh.etag! });
    expect(retry.status).toBe(200);
    expect(retry.json.action).toMatchObject({ args: ['alice'], env: { BOB: '1' } });
  });

  it('[P-API-3] issue 11: ten PUTs sent at once with the same ETag: exactly one lands, nine get 412', async () => {
    const api = await start();
    const id = (await api.call('POST', '/api/hooks', hookBody('/bin/true'))).json.id;
    const tag = (await api.call('GET', `/api/hooks/${id}`)).etag!;
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        api.call('PUT', `/api/hooks/${id}`, hookBody('/bin/echo', [`w${i}`]), { 'if-match': tag }),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, ...Array(9).fill(412)]);
    const winner = answers.find((a) => a.status === 200)!;
    expect((await api.call('GET', `/api/hooks/${id}`)).json).toEqual(winner.json);
  });

  it('[P-API-3] issue 11: PUT, DELETE, toggle and POST with a non-matching If-Match answer 412 JSON and leave hooks.json as it was', async () => {
    const api = await start();
    const id = (await api.call('POST', '/api/hooks', hookBody('/bin/true'))).json.id;
    const current = (await api.call('GET', `/api/hooks/${id}`)).etag!;
    const stale = sha256Etag('something else');
    const before = fingerprint(api.file);
    const attempts: Array<[string, string, unknown]> = [
      ['PUT', `/api/hooks/${id}`, hookBody('/bin/false')],
      ['DELETE', `/api/hooks/${id}`, undefined],
      ['PATCH', `/api/hooks/${id}/toggle`, undefined],
      ['POST', '/api/hooks', hookBody('/bin/false')],
    ];
    // A weak tag never matches under strong comparison, even with the current value.
    for (const tag of [stale, `W/${current}`, `${stale}, "x"`]) {
      for (const [method, route, body] of attempts) {
        const res = await api.call(method, route, body, { 'if-match': tag });
        expect(res.status, `${method} ${route} If-Match: ${tag}`).toBe(412);
        expect(res.json.error).toMatch(/If-Match does not match/);
      }
    }
    expect(fingerprint(api.file)).toEqual(before);
    expect(api.engine.actions().map((a) => a.config.command)).toEqual(['/bin/true']);

    // A malformed header is a 400 naming it, not a silent miss; nothing written either.
    const bad = await api.call('DELETE', `/api/hooks/${id}`, undefined, { 'if-match': 'no-quotes' });
    expect(bad.status).toBe(400);
    expect(bad.json.issues).toEqual([{ path: 'If-Match', message: expect.stringMatching(/quoted/) }]);
    // An unknown id stays a 404 with or without If-Match.
    expect((await api.call('DELETE', '/api/hooks/nope', undefined, { 'if-match': stale })).status).toBe(404);
    expect(fingerprint(api.file)).toEqual(before);
  });

  it("[P-API-3] issue 11: a matching If-Match (the hook's ETag, in a list, the list's ETag, or *) lets each write through", async () => {
    const api = await start();
    const id = (await api.call('POST', '/api/hooks', hookBody('/bin/true'))).json.id;
    let tag = (await api.call('GET', `/api/hooks/${id}`)).etag!;

    const put = await api.call('PUT', `/api/hooks/${id}`, hookBody('/bin/echo', ['1']), {
      'if-match': `"other", ${tag}`,
    });
    expect(put.status).toBe(200);
    tag = put.etag!;
    const off = await api.call('PATCH', `/api/hooks/${id}/toggle`, undefined, { 'if-match': tag });
    expect(off.status).toBe(200);
    expect(off.json).toEqual({ id, enabled: false });
    // The answer's ETag is good for the next conditional write.
    const on = await api.call('PATCH', `/api/hooks/${id}/toggle`, undefined, { 'if-match': off.etag! });
    expect(on.json).toEqual({ id, enabled: true });

    // The list's ETag also works for one hook (nothing at all changed since the list was read).
    const listTag = (await api.call('GET', '/api/hooks')).etag!;
    const post = await api.call('POST', '/api/hooks', hookBody('/bin/echo', ['2']), { 'if-match': listTag });
    expect(post.status).toBe(201);
    const listTag2 = (await api.call('GET', '/api/hooks')).etag!;
    expect((await api.call('DELETE', `/api/hooks/${id}`, undefined, { 'if-match': listTag })).status).toBe(
      412,
    );
    expect((await api.call('DELETE', `/api/hooks/${id}`, undefined, { 'if-match': listTag2 })).status).toBe(
      204,
    );
    expect(
      (await api.call('DELETE', `/api/hooks/${post.json.id}`, undefined, { 'if-match': '*' })).status,
    ).toBe(204);
    expect(JSON.parse(readFileSync(api.file, 'utf8')).hooks.tool_call).toEqual([]);
  });

  it('[P-API-3] issue 11: without If-Match writes are unconditional, as before', async () => {
    const api = await start();
    const id = (await api.call('POST', '/api/hooks', hookBody('/bin/true'))).json.id;
    const old = await api.call('GET', `/api/hooks/${id}`);
    await api.call('PUT', `/api/hooks/${id}`, hookBody('/bin/echo', ['x']));
    // Someone else changed it; a client that sends no If-Match still wins, as today.
    expect(old.etag).not.toBe((await api.call('GET', `/api/hooks/${id}`)).etag);
    expect((await api.call('PUT', `/api/hooks/${id}`, hookBody('/bin/echo', ['y']))).status).toBe(200);
    expect((await api.call('PATCH', `/api/hooks/${id}/toggle`)).status).toBe(200);
    expect((await api.call('DELETE', `/api/hooks/${id}`)).status).toBe(204);
  });
});

describe('[P-API-2] [P-CFG-1] issue 11: reads never write hooks.json', () => {
  const HAND_WRITTEN = `{
  "hooks": {
    "error":     [ { "command": "/bin/true" } ],
    "tool_call": [ { "command": "/bin/echo", "args": ["one"] },
                   { "command": "/bin/echo", "args": ["one"] },
                   { "id": "mine", "command": "/bin/false" } ]
  }
}
`;

  it('[P-API-2] issue 11: GET of the list and of each hook leaves a hand-written hooks.json (no ids, no timestamps) untouched: bytes, inode, mtime', async () => {
    const dir = tempDir('hw-etag-');
    const file = writeHooks(dir, HAND_WRITTEN);
    const before = fingerprint(file);
    let api = await start(dir);
    const list = await api.call('GET', '/api/hooks');
    expect(list.status).toBe(200);
    const ids: string[] = list.json.hooks.map((h: { id: string }) => h.id);
    expect(ids).toHaveLength(4);
    expect(ids[3]).toBe('mine');
    // Two identical hand-written hooks still get distinct ids.
    expect(new Set(ids).size).toBe(4);
    for (const id of ids) expect((await api.call('GET', `/api/hooks/${id}`)).status).toBe(200);
    expect(fingerprint(file)).toEqual(before);
    // Reads do not spend ids either: no state file appears.
    expect(existsSync(path.join(dir, '.hookwerk', 'state.json'))).toBe(false);

    // Another server on the same workspace derives the same ids and the same ETag.
    await api.stop();
    api = await start(dir);
    const again = await api.call('GET', '/api/hooks');
    expect(again.json.hooks.map((h: { id: string }) => h.id)).toEqual(ids);
    expect(again.etag).toBe(list.etag);
    expect(fingerprint(file)).toEqual(before);
  });

  it('[P-API-2] issue 11: a derived id survives hand edits elsewhere in the file and is the id the first write stores', async () => {
    const dir = tempDir('hw-etag-');
    const file = writeHooks(dir, HAND_WRITTEN);
    const api = await start(dir);
    const first = (await api.call('GET', '/api/hooks')).json.hooks;
    // A person adds a hook at the front of tool_call and reformats the file.
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    doc.hooks.tool_call.unshift({ command: '/bin/date' });
    writeFileSync(file, JSON.stringify(doc));
    const second = (await api.call('GET', '/api/hooks')).json.hooks;
    const idOf = (hooks: Array<{ id: string; action: { args: string[] } }>, i: number) => hooks[i]!.id;
    expect(second.map((h: { id: string }) => h.id)).toEqual([
      idOf(first, 0),
      expect.stringMatching(/^hand_/),
      idOf(first, 1),
      idOf(first, 2),
      'mine',
    ]);
    // The first write (toggling one hook) stores every shown id; each works afterwards.
    const target = idOf(first, 2);
    expect((await api.call('PATCH', `/api/hooks/${target}/toggle`)).json).toEqual({
      id: target,
      enabled: false,
    });
    const stored = JSON.parse(readFileSync(file, 'utf8')).hooks;
    expect([...stored.error, ...stored.tool_call].map((a: { id: string }) => a.id)).toEqual(
      second.map((h: { id: string }) => h.id),
    );
    const shownAfter = (await api.call('GET', '/api/hooks')).json.hooks;
    expect(shownAfter.map((h: { id: string }) => h.id)).toEqual(second.map((h: { id: string }) => h.id));
    expect(shownAfter.map((h: { created_at: string }) => h.created_at)).toEqual(
      second.map((h: { created_at: string }) => h.created_at),
    );
  });
});

describe('[L-TRUST-4] [P-CFG-3] [P-CFG-4] issue 11: a duplicate key in hooks.json is a config error', () => {
  // The second "tool_call" shadows the first for JSON.parse: the /bin/echo hook would vanish.
  const DUPLICATE = `{
  "hooks": {
    "tool_call": [ { "id": "shadowed", "command": "/bin/echo", "args": ["first"] } ],
    "tool_call": [ { "id": "kept", "command": "/bin/true" } ]
  }
}
`;

  it('[P-API-3] issue 11: GET and writes answer 409 naming the duplicate; the file (shadowed hook included) is never rewritten', async () => {
    const dir = tempDir('hw-etag-');
    const file = writeHooks(dir, DUPLICATE);
    const before = fingerprint(file);
    const api = await start(dir);
    for (const [method, route, body] of [
      ['GET', '/api/hooks', undefined],
      ['GET', '/api/hooks/kept', undefined],
      ['POST', '/api/hooks', hookBody('/bin/true')],
      ['PATCH', '/api/hooks/kept/toggle', undefined],
    ] as const) {
      const res = await api.call(method, route, body);
      expect(res.status, `${method} ${route}`).toBe(409);
      expect(res.json.issues).toEqual([
        {
          file,
          path: '$.hooks.tool_call',
          message: expect.stringMatching(/^duplicate key "tool_call" at line 4/),
        },
      ]);
    }
    expect(fingerprint(file)).toEqual(before);
    expect(readFileSync(file, 'utf8')).toContain('"shadowed"');
  });

  it('[P-CFG-3] issue 11: the engine refuses a reload with a duplicate key; the last good hooks stay in force', async () => {
    const dir = tempDir('hw-etag-');
    writeHooks(dir, { tool_call: [{ id: 'good', command: '/bin/true' }] });
    const engine = await createHookEngine({ workspace: dir, watch: false, logger: captureLogger([]) });
    try {
      const file = writeHooks(dir, DUPLICATE);
      expect(engine.reload().ok).toBe(false);
      expect(engine.actions().map((a) => a.name)).toEqual(['good']);
      expect(engine.configIssues()).toEqual([
        { file, path: '$.hooks.tool_call', message: expect.stringMatching(/^duplicate key "tool_call"/) },
      ]);
    } finally {
      await engine.close();
    }
  });

  it('[P-CFG-4] issue 11: `hookwerk validate` exits 1 on a duplicate key with `file: JSON path: reason`, never "ok"', async () => {
    const dir = tempDir('hw-etag-');
    const file = writeHooks(dir, DUPLICATE);
    const r = await runCli(['validate', '--workspace', dir]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).not.toMatch(/^ok: .*hooks\.json/m);
    expect(r.stderr).not.toMatch(STACK);
    expect(r.stderr.trim().split('\n')).toEqual([
      `${file}: $.hooks.tool_call: duplicate key "tool_call" at line 4, column 5 (also at line 3, column 5): JSON keeps only the last one`,
    ]);
    // Inside an action too.
    writeHooks(dir, '{"hooks": {"tool_call": [{"command": "/bin/true", "command": "/bin/false"}]}}');
    const inner = await runCli(['validate', '--workspace', dir]);
    expect(inner.code).toBe(1);
    expect(inner.stderr).toMatch(
      new RegExp(
        `^${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: \\$\\.hooks\\.tool_call\\[0\\]\\.command: duplicate key "command"`,
      ),
    );
  });
});

describe('[P-API-3] issue 11: an API write replaces hooks.json by rename', () => {
  it('[P-API-3] issue 11: every write (POST, PUT, toggle, DELETE) gives hooks.json a new inode; mode kept, no temp file left', async () => {
    const dir = tempDir('hw-etag-');
    const file = writeHooks(dir, { tool_call: [] });
    chmodSync(file, 0o640);
    const api = await start(dir);
    const inodes = [statSync(file).ino];
    const id = (await api.call('POST', '/api/hooks', hookBody('/bin/true'))).json.id;
    inodes.push(statSync(file).ino);
    await api.call('PUT', `/api/hooks/${id}`, hookBody('/bin/echo'));
    inodes.push(statSync(file).ino);
    await api.call('PATCH', `/api/hooks/${id}/toggle`);
    inodes.push(statSync(file).ino);
    await api.call('DELETE', `/api/hooks/${id}`);
    inodes.push(statSync(file).ino);
    // The temp file exists next to the old one before the rename, so consecutive inodes differ.
    for (let i = 1; i < inodes.length; i++) expect(inodes[i], `write ${i}`).not.toBe(inodes[i - 1]);
    expect(JSON.parse(readFileSync(file, 'utf8')).hooks.tool_call).toEqual([]);
    expect(statSync(file).mode & 0o777).toBe(0o640);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});
