/**
 * The bubblewrap sandbox for PRX shell hooks [P-SEC-7], end to end: real bwrap, real hook
 * processes, a real TCP server, real files. CI installs bubblewrap (`.ci/run`); nothing is skipped.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadPrxConfig } from '../src/dialects/prx/source.ts';
import type { HookEngine } from '../src/engine-api.ts';
import type { RunRecord } from '../src/records/run-record.ts';
import { BWRAP_ENV_VAR, bwrapArgv, findBwrap } from '../src/sandbox/bwrap.ts';
import { closeEngines, makeEngine, ZERO_HOOK_VARS } from './engine-harness.ts';
import { tempDir, waitFor, writeHooks, writeScript } from './helpers.ts';
import { listenLocal } from './http-server.ts';

const servers: Server[] = [];
const extraDirs: string[] = [];

afterEach(async () => {
  vi.unstubAllEnvs();
  await closeEngines();
  for (const server of servers.splice(0)) await new Promise((r) => server.close(r));
  for (const dir of extraDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Emits one event, waits for its hooks, returns the records of that emit (newest first). */
async function fire(
  engine: HookEngine,
  event = 'turn_complete',
  payload: unknown = {},
): Promise<RunRecord[]> {
  const before = engine.runs().length;
  engine.emit(event, payload);
  await engine.drain();
  return engine.runs().slice(0, engine.runs().length - before);
}

/** stderr of the one run of `fire`, as `key=value` lines. */
function report(records: RunRecord[]): Record<string, string> {
  expect(records).toHaveLength(1);
  const record = records[0]!;
  expect(record, JSON.stringify(record)).toMatchObject({ outcome: 'ok' });
  const out: Record<string, string> = {};
  for (const line of (record.stderrTail ?? '').split('\n')) {
    const eq = line.indexOf('=');
    if (eq > 0) out[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return out;
}

/** A folder on the root file system, outside /tmp: inside the sandbox it is visible, read-only. */
function rootFsDir(): string {
  const dir = mkdtempSync('/var/tmp/hw-sbx-outside-');
  extraDirs.push(dir);
  return dir;
}

/** pids whose command line contains `marker` (zombies have an empty one and never match). */
function processesWith(marker: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'latin1').includes(marker)) pids.push(Number(entry));
    } catch {
      // exited while we looked
    }
  }
  return pids;
}

/** A 127.0.0.1 HTTP server that counts the TCP connections it accepts. */
async function countingServer(): Promise<{ port: number; connections: () => number }> {
  let connections = 0;
  const server = createServer((_req, res) => res.end('hi'));
  server.on('connection', () => {
    connections++;
  });
  servers.push(server);
  return { port: await listenLocal(server), connections: () => connections };
}

describe('[P-SEC-7] network', () => {
  it('[P-SEC-7] a sandboxed hook cannot connect to a server on 127.0.0.1; the same hook without sandbox does', async () => {
    const { port, connections } = await countingServer();
    const ws = tempDir('hw-sbx-ws-');
    // bash is in Debian's essential set; /dev/tcp needs no curl, python or node.
    writeScript(
      ws,
      'connect.sh',
      `#!/bin/bash
if (echo > "/dev/tcp/127.0.0.1/$1") 2>/dev/null; then echo net=connected >&2; else echo net=failed >&2; fi`,
    );
    writeHooks(ws, {
      agent_start: [{ command: './connect.sh', args: [String(port)], sandbox: 'bwrap' }],
      agent_end: [{ command: './connect.sh', args: [String(port)] }],
    });
    const engine = await makeEngine(ws);

    expect(report(await fire(engine, 'agent_start', { agent: 'a', session: 's' })).net).toBe('failed');
    expect(connections()).toBe(0);

    expect(report(await fire(engine, 'agent_end', { success: true, messages_count: 1 })).net).toBe(
      'connected',
    );
    // The hook has connected and gone; the server's side of the accept may come a moment later.
    await waitFor(() => connections() === 1, 'the unsandboxed connection to reach the server');
    expect(connections()).toBe(1);
  });
});

