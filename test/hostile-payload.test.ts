/**
 * Issue 11: input that can never reach a hook is refused at the door — a payload JSON cannot carry
 * (cyclic, BigInt, nested past 64 levels) and NUL bytes in what becomes a hook's environment —
 * with a TypeError from emit() / a rejection from decide() [P-EV-3], and 400 from the API
 * [P-API-3, P-API-4]. Before, all of it was accepted and then every hook failed `spawn_error`.
 * Real engines, real hook processes, a real HTTP server on 127.0.0.1.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HookInputError } from '../src/core/errors.ts';
import type { HookEngine } from '../src/engine-api.ts';
import { MAX_PAYLOAD_DEPTH } from '../src/events/json-payload-check.ts';
import { silentLogger } from '../src/records/logger.ts';
import { createApp } from '../src/server/app.ts';
import { makeEngine } from './engine-harness.ts';
import { tempDir, writeHooks, writeScript } from './helpers.ts';
import { type ServedApp, serveApp } from './server-harness.ts';

/** `{a: {a: … {} }}` with `levels` objects in all, the outer one included. */
function nested(levels: number): Record<string, unknown> {
  let inner: Record<string, unknown> = {};
  for (let i = 1; i < levels; i++) inner = { a: inner };
  return inner;
}

/** A workspace whose tool_call_start hook leaves `<ws>/ran` behind. */
async function engineWithHook(): Promise<{ engine: HookEngine; ran: string }> {
  const ws = tempDir('hw-hostile-');
  const ran = path.join(ws, 'ran');
  writeScript(ws, 'touch.sh', `: > "${ran}"`);
  writeHooks(ws, { tool_call_start: [{ command: './touch.sh' }] });
  return { engine: await makeEngine(ws), ran };
}

/** What emit() threw (it must throw synchronously). */
function thrownBy(fn: () => void): HookInputError {
  try {
    fn();
  } catch (err) {
    if (err instanceof HookInputError) return err;
    throw err;
  }
  throw new Error('expected a HookInputError, nothing was thrown');
}

