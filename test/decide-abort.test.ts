/**
 * [AD-ALL-1] `decide(event, input, { signal })`: an abort, before or during, stops the decide's
 * running hooks (a command hook's whole process group, an HTTP request, an in-process hook's
 * signal), starts no later one, records each stopped run with cause `aborted` (run log, bus) and
 * rejects with an `AbortError`; and every gate record names the input's session and tool, in
 * each dialect's spelling. Real processes, a real HTTP server and a real nats-server.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { connect } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isHookwerkError } from '../src/core/errors.ts';
import { AbortError } from '../src/dispatch/abort-error.ts';
import type { HookEngine, HookEngineOptions } from '../src/engine-api.ts';
import type { RunRecord } from '../src/records/run-record.ts';
import { collectBus, makeEngine } from './engine-harness.ts';
import { processAlive, tempDir, waitFor, writeScript } from './helpers.ts';
import { type NatsServer, startNatsServer } from './nats-server.ts';

const trustAll = () => ({ trusted: true, reason: 'test' });

function writeJson(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(value, null, 2));
}

/**
 * A hook script that starts a child (both in the run's process group), writes both pids to
 * `pids`, then waits on the child: it ends only when it is stopped.
 */
function waitingScript(dir: string, name = 'wait.sh'): { script: string; pids: string } {
  const pids = path.join(dir, `${name}.pids`);
  const script = writeScript(dir, name, `cat >/dev/null\nsleep 600 &\necho "$$ $!" > '${pids}'\nwait`);
  return { script, pids };
}

/** The pids a waiting script wrote, once it has written them. */
async function startedPids(file: string): Promise<number[]> {
  const text = await waitFor(
    () => (existsSync(file) ? readFileSync(file, 'utf8').trim() : ''),
    `the hook to write ${file}`,
  );
  return text.split(' ').map(Number);
}

/** An engine over the Lurus project `dir` whose PreToolUse hooks are `hooks` (in order; none: no file). */
async function lurusEngine(dir: string, hooks: readonly Record<string, unknown>[]): Promise<HookEngine> {
  if (hooks.length > 0) writeJson(path.join(dir, '.lurus', 'hooks.json'), { PreToolUse: [{ hooks }] });
  const engine = await makeEngine(undefined, {
    projectDir: dir,
    home: tempDir('hw-abort-home-'),
    trust: trustAll,
  });
  expect(engine.gate.config.issues).toEqual([]);
  return engine;
}

/** What `promise` rejected with (fails the test when it fulfilled). */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('the decide did not reject');
}

/** Checks the AbortError contract; returns its runs. */
function abortRuns(err: unknown): RunRecord[] {
  expect(err).toBeInstanceOf(AbortError);
  if (!(err instanceof AbortError)) return [];
  expect(err.name).toBe('AbortError');
  expect(err.code).toBe('ABORTED');
  expect(isHookwerkError(err)).toBe(true);
  return err.runs;
}

