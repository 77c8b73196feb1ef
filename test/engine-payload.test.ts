/**
 * The PRX envelope and its three delivery channels, end to end through the engine:
 * real hooks.json files, real hook processes, real temp files [P-EV-*, P-PAY-*, P-SEC-1, P-CFG-2].
 */
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BusMessage } from '../src/bus/memory-bus.ts';
import { makePrivateTempDir } from '../src/core/private-temp-dir.ts';
import { makeEngine, ZERO_HOOK_VARS } from './engine-harness.ts';
import { sleep, tempDir, waitFor, writeHooks, writeScript } from './helpers.ts';

const ISO_MS_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const read = (file: string) => readFileSync(file, 'utf8');

/**
 * A hook that copies every channel it received into `<dir>/…`:
 * file.json (the payload file), env.json (ZERO_HOOK_PAYLOAD or "UNSET"), path, mode, vars.
 */
const CAPTURE = `
out="$1"
mkdir -p "$out"
cat "$ZERO_HOOK_PAYLOAD_FILE" > "$out/file.json"
printf '%s' "\${ZERO_HOOK_PAYLOAD-UNSET}" > "$out/env.json"
printf '%s' "$ZERO_HOOK_PAYLOAD_FILE" > "$out/path"
stat -c %a "$ZERO_HOOK_PAYLOAD_FILE" > "$out/mode"
printf '%s\\n' "$ZERO_HOOK_EVENT" "$ZERO_HOOK_SESSION" "$ZERO_HOOK_TIMESTAMP" "$ZERO_HOOK_DEPTH" > "$out/vars"
`;

/** Workspace with `capture.sh` hooked on `event`; returns the folder the capture lands in. */
function captureWorkspace(event: string, extra: Record<string, unknown> = {}) {
  const ws = tempDir('hw-ws-');
  writeScript(ws, 'capture.sh', CAPTURE);
  const out = path.join(ws, 'out');
  writeHooks(ws, { [event]: [{ command: './capture.sh', args: [out], ...extra }] });
  return { ws, out };
}

describe('[P-EV-2] the envelope a hook receives', () => {
  it('[P-EV-2] has exactly event, timestamp, session_id, payload; unknown extra payload fields pass through [P-EV-3]', async () => {
    const { ws, out } = captureWorkspace('tool_call_start');
    const engine = await makeEngine(ws);
    const payload = {
      tool: 'shell',
      arguments: { cmd: 'ls -la', nested: { list: [1, 'two', null], flag: false } },
      extra_field: 'kept as is',
      extra_number: 42,
      extra_unicode: 'héllo € 😀',
    };
    const before = Date.now();
    engine.emit('tool_call_start', payload, { sessionId: 'sess-envelope' });
    await engine.drain();
    const after = Date.now();

    const envelope = JSON.parse(read(path.join(out, 'file.json')));
    expect(Object.keys(envelope).sort()).toEqual(['event', 'payload', 'session_id', 'timestamp']);
    expect(envelope.event).toBe('tool_call_start');
    expect(envelope.session_id).toBe('sess-envelope');
    expect(envelope.timestamp).toMatch(ISO_MS_Z);
    const ts = Date.parse(envelope.timestamp);
    expect(ts).toBeGreaterThanOrEqual(before - 1);
    expect(ts).toBeLessThanOrEqual(after + 1);
    expect(envelope.payload).toEqual(payload);
    // The env channel carries the very same envelope.
    expect(JSON.parse(read(path.join(out, 'env.json')))).toEqual(envelope);
  });

  it('[P-EV-2] session_id defaults to the engine sessionId, else a generated string; an explicit timestamp is kept', async () => {
    const a = captureWorkspace('turn_complete');
    const withSession = await makeEngine(a.ws, { sessionId: 'engine-session' });
    withSession.emit('turn_complete', {}, { timestamp: '2024-01-02T03:04:05.678Z' });
    await withSession.drain();
    const envA = JSON.parse(read(path.join(a.out, 'file.json')));
    expect(envA).toEqual({
      event: 'turn_complete',
      timestamp: '2024-01-02T03:04:05.678Z',
      session_id: 'engine-session',
      payload: {},
    });

    const b = captureWorkspace('turn_complete');
    const generated = await makeEngine(b.ws);
    generated.emit('turn_complete', {});
    await generated.drain();
    const envB = JSON.parse(read(path.join(b.out, 'file.json')));
    expect(typeof envB.session_id).toBe('string');
    expect(envB.session_id.length).toBeGreaterThan(0);
    expect(envB.timestamp).toMatch(ISO_MS_Z);
  });
});