describe('[P-EV-3] issue 11: emit() refuses payloads that cannot become JSON', () => {
  it('[P-EV-3] issue 11: a cyclic payload throws a TypeError naming both ends of the cycle; no hook runs', async () => {
    const { engine, ran } = await engineWithHook();
    const args: Record<string, unknown> = { cmd: 'ls' };
    args.self = args;
    const err = thrownBy(() => engine.emit('tool_call_start', { tool: 'shell', arguments: args }));
    expect(err).toBeInstanceOf(TypeError);
    expect(err.field).toBe('payload.arguments.self');
    expect(err.message).toBe(
      'payload.arguments.self refers back to payload.arguments: a cyclic payload cannot be sent as JSON',
    );
    await engine.drain();
    expect(engine.runs()).toEqual([]);
    expect(existsSync(ran)).toBe(false);
  });

  it('[P-EV-3] issue 11: a payload that contains itself is named as such', async () => {
    const { engine } = await engineWithHook();
    const payload: Record<string, unknown> = { tool: 'shell', arguments: {} };
    payload.again = [1, payload];
    const err = thrownBy(() => engine.emit('tool_call_start', payload));
    expect(err.field).toBe('payload.again[1]');
    expect(err.message).toMatch(/^payload\.again\[1\] refers back to payload: a cyclic payload/);
  });

  it('[P-EV-3] issue 11: a BigInt throws a TypeError with its path; BigInt with a toJSON of the embedder passes', async () => {
    const { engine, ran } = await engineWithHook();
    const err = thrownBy(() =>
      engine.emit('tool_call_start', { tool: 'shell', arguments: { sizes: [1, { bytes: 10n }] } }),
    );
    expect(err).toBeInstanceOf(TypeError);
    expect(err.field).toBe('payload.arguments.sizes[1].bytes');
    expect(err.message).toMatch(/is a BigInt, which JSON cannot carry/);
    const typed = thrownBy(() =>
      engine.emit('tool_call_start', { tool: 'shell', arguments: { ids: new BigInt64Array(2) } }),
    );
    expect(typed.field).toBe('payload.arguments.ids["0"]');
    await engine.drain();
    expect(engine.runs()).toEqual([]);
    expect(existsSync(ran)).toBe(false);

    // The embedder taught BigInt JSON: then JSON.stringify works, and so does the hook.
    Object.defineProperty(BigInt.prototype, 'toJSON', {
      value: function (this: bigint) {
        return this.toString();
      },
      configurable: true,
    });
    try {
      engine.emit('tool_call_start', { tool: 'shell', arguments: { bytes: 10n } });
      await engine.drain();
    } finally {
      Reflect.deleteProperty(BigInt.prototype, 'toJSON');
    }
    expect(engine.runs().map((r) => r.outcome)).toEqual(['ok']);
  });

  it(`[P-EV-3] issue 11: ${MAX_PAYLOAD_DEPTH} levels pass and reach the hook; ${MAX_PAYLOAD_DEPTH + 1} and 20 000 throw`, async () => {
    const { engine, ran } = await engineWithHook();
    for (const levels of [MAX_PAYLOAD_DEPTH + 1, 20_000]) {
      const err = thrownBy(() =>
        // The payload is level 1, `arguments` level 2: `levels` in all.
        engine.emit('tool_call_start', { tool: 'shell', arguments: nested(levels - 1) }),
      );
      expect(err).toBeInstanceOf(TypeError);
      expect(err.field).toBe('payload');
      expect(err.message).toMatch(
        /^payload is nested more than 64 levels deep \(at payload\.arguments\.a\.a/,
      );
    }
    await engine.drain();
    expect(existsSync(ran)).toBe(false);

    engine.emit('tool_call_start', { tool: 'shell', arguments: nested(MAX_PAYLOAD_DEPTH - 1) });
    await engine.drain();
    expect(engine.runs().map((r) => r.outcome)).toEqual(['ok']);
    expect(existsSync(ran)).toBe(true);
  });

  it('[P-EV-3] issue 11: what JSON leaves out or converts still passes: functions, symbols, Date, Map, shared (acyclic) objects', async () => {
    const { engine } = await engineWithHook();
    const shared = { n: 1 };
    engine.emit('tool_call_start', {
      tool: 'shell',
      arguments: { a: shared, b: [shared, shared] },
      fn: () => 1,
      sym: Symbol('s'),
      when: new Date(0),
      map: new Map([[1, 2]]),
      nan: Number.NaN,
    });
    await engine.drain();
    expect(engine.runs().map((r) => r.outcome)).toEqual(['ok']);
  });

  it('[P-EV-3] issue 11: a getter that throws is a TypeError from emit(), not a spawn_error later', async () => {
    const { engine } = await engineWithHook();
    const args = {
      get secret(): string {
        throw new Error('no access');
      },
    };
    const err = thrownBy(() => engine.emit('tool_call_start', { tool: 'shell', arguments: args }));
    expect(err.message).toBe('payload could not be read: no access');
    await engine.drain();
    expect(engine.runs()).toEqual([]);
  });
});

describe('[P-PAY-4] issue 11: NUL bytes in what becomes a hook variable are refused at the door', () => {
  it('[P-PAY-4] issue 11: NUL in sessionId (emit option and engine option) and in timestamp throws a TypeError', async () => {
    const { engine, ran } = await engineWithHook();
    const payload = { tool: 'shell', arguments: {} };
    const err = thrownBy(() => engine.emit('tool_call_start', payload, { sessionId: 'sess\0x' }));
    expect(err).toBeInstanceOf(TypeError);
    expect(err.field).toBe('sessionId');
    expect(err.message).toBe('sessionId contains a NUL byte');
    const ts = thrownBy(() =>
      engine.emit('tool_call_start', payload, { timestamp: '2001-02-03T04:05:06.789Z\0' }),
    );
    expect(ts.field).toBe('timestamp');
    await engine.drain();
    expect(engine.runs()).toEqual([]);
    expect(existsSync(ran)).toBe(false);

    await expect(makeEngine(undefined, { sessionId: 'a\0b' })).rejects.toThrow(
      /sessionId contains a NUL byte/,
    );
  });
});

describe('[§2.5] issue 11: decide() rejects a context that cannot become JSON', () => {
  it('[P-EV-3] issue 11: cyclic, BigInt and too deep contexts reject with a HookInputError; a hook never runs', async () => {
    const project = tempDir('hw-hostile-project-');
    const engine = await makeEngine(undefined, {
      projectDir: project,
      trust: () => ({ trusted: true, reason: 'test' }),
    });
    let called = 0;
    engine.use('PreToolUse', {}, () => {
      called++;
      return { decision: 'allow' };
    });
    const cyclic: Record<string, unknown> = { toolName: 'Bash' };
    cyclic.toolInput = { back: cyclic };
    await expect(engine.decide('PreToolUse', cyclic)).rejects.toMatchObject({
      name: 'HookInputError',
      field: 'context.toolInput.back',
    });
    await expect(
      engine.decide('PreToolUse', { toolName: 'Bash', toolInput: { n: 1n } }),
    ).rejects.toMatchObject({
      field: 'context.toolInput.n',
    });
    await expect(
      engine.decide('PreToolUse', { toolName: 'Bash', toolInput: nested(MAX_PAYLOAD_DEPTH) }),
    ).rejects.toBeInstanceOf(TypeError);
    expect(called).toBe(0);
    await expect(
      engine.decide('PreToolUse', { toolName: 'Bash', toolInput: nested(10) }),
    ).resolves.toMatchObject({
      decision: 'allow',
    });
    expect(called).toBe(1);
  });

  it('[C-IN-1] issue 11: the Claude Code dialect rejects NUL in session_id and cwd (its hook variables and folder)', async () => {
    const project = tempDir('hw-hostile-claude-');
    const engine = await makeEngine(undefined, {
      projectDir: project,
      home: tempDir('hw-hostile-home-'),
      gateDialect: 'claude',
      trust: () => ({ trusted: true, reason: 'test' }),
    });
    await expect(engine.decide('PreToolUse', { tool_name: 'Bash', session_id: 's\0' })).rejects.toMatchObject(
      {
        field: 'context.session_id',
      },
    );
    await expect(engine.decide('PreToolUse', { tool_name: 'Bash', cwd: '/tmp\0/x' })).rejects.toMatchObject({
      field: 'context.cwd',
    });
  });
});

describe('[P-API-4] issue 11: the API answers 400 for the same input', () => {
  const TOKEN = 'hostile-token-0123456789abcdef';
  let served: ServedApp | undefined;
  afterEach(async () => {
    await served?.stop();
    served = undefined;
  });

  async function serve(): Promise<{ url: string; engine: HookEngine; ran: string }> {
    const ws = tempDir('hw-hostile-api-');
    const ran = path.join(ws, 'ran');
    writeScript(ws, 'touch.sh', `: > "${ran}"`);
    writeHooks(ws, { tool_call_start: [{ command: './touch.sh' }] });
    const engine = await makeEngine(ws);
    served = await serveApp(engine, createApp({ engine, token: TOKEN, logger: silentLogger }));
    return { url: served.url, engine, ran };
  }

  async function post(url: string, body: string) {
    const res = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body,
    });
    const json: unknown = await res.json();
    return { status: res.status, json };
  }

  it('[P-API-4] [P-API-3] issue 11: a 20 000-level payload → 400 naming payload; no hook runs', async () => {
    const { url, engine, ran } = await serve();
    const deep = `${'{"a":'.repeat(20_000)}{}${'}'.repeat(20_000)}`;
    const r = await post(
      `${url}/api/events`,
      `{"event":"tool_call_start","payload":{"tool":"t","arguments":${deep}}}`,
    );
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({
      error: expect.stringMatching(/^payload: payload is nested more than 64 levels deep/),
      issues: [{ path: 'payload' }],
    });
    await engine.drain();
    expect(engine.runs()).toEqual([]);
    expect(existsSync(ran)).toBe(false);
  });

  it('[P-API-4] [P-API-3] issue 11: NUL in session_id → 400 naming session_id; no hook runs', async () => {
    const { url, engine, ran } = await serve();
    const body = JSON.stringify({
      event: 'tool_call_start',
      session_id: 'a\0b',
      payload: { tool: 't', arguments: {} },
    });
    const r = await post(`${url}/api/events`, body);
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({
      issues: [{ path: 'session_id', message: 'session_id contains a NUL byte' }],
    });
    await engine.drain();
    expect(engine.runs()).toEqual([]);
    expect(existsSync(ran)).toBe(false);
  });

  it('[P-API-4] [P-API-3] issue 11: a 20 000-level decide context → 400 naming context', async () => {
    const { url } = await serve();
    const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    const r = await post(
      `${url}/api/decide`,
      `{"event":"PreToolUse","context":{"toolName":"Bash","toolInput":${deep}}}`,
    );
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ issues: [{ path: 'context' }] });
  });
});