describe('[AD-ALL-1] decide(event, input, { signal }) with command hooks', () => {
  it('[AD-ALL-1] an abort during a long command hook kills its process group and rejects with AbortError; the run is recorded with cause aborted (run log, bus)', async () => {
    const dir = tempDir('hw-abort-');
    const { script, pids } = waitingScript(dir);
    const engine = await lurusEngine(dir, [{ type: 'command', command: script, failMode: 'closed' }]);
    const published = collectBus(engine, 'hookwerk.run.error');
    const controller = new AbortController();
    const deciding = rejection(
      engine.decide('PreToolUse', { toolName: 'Bash', sessionId: 's-abort' }, { signal: controller.signal }),
    );
    const [shell, child] = await startedPids(pids);
    expect(processAlive(shell!)).toBe(true);
    expect(processAlive(child!)).toBe(true);
    controller.abort();
    const runs = abortRuns(await deciding);
    // [X-PROC-2] The decide settles once the run's processes are gone.
    expect(processAlive(shell!)).toBe(false);
    expect(processAlive(child!)).toBe(false);
    expect(runs).toHaveLength(1);
    const run = runs[0]!;
    expect(run).toMatchObject({
      outcome: 'error',
      cause: 'aborted',
      dialect: 'lurus',
      sessionId: 's-abort',
      toolName: 'Bash',
    });
    // Stopped, it decided nothing: not even its failMode "closed" deny.
    expect(run.decision).toBeUndefined();
    expect(run.failed).toBeUndefined();
    expect(engine.runs().map((r) => [r.outcome, r.cause])).toEqual([['error', 'aborted']]);
    expect(published.map((m) => (m.payload as RunRecord).cause)).toEqual(['aborted']);
  });

  it('[AD-ALL-1] a signal aborted before the decide rejects at once: no hook starts, nothing is recorded', async () => {
    const dir = tempDir('hw-abort-before-');
    const marker = path.join(dir, 'ran');
    const engine = await lurusEngine(dir, [
      { type: 'command', command: `touch '${marker}'; echo '{"decision":"allow"}'` },
    ]);
    const reason = new Error('the user pressed Esc');
    const err = await rejection(
      engine.decide('PreToolUse', { toolName: 'Bash' }, { signal: AbortSignal.abort(reason) }),
    );
    expect(abortRuns(err)).toEqual([]);
    expect(err instanceof AbortError && err.cause).toBe(reason);
    expect(existsSync(marker)).toBe(false);
    expect(engine.runs()).toEqual([]);
    // The engine is not left counting a decide in progress: close() does not wait for one.
    await engine.close();
    expect(existsSync(marker)).toBe(false);
  });

  it('[AD-ALL-1] [L-RUN-1] Lurus, one after another: the running hook is stopped, the later ones are not started', async () => {
    const dir = tempDir('hw-abort-seq-');
    const { script, pids } = waitingScript(dir);
    const marker = path.join(dir, 'second-ran');
    const engine = await lurusEngine(dir, [
      { type: 'command', command: `echo '{"decision":"allow"}'` },
      { type: 'command', command: script },
      { type: 'command', command: `touch '${marker}'; echo '{"decision":"allow"}'` },
    ]);
    const controller = new AbortController();
    const deciding = rejection(
      engine.decide('PreToolUse', { toolName: 'Bash' }, { signal: controller.signal }),
    );
    const [shell] = await startedPids(pids);
    controller.abort();
    const runs = abortRuns(await deciding);
    // A Lurus hook is named by its command.
    expect(runs.map((r) => [r.hook, r.outcome, r.cause])).toEqual([
      [`echo '{"decision":"allow"}'`, 'ok', undefined],
      [script, 'error', 'aborted'],
    ]);
    expect(processAlive(shell!)).toBe(false);
    expect(existsSync(marker)).toBe(false);
    expect(engine.runs({ event: 'PreToolUse' })).toHaveLength(2);
  });

  it('[AD-ALL-1] [C-RUN-2] Claude Code, all at once: every running hook is stopped, each recorded aborted, in configuration order', async () => {
    const project = tempDir('hw-abort-claude-');
    const a = waitingScript(project, 'a.sh');
    const b = waitingScript(project, 'b.sh');
    writeJson(path.join(project, '.claude', 'settings.json'), {
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [{ type: 'command', command: a.script }] },
          { matcher: 'Bash', hooks: [{ type: 'command', command: b.script }] },
        ],
      },
    });
    const engine = await makeEngine(undefined, {
      projectDir: project,
      home: tempDir('hw-abort-claude-home-'),
      gateDialect: 'claude',
      claude: { managedSettings: path.join(project, 'no-managed.json') },
      trust: trustAll,
    });
    const controller = new AbortController();
    const deciding = rejection(
      engine.decide(
        'PreToolUse',
        { tool_name: 'Bash', tool_input: { command: 'ls' }, session_id: 's-claude' },
        { signal: controller.signal },
      ),
    );
    const groups = [await startedPids(a.pids), await startedPids(b.pids)];
    controller.abort();
    const runs = abortRuns(await deciding);
    for (const pid of groups.flat()) expect(processAlive(pid)).toBe(false);
    expect(runs.map((r) => [r.source.includes('settings.json'), r.outcome, r.cause, r.sessionId])).toEqual([
      [true, 'error', 'aborted', 's-claude'],
      [true, 'error', 'aborted', 's-claude'],
    ]);
    expect(runs.every((r) => r.decision === undefined && r.permission === undefined)).toBe(true);
    expect(engine.runs().filter((r) => r.cause === 'aborted')).toHaveLength(2);
  });

  it('[AD-ALL-1] [A-COP-1] Copilot, one after another: the later hooks are not started', async () => {
    const project = tempDir('hw-abort-cop-');
    const home = tempDir('hw-abort-cop-home-');
    const { script, pids } = waitingScript(project);
    const marker = path.join(project, 'second-ran');
    writeJson(path.join(project, '.github', 'hooks', 'hooks.json'), {
      version: 1,
      hooks: {
        preToolUse: [
          { type: 'command', bash: script },
          { type: 'command', bash: `touch '${marker}'` },
        ],
      },
    });
    const engine = await makeEngine(undefined, {
      projectDir: project,
      home,
      gateDialect: 'copilot',
      copilot: { policyDir: tempDir('hw-abort-cop-policy-'), copilotHome: path.join(home, '.copilot') },
      trust: trustAll,
    });
    const controller = new AbortController();
    const deciding = rejection(
      engine.decide('preToolUse', { toolName: 'bash', toolArgs: '{}' }, { signal: controller.signal }),
    );
    await startedPids(pids);
    controller.abort();
    const runs = abortRuns(await deciding);
    // Copilot's failed preToolUse hook would deny: stopped, it is only an aborted error.
    expect(runs.map((r) => [r.outcome, r.cause, r.decision, r.toolName])).toEqual([
      ['error', 'aborted', undefined, 'bash'],
    ]);
    expect(existsSync(marker)).toBe(false);
  });
});