describe('[P-EV-2] the timestamp is taken at emit time', () => {
  it('[P-EV-2] [P-PAY-4] a run that starts later still gets the emit time; hook and record share one string', async () => {
    const { ws, out } = captureWorkspace('tool_call');
    const started = path.join(ws, 'gate-started');
    const release = path.join(ws, 'gate-release');
    writeScript(ws, 'gate.sh', `: > "${started}"\nwhile [ ! -e "${release}" ]; do sleep 0.02; done`);
    writeHooks(ws, {
      agent_start: [{ id: 'gate', command: './gate.sh' }],
      tool_call: [{ id: 'capture', command: './capture.sh', args: [out] }],
    });
    // One slot: the tool_call run waits behind the gate until the test releases it. No
    // prx.lifecycle subscriber: nothing needs the envelope before that run starts.
    const engine = await makeEngine(ws, { maxConcurrent: 1 });
    engine.emit('agent_start', { agent: 'a', session: 's' });
    await waitFor(() => existsSync(started), 'the gate hook to start');
    const before = Date.now();
    engine.emit('tool_call', { tool: 'shell', success: true, output: 'late' });
    const after = Date.now();
    await sleep(5); // the clock moves on before the run can start
    writeFileSync(release, '');
    await engine.drain();

    const envelope = JSON.parse(read(path.join(out, 'file.json')));
    expect(envelope.timestamp).toMatch(ISO_MS_Z);
    expect(Date.parse(envelope.timestamp)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(envelope.timestamp)).toBeLessThanOrEqual(after);
    const [, , timestamp] = read(path.join(out, 'vars')).split('\n');
    expect(timestamp).toBe(envelope.timestamp);
    expect(engine.runs({ event: 'tool_call' })[0]).toMatchObject({ outcome: 'ok', at: envelope.timestamp });
  });

  it('[P-EV-2] [P-BUS-1] a bus subscriber gets the envelope the hook gets, and the same JSON', async () => {
    const { ws, out } = captureWorkspace('tool_call');
    const engine = await makeEngine(ws);
    const messages: BusMessage[] = [];
    engine.bus.subscribe('prx.lifecycle.tool_call', (m) => {
      messages.push(m);
    });
    engine.emit('tool_call', { tool: 'shell', success: true, output: 'seen' }, { sessionId: 'sess-bus' });
    await engine.drain();
    const json = read(path.join(out, 'file.json'));
    expect(messages).toHaveLength(1);
    expect(messages[0]!.payload).toEqual(JSON.parse(json));
    expect(messages[0]!.json).toBe(json);
    expect(JSON.parse(json).timestamp).toMatch(ISO_MS_Z);
  });
});

/** One valid payload per event [P-EV-1]. */
const VALID: Record<string, Record<string, unknown>> = {
  agent_start: { agent: 'main', session: 's-1' },
  agent_end: { success: true, messages_count: 3 },
  llm_request: { provider: 'openai', model: 'gpt', messages_count: 2 },
  llm_response: { provider: 'openai', model: 'gpt', duration_ms: 12.5, success: false },
  tool_call_start: { tool: 'shell', arguments: { cmd: 'ls' } },
  tool_call: { tool: 'shell', success: true, output: 'ok' },
  turn_complete: {},
  error: { component: 'llm', message: 'boom' },
};

/** A value of the wrong type for each declared field type. */
const WRONG: Record<string, unknown[]> = {
  string: [42, null, true, { s: 'x' }],
  number: ['3', null, true, {}],
  boolean: ['true', 1, null],
  object: ['{}', null, [], 7],
};

const FIELD_TYPES: Record<string, Record<string, keyof typeof WRONG>> = {
  agent_start: { agent: 'string', session: 'string' },
  agent_end: { success: 'boolean', messages_count: 'number' },
  llm_request: { provider: 'string', model: 'string', messages_count: 'number' },
  llm_response: { provider: 'string', model: 'string', duration_ms: 'number', success: 'boolean' },
  tool_call_start: { tool: 'string', arguments: 'object' },
  tool_call: { tool: 'string', success: 'boolean', output: 'string' },
  turn_complete: {},
  error: { component: 'string', message: 'string' },
};

interface Broken {
  name: string;
  event: string;
  payload: unknown;
}

function brokenVariants(): Broken[] {
  const cases: Broken[] = [];
  for (const [event, fields] of Object.entries(FIELD_TYPES)) {
    const valid = VALID[event]!;
    for (const [field, type] of Object.entries(fields)) {
      const missing: Record<string, unknown> = { ...valid, extra: 'x' };
      delete missing[field];
      cases.push({ name: `${event}: missing ${field}`, event, payload: missing });
      for (const bad of WRONG[type]!) {
        cases.push({
          name: `${event}: ${field} = ${JSON.stringify(bad)}`,
          event,
          payload: { ...valid, [field]: bad },
        });
      }
    }
    for (const notObject of [null, undefined, [], 'payload', 7]) {
      cases.push({ name: `${event}: payload ${JSON.stringify(notObject)}`, event, payload: notObject });
    }
  }
  return cases;
}