describe('[P-SEC-7] file system', () => {
  /**
   * Tries to write a marker inside the workspace, into a folder outside it (after trying to
   * remount / read-write, which root could do if bwrap kept its capabilities), and reports.
   */
  const WRITER = `
outside="$1"
try() { if sh -c "$2" 2>/dev/null; then echo "$1=wrote" >&2; else echo "$1=blocked" >&2; fi; }
mount -o remount,rw / 2>/dev/null
mount -o remount,rw,bind "$outside" 2>/dev/null
try inside 'echo in > ./inside-marker'
try outside "echo out > '$outside/escape'"
echo "cwd=$(pwd)" >&2
echo "readable=$(cat "$outside/visible" 2>/dev/null)" >&2
`;

  it('[P-SEC-7] writes inside the workspace land; writes outside it fail and leave no file', async () => {
    const ws = tempDir('hw-sbx-ws-');
    const outside = rootFsDir();
    writeFileSync(path.join(outside, 'visible'), 'host-file');
    writeScript(ws, 'writer.sh', WRITER);
    writeHooks(ws, { turn_complete: [{ command: './writer.sh', args: [outside], sandbox: 'bwrap' }] });
    const engine = await makeEngine(ws);

    const r = report(await fire(engine));
    expect(r).toMatchObject({ inside: 'wrote', outside: 'blocked', cwd: ws, readable: 'host-file' });
    expect(readFileSync(path.join(ws, 'inside-marker'), 'utf8')).toBe('in\n');
    expect(existsSync(path.join(outside, 'escape'))).toBe(false);
  });

  it('[P-SEC-7] the same hook without sandbox writes outside (so the test above can fail)', async () => {
    const ws = tempDir('hw-sbx-ws-');
    const outside = rootFsDir();
    writeScript(ws, 'writer.sh', WRITER);
    writeHooks(ws, { turn_complete: [{ command: './writer.sh', args: [outside], sandbox: 'none' }] });
    const engine = await makeEngine(ws);

    expect(report(await fire(engine))).toMatchObject({ inside: 'wrote', outside: 'wrote' });
    expect(existsSync(path.join(outside, 'escape'))).toBe(true);
  });

  it('[P-SEC-7] sandbox_workspace "ro" makes the workspace read-only too; cwd is the action\'s', async () => {
    const ws = tempDir('hw-sbx-ws-');
    const outside = rootFsDir();
    mkdirSync(path.join(ws, 'sub'));
    writeScript(ws, 'writer.sh', WRITER);
    writeHooks(ws, {
      turn_complete: [
        {
          command: './writer.sh',
          args: [outside],
          cwd: 'sub',
          sandbox: 'bwrap',
          sandbox_workspace: 'ro',
        },
      ],
    });
    const engine = await makeEngine(ws);

    const r = report(await fire(engine));
    expect(r).toMatchObject({ inside: 'blocked', outside: 'blocked', cwd: path.join(ws, 'sub') });
    expect(existsSync(path.join(ws, 'sub', 'inside-marker'))).toBe(false);
    expect(existsSync(path.join(outside, 'escape'))).toBe(false);
  });

  it('[P-SEC-7] a workspace reached through a symlink works (symlink in the root, and under the private /tmp)', async () => {
    const underVar = rootFsDir();
    const underTmp = tempDir('hw-sbx-real-');
    const cases = [
      { link: path.join(underVar, 'ws-link'), real: underTmp }, // the link stays visible, read-only
      { link: path.join(tempDir('hw-sbx-linkdir-'), 'ws-link'), real: underVar }, // the link is under /tmp
    ];
    for (const { link, real } of cases) {
      symlinkSync(real, link);
      writeScript(real, 'writer.sh', 'echo in > ./inside-marker && echo "cwd=$(pwd)" >&2');
      writeHooks(real, { turn_complete: [{ command: './writer.sh', sandbox: 'bwrap' }] });
      const engine = await makeEngine(link);
      // No PWD in the env, so the shell reports the physical folder, as it does without sandbox.
      expect(report(await fire(engine)).cwd).toBe(realpathSync(link));
      expect(readFileSync(path.join(real, 'inside-marker'), 'utf8')).toBe('in\n');
    }
  });

  it('[P-SEC-7] a sandboxed hook cannot rewrite or replace hooks.json (to drop its own sandbox), nor see .hookwerk/', async () => {
    const ws = tempDir('hw-sbx-ws-');
    mkdirSync(path.join(ws, '.hookwerk'));
    writeFileSync(path.join(ws, '.hookwerk', 'token'), 'api-token');
    writeScript(
      ws,
      'tamper.sh',
      `
try() { if sh -c "$2" 2>/dev/null; then echo "$1=done" >&2; else echo "$1=blocked" >&2; fi; }
try overwrite 'echo "{\\"hooks\\": {}}" > hooks.json'
try replace 'echo "{\\"hooks\\": {}}" > new.json && mv -f new.json hooks.json'
try delete 'rm -f hooks.json'
echo "token=$(cat .hookwerk/token 2>/dev/null)" >&2
try token-write 'echo planted > .hookwerk/token'`,
    );
    const file = writeHooks(ws, { turn_complete: [{ command: './tamper.sh', sandbox: 'bwrap' }] });
    const before = readFileSync(file, 'utf8');
    const engine = await makeEngine(ws);

    const r = report(await fire(engine));
    expect(r).toMatchObject({ overwrite: 'blocked', replace: 'blocked', delete: 'blocked', token: '' });
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(readFileSync(path.join(ws, '.hookwerk', 'token'), 'utf8')).toBe('api-token');
  });

  it('[P-SEC-7] /tmp is private: host files there are invisible, files written there vanish', async () => {
    const ws = tempDir('hw-sbx-ws-');
    const hostTmp = tempDir('hw-sbx-hostfile-'); // under /tmp, outside the workspace
    writeFileSync(path.join(hostTmp, 'secret'), 'host secret');
    const leak = `/tmp/hw-sbx-leak-${randomBytes(6).toString('hex')}`;
    writeScript(
      ws,
      'tmp.sh',
      `
if [ -e "$1/secret" ]; then echo hostfile=visible >&2; else echo hostfile=absent >&2; fi
if echo x > "$2"; then echo tmpwrite=ok >&2; fi
echo "tmpcount=$(ls -A /tmp | wc -l)" >&2`,
    );
    writeHooks(ws, { turn_complete: [{ command: './tmp.sh', args: [hostTmp, leak], sandbox: 'bwrap' }] });
    const engine = await makeEngine(ws);

    const r = report(await fire(engine));
    // Inside, /tmp holds only the mount points bwrap made for the workspace and the payload.
    expect(r).toMatchObject({ hostfile: 'absent', tmpwrite: 'ok' });
    expect(existsSync(leak)).toBe(false);
  });

  it('[P-SEC-7, P-PAY-2] the payload file is reachable at its path, holds the envelope, is read-only, and is the only one visible', async () => {
    const ws = tempDir('hw-sbx-ws-');
    writeScript(
      ws,
      'payload.sh',
      `
cat "$ZERO_HOOK_PAYLOAD_FILE" > ./payload.json
printf '%s' "$ZERO_HOOK_PAYLOAD_FILE" > ./payload-path
ls -A "$(dirname "$ZERO_HOOK_PAYLOAD_FILE")" > ./payload-dir
if (echo tamper >> "$ZERO_HOOK_PAYLOAD_FILE") 2>/dev/null; then echo payload=writable >&2; else echo payload=readonly >&2; fi`,
    );
    writeHooks(ws, { tool_call: [{ command: './payload.sh', sandbox: 'bwrap' }] });
    const engine = await makeEngine(ws);
    const payload = { tool: 'shell', success: true, output: 'x'.repeat(20_000) }; // too big for the env

    const r = report(await fire(engine, 'tool_call', payload));
    expect(r.payload).toBe('readonly');
    const envelope = JSON.parse(readFileSync(path.join(ws, 'payload.json'), 'utf8'));
    expect(envelope).toMatchObject({ event: 'tool_call', payload });
    const file = readFileSync(path.join(ws, 'payload-path'), 'utf8');
    expect(readFileSync(path.join(ws, 'payload-dir'), 'utf8')).toBe(`${path.basename(file)}\n`);
    expect(existsSync(file)).toBe(false); // removed after the run, as without sandbox
  });
});