describe('[AD-ALL-1] decide(…, { signal }) with HTTP and in-process hooks', () => {
  it('[AD-ALL-1] an HTTP hook: the request is cancelled (the server sees the connection close)', async () => {
    let request: IncomingMessage | undefined;
    let closed: Promise<void> | undefined;
    const server = createServer((req) => {
      request = req;
      closed = new Promise((resolve) => req.socket.once('close', () => resolve()));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const engine = await lurusEngine(tempDir('hw-abort-http-'), [
        { type: 'http', url: `http://127.0.0.1:${port}/hook`, timeout: 60_000 },
      ]);
      const controller = new AbortController();
      const deciding = rejection(
        engine.decide('PreToolUse', { toolName: 'WebFetch' }, { signal: controller.signal }),
      );
      await waitFor(() => request !== undefined, 'the HTTP hook request');
      controller.abort();
      const runs = abortRuns(await deciding);
      expect(runs.map((r) => [r.outcome, r.cause, r.toolName])).toEqual([['error', 'aborted', 'WebFetch']]);
      await closed;
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("[AD-ALL-1] an in-process hook that takes the signal sees it aborted with the caller's reason; one that ignores it is abandoned", async () => {
    const engine = await lurusEngine(tempDir('hw-abort-ip-lurus-'), []);
    let seen: unknown;
    engine.use('PreToolUse', { name: 'listens' }, (_ctx, { signal }) => {
      return new Promise((resolve) => {
        signal.addEventListener('abort', () => {
          seen = signal.reason;
          resolve({ decision: 'allow' });
        });
      });
    });
    engine.use('PreToolUse', { name: 'ignores' }, () => new Promise(() => {}));
    const controller = new AbortController();
    const reason = new Error('stop');
    // Lurus runs them one after another: `listens` is called within decide(), `ignores` after it.
    const deciding = rejection(
      engine.decide('PreToolUse', { toolName: 'Bash' }, { signal: controller.signal }),
    );
    controller.abort(reason);
    const runs = abortRuns(await deciding);
    expect(seen).toBe(reason);
    expect(runs.map((r) => [r.hook, r.outcome, r.cause])).toEqual([['listens', 'error', 'aborted']]);

    // All at once (Claude Code): the one that ignores its signal is abandoned, the decide rejects.
    let started!: () => void;
    const bothStarted = new Promise<void>((resolve) => {
      let n = 0;
      started = () => {
        if (++n === 2) resolve();
      };
    });
    const claude = await makeEngine(undefined, {
      projectDir: tempDir('hw-abort-ip-'),
      home: tempDir('hw-abort-ip-home-'),
      gateDialect: 'claude',
      claude: { managedSettings: path.join(tempDir('hw-abort-ip-etc-'), 'none.json') },
      trust: trustAll,
    });
    claude.use('PreToolUse', { name: 'listens' }, (_ctx, { signal }) => {
      started();
      return new Promise((resolve) => signal.addEventListener('abort', () => resolve(undefined)));
    });
    claude.use('PreToolUse', { name: 'ignores' }, () => {
      started();
      return new Promise(() => {});
    });
    const second = new AbortController();
    const both = rejection(claude.decide('PreToolUse', { tool_name: 'Bash' }, { signal: second.signal }));
    await bothStarted;
    second.abort();
    expect(abortRuns(await both).map((r) => [r.hook, r.cause])).toEqual([
      ['listens', 'aborted'],
      ['ignores', 'aborted'],
    ]);
  });

  it('[AD-ALL-1] decide() rejects a signal that is not an AbortSignal, and an empty agent, as bad input', async () => {
    const engine = await lurusEngine(tempDir('hw-abort-opts-'), []);
    const bad = (opts: unknown) =>
      rejection(
        engine.decide('PreToolUse', { toolName: 'Bash' }, opts as Parameters<HookEngine['decide']>[2]),
      );
    expect(await bad({ signal: { aborted: true } })).toMatchObject({ code: 'HOOK_INPUT', field: 'signal' });
    expect(await bad({ agent: '' })).toMatchObject({ code: 'HOOK_INPUT', field: 'agent' });
    expect(await bad('fast')).toMatchObject({ code: 'HOOK_INPUT', field: 'options' });
    // Without a signal or an agent the third argument changes nothing.
    expect(await engine.decide('PreToolUse', { toolName: 'Bash' }, {})).toMatchObject({ decision: 'allow' });
  });
});

describe('[AD-ALL-1] [N-GATE-1] the remote gate', () => {
  let server: NatsServer;
  beforeAll(async () => {
    server = await startNatsServer({ jetstream: false });
  });
  afterAll(() => server.cleanup());

  it('[AD-ALL-1] an abort stops waiting for the gate worker: AbortError, one record of cause aborted', async () => {
    const worker = await connect({ servers: server.url });
    try {
      let asked!: () => void;
      const request = new Promise<void>((resolve) => {
        asked = resolve;
      });
      // A worker that takes the request and never answers (its hooks still running).
      worker.subscribe('hookwerk.decide.>', { callback: () => asked() });
      await worker.flush();
      const agent = await makeEngine(undefined, {
        projectDir: tempDir('hw-abort-nats-'),
        home: tempDir('hw-abort-nats-home-'),
        sessionId: 'agent-session',
        nats: { servers: server.url, remoteGate: true, decideTimeoutMs: 60_000, failMode: 'closed' },
      });
      const controller = new AbortController();
      const deciding = rejection(
        agent.decide('PreToolUse', { toolName: 'Bash' }, { signal: controller.signal, agent: 'test' }),
      );
      await request;
      controller.abort();
      const runs = abortRuns(await deciding);
      expect(
        runs.map((r) => [r.hook, r.outcome, r.cause, r.decision, r.sessionId, r.toolName, r.agent]),
      ).toEqual([['remote-gate', 'error', 'aborted', undefined, 'agent-session', 'Bash', 'test']]);
      expect(agent.runs().map((r) => r.cause)).toEqual(['aborted']);
    } finally {
      await worker.close();
    }
  });
});

describe('[AD-ALL-1] gate records name the session and the tool, in every dialect', () => {
  /** One decide in `dialect` over a project holding `file` = `content`; its one record. */
  async function onlyRun(
    dialect: NonNullable<HookEngineOptions['gateDialect']>,
    file: string,
    content: unknown,
    event: string,
    input: Record<string, unknown>,
  ): Promise<{ decided: RunRecord; stored: RunRecord }> {
    const project = tempDir(`hw-subject-${dialect}-`);
    const home = tempDir(`hw-subject-${dialect}-home-`);
    writeJson(path.join(project, file), content);
    const engine = await makeEngine(undefined, {
      projectDir: project,
      home,
      gateDialect: dialect,
      sessionId: 'engine-session',
      trust: trustAll,
      claude: { managedSettings: path.join(home, 'none.json') },
      gemini: { systemSettings: path.join(home, 'none.json') },
      cursor: { enterpriseFile: path.join(home, 'none.json'), claudeFiles: false },
      copilot: { policyDir: tempDir('hw-subject-policy-'), copilotHome: path.join(home, '.copilot') },
    });
    expect(engine.gate.config.issues).toEqual([]);
    const d = await engine.decide(event, input, { agent: `${dialect}-agent` });
    expect(d.runs).toHaveLength(1);
    const stored = engine.runs();
    expect(stored).toHaveLength(1);
    expect(d.runs[0]?.agent).toBe(`${dialect}-agent`);
    return { decided: d.runs[0]!, stored: stored[0]! };
  }

  const cases: ReadonlyArray<{
    dialect: NonNullable<HookEngineOptions['gateDialect']>;
    file: string;
    content: unknown;
    event: string;
    input: Record<string, unknown>;
    sessionId: string;
    toolName: string;
  }> = [
    {
      dialect: 'lurus',
      file: '.lurus/hooks.json',
      content: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [{ type: 'command', command: 'echo \'{"decision":"allow"}\'' }] },
        ],
      },
      event: 'PreToolUse',
      input: { toolName: 'Bash', sessionId: 's-lurus' },
      sessionId: 's-lurus',
      toolName: 'Bash',
    },
    {
      dialect: 'claude',
      file: '.claude/settings.json',
      content: {
        hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'true' }] }] },
      },
      event: 'PreToolUse',
      input: { tool_name: 'Bash', tool_input: { command: 'ls' }, session_id: 's-claude' },
      sessionId: 's-claude',
      toolName: 'Bash',
    },
    {
      dialect: 'gemini',
      file: '.gemini/settings.json',
      content: {
        hooks: {
          BeforeTool: [{ matcher: 'run_shell_command', hooks: [{ type: 'command', command: 'true' }] }],
        },
      },
      event: 'BeforeTool',
      input: { tool_name: 'run_shell_command', tool_input: { command: 'ls' }, session_id: 's-gemini' },
      sessionId: 's-gemini',
      toolName: 'run_shell_command',
    },
    {
      dialect: 'codex',
      file: '.codex/hooks.json',
      content: {
        hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'true' }] }] },
      },
      event: 'PreToolUse',
      input: { tool_name: 'Bash', tool_input: { command: 'ls' }, session_id: 's-codex' },
      sessionId: 's-codex',
      toolName: 'Bash',
    },
    {
      dialect: 'copilot',
      file: '.github/hooks/hooks.json',
      content: { version: 1, hooks: { preToolUse: [{ type: 'command', bash: 'true' }] } },
      event: 'preToolUse',
      input: { toolName: 'bash', toolArgs: '{"command":"ls"}', sessionId: 's-copilot' },
      sessionId: 's-copilot',
      toolName: 'bash',
    },
    {
      dialect: 'cursor',
      file: '.cursor/hooks.json',
      content: { version: 1, hooks: { preToolUse: [{ command: 'true' }] } },
      event: 'preToolUse',
      input: { tool_name: 'Shell', tool_input: { command: 'ls' }, conversation_id: 's-cursor' },
      sessionId: 's-cursor',
      toolName: 'Shell',
    },
  ];

  for (const c of cases) {
    it(`[AD-ALL-1] ${c.dialect}: the record's sessionId and toolName come from the input`, async () => {
      const { decided, stored } = await onlyRun(c.dialect, c.file, c.content, c.event, c.input);
      expect([decided.sessionId, decided.toolName]).toEqual([c.sessionId, c.toolName]);
      expect([stored.sessionId, stored.toolName]).toEqual([c.sessionId, c.toolName]);
    });
  }

  it("[AD-ALL-1] an input that names no session gets the engine's; a long tool name is capped in the stored record", async () => {
    const long = 'T'.repeat(20_000);
    const { decided, stored } = await onlyRun(
      'claude',
      '.claude/settings.json',
      { hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'true' }] }] } },
      'PreToolUse',
      { tool_name: long, tool_input: {} },
    );
    // Claude Code's input always has a session_id: the engine fills in its own [C-IN-1].
    expect(decided.sessionId).toBe('engine-session');
    expect(decided.toolName).toBe(long);
    expect(stored.toolName?.length).toBe(8192);
    expect(stored.truncated).toEqual({ toolName: 20_000 });
  });
});