describe('[P-EV-3] emit validates synchronously', () => {
  it('[P-EV-3] every one of the 8 events: a valid payload (with extras) never throws and returns undefined', async () => {
    const engine = await makeEngine(tempDir('hw-ws-'));
    expect(Object.keys(VALID).sort()).toEqual(Object.keys(FIELD_TYPES).sort());
    expect(Object.keys(VALID)).toHaveLength(8);
    for (const [event, payload] of Object.entries(VALID)) {
      expect(engine.emit(event, payload)).toBeUndefined();
      expect(
        engine.emit(event, { ...payload, unknown_extra: { deep: [1] } }, { sessionId: 's' }),
      ).toBeUndefined();
    }
    await engine.drain();
  });

  it('[P-EV-3] an unknown event throws a TypeError and publishes nothing', async () => {
    const engine = await makeEngine(tempDir('hw-ws-'));
    const seen: string[] = [];
    engine.bus.subscribe('*', (msg) => {
      seen.push(msg.topic);
    });
    for (const event of [
      'unknown_event',
      'AgentStart',
      'PreToolUse',
      'agent_start ',
      '',
      'toString',
      '__proto__',
    ]) {
      expect(() => engine.emit(event, {}), event).toThrow(TypeError);
    }
    await engine.drain();
    expect(seen).toEqual([]);
  });

  it('[P-EV-3] the error names the field and its type in plain words ("an object", "a string")', async () => {
    const engine = await makeEngine(tempDir('hw-ws-'));
    expect(() => engine.emit('tool_call_start', { tool: 'Bash', arguments: 'ls' })).toThrow(
      'payload of "tool_call_start": field "arguments" must be an object, got a string',
    );
    expect(() => engine.emit('tool_call_start', { tool: 7, arguments: {} })).toThrow(
      'field "tool" must be a string, got a number',
    );
  });

  it('[P-EV-3] a missing or mistyped field throws a TypeError, for each of the 8 events', async () => {
    const engine = await makeEngine(tempDir('hw-ws-'));
    const seen: string[] = [];
    engine.bus.subscribe('*', (msg) => {
      seen.push(msg.topic);
    });
    const cases = brokenVariants();
    const eventsCovered = new Set(cases.map((c) => c.event));
    expect(eventsCovered.size).toBe(8);
    for (const c of cases) {
      expect(() => engine.emit(c.event, c.payload), c.name).toThrow(TypeError);
    }
    await engine.drain();
    expect(seen).toEqual([]);
    expect(await engine.metrics.registry.getSingleMetricAsString('events_emitted_total')).not.toMatch(
      /events_emitted_total\{/,
    );
  });
});

/** Envelope JSON as the engine builds it for an agent_start event with a `note` extra field. */
function agentStartJson(note: string, timestamp: string, session: string): string {
  return JSON.stringify({
    event: 'agent_start',
    timestamp,
    session_id: session,
    payload: { agent: 'a', session: 's', note },
  });
}

/** A `note` (mixing 2-, 3- and 4-byte UTF-8 characters) that makes the envelope exactly `bytes` long. */
function noteForEnvelopeBytes(bytes: number, timestamp: string, session: string): string {
  const base = Buffer.byteLength(agentStartJson('', timestamp, session));
  const unit = 'é€😀'; // 2 + 3 + 4 = 9 bytes, 4 UTF-16 units
  const room = bytes - base;
  const repeats = Math.floor(room / 9) - 1;
  const note = unit.repeat(repeats) + 'a'.repeat(room - 9 * repeats);
  expect(Buffer.byteLength(agentStartJson(note, timestamp, session))).toBe(bytes);
  return note;
}

describe('[P-PAY-1] ZERO_HOOK_PAYLOAD', () => {
  const timestamp = '2025-06-01T12:00:00.000Z';
  const session = 'sess-size';

  it('[P-PAY-1] equals the compact envelope JSON for a small payload', async () => {
    const { ws, out } = captureWorkspace('agent_start');
    const engine = await makeEngine(ws);
    engine.emit(
      'agent_start',
      { agent: 'a', session: 's', note: 'small' },
      { timestamp, sessionId: session },
    );
    await engine.drain();
    expect(read(path.join(out, 'env.json'))).toBe(agentStartJson('small', timestamp, session));
  });

  it('[P-PAY-1] an envelope of exactly 8192 UTF-8 bytes (multi-byte chars) is set, byte for byte', async () => {
    const { ws, out } = captureWorkspace('agent_start');
    const engine = await makeEngine(ws);
    const note = noteForEnvelopeBytes(8192, timestamp, session);
    const json = agentStartJson(note, timestamp, session);
    expect(json.length).toBeLessThan(8192); // multi-byte: fewer UTF-16 units than bytes
    engine.emit('agent_start', { agent: 'a', session: 's', note }, { timestamp, sessionId: session });
    await engine.drain();
    const fromEnv = readFileSync(path.join(out, 'env.json'));
    expect(fromEnv.length).toBe(8192);
    expect(fromEnv.equals(Buffer.from(json, 'utf8'))).toBe(true);
    expect(readFileSync(path.join(out, 'file.json')).equals(Buffer.from(json, 'utf8'))).toBe(true);
  });

  it('[P-PAY-1] an envelope of 8193 UTF-8 bytes (though fewer than 8192 UTF-16 units) is NOT set; the file holds it whole', async () => {
    const { ws, out } = captureWorkspace('agent_start');
    const engine = await makeEngine(ws);
    const note = noteForEnvelopeBytes(8193, timestamp, session);
    const json = agentStartJson(note, timestamp, session);
    expect(json.length).toBeLessThan(8192);
    engine.emit('agent_start', { agent: 'a', session: 's', note }, { timestamp, sessionId: session });
    await engine.drain();
    expect(read(path.join(out, 'env.json'))).toBe('UNSET');
    const fromFile = readFileSync(path.join(out, 'file.json'));
    expect(fromFile.length).toBe(8193);
    expect(fromFile.equals(Buffer.from(json, 'utf8'))).toBe(true);
    expect(engine.runs()[0]).toMatchObject({ outcome: 'ok' });
  });

  it('[P-PAY-2] the file channel has no size limit (a 1 MiB envelope arrives whole)', async () => {
    const { ws, out } = captureWorkspace('tool_call');
    const engine = await makeEngine(ws);
    const output = 'x€'.repeat(350_000);
    engine.emit('tool_call', { tool: 'shell', success: true, output }, { timestamp, sessionId: session });
    await engine.drain();
    expect(read(path.join(out, 'env.json'))).toBe('UNSET');
    const envelope = JSON.parse(read(path.join(out, 'file.json')));
    expect(envelope.payload.output).toBe(output);
  });
});

describe('[P-PAY-2] ZERO_HOOK_PAYLOAD_FILE', () => {
  it('[P-PAY-2] is mode 0600, holds the envelope, and is gone after a normal run', async () => {
    const { ws, out } = captureWorkspace('error');
    const engine = await makeEngine(ws);
    engine.emit('error', { component: 'tool', message: 'it broke' }, { sessionId: 'sess-file' });
    await engine.drain();
    expect(read(path.join(out, 'mode')).trim()).toBe('600');
    const file = read(path.join(out, 'path'));
    expect(path.isAbsolute(file)).toBe(true);
    const envelope = JSON.parse(read(path.join(out, 'file.json')));
    expect(envelope).toMatchObject({
      event: 'error',
      session_id: 'sess-file',
      payload: { component: 'tool', message: 'it broke' },
    });
    // Compact JSON, same bytes as the env channel.
    expect(read(path.join(out, 'file.json'))).toBe(read(path.join(out, 'env.json')));
    expect(existsSync(file)).toBe(false);
    expect(engine.runs()[0]).toMatchObject({ outcome: 'ok', exitCode: 0 });
  });

  it('[P-PAY-2] is gone after a non-zero exit', async () => {
    const ws = tempDir('hw-ws-');
    const reported = path.join(ws, 'path');
    writeScript(
      ws,
      'fail.sh',
      `printf '%s' "$ZERO_HOOK_PAYLOAD_FILE" > "$1"\ntest -f "$ZERO_HOOK_PAYLOAD_FILE" || exit 9\nexit 7`,
    );
    writeHooks(ws, { agent_end: [{ command: './fail.sh', args: [reported] }] });
    const engine = await makeEngine(ws);
    engine.emit('agent_end', { success: false, messages_count: 0 });
    await engine.drain();
    expect(engine.runs()[0]).toMatchObject({ outcome: 'error', exitCode: 7, cause: 'exit_code' });
    const file = read(reported);
    expect(file.length).toBeGreaterThan(0);
    expect(existsSync(file)).toBe(false);
  });

  it('[P-PAY-2] is gone after a timeout', async () => {
    const ws = tempDir('hw-ws-');
    const reported = path.join(ws, 'path');
    writeScript(ws, 'hang.sh', `printf '%s' "$ZERO_HOOK_PAYLOAD_FILE" > "$1"\nsleep 30`);
    writeHooks(ws, { llm_request: [{ command: './hang.sh', args: [reported], timeout_ms: 200 }] });
    const engine = await makeEngine(ws);
    engine.emit('llm_request', { provider: 'p', model: 'm', messages_count: 1 });
    // Observed while the hook runs: the file exists.
    const file = await waitFor(
      () => (existsSync(reported) ? read(reported) : ''),
      'the hook to report its file',
    );
    expect(existsSync(file)).toBe(true);
    await engine.drain();
    expect(engine.runs()[0]).toMatchObject({ outcome: 'timeout', cause: 'timeout' });
    expect(existsSync(file)).toBe(false);
  });

  it('[P-PAY-2] is gone after a spawn failure; no payload file remains in the engine temp folder', async () => {
    const ws = tempDir('hw-ws-');
    const reported = path.join(ws, 'path');
    writeScript(ws, 'report.sh', `printf '%s' "$ZERO_HOOK_PAYLOAD_FILE" > "$1"`);
    writeHooks(ws, {
      tool_call: [
        { id: 'reporter', command: './report.sh', args: [reported] },
        { id: 'missing-bare', command: 'hw-no-such-command-anywhere' },
        { id: 'missing-path', command: './not-there.sh' },
        { id: 'failing', command: 'sh', args: ['-c', 'exit 4'] },
        { id: 'hanging', command: 'sleep', args: ['30'], timeout_ms: 200 },
      ],
    });
    const engine = await makeEngine(ws);
    engine.emit('tool_call', { tool: 'shell', success: true, output: '' });
    await engine.drain();
    const byHook = Object.fromEntries(engine.runs().map((r) => [r.hook, r]));
    expect(byHook['reporter']).toMatchObject({ outcome: 'ok' });
    expect(byHook['missing-bare']).toMatchObject({ outcome: 'spawn_error' });
    expect(byHook['missing-path']).toMatchObject({ outcome: 'spawn_error' });
    expect(byHook['failing']).toMatchObject({ outcome: 'error', exitCode: 4 });
    expect(byHook['hanging']).toMatchObject({ outcome: 'timeout' });

    const folder = path.dirname(read(reported));
    expect(statSync(folder).isDirectory()).toBe(true);
    expect(readdirSync(folder)).toEqual([]);

    // And again with only failing hooks in flight: still nothing left behind.
    engine.emit('tool_call', { tool: 'shell', success: false, output: 'x' });
    engine.emit('tool_call', { tool: 'shell', success: false, output: 'y' });
    await engine.drain();
    expect(engine.runs({ outcome: 'spawn_error' })).toHaveLength(6);
    expect(readdirSync(folder)).toEqual([]);
  });
});

describe('[P-PAY-2] the private payload folder', () => {
  const saved = process.env.XDG_RUNTIME_DIR;
  afterEach(() => {
    if (saved === undefined) delete process.env.XDG_RUNTIME_DIR;
    else process.env.XDG_RUNTIME_DIR = saved;
  });

  it('[P-PAY-2] is a 0700 folder under $XDG_RUNTIME_DIR (tmpfs) when usable, and close() removes it', async () => {
    const runtime = tempDir('hw-xdg-');
    chmodSync(runtime, 0o700);
    const { ws, out } = captureWorkspace('error');
    process.env.XDG_RUNTIME_DIR = runtime;
    const engine = await makeEngine(ws);
    engine.emit('error', { component: 'c', message: 'm' });
    await engine.drain();
    const file = read(path.join(out, 'path'));
    const folder = path.dirname(file);
    expect(path.dirname(folder)).toBe(runtime);
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    expect(read(path.join(out, 'mode')).trim()).toBe('600');
    expect(existsSync(file)).toBe(false);
    await engine.close();
    expect(existsSync(folder)).toBe(false);
  });

  it('[P-PAY-2] is made at the first payload file: an engine that wrote none leaves no folder, even unclosed', async () => {
    const runtime = tempDir('hw-xdg-');
    chmodSync(runtime, 0o700);
    const { ws, out } = captureWorkspace('error');
    process.env.XDG_RUNTIME_DIR = runtime;
    const engine = await makeEngine(ws);
    engine.emit('agent_start', { agent: 'a', session: 's' });
    await engine.drain();
    expect(readdirSync(runtime)).toEqual([]);
    engine.emit('error', { component: 'c', message: 'm' });
    await engine.drain();
    expect(path.dirname(path.dirname(read(path.join(out, 'path'))))).toBe(runtime);
    expect(readdirSync(runtime)).toHaveLength(1);
  });

  it('[P-PAY-2] makePrivateTempDir: $XDG_RUNTIME_DIR, then the shared memory folder, then the temp folder; always 0700', () => {
    const made: string[] = [];
    const make = (opts: Parameters<typeof makePrivateTempDir>[1]) => {
      const dir = makePrivateTempDir('hw-priv-', opts);
      made.push(dir);
      expect(statSync(dir).mode & 0o777).toBe(0o700);
      return path.dirname(dir);
    };
    try {
      const xdg = tempDir('hw-xdg-');
      const shm = tempDir('hw-shm-');
      const fallback = tempDir('hw-tmp-');
      chmodSync(xdg, 0o700);
      chmodSync(shm, 0o1777);
      const missing = path.join(fallback, 'missing');
      const aFile = path.join(fallback, 'a-file');
      writeFileSync(aFile, '');
      expect(make({ env: { XDG_RUNTIME_DIR: xdg }, shm, fallback })).toBe(xdg);
      expect(make({ env: {}, shm, fallback })).toBe(shm);
      // Not usable: relative, missing, not a folder, writable by others without the sticky bit.
      expect(make({ env: { XDG_RUNTIME_DIR: 'relative/dir' }, shm, fallback })).toBe(shm);
      expect(make({ env: { XDG_RUNTIME_DIR: missing }, shm: aFile, fallback })).toBe(fallback);
      const open = tempDir('hw-open-');
      chmodSync(open, 0o777);
      expect(make({ env: { XDG_RUNTIME_DIR: open }, shm: missing, fallback })).toBe(fallback);
      // The defaults: /dev/shm where this host has a usable one, else the OS temp folder.
      expect(['/dev/shm', tmpdir()]).toContain(make({ env: {} }));
    } finally {
      for (const dir of made) rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('[P-PAY-3] stdin', () => {
  it('[P-PAY-3] with stdin_json: true, `read -r payload` gets the one-line envelope and stdin then ends', async () => {
    const ws = tempDir('hw-ws-');
    writeScript(
      ws,
      'stdin.sh',
      [
        'if read -r payload; then printf "%s" "$payload" > line; else echo no-line > line; fi',
        'cat > rest',
        'printf "%s" "$ZERO_HOOK_PAYLOAD" > env',
      ].join('\n'),
    );
    writeHooks(ws, { tool_call: [{ command: './stdin.sh', stdin_json: true }] });
    const engine = await makeEngine(ws);
    const payload = { tool: 'sh', success: true, output: 'quote " backslash \\ tab \t newline \n end' };
    engine.emit('tool_call', payload);
    await engine.drain();
    const line = read(path.join(ws, 'line'));
    expect(line).toBe(read(path.join(ws, 'env')));
    expect(JSON.parse(line)).toMatchObject({ event: 'tool_call', payload });
    expect(read(path.join(ws, 'rest'))).toBe('');
  });

  it('[P-PAY-3] the stdin line is exactly the compact envelope plus "\\n"', async () => {
    const ws = tempDir('hw-ws-');
    writeHooks(ws, { agent_start: [{ command: 'sh', args: ['-c', 'cat > stdin.bin'], stdin_json: true }] });
    const engine = await makeEngine(ws);
    const timestamp = '2025-01-01T00:00:00.000Z';
    engine.emit('agent_start', { agent: 'ä', session: 's' }, { timestamp, sessionId: 'x' });
    await engine.drain();
    expect(read(path.join(ws, 'stdin.bin'))).toBe(
      `${JSON.stringify({ event: 'agent_start', timestamp, session_id: 'x', payload: { agent: 'ä', session: 's' } })}\n`,
    );
  });

  it('[P-PAY-3] without stdin_json, stdin is empty', async () => {
    const ws = tempDir('hw-ws-');
    writeHooks(ws, {
      agent_start: [
        {
          id: 'default',
          command: 'sh',
          args: ['-c', 'cat > stdin-default; echo done >> stdin-default.done'],
        },
        {
          id: 'explicit',
          command: 'sh',
          args: ['-c', 'cat > stdin-explicit; echo done >> stdin-explicit.done'],
          stdin_json: false,
        },
      ],
    });
    const engine = await makeEngine(ws);
    engine.emit('agent_start', { agent: 'a', session: 's' });
    await engine.drain();
    for (const name of ['stdin-default', 'stdin-explicit']) {
      expect(read(path.join(ws, name))).toBe('');
      expect(read(path.join(ws, `${name}.done`))).toBe('done\n');
    }
    expect(engine.runs({ outcome: 'ok' })).toHaveLength(2);
  });
});

describe('[P-PAY-4] ZERO_HOOK_* variables', () => {
  it('[P-PAY-4] ZERO_HOOK_EVENT, ZERO_HOOK_SESSION, ZERO_HOOK_TIMESTAMP (= envelope timestamp); [P-BUS-4] ZERO_HOOK_DEPTH=1 at top level', async () => {
    const { ws, out } = captureWorkspace('llm_response');
    const engine = await makeEngine(ws);
    engine.emit(
      'llm_response',
      { provider: 'anthropic', model: 'claude', duration_ms: 1234, success: true },
      { sessionId: 'sess-vars' },
    );
    await engine.drain();
    const [event, session, timestamp, depth] = read(path.join(out, 'vars')).split('\n');
    const envelope = JSON.parse(read(path.join(out, 'file.json')));
    expect(event).toBe('llm_response');
    expect(session).toBe('sess-vars');
    expect(timestamp).toBe(envelope.timestamp);
    expect(timestamp).toMatch(ISO_MS_Z);
    expect(depth).toBe('1');
  });
});

/** Parses NUL-separated `NAME=value` entries (the format of /proc/<pid>/environ). */
function parseEnviron(raw: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const entry of raw.split('\0')) {
    if (entry === '') continue;
    const eq = entry.indexOf('=');
    env[entry.slice(0, eq)] = entry.slice(eq + 1);
  }
  return env;
}

/** Parses `/usr/bin/env` output (no value here contains a newline: the JSON is compact). */
function parseEnvOutput(raw: string): Record<string, string> {
  return parseEnviron(raw.split('\n').join('\0'));
}

describe('[P-SEC-1] the environment is built from nothing', () => {
  const canaries = { HW_PARENT_SECRET: 'parent-secret-canary', HOME: '/root/hw-home', USER: 'hw-user' };
  let saved: Record<string, string | undefined> = {};

  afterEach(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    saved = {};
  });

  it('[P-SEC-1] the hook environment is exactly PATH, the ZERO_HOOK_* variables and the action env', async () => {
    for (const [k, v] of Object.entries(canaries)) {
      saved[k] = process.env[k];
      process.env[k] = v;
    }
    const ws = tempDir('hw-ws-');
    writeScript(ws, 'env.sh', 'exec /usr/bin/env > env.out');
    const actionEnv = { HW_ACTION_VAR: 'value with spaces', OTHER: 'a=b' };
    writeHooks(ws, {
      agent_start: [
        // No shell at all: cp copies its own initial environment, which is what the engine passed.
        { id: 'exact', command: '/bin/cp', args: ['/proc/self/environ', 'environ.out'], env: actionEnv },
        { id: 'env', command: './env.sh', env: actionEnv },
      ],
    });
    const engine = await makeEngine(ws);
    engine.emit('agent_start', { agent: 'a', session: 's' }, { sessionId: 'sess-env' });
    await engine.drain();
    expect(engine.runs({ outcome: 'ok' })).toHaveLength(2);

    const exact = parseEnviron(read(path.join(ws, 'environ.out')));
    expect(Object.keys(exact).sort()).toEqual(['HW_ACTION_VAR', 'OTHER', 'PATH', ...ZERO_HOOK_VARS].sort());
    expect(exact['PATH']).toBe('/usr/local/bin:/usr/bin:/bin');
    expect(exact['HW_ACTION_VAR']).toBe('value with spaces');
    expect(exact['OTHER']).toBe('a=b');
    expect(exact['ZERO_HOOK_SESSION']).toBe('sess-env');

    // `/usr/bin/env` run from a sh script: the same, plus the PWD that sh itself sets.
    const viaEnv = parseEnvOutput(read(path.join(ws, 'env.out')));
    const { PWD, ...rest } = viaEnv;
    expect(PWD).toBe(realpathSync(ws));
    expect(Object.keys(rest).sort()).toEqual(Object.keys(exact).sort());
    expect(rest['PATH']).toBe('/usr/local/bin:/usr/bin:/bin');

    for (const raw of [read(path.join(ws, 'environ.out')), read(path.join(ws, 'env.out'))]) {
      expect(raw).not.toContain('parent-secret-canary');
      expect(raw).not.toContain('HW_PARENT_SECRET');
      expect(raw).not.toMatch(/(^|\0|\n)HOME=/);
      expect(raw).not.toMatch(/(^|\0|\n)USER=/);
    }
  });
});

describe('[P-CFG-2] command, args and cwd', () => {
  it('[P-CFG-2] bare command names (env, sh) are found in the sanitized PATH', async () => {
    const ws = tempDir('hw-ws-');
    writeHooks(ws, {
      agent_start: [
        { id: 'env', command: 'env', args: ['cp', '/proc/self/environ', 'env-bare.out'] },
        { id: 'sh', command: 'sh', args: ['-c', 'printf "%s" "$PATH" > sh-bare.out'] },
      ],
    });
    const engine = await makeEngine(ws);
    engine.emit('agent_start', { agent: 'a', session: 's' });
    await engine.drain();
    expect(
      engine
        .runs({ outcome: 'ok' })
        .map((r) => r.hook)
        .sort(),
    ).toEqual(['env', 'sh']);
    expect(parseEnviron(read(path.join(ws, 'env-bare.out')))['PATH']).toBe('/usr/local/bin:/usr/bin:/bin');
    expect(read(path.join(ws, 'sh-bare.out'))).toBe('/usr/local/bin:/usr/bin:/bin');
  });

  it("[P-CFG-2] a bare name is NOT looked up in the parent's PATH", async () => {
    const bin = tempDir('hw-bin-');
    const ws = tempDir('hw-ws-');
    const marker = path.join(ws, 'ran');
    writeScript(bin, 'hw-only-in-parent-path', `: > "${marker}"`);
    const savedPath = process.env['PATH'];
    process.env['PATH'] = `${bin}:${savedPath}`;
    try {
      writeHooks(ws, { agent_start: [{ id: 'private', command: 'hw-only-in-parent-path' }] });
      const engine = await makeEngine(ws);
      engine.emit('agent_start', { agent: 'a', session: 's' });
      await engine.drain();
      expect(engine.runs()[0]).toMatchObject({ hook: 'private', outcome: 'spawn_error' });
      expect(existsSync(marker)).toBe(false);
    } finally {
      process.env['PATH'] = savedPath;
    }
  });

  it('[P-CFG-2] a relative command path resolves against the workspace, not the process cwd nor the action cwd', async () => {
    const ws = tempDir('hw-ws-');
    mkdirSync(path.join(ws, 'sub'));
    writeScript(ws, 'hw-tools/rel-hook.sh', 'printf "%s" "$1" > "$2"');
    expect(existsSync(path.join(process.cwd(), 'hw-tools/rel-hook.sh'))).toBe(false);
    writeHooks(ws, {
      agent_start: [
        { id: 'plain', command: 'hw-tools/rel-hook.sh', args: ['plain', path.join(ws, 'plain.out')] },
        { id: 'dot', command: './hw-tools/rel-hook.sh', args: ['dot', path.join(ws, 'dot.out')] },
        {
          id: 'with-cwd',
          command: './hw-tools/rel-hook.sh',
          args: ['with-cwd', path.join(ws, 'with-cwd.out')],
          cwd: 'sub',
        },
      ],
    });
    const engine = await makeEngine(ws);
    engine.emit('agent_start', { agent: 'a', session: 's' });
    await engine.drain();
    expect(engine.runs({ outcome: 'ok' })).toHaveLength(3);
    for (const name of ['plain', 'dot', 'with-cwd']) expect(read(path.join(ws, `${name}.out`))).toBe(name);
  });

  it('[P-CFG-2] cwd defaults to the workspace; a relative cwd is honoured; an absolute cwd too', async () => {
    const ws = tempDir('hw-ws-');
    const elsewhere = tempDir('hw-cwd-');
    mkdirSync(path.join(ws, 'sub', 'dir'), { recursive: true });
    const out = (name: string) => path.join(ws, `${name}.out`);
    writeHooks(ws, {
      agent_start: [
        { id: 'default', command: 'sh', args: ['-c', 'pwd > "$0"', out('default')] },
        { id: 'relative', command: 'sh', args: ['-c', 'pwd > "$0"', out('relative')], cwd: 'sub/dir' },
        { id: 'absolute', command: 'sh', args: ['-c', 'pwd > "$0"', out('absolute')], cwd: elsewhere },
      ],
    });
    const engine = await makeEngine(ws);
    engine.emit('agent_start', { agent: 'a', session: 's' });
    await engine.drain();
    expect(read(out('default')).trim()).toBe(realpathSync(ws));
    expect(read(out('relative')).trim()).toBe(realpathSync(path.join(ws, 'sub', 'dir')));
    expect(read(out('absolute')).trim()).toBe(realpathSync(elsewhere));
  });

  it('[P-CFG-2] args are passed verbatim, never through a shell', async () => {
    const ws = tempDir('hw-ws-');
    writeScript(ws, 'args.sh', 'out="$1"; shift; printf "[%s]\\n" "$#" "$@" > "$out"');
    const args = [
      '$(x)',
      'a;b',
      '`id`',
      '*',
      '',
      'two  words',
      '$HOME',
      '|',
      '&&',
      "'q'",
      '"dq"',
      '>f',
      'ü€😀',
    ];
    writeHooks(ws, {
      tool_call_start: [{ command: './args.sh', args: [path.join(ws, 'args.out'), ...args] }],
    });
    const engine = await makeEngine(ws);
    engine.emit('tool_call_start', { tool: 't', arguments: {} });
    await engine.drain();
    expect(engine.runs()[0]).toMatchObject({ outcome: 'ok' });
    const lines = read(path.join(ws, 'args.out')).split('\n');
    expect(lines.pop()).toBe('');
    expect(lines).toEqual([`[${args.length}]`, ...args.map((a) => `[${a}]`)]);
    expect(existsSync(path.join(ws, 'f'))).toBe(false);
  });
});