describe('[P-SEC-7, P-SEC-1] environment', () => {
  it("[P-SEC-7, P-SEC-1] the hook gets exactly the sanitized environment, as without sandbox (bwrap's PWD removed)", async () => {
    vi.stubEnv('HW_SANDBOX_SECRET', 'must-not-leak');
    const ws = tempDir('hw-sbx-ws-');
    // The environment the hook process was started with, as the kernel holds it.
    writeScript(ws, 'env.sh', `tr '\\0' '\\n' < /proc/$$/environ > "$1"`);
    writeHooks(ws, {
      turn_complete: [
        { command: './env.sh', args: ['env-bwrap'], env: { EXTRA: 'one' }, sandbox: 'bwrap' },
        { command: './env.sh', args: ['env-none'], env: { EXTRA: 'one' } },
        { command: './env.sh', args: ['env-pwd'], env: { PWD: '/chosen' }, sandbox: 'bwrap' },
      ],
    });
    const engine = await makeEngine(ws);
    const records = await fire(engine);
    expect(records.map((r) => r.outcome)).toEqual(['ok', 'ok', 'ok']);

    const parse = (name: string) =>
      Object.fromEntries(
        readFileSync(path.join(ws, name), 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
      );
    const sandboxed = parse('env-bwrap');
    const plain = parse('env-none');
    const keys = ['EXTRA', 'PATH', ...ZERO_HOOK_VARS];
    expect(Object.keys(sandboxed).sort()).toEqual(keys);
    expect(Object.keys(plain).sort()).toEqual(keys);
    expect({ ...sandboxed, ZERO_HOOK_PAYLOAD_FILE: '' }).toEqual({ ...plain, ZERO_HOOK_PAYLOAD_FILE: '' });
    expect(sandboxed.PATH).toBe('/usr/local/bin:/usr/bin:/bin');
    // A PWD the action sets itself survives bwrap's own.
    expect(parse('env-pwd').PWD).toBe('/chosen');
  });
});

describe('[P-SEC-7, P-SEC-5] process lifetime', () => {
  it('[P-SEC-7, P-SEC-5] a timeout kills the whole sandboxed tree, a grandchild that ignores TERM included', async () => {
    const ws = tempDir('hw-sbx-ws-');
    const marker = `hwsbx${randomBytes(6).toString('hex')}`;
    writeScript(
      ws,
      'hang.sh',
      `
trap '' TERM
sh -c 'trap "" TERM; while :; do sleep 1; done' "$1-grandchild" &
while :; do sleep 1; done`,
    );
    writeHooks(ws, {
      turn_complete: [{ command: './hang.sh', args: [marker], timeout_ms: 1500, sandbox: 'bwrap' }],
    });
    const engine = await makeEngine(ws);

    engine.emit('turn_complete', {});
    await waitFor(() => processesWith(`${marker}-grandchild`).length > 0, 'the grandchild to start');
    // bwrap, its init in the sandbox, the hook script and the grandchild all carry the marker.
    expect(processesWith(marker).length).toBeGreaterThanOrEqual(4);
    await engine.drain();

    const [record] = engine.runs();
    expect(record).toMatchObject({ outcome: 'timeout', cause: 'timeout' });
    expect(processesWith(marker)).toEqual([]);
  });

  it('[P-SEC-7] the sandbox dies with its parent: SIGKILL to the process that spawned bwrap ends the tree', async () => {
    const ws = tempDir('hw-sbx-ws-');
    const marker = `hwsbx${randomBytes(6).toString('hex')}`;
    const hook = writeScript(ws, 'hang.sh', `trap '' TERM\ntouch ./ready\nwhile :; do sleep 1; done`);
    const payloadFile = path.join(tempDir('hw-sbx-payload-'), 'payload.json');
    writeFileSync(payloadFile, '{}');
    const found = findBwrap();
    expect(found.ok).toBe(true);
    if (!found.ok) return;
    const argv = bwrapArgv({
      sandbox: {
        kind: 'bwrap',
        bwrap: found.path,
        workspace: ws,
        workspaceAccess: 'rw',
        readOnly: [],
        hidden: [],
      },
      command: hook,
      args: [marker],
      cwd: ws,
      env: {},
      payloadFile,
    });
    // A stand-in for the engine: spawns bwrap the way the process runner does, then gets SIGKILLed.
    const parent = spawn(
      process.execPath,
      [
        '-e',
        `const [c, a, cwd] = JSON.parse(process.argv[1]);
         require('node:child_process').spawn(c, a, { cwd, detached: true, stdio: 'ignore', env: { PATH: '/usr/bin:/bin' } });
         setInterval(() => {}, 1000);`,
        JSON.stringify([argv.command, argv.args, ws]),
      ],
      { stdio: 'ignore' },
    );
    try {
      // Not just bwrap: killing it during its own setup races with bwrap arming its death signals.
      await waitFor(() => existsSync(path.join(ws, 'ready')), 'the sandboxed hook to start');
      expect(processesWith(marker).length).toBeGreaterThanOrEqual(3);
    } finally {
      parent.kill('SIGKILL');
    }
    await waitFor(() => processesWith(marker).length === 0, 'the sandbox to die with its parent', 2000);
  });

  it('[P-SEC-7] background processes a sandboxed hook leaves behind end with it', async () => {
    const ws = tempDir('hw-sbx-ws-');
    const marker = `hwsbx${randomBytes(6).toString('hex')}`;
    writeScript(ws, 'bg.sh', `sh -c 'while :; do sleep 1; done' "$1-left" > /dev/null 2>&1 &`);
    writeHooks(ws, { turn_complete: [{ command: './bg.sh', args: [marker], sandbox: 'bwrap' }] });
    const engine = await makeEngine(ws);

    expect((await fire(engine)).map((r) => r.outcome)).toEqual(['ok']);
    await waitFor(() => processesWith(marker).length === 0, 'the leftover to be gone', 2000);
  });
});

describe('[P-SEC-7] configuration', () => {
  const load = (ws: string) => loadPrxConfig(ws);

  it('[P-SEC-7] bwrap requested but missing: loading fails naming the action; never a silent run without sandbox', async () => {
    vi.stubEnv(BWRAP_ENV_VAR, '/nonexistent/bwrap');
    const ws = tempDir('hw-sbx-ws-');
    writeScript(ws, 'mark.sh', 'touch ./ran');
    const file = writeHooks(ws, {
      agent_start: [{ command: './mark.sh' }],
      tool_call: [
        { command: './mark.sh', sandbox: 'none' },
        { command: './mark.sh', sandbox: 'bwrap' },
      ],
    });

    const loaded = load(ws);
    expect(loaded.ok).toBe(false);
    if (loaded.ok) return;
    expect(loaded.issues).toHaveLength(1);
    expect(loaded.issues[0]).toMatchObject({ file, path: '$.hooks.tool_call[1].sandbox' });
    expect(loaded.issues[0]!.message).toContain(
      'sandbox "bwrap" requested but bwrap is not installed (apt-get install bubblewrap)',
    );

    // The engine refuses the whole file [P-CFG-3]: nothing runs, least of all unsandboxed.
    const engine = await makeEngine(ws);
    expect(engine.configIssues()).toHaveLength(1);
    expect(engine.actions()).toEqual([]);
    engine.emit('tool_call', { tool: 't', success: true, output: '' });
    await engine.drain();
    expect(engine.runs()).toEqual([]);
    expect(existsSync(path.join(ws, 'ran'))).toBe(false);
  });

  it('[P-SEC-7] a file-level "bwrap" with bwrap missing names every action that inherits it', () => {
    vi.stubEnv(BWRAP_ENV_VAR, '/nonexistent/bwrap');
    const ws = tempDir('hw-sbx-ws-');
    writeHooks(
      ws,
      JSON.stringify({
        sandbox: 'bwrap',
        hooks: { agent_start: [{ command: '/bin/true' }, { command: '/bin/true', sandbox: 'none' }] },
      }),
    );
    const loaded = load(ws);
    expect(loaded.ok).toBe(false);
    if (loaded.ok) return;
    expect(loaded.issues.map((i) => i.path)).toEqual(['$.hooks.agent_start[0]']);
    expect(loaded.issues[0]!.message).toMatch(/bwrap is not installed .*file-level "sandbox"/);
  });

  it('[P-SEC-7] without any bwrap action a missing bwrap does not matter, and bwrap is not even looked up', () => {
    vi.stubEnv(BWRAP_ENV_VAR, '/nonexistent/bwrap');
    const ws = tempDir('hw-sbx-ws-');
    writeHooks(ws, JSON.stringify({ sandbox: 'none', hooks: { agent_start: [{ command: '/bin/true' }] } }));
    let lookups = 0;
    const loaded = loadPrxConfig(ws, {
      findBwrap: () => {
        lookups++;
        return { ok: false, message: 'missing' };
      },
    });
    expect(loaded.ok && loaded.actions.map((a) => a.sandbox)).toEqual([undefined]);
    expect(lookups).toBe(0);
  });

  it('[P-SEC-7] the action overrides the file; default none; bwrap looked up once per load', () => {
    const ws = tempDir('hw-sbx-ws-');
    writeHooks(
      ws,
      JSON.stringify({
        sandbox: 'bwrap',
        hooks: {
          agent_start: [
            { command: '/bin/true' },
            { command: '/bin/true', sandbox: 'none' },
            { command: '/bin/true', sandbox_workspace: 'ro' },
          ],
          agent_end: [{ command: '/bin/true', sandbox: 'bwrap' }],
        },
      }),
    );
    let lookups = 0;
    const loaded = loadPrxConfig(ws, {
      findBwrap: () => {
        lookups++;
        return { ok: true, path: '/opt/bwrap' };
      },
    });
    expect(loaded.ok).toBe(true);
    if (!loaded.ok) return;
    expect(lookups).toBe(1);
    const bwrap = (workspaceAccess: string) => ({
      kind: 'bwrap',
      bwrap: '/opt/bwrap',
      workspace: ws,
      workspaceAccess,
      readOnly: [path.join(ws, 'hooks.json')],
      hidden: [path.join(ws, '.hookwerk')],
    });
    expect(loaded.actions.map((a) => a.sandbox)).toEqual([bwrap('rw'), undefined, bwrap('ro'), bwrap('rw')]);

    writeHooks(ws, { agent_start: [{ command: '/bin/true' }] });
    const plain = load(ws);
    expect(plain.ok && plain.actions[0]!.sandbox).toBeUndefined();
  });

  it('[P-SEC-7, P-CFG-4] unknown values and misplaced settings are errors with file and JSON path', () => {
    const ws = tempDir('hw-sbx-ws-');
    const file = writeHooks(
      ws,
      JSON.stringify({
        sandbox: 'firejail',
        hooks: {
          agent_start: [
            { command: '/bin/true', sandbox: 'docker' },
            { command: '/bin/true', sandbox: 'bwrap', sandbox_workspace: 'readonly' },
            { command: '/bin/true', sandbox: true },
          ],
        },
      }),
    );
    const loaded = load(ws);
    expect(loaded.ok).toBe(false);
    if (loaded.ok) return;
    expect(loaded.issues).toEqual(
      expect.arrayContaining([
        { file, path: '$.sandbox', message: 'sandbox must be "none" or "bwrap"' },
        { file, path: '$.hooks.agent_start[0].sandbox', message: 'sandbox must be "none" or "bwrap"' },
        {
          file,
          path: '$.hooks.agent_start[1].sandbox_workspace',
          message: 'sandbox_workspace must be "rw" or "ro"',
        },
        { file, path: '$.hooks.agent_start[2].sandbox', message: 'sandbox must be "none" or "bwrap"' },
      ]),
    );
    expect(loaded.issues).toHaveLength(4);

    // "ro" without a sandbox would promise a protection nobody enforces.
    writeHooks(ws, { agent_start: [{ command: '/bin/true', sandbox_workspace: 'ro' }] });
    const ro = load(ws);
    expect(ro.ok).toBe(false);
    expect(!ro.ok && ro.issues.map((i) => [i.path, i.message])).toEqual([
      [
        '$.hooks.agent_start[0].sandbox_workspace',
        'sandbox_workspace only applies with sandbox "bwrap"; this action runs without a sandbox',
      ],
    ]);

    // The env wrapper inside the sandbox would read "a=b" as an assignment, not a command.
    writeHooks(ws, { agent_start: [{ command: './a=b.sh', sandbox: 'bwrap' }, { command: './a=b.sh' }] });
    const eq = load(ws);
    expect(!eq.ok && eq.issues.map((i) => i.path)).toEqual(['$.hooks.agent_start[0].command']);
  });
});

describe('[P-SEC-7] bwrap lookup and argv', () => {
  it('[P-SEC-7] finds the installed bwrap; HOOKWERK_BWRAP overrides it and must name an executable', () => {
    const found = findBwrap({ PATH: '/usr/bin:/bin' });
    expect(found.ok).toBe(true);
    expect(findBwrap({ [BWRAP_ENV_VAR]: '/nonexistent/bwrap' })).toMatchObject({ ok: false });
    expect(findBwrap({ [BWRAP_ENV_VAR]: 'bwrap' })).toMatchObject({ ok: false }); // not absolute
    const plainFile = path.join(tempDir('hw-sbx-'), 'bwrap');
    writeFileSync(plainFile, '', { mode: 0o644 });
    expect(findBwrap({ [BWRAP_ENV_VAR]: plainFile })).toMatchObject({ ok: false }); // not executable
    if (found.ok) expect(findBwrap({ [BWRAP_ENV_VAR]: found.path })).toEqual(found);
  });

  it('[P-SEC-7] isolates network, pid, ipc, uts; drops capabilities; mounts shallow to deep; no new session', () => {
    const { command, args } = bwrapArgv({
      sandbox: {
        kind: 'bwrap',
        bwrap: '/usr/bin/bwrap',
        workspace: '/tmp/ws',
        workspaceAccess: 'rw',
        readOnly: ['/tmp/ws/hooks.json'],
        hidden: ['/nonexistent/.hookwerk'],
      },
      command: '/tmp/ws/hook.sh',
      args: ['a b', '--x'],
      cwd: '/tmp/ws/sub',
      env: { PATH: '/usr/bin' },
      payloadFile: '/tmp/hookwerk-abc/payload-1.json',
    });
    expect(command).toBe('/usr/bin/bwrap');
    const line = args.join(' ');
    for (const flag of [
      '--unshare-net',
      '--unshare-pid',
      '--unshare-ipc',
      '--unshare-uts',
      '--die-with-parent',
    ])
      expect(args).toContain(flag);
    expect(line).toContain('--cap-drop ALL');
    expect(args).not.toContain('--new-session'); // would take the hook out of the group the runner kills
    const at = (s: string) => line.indexOf(s);
    expect(at('--ro-bind / /')).toBeLessThan(at('--tmpfs /tmp'));
    expect(at('--tmpfs /tmp')).toBeLessThan(at('--bind /tmp/ws /tmp/ws'));
    expect(at('--bind /tmp/ws /tmp/ws')).toBeLessThan(
      at('--ro-bind-try /tmp/ws/hooks.json /tmp/ws/hooks.json'),
    );
    expect(at('--bind /tmp/ws /tmp/ws')).toBeLessThan(
      at('--ro-bind /tmp/hookwerk-abc/payload-1.json /tmp/hookwerk-abc/payload-1.json'),
    );
    expect(line).not.toContain('.hookwerk'); // hidden only when it exists
    expect(args.slice(-10)).toEqual([
      '--chdir',
      '/tmp/ws/sub',
      '--',
      '/usr/bin/env',
      '-u',
      'PWD',
      '--',
      '/tmp/ws/hook.sh',
      'a b',
      '--x',
    ]);
  });
});
