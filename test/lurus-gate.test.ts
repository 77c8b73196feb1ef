/**
 * The Lurus gate through `engine.decide` [§2], with real `/bin/sh` hooks in temp project folders,
 * real `node:http` servers on 127.0.0.1, and a temp folder as `~` (passed as `home`).
 */
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { approveProject } from '../src/consent/project-consent.ts';
import { trustStorePath } from '../src/consent/trust-store.ts';
import { EngineClosedError, HookInputError } from '../src/core/errors.ts';
import { loadLurusConfig } from '../src/dialects/lurus/source.ts';
import type { HookEngine, HookEngineOptions } from '../src/engine-api.ts';
import type { LurusEventName } from '../src/events/lurus-events.ts';
import type { RunRecord } from '../src/records/run-record.ts';
import type { GateAnswer } from '../src/registry/hook-definition.ts';
import { makeEngine } from './engine-harness.ts';
import { processAlive, sleep, tempDir, writeScript } from './helpers.ts';
import { closeHttpServers, deadPort, replyJson as reply, startHttpServer } from './http-server.ts';

// ---------------------------------------------------------------------------------------------
// helpers

const ALLOW = `echo '{"decision":"allow"}'`;
const trustAll = () => ({ trusted: true, reason: 'test' });

type Hook = Record<string, unknown>;
type EventMap = Partial<Record<string, Array<{ matcher?: string; hooks: Hook[] }>>>;

const cmd = (command: string, extra: Hook = {}): Hook => ({ type: 'command', command, ...extra });
/** A hook that appends `name` to `order.txt` (in the project folder, its cwd), then answers. */
const mark = (name: string, answer = ALLOW): Hook => cmd(`echo ${name} >> order.txt; ${answer}`);
const denyWith = (reason: string) => `echo '{"decision":"deny","reason":"${reason}"}'`;

function writeJson(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, typeof value === 'string' ? value : `${JSON.stringify(value, null, 2)}\n`);
}

/** `<base>/.lurus/<name>` */
const lurusFile = (base: string, name = 'hooks.json') => path.join(base, '.lurus', name);

function setup(): { project: string; home: string } {
  return { project: tempDir('hw-proj-'), home: tempDir('hw-home-') };
}

function engineFor(
  project: string,
  home: string,
  extra: Partial<HookEngineOptions> = {},
): Promise<HookEngine> {
  return makeEngine(undefined, { projectDir: project, home, trust: trustAll, ...extra });
}

/** An engine with the real default consent check (the trust store under `home`). */
function engineWithRealTrust(project: string, home: string): Promise<HookEngine> {
  return makeEngine(undefined, { projectDir: project, home });
}

/** An engine over a project whose `.lurus/hooks.json` holds `map`. */
async function projectEngine(map: EventMap, extra: Partial<HookEngineOptions> = {}) {
  const { project, home } = setup();
  writeJson(lurusFile(project), map);
  const engine = await engineFor(project, home, extra);
  expect(engine.gate.config.issues).toEqual([]);
  return { project, home, engine };
}

const read = (file: string) => readFileSync(file, 'utf8');
const orderOf = (project: string) => {
  const file = path.join(project, 'order.txt');
  return existsSync(file) ? read(file).trim().split('\n') : [];
};

// --- HTTP servers -----------------------------------------------------------------------------

/** A real node:http server on 127.0.0.1 that shrugs off hooks hanging up mid-request. */
const startServer = (respond: Parameters<typeof startHttpServer>[0]) =>
  startHttpServer(respond, { ignoreSocketErrors: true });

afterEach(closeHttpServers);

/** The single record of a decision that ran one hook. */
function onlyRun(d: { runs: RunRecord[] }): RunRecord {
  expect(d.runs).toHaveLength(1);
  return d.runs[0]!;
}

// ---------------------------------------------------------------------------------------------

describe('[L-EV-1] what a hook receives', () => {
  it('[L-EV-1] [L-RUN-2] stdin is exactly {event, context, cwd} as one line + \\n then EOF; the hook runs in the project folder', async () => {
    const { project, engine } = await projectEngine({
      PreToolUse: [{ hooks: [cmd(`cat > stdin.json; pwd > pwd.txt; ${ALLOW}`, { timeout: 10_000 })] }],
    });
    const context = {
      toolName: 'Write',
      toolInput: {
        path: 'a.txt',
        content: 'line 1\nline 2\t"quoted" \\ back',
        nested: { list: [1, 'two', null, { deep: true }], empty: {} },
        unicode: 'é ✓ 😀',
      },
      sessionId: 's1',
    };
    const d = await engine.decide('PreToolUse', context);
    expect(d.decision).toBe('allow');
    // The hook only ends (and answers) once cat saw EOF.
    expect(onlyRun(d)).toMatchObject({ outcome: 'ok', exitCode: 0 });

    const stdin = read(path.join(project, 'stdin.json'));
    expect(stdin).toBe(`${JSON.stringify({ event: 'PreToolUse', context, cwd: project })}\n`);
    expect(stdin.split('\n')).toHaveLength(2);
    const envelope = JSON.parse(stdin);
    expect(Object.keys(envelope)).toEqual(['event', 'context', 'cwd']);
    expect(envelope.context).toEqual(context);
    expect(envelope.cwd).toBe(path.resolve(project));
    expect(read(path.join(project, 'pwd.txt')).trim()).toBe(realpathSync(project));
  });

  it('[L-EV-1] context.toolInput of any shape passes unchanged', async () => {
    const { project, engine } = await projectEngine({
      PreToolUse: [{ hooks: [cmd(`cat > stdin.json; ${ALLOW}`)] }],
    });
    const shapes: unknown[] = [
      'rm -rf /tmp/x && echo "done"',
      42,
      null,
      true,
      [1, [2, [3]], { a: 'b' }],
      { command: 'ls', args: ['-la'], env: { A: '1' } },
      {},
    ];
    for (const toolInput of shapes) {
      await engine.decide('PreToolUse', { toolName: 'Bash', toolInput });
      const envelope = JSON.parse(read(path.join(project, 'stdin.json')));
      expect(envelope.context, JSON.stringify(toolInput)).toEqual({ toolName: 'Bash', toolInput });
    }
  });

  it('[L-EV-1] the context is copied: mutating it after decide() does not change what the hook got', async () => {
    const { project, engine } = await projectEngine({
      PreToolUse: [{ hooks: [cmd(`sleep 0.2; cat > stdin.json; ${ALLOW}`)] }],
    });
    const context: Record<string, unknown> = { toolName: 'Write', toolInput: { path: 'a' } };
    const pending = engine.decide('PreToolUse', context);
    context.toolName = 'Changed';
    context.extra = 1;
    await pending;
    expect(JSON.parse(read(path.join(project, 'stdin.json'))).context).toEqual({
      toolName: 'Write',
      toolInput: { path: 'a' },
    });
  });
});

describe('[L-RUN-2] command hooks and their stdin', () => {
  it('[L-RUN-2] a hook that never reads a large stdin (2 MB context) still answers', async () => {
    const { engine } = await projectEngine({
      PreToolUse: [{ hooks: [cmd(`exec 0<&-; ${denyWith('did not read')}`)] }],
    });
    const d = await engine.decide('PreToolUse', {
      toolName: 'Write',
      toolInput: { content: 'x'.repeat(2_000_000) },
    });
    expect(d).toMatchObject({ decision: 'deny', reason: 'did not read' });
    expect(onlyRun(d)).toMatchObject({ outcome: 'deny', exitCode: 0 });
  });

  it('[L-RUN-2] a large context (2 MB) arrives whole', async () => {
    const { project, engine } = await projectEngine({
      PreToolUse: [{ hooks: [cmd(`cat > stdin.json; ${ALLOW}`)] }],
    });
    const content = 'y'.repeat(2_000_000);
    await engine.decide('PreToolUse', { toolName: 'Write', toolInput: { content } });
    expect(JSON.parse(read(path.join(project, 'stdin.json'))).context.toolInput.content).toBe(content);
  });
});

describe('[L-RUN-1] hooks run one after another; the first deny stops the rest', () => {
  it('[L-RUN-1] merged order is exact, and each hook waits for the previous one', async () => {
    const { project, engine } = await projectEngine({
      PreToolUse: [
        // `a` sleeps first: if hooks overlapped, `b` would be written before it.
        { hooks: [cmd(`sleep 0.3; echo a >> order.txt; ${ALLOW}`), mark('b')] },
        { matcher: 'Write', hooks: [mark('c')] },
        { matcher: 'Read', hooks: [mark('not-me')] },
        { hooks: [mark('d'), mark('e')] },
      ],
    });
    const d = await engine.decide('PreToolUse', { toolName: 'Write' });
    expect(orderOf(project)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(d.decision).toBe('allow');
    expect(d.runs.map((r) => r.outcome)).toEqual(['ok', 'ok', 'ok', 'ok', 'ok']);
    expect(d.runs.map((r) => r.source.split('#')[1])).toEqual([
      '/PreToolUse/0/hooks/0',
      '/PreToolUse/0/hooks/1',
      '/PreToolUse/1/hooks/0',
      '/PreToolUse/3/hooks/0',
      '/PreToolUse/3/hooks/1',
    ]);
  });

  it('[L-RUN-1] the first deny stops the rest of its definition and every later definition', async () => {
    const { project, engine } = await projectEngine({
      PreToolUse: [
        {
          hooks: [mark('a'), mark('d', denyWith('first')), mark('after-deny'), mark('x', denyWith('second'))],
        },
        { hooks: [mark('next-definition')] },
      ],
    });
    const d = await engine.decide('PreToolUse', { toolName: 'Write' });
    expect(d).toMatchObject({ decision: 'deny', blocked: true, reason: 'first' });
    expect(orderOf(project)).toEqual(['a', 'd']);
    expect(d.runs.map((r) => r.outcome)).toEqual(['ok', 'deny']);
  });

  it('[L-RUN-1] a deny in the first definition: the second definition never runs', async () => {
    const { project, engine } = await projectEngine({
      Stop: [{ hooks: [mark('one', denyWith('keep going'))] }, { hooks: [mark('two')] }],
    });
    const d = await engine.decide('Stop', { trigger: 'end_turn' });
    expect(d).toMatchObject({ decision: 'deny', blocked: true, reason: 'keep going' });
    expect(orderOf(project)).toEqual(['one']);
    expect(existsSync(path.join(project, 'two'))).toBe(false);
  });

  it('[L-RUN-1] a later decide() runs the whole chain again from the start', async () => {
    const { project, engine } = await projectEngine({
      PreToolUse: [{ hooks: [mark('a'), mark('b', denyWith('no')), mark('c')] }],
    });
    await engine.decide('PreToolUse', { toolName: 'Bash' });
    await engine.decide('PreToolUse', { toolName: 'Bash' });
    expect(orderOf(project)).toEqual(['a', 'b', 'a', 'b']);
  });
});

describe('[L-SRC-1..4] sources and merge', () => {
  /** All six sources, one marker hook each, for PreToolUse; settings files carry unrelated keys. */
  function sixSources(project: string, home: string): void {
    writeJson(lurusFile(home), { PreToolUse: [{ hooks: [mark('global-hooks.json')] }] });
    writeJson(lurusFile(home, 'settings.json'), {
      theme: 'dark',
      permissions: { allow: ['Bash(ls)'], deny: [] },
      model: 'some-model',
      hooks: { PreToolUse: [{ hooks: [mark('global-settings-hooks')] }] },
      globalHooks: { PreToolUse: [{ matcher: 'Write', hooks: [mark('global-settings-globalHooks')] }] },
    });
    writeJson(lurusFile(project), {
      $schema: 'https://example.invalid/lurus-hooks.json',
      PreToolUse: [{ matcher: '*', hooks: [mark('project-hooks.json')] }],
    });
    writeJson(lurusFile(project, 'settings.json'), {
      statusLine: { type: 'command', command: 'true' },
      env: { FOO: 'bar' },
      hooks: { PreToolUse: [{ hooks: [mark('project-settings-hooks')] }] },
      projectHooks: { PreToolUse: [{ hooks: [mark('project-settings-projectHooks')] }] },
    });
  }

  it('[L-SRC-3] [L-SRC-2] arrays are concatenated: global hooks.json, global settings hooks, globalHooks, project hooks.json, project settings hooks, projectHooks', async () => {
    const { project, home } = setup();
    sixSources(project, home);
    const engine = await engineFor(project, home);
    expect(engine.gate.config.issues).toEqual([]);
    const d = await engine.decide('PreToolUse', { toolName: 'Write', toolInput: {} });
    expect(d.decision).toBe('allow');
    expect(orderOf(project)).toEqual([
      'global-hooks.json',
      'global-settings-hooks',
      'global-settings-globalHooks',
      'project-hooks.json',
      'project-settings-hooks',
      'project-settings-projectHooks',
    ]);
    const g = path.join(home, '.lurus');
    const p = path.join(project, '.lurus');
    expect(d.runs.map((r) => r.source)).toEqual([
      `${g}/hooks.json#/PreToolUse/0/hooks/0`,
      `${g}/settings.json#/hooks/PreToolUse/0/hooks/0`,
      `${g}/settings.json#/globalHooks/PreToolUse/0/hooks/0`,
      `${p}/hooks.json#/PreToolUse/0/hooks/0`,
      `${p}/settings.json#/hooks/PreToolUse/0/hooks/0`,
      `${p}/settings.json#/projectHooks/PreToolUse/0/hooks/0`,
    ]);
  });

  it('[L-SRC-3] the order holds per event; a matcher that does not match only removes its own hook', async () => {
    const { project, home } = setup();
    sixSources(project, home);
    const engine = await engineFor(project, home);
    // globalHooks' matcher is "Write": a Read call skips just that one.
    await engine.decide('PreToolUse', { toolName: 'Read' });
    expect(orderOf(project)).toEqual([
      'global-hooks.json',
      'global-settings-hooks',
      'project-hooks.json',
      'project-settings-hooks',
      'project-settings-projectHooks',
    ]);
    // Another event has no hooks at all.
    expect(await engine.decide('PostToolUse', { toolName: 'Read' })).toEqual({
      decision: 'allow',
      blocked: false,
      runs: [],
    });
  });

  it('[L-SRC-2] settings files that hold only unrelated keys load without issues and add no hooks', async () => {
    const { project, home } = setup();
    writeJson(lurusFile(home, 'settings.json'), { theme: 'light', projectHooks: 'ignored in ~' });
    writeJson(lurusFile(project, 'settings.json'), { globalHooks: 'ignored in a project', other: [1, 2] });
    writeJson(lurusFile(project), { PreToolUse: [{ hooks: [mark('p')] }] });
    const engine = await engineFor(project, home);
    expect(engine.gate.config.issues).toEqual([]);
    const d = await engine.decide('PreToolUse', {});
    expect(d.runs).toHaveLength(1);
    expect(orderOf(project)).toEqual(['p']);
  });

  it('[L-SRC-4] no automatic reload: an edited hooks.json takes effect only after gate.reload()', async () => {
    const { project, home } = setup();
    writeJson(lurusFile(project), { PreToolUse: [{ hooks: [mark('old')] }] });
    const engine = await engineFor(project, home);
    await engine.decide('PreToolUse', { toolName: 'Write' });

    writeJson(lurusFile(project), { PreToolUse: [{ hooks: [mark('new', denyWith('new rules'))] }] });
    writeJson(lurusFile(home), { PreToolUse: [{ hooks: [mark('new-global')] }] });
    await sleep(150);
    const before = await engine.decide('PreToolUse', { toolName: 'Write' });
    expect(before.decision).toBe('allow');
    expect(orderOf(project)).toEqual(['old', 'old']);

    engine.gate.reload();
    const after = await engine.decide('PreToolUse', { toolName: 'Write' });
    expect(after).toMatchObject({ decision: 'deny', reason: 'new rules' });
    expect(orderOf(project)).toEqual(['old', 'old', 'new-global', 'new']);
  });

  it('[L-SRC-4] an invalid source is skipped whole and reported (file + path); the other sources still run', async () => {
    const { project, home } = setup();
    // Global hooks.json: fine.
    writeJson(lurusFile(home), { PreToolUse: [{ hooks: [mark('global-hooks.json')] }] });
    // Global settings: `hooks` names an unknown event (next to a valid one), `globalHooks` is fine.
    writeJson(lurusFile(home, 'settings.json'), {
      hooks: {
        PreToolUse: [{ hooks: [mark('in-invalid-global-hooks')] }],
        PreTooluse: [{ hooks: [mark('typo')] }],
      },
      globalHooks: { PreToolUse: [{ hooks: [mark('global-settings-globalHooks')] }] },
    });
    // Project hooks.json: bad JSON.
    writeJson(lurusFile(project), '{ "PreToolUse": [ { "hooks": [ ] } ], }');
    // Project settings: `hooks` fine, `projectHooks` has a forbidden header after a valid hook.
    writeJson(lurusFile(project, 'settings.json'), {
      hooks: { PreToolUse: [{ hooks: [mark('project-settings-hooks')] }] },
      projectHooks: {
        PreToolUse: [
          {
            hooks: [
              mark('in-invalid-projectHooks'),
              { type: 'http', url: 'http://127.0.0.1:9/x', headers: { authorization: 'Bearer s3cret' } },
            ],
          },
        ],
      },
    });
    const engine = await engineFor(project, home);
    const issues = engine.gate.config.issues;
    const globalSettings = lurusFile(home, 'settings.json');
    const projectHooks = lurusFile(project);
    const projectSettings = lurusFile(project, 'settings.json');
    expect(issues).toEqual(
      expect.arrayContaining([
        { file: globalSettings, path: '$.hooks.PreTooluse', message: expect.stringMatching(/unknown event/) },
        { file: projectHooks, path: '$', message: expect.stringMatching(/invalid JSON/) },
        {
          file: projectSettings,
          path: '$.projectHooks.PreToolUse[0].hooks[1].headers',
          message: expect.stringMatching(/authorization.*not allowed/i),
        },
      ]),
    );
    expect(issues).toHaveLength(3);
    expect(JSON.stringify(issues)).not.toContain('s3cret');
    const okOf = Object.fromEntries(engine.gate.config.sources.map((s) => [`${s.scope} ${s.label}`, s.ok]));
    expect(okOf).toEqual({
      'global hooks.json': true,
      'global settings.json hooks': false,
      'global settings.json globalHooks': true,
      'project hooks.json': false,
      'project settings.json hooks': true,
      'project settings.json projectHooks': false,
    });

    const d = await engine.decide('PreToolUse', { toolName: 'Write' });
    expect(d.decision).toBe('allow');
    expect(orderOf(project)).toEqual([
      'global-hooks.json',
      'global-settings-globalHooks',
      'project-settings-hooks',
    ]);
  });

  it('[L-SRC-4] reload() re-reads: fixing a broken source clears its issue and brings its hooks in', async () => {
    const { project, home } = setup();
    writeJson(lurusFile(project), '{ not json');
    const engine = await engineFor(project, home);
    expect(engine.gate.config.issues).toHaveLength(1);
    expect((await engine.decide('PreToolUse', {})).runs).toEqual([]);
    writeJson(lurusFile(project), { PreToolUse: [{ hooks: [mark('fixed')] }] });
    const config = engine.gate.reload();
    expect(config.issues).toEqual([]);
    expect(engine.gate.config.issues).toEqual([]);
    await engine.decide('PreToolUse', {});
    expect(orderOf(project)).toEqual(['fixed']);
  });
});

describe('[L-ANS-1] [L-ANS-2] answers', () => {
  it('[L-ANS-1] exit 0 + {"decision":"deny","reason":"r"} → deny, blocked on PreToolUse, reason r', async () => {
    const { engine } = await projectEngine({ PreToolUse: [{ hooks: [cmd(denyWith('r'))] }] });
    const d = await engine.decide('PreToolUse', { toolName: 'Bash' });
    expect(d).toMatchObject({ decision: 'deny', blocked: true, reason: 'r' });
    expect(onlyRun(d)).toMatchObject({ outcome: 'deny', decision: 'deny', exitCode: 0, reason: 'r' });
    expect(onlyRun(d).failed).toBeUndefined();
  });

  it('[L-ANS-1] an explicit allow answer allows', async () => {
    const { engine } = await projectEngine({
      PreToolUse: [{ hooks: [cmd(`echo '{"decision":"allow","reason":"fine"}'`)] }],
    });
    const d = await engine.decide('PreToolUse', { toolName: 'Bash' });
    expect(d).toMatchObject({ decision: 'allow', blocked: false });
    expect(onlyRun(d)).toMatchObject({ outcome: 'ok', decision: 'allow', exitCode: 0 });
  });

  it('[L-ANS-2] exit 2 → deny with the reason from stderr (trimmed), even with JSON on stdout', async () => {
    const { engine } = await projectEngine({
      PreToolUse: [{ hooks: [cmd(`echo '{"decision":"allow"}'; echo '  blocked by policy  ' >&2; exit 2`)] }],
    });
    const d = await engine.decide('PreToolUse', { toolName: 'Bash' });
    expect(d).toMatchObject({ decision: 'deny', blocked: true, reason: 'blocked by policy' });
    expect(onlyRun(d)).toMatchObject({ outcome: 'deny', exitCode: 2 });
  });

  it('[L-ANS-2] exit 2 with empty stderr → the reason comes from stdout (trimmed)', async () => {
    const { engine } = await projectEngine({
      PreToolUse: [{ hooks: [cmd(`printf '\\n  use the other tool \\n'; exit 2`)] }],
    });
    const d = await engine.decide('PreToolUse', { toolName: 'Bash' });
    expect(d).toMatchObject({ decision: 'deny', blocked: true, reason: 'use the other tool' });
  });

  it('[L-ANS-2] exit 2 with nothing on either stream still denies', async () => {
    const { engine } = await projectEngine({ PreToolUse: [{ hooks: [cmd('exit 2')] }] });
    const d = await engine.decide('PreToolUse', { toolName: 'Bash' });
    expect(d).toMatchObject({ decision: 'deny', blocked: true });
    expect(onlyRun(d).failed).toBeUndefined();
  });

  it('[L-ANS-1] a hook that logs lines to stdout and answers on its last line is understood', async () => {
    const { engine } = await projectEngine({
      PreToolUse: [
        {
          hooks: [
            cmd(
              `echo 'checking the command...'; echo 'found: rm -rf'; echo 'diag' >&2; ${denyWith('last line')}`,
            ),
          ],
        },
      ],
    });
    const d = await engine.decide('PreToolUse', { toolName: 'Bash' });
    expect(d).toMatchObject({ decision: 'deny', blocked: true, reason: 'last line' });
    expect(onlyRun(d).stderrTail).toContain('diag');
  });

  it('[L-ANS-1] a pretty-printed (multi-line) JSON answer is understood as a whole', async () => {
    const { engine } = await projectEngine({
      PreToolUse: [{ hooks: [cmd(`printf '{\\n  "decision": "deny",\\n  "reason": "pretty"\\n}\\n'`)] }],
    });
    const d = await engine.decide('PreToolUse', { toolName: 'Bash' });
    expect(d).toMatchObject({ decision: 'deny', reason: 'pretty' });
  });
});

describe('[L-ANS-3] fail-open: every failure allows, with its cause on the record', () => {
  const cases: Array<{
    name: string;
    hook: Hook;
    outcome: RunRecord['outcome'];
    cause: string;
    exitCode?: number;
    reason?: RegExp;
  }> = [
    {
      name: 'exit 1 (even with a deny on stdout)',
      hook: cmd(`${denyWith('ignored')}; exit 1`),
      outcome: 'error',
      cause: 'exit_code',
      exitCode: 1,
    },
    { name: 'exit 3', hook: cmd('exit 3'), outcome: 'error', cause: 'exit_code', exitCode: 3 },
    {
      name: 'invalid JSON',
      hook: cmd(`echo 'this is not json'`),
      outcome: 'error',
      cause: 'invalid_answer',
      exitCode: 0,
    },
    {
      name: 'log lines and a last line that is not JSON',
      hook: cmd(`echo '{"decision":"deny"}'; echo 'then some text'`),
      outcome: 'error',
      cause: 'invalid_answer',
    },
    {
      name: '"ask"',
      hook: cmd(`echo '{"decision":"ask","reason":"?"}'`),
      outcome: 'error',
      cause: 'invalid_answer',
      reason: /ask/,
    },
    {
      name: 'an unknown decision "block"',
      hook: cmd(`echo '{"decision":"block"}'`),
      outcome: 'error',
      cause: 'invalid_answer',
    },
    {
      name: 'a JSON answer that is not an object',
      hook: cmd(`echo '["deny"]'`),
      outcome: 'error',
      cause: 'invalid_answer',
    },
    { name: 'empty stdout', hook: cmd('true'), outcome: 'error', cause: 'invalid_answer', exitCode: 0 },
    {
      name: 'a missing script run directly (.lurus/hooks/nope.sh)',
      hook: cmd('.lurus/hooks/nope.sh'),
      outcome: 'error',
      cause: 'missing_script',
      reason: /not found/,
    },
    {
      name: 'command not found',
      hook: cmd('hookwerk-no-such-command-xyz --flag'),
      outcome: 'error',
      cause: 'exit_code',
      exitCode: 127,
      reason: /not found/,
    },
    {
      name: 'timeout (300 ms)',
      hook: cmd(`sleep 5; ${denyWith('too late')}`, { timeout: 300 }),
      outcome: 'timeout',
      cause: 'timeout',
    },
    {
      name: 'output over 1 MiB',
      hook: cmd(`head -c 2000000 /dev/zero | tr '\\0' x; ${denyWith('never')}`),
      outcome: 'error',
      cause: 'output_limit',
    },
    {
      name: 'killed by a signal',
      hook: cmd(`kill -9 $$`),
      outcome: 'error',
      cause: 'signal',
    },
  ];

  for (const c of cases) {
    it(`[L-ANS-3] ${c.name} → allow, outcome ${c.outcome}, cause ${c.cause}, failed open; later hooks still run`, async () => {
      const { project, engine } = await projectEngine({
        PreToolUse: [{ hooks: [c.hook, mark('after')] }],
      });
      const d = await engine.decide('PreToolUse', { toolName: 'Bash' });
      expect(d.decision).toBe('allow');
      expect(d.blocked).toBe(false);
      expect(d.reason).toBeUndefined();
      expect(d.runs).toHaveLength(2);
      const run = d.runs[0]!;
      expect(run).toMatchObject({ outcome: c.outcome, cause: c.cause, failed: 'open', decision: 'allow' });
      if (c.exitCode !== undefined) expect(run.exitCode).toBe(c.exitCode);
      if (c.reason !== undefined) expect(run.reason).toMatch(c.reason);
      expect(typeof run.reason).toBe('string');
      expect(d.runs[1]).toMatchObject({ outcome: 'ok' });
      expect(orderOf(project)).toEqual(['after']);
    });
  }

  it('[L-ANS-3] a spawn error (the project folder is gone) → allow, outcome spawn_error', async () => {
    const { project, home } = setup();
    writeJson(lurusFile(home), { PreToolUse: [{ hooks: [cmd(ALLOW)] }] });
    const gone = path.join(project, 'no-such-subfolder');
    const engine = await engineFor(gone, home);
    const d = await engine.decide('PreToolUse', { toolName: 'Bash' });
    expect(d).toMatchObject({ decision: 'allow', blocked: false });
    expect(onlyRun(d)).toMatchObject({
      outcome: 'spawn_error',
      cause: 'spawn_error',
      failed: 'open',
      decision: 'allow',
    });
  });

  it('[L-ANS-3] a missing script run as `sh .lurus/hooks/nope.sh` (what create-hook writes) fails open', async () => {
    // dash (Debian/Ubuntu /bin/sh) exits 2, not 127, when `sh FILE` cannot open FILE, which would
    // read as an explicit deny: the gate checks the script before running it.
    const { project, engine } = await projectEngine({
      PreToolUse: [{ hooks: [cmd('sh .lurus/hooks/nope.sh'), mark('after')] }],
    });
    const d = await engine.decide('PreToolUse', { toolName: 'Bash' });
    expect(d.decision).toBe('allow');
    expect(d.blocked).toBe(false);
    expect(d.runs[0]).toMatchObject({ outcome: 'error', failed: 'open', decision: 'allow' });
    expect(d.runs[0]!.reason).toMatch(/not found|cannot open|no such file|missing/i);
    expect(orderOf(project)).toEqual(['after']);
  });
});

describe('[L-ANS-3] (beyond) failMode "closed": the same failures deny', () => {
  it('[L-ANS-3] timeout → deny, blocked on PreToolUse, failed closed; later hooks do not run', async () => {
    const { project, engine } = await projectEngine({
      PreToolUse: [{ hooks: [cmd('sleep 5', { timeout: 300, failMode: 'closed' }), mark('after')] }],
    });
    const d = await engine.decide('PreToolUse', { toolName: 'Bash' });
    expect(d).toMatchObject({ decision: 'deny', blocked: true });
    expect(typeof d.reason).toBe('string');
    expect(onlyRun(d)).toMatchObject({
      outcome: 'timeout',
      cause: 'timeout',
      failed: 'closed',
      decision: 'deny',
    });
    expect(orderOf(project)).toEqual([]);
  });

  it('[L-ANS-3] exit 1 → deny, failed closed', async () => {
    const { engine } = await projectEngine({
      PreToolUse: [{ hooks: [cmd(`${ALLOW}; exit 1`, { failMode: 'closed' })] }],
    });
    const d = await engine.decide('PreToolUse', { toolName: 'Bash' });
    expect(d).toMatchObject({ decision: 'deny', blocked: true });
    expect(onlyRun(d)).toMatchObject({ outcome: 'error', cause: 'exit_code', exitCode: 1, failed: 'closed' });
  });

  it('[L-ANS-3] invalid answer ("ask") → deny, failed closed', async () => {
    const { engine } = await projectEngine({
      PreToolUse: [{ hooks: [cmd(`echo '{"decision":"ask"}'`, { failMode: 'closed' })] }],
    });
    const d = await engine.decide('PreToolUse', { toolName: 'Bash' });
    expect(d).toMatchObject({ decision: 'deny', blocked: true });
    expect(onlyRun(d)).toMatchObject({ cause: 'invalid_answer', failed: 'closed' });
  });

  it('[L-ANS-3] an explicit allow answer still allows, and nothing is marked failed', async () => {
    const { project, engine } = await projectEngine({
      PreToolUse: [{ hooks: [cmd(ALLOW, { failMode: 'closed' }), mark('after')] }],
    });
    const d = await engine.decide('PreToolUse', { toolName: 'Bash' });
    expect(d).toMatchObject({ decision: 'allow', blocked: false });
    expect(d.runs[0]).toMatchObject({ outcome: 'ok', decision: 'allow' });
    expect(d.runs[0]!.failed).toBeUndefined();
    expect(orderOf(project)).toEqual(['after']);
  });

  it('[L-ANS-3] failMode is per hook: a failing open hook next to a closed one that answers', async () => {
    const { engine } = await projectEngine({
      PreToolUse: [{ hooks: [cmd('exit 1'), cmd(ALLOW, { failMode: 'closed' })] }],
    });
    const d = await engine.decide('PreToolUse', { toolName: 'Bash' });
    expect(d.decision).toBe('allow');
    expect(d.runs.map((r) => [r.outcome, r.failed])).toEqual([
      ['error', 'open'],
      ['ok', undefined],
    ]);
  });
});

describe('[L-EV-2] deny on every event: reported, stops the rest, blocks only where the event can', () => {
  // The table of SPEC §2.2, written out (not taken from the implementation).
  const table: Array<[LurusEventName, Record<string, unknown>, boolean]> = [
    ['SessionStart', { trigger: 'startup' }, false],
    ['SessionEnd', { trigger: 'clear' }, false],
    ['UserPromptSubmit', { prompt: 'hello' }, true],
    ['PreToolUse', { toolName: 'Write', toolInput: { path: 'a' } }, true],
    ['PostToolUse', { toolName: 'Write', toolInput: { path: 'a' }, toolResult: 'ok' }, false],
    ['PostToolUseFailure', { toolName: 'Write', error: 'EACCES' }, false],
    ['SubagentStart', { toolName: 'general-purpose' }, false],
    ['SubagentStop', { toolName: 'general-purpose' }, true],
    ['Stop', { trigger: 'end_turn' }, true],
    ['PreCompact', { trigger: 'auto' }, true],
    ['Notification', { trigger: 'idle_prompt', message: 'waiting' }, false],
  ];

  it('[L-EV-2] all 11 events', async () => {
    const map: EventMap = {};
    for (const [event] of table) {
      map[event] = [
        { hooks: [cmd(`echo ${event} >> order.txt; ${denyWith(`no ${event}`)}`)] },
        { hooks: [mark(`after-${event}`)] },
      ];
    }
    const { project, engine } = await projectEngine(map);
    const seen: string[] = [];
    for (const [event, context, blocks] of table) {
      const d = await engine.decide(event, context);
      seen.push(event);
      expect(d, event).toMatchObject({ decision: 'deny', blocked: blocks, reason: `no ${event}` });
      expect(onlyRun(d), event).toMatchObject({ event, outcome: 'deny' });
      expect(orderOf(project), event).toEqual(seen);
    }
  });

  it('[L-EV-2] deny on PostToolUse: decision deny, not blocked, later hooks do not run', async () => {
    const { project, engine } = await projectEngine({
      PostToolUse: [
        { matcher: 'Write', hooks: [mark('first', denyWith('too late'))] },
        { hooks: [mark('second')] },
      ],
    });
    const d = await engine.decide('PostToolUse', { toolName: 'Write', toolInput: {} });
    expect(d).toMatchObject({ decision: 'deny', blocked: false, reason: 'too late' });
    expect(orderOf(project)).toEqual(['first']);
  });
});

describe('[L-ANS-4] the decision handed to the agent', () => {
  it('[L-ANS-4] additionalContext of allowing hooks joined with \\n in run order; exact shape', async () => {
    const ctx = (text: string) => `echo '{"decision":"allow","additionalContext":"${text}"}'`;
    const { project, engine } = await projectEngine({
      UserPromptSubmit: [
        { hooks: [cmd(ctx('first')), cmd(ALLOW)] },
        { hooks: [cmd(`sleep 0.1; ${ctx('second')}`), cmd(ctx('third'))] },
      ],
    });
    const d = await engine.decide('UserPromptSubmit', { prompt: 'hi' });
    expect(Object.keys(d).sort()).toEqual(['additionalContext', 'blocked', 'decision', 'runs']);
    expect(d.decision).toBe('allow');
    expect(d.blocked).toBe(false);
    expect(d.additionalContext).toBe('first\nsecond\nthird');
    expect(d.runs.map((r) => r.additionalContext)).toEqual(['first', undefined, 'second', 'third']);

    const file = path.join(project, '.lurus', 'hooks.json');
    const run = d.runs[0]!;
    expect(run).toMatchObject({
      hook: `echo '{"decision":"allow","additionalContext":"first"}'`,
      source: `${file}#/UserPromptSubmit/0/hooks/0`,
      event: 'UserPromptSubmit',
      outcome: 'ok',
      exitCode: 0,
    });
    expect(typeof run.durationMs).toBe('number');
    expect(run.durationMs).toBeGreaterThanOrEqual(0);
    expect(Number.isNaN(Date.parse(run.at))).toBe(false);
    expect(d.runs[2]!.source).toBe(`${file}#/UserPromptSubmit/1/hooks/0`);
  });

  it('[L-ANS-4] an allow without hooks contexts has no additionalContext or reason keys', async () => {
    const { engine } = await projectEngine({ PreToolUse: [{ hooks: [cmd(ALLOW)] }] });
    const d = await engine.decide('PreToolUse', { toolName: 'Read' });
    expect(Object.keys(d).sort()).toEqual(['blocked', 'decision', 'runs']);
  });

  it('[L-ANS-4] a deny carries its reason; contexts from the hooks before it are kept', async () => {
    const { engine } = await projectEngine({
      PreToolUse: [
        {
          hooks: [
            cmd(`echo '{"decision":"allow","additionalContext":"note"}'`),
            cmd(denyWith('stop')),
            cmd(`echo '{"decision":"allow","additionalContext":"never"}'`),
          ],
        },
      ],
    });
    const d = await engine.decide('PreToolUse', { toolName: 'Read' });
    expect(d).toMatchObject({ decision: 'deny', blocked: true, reason: 'stop' });
    expect(d.additionalContext?.split('\n')[0]).toBe('note');
    expect(d.additionalContext).not.toContain('never');
    expect(d.runs).toHaveLength(2);
  });

  it('[L-ANS-4] run records also reach engine.runs() and the bus (hookwerk.run.<outcome>)', async () => {
    const { engine } = await projectEngine({ PreToolUse: [{ hooks: [cmd(denyWith('x'))] }] });
    const published: unknown[] = [];
    engine.bus.subscribe('hookwerk.run.deny', (msg) => {
      published.push(msg);
    });
    const d = await engine.decide('PreToolUse', { toolName: 'Read' });
    await engine.drain();
    expect(engine.runs({ event: 'PreToolUse' })[0]).toMatchObject({ outcome: 'deny', hook: d.runs[0]!.hook });
    expect(published).toHaveLength(1);
  });
});

describe('[L-RUN-3] the environment of a command hook is an allowlist', () => {
  const ALLOWED = new Set(['PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'LANG', 'TERM', 'TMPDIR', 'TZ']);
  /** What a shell adds by itself (dash: PWD; bash as sh: also SHLVL, _, OLDPWD). */
  const SHELL_ADDED = new Set(['PWD', 'SHLVL', '_', 'OLDPWD']);
  const CANARIES = [
    'SECRET_TOKEN',
    'MY_VAR',
    'LURUS_HOOK_PASS_ENV',
    'LC_HOOKWERK_TEST',
    'MY_LATE',
    'AWS_SECRET_ACCESS_KEY',
  ];

  function readEnv(file: string): Map<string, string> {
    const out = new Map<string, string>();
    for (const entry of read(file).split('\0')) {
      if (entry === '') continue;
      const eq = entry.indexOf('=');
      out.set(entry.slice(0, eq), entry.slice(eq + 1));
    }
    return out;
  }

  it('[L-RUN-3] [L-TRUST-10] only PATH HOME USER LOGNAME SHELL LANG LC_* TERM TMPDIR TZ, plus LURUS_HOOK_PASS_ENV names, CLAUDE_PROJECT_DIR and the Python cache settings; snapshotted at load', async () => {
    const saved = Object.fromEntries(CANARIES.map((k) => [k, process.env[k]]));
    try {
      process.env.SECRET_TOKEN = 'canary-secret';
      process.env.AWS_SECRET_ACCESS_KEY = 'canary-aws';
      process.env.MY_VAR = 'passed through';
      process.env.LC_HOOKWERK_TEST = 'lc-value';
      process.env.LURUS_HOOK_PASS_ENV = ' MY_VAR , NOT_SET_ANYWHERE';
      delete process.env.MY_LATE;

      const { project, engine } = await projectEngine({
        PreToolUse: [{ hooks: [cmd(`env -0 > env.bin; ${ALLOW}`)] }],
      });
      const expected = new Map<string, string>();
      for (const [k, v] of Object.entries(process.env)) {
        if (v !== undefined && (ALLOWED.has(k) || k.startsWith('LC_') || k === 'MY_VAR')) expected.set(k, v);
      }
      // [L-RUN-3] Plus CLAUDE_PROJECT_DIR, so hooks written for Claude Code find their files.
      expected.set('CLAUDE_PROJECT_DIR', realpathSync(project));
      // [L-TRUST-10] And no Python bytecode cache is read or written.
      expected.set('PYTHONDONTWRITEBYTECODE', '1');
      expected.set('PYTHONPYCACHEPREFIX', '/dev/null/hookwerk-pycache');
      // Set after the engine read its environment: not seen until reload().
      process.env.MY_LATE = 'late';
      process.env.LURUS_HOOK_PASS_ENV = 'MY_VAR,MY_LATE';

      await engine.decide('PreToolUse', { toolName: 'Bash' });
      const env = readEnv(path.join(project, 'env.bin'));
      for (const name of SHELL_ADDED) env.delete(name);
      expect(Object.fromEntries(env)).toEqual(Object.fromEntries(expected));
      expect(env.get('MY_VAR')).toBe('passed through');
      expect(env.get('LC_HOOKWERK_TEST')).toBe('lc-value');
      expect(env.has('SECRET_TOKEN')).toBe(false);
      expect(env.has('AWS_SECRET_ACCESS_KEY')).toBe(false);
      expect(env.has('LURUS_HOOK_PASS_ENV')).toBe(false);
      expect(env.has('NOT_SET_ANYWHERE')).toBe(false);
      expect(env.has('MY_LATE')).toBe(false);
      expect(read(path.join(project, 'env.bin'))).not.toContain('canary-');

      engine.gate.reload();
      await engine.decide('PreToolUse', { toolName: 'Bash' });
      const reloaded = readEnv(path.join(project, 'env.bin'));
      expect(reloaded.get('MY_LATE')).toBe('late');
      expect(reloaded.get('MY_VAR')).toBe('passed through');
      expect(reloaded.has('SECRET_TOKEN')).toBe(false);
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });
});

describe('[L-RUN-4] timeout stops the whole process group', () => {
  const stubborn = [
    // The script is a child of `sh -c`: the leader dies of SIGTERM, the script and its child live on.
    { command: '.lurus/hooks/stubborn.sh', leader: 'the shell' },
    // The script replaces `sh -c`: the group leader itself ignores SIGTERM and needs the SIGKILL.
    { command: 'exec .lurus/hooks/stubborn.sh', leader: 'the script', signal: 'SIGKILL' },
  ];
  for (const { command, leader, signal } of stubborn) {
    it(`[L-RUN-4] a hook that ignores TERM and leaves a grandchild (leader: ${leader}): after the timeout both are gone; allow`, async () => {
      const { project, home } = setup();
      writeScript(
        project,
        '.lurus/hooks/stubborn.sh',
        [
          "trap '' TERM",
          "( trap '' TERM; exec sleep 60 ) &",
          'echo $! > grandchild.pid',
          'echo $$ > child.pid',
          'while :; do sleep 1; done',
        ].join('\n'),
      );
      writeJson(lurusFile(project), {
        PreToolUse: [{ hooks: [cmd(command, { timeout: 300 }), mark('after')] }],
      });
      const engine = await engineFor(project, home);
      const d = await engine.decide('PreToolUse', { toolName: 'Bash' });
      expect(d).toMatchObject({ decision: 'allow', blocked: false });
      expect(d.runs[0]).toMatchObject({
        outcome: 'timeout',
        cause: 'timeout',
        failed: 'open',
        decision: 'allow',
      });
      if (signal !== undefined) expect(d.runs[0]!.signal).toBe(signal);
      expect(orderOf(project)).toEqual(['after']);

      const child = Number(read(path.join(project, 'child.pid')).trim());
      const grandchild = Number(read(path.join(project, 'grandchild.pid')).trim());
      expect(child).toBeGreaterThan(1);
      expect(grandchild).toBeGreaterThan(1);
      expect(processAlive(child)).toBe(false);
      expect(processAlive(grandchild)).toBe(false);
    });
  }

  it('[L-RUN-4] a background grandchild of a hook that times out is stopped with it', async () => {
    const { project, engine } = await projectEngine({
      PreToolUse: [{ hooks: [cmd('sleep 60 & echo $! > grandchild.pid; wait', { timeout: 300 })] }],
    });
    const d = await engine.decide('PreToolUse', { toolName: 'Bash' });
    expect(onlyRun(d)).toMatchObject({ outcome: 'timeout', decision: 'allow' });
    expect(processAlive(Number(read(path.join(project, 'grandchild.pid')).trim()))).toBe(false);
  });
});

describe('[L-RUN-5] HTTP hooks', () => {
  const http_ = (url: string, extra: Hook = {}): Hook => ({ type: 'http', url, ...extra });

  it('[L-RUN-5] the server gets the envelope JSON as the body, content-type application/json, the configured method (PUT)', async () => {
    const server = await startServer((_req, res) => reply(res, 200, { decision: 'allow' }));
    const { project, engine } = await projectEngine({
      PreToolUse: [{ hooks: [http_(server.url, { method: 'PUT', headers: { 'X-Hook': 'yes' } })] }],
    });
    const context = { toolName: 'Write', toolInput: { path: 'a.txt', lines: ['x', 'y'] } };
    const d = await engine.decide('PreToolUse', context);
    expect(d.decision).toBe('allow');
    expect(onlyRun(d)).toMatchObject({ outcome: 'ok', status: 200, hook: `PUT ${server.url}` });
    expect(server.hits).toHaveLength(1);
    const hit = server.hits[0]!;
    expect(hit.method).toBe('PUT');
    expect(hit.url).toBe('/hook');
    expect(hit.headers['content-type']).toBe('application/json');
    expect(hit.headers['x-hook']).toBe('yes');
    expect(hit.body).toBe(JSON.stringify({ event: 'PreToolUse', context, cwd: project }));
  });

  it('[L-RUN-5] POST is the default method', async () => {
    const server = await startServer((_req, res) => reply(res, 200, { decision: 'allow' }));
    const { engine } = await projectEngine({ Stop: [{ hooks: [http_(server.url)] }] });
    await engine.decide('Stop', { trigger: 'end_turn' });
    expect(server.hits.map((h) => h.method)).toEqual(['POST']);
  });

  it('[L-RUN-5] 2xx {"decision":"deny","reason":"x"} → deny', async () => {
    const server = await startServer((_req, res) => reply(res, 201, { decision: 'deny', reason: 'x' }));
    const { project, engine } = await projectEngine({
      PreToolUse: [{ hooks: [http_(server.url), mark('after')] }],
    });
    const d = await engine.decide('PreToolUse', { toolName: 'Bash' });
    expect(d).toMatchObject({ decision: 'deny', blocked: true, reason: 'x' });
    expect(onlyRun(d)).toMatchObject({ outcome: 'deny', status: 201 });
    expect(orderOf(project)).toEqual([]);
  });

  it('[L-RUN-5] [L-ANS-3] 500 → allow, cause http_status, status 500', async () => {
    const server = await startServer((_req, res) => reply(res, 500, { decision: 'deny', reason: 'x' }));
    const { engine } = await projectEngine({ PreToolUse: [{ hooks: [http_(server.url)] }] });
    const d = await engine.decide('PreToolUse', { toolName: 'Bash' });
    expect(d).toMatchObject({ decision: 'allow', blocked: false });
    expect(onlyRun(d)).toMatchObject({
      outcome: 'error',
      cause: 'http_status',
      status: 500,
      failed: 'open',
    });
  });

  it('[L-RUN-5] [L-ANS-3] 2xx with an invalid body → allow, cause invalid_answer', async () => {
    const server = await startServer((_req, res) => reply(res, 200, '<html>ok</html>'));
    const { engine } = await projectEngine({ PreToolUse: [{ hooks: [http_(server.url)] }] });
    const d = await engine.decide('PreToolUse', { toolName: 'Bash' });
    expect(d.decision).toBe('allow');
    expect(onlyRun(d)).toMatchObject({ cause: 'invalid_answer', status: 200, failed: 'open' });
  });

  it('[L-RUN-5] [L-ANS-3] connection refused → allow, cause transport', async () => {
    const port = await deadPort();
    const { engine } = await projectEngine({
      PreToolUse: [{ hooks: [http_(`http://127.0.0.1:${port}/hook`)] }],
    });
    const d = await engine.decide('PreToolUse', { toolName: 'Bash' });
    expect(d).toMatchObject({ decision: 'allow', blocked: false });
    expect(onlyRun(d)).toMatchObject({ outcome: 'error', cause: 'transport', failed: 'open' });
    expect(onlyRun(d).status).toBeUndefined();
  });

  it('[L-RUN-5] a 302 is not followed: the target gets no request; allow, cause http_status', async () => {
    const target = await startServer((_req, res) =>
      reply(res, 200, { decision: 'deny', reason: 'followed' }),
    );
    const redirector = await startServer((_req, res) => {
      res.writeHead(302, { location: target.url, 'content-length': 0 });
      res.end();
    });
    const { engine } = await projectEngine({ PreToolUse: [{ hooks: [http_(redirector.url)] }] });
    const d = await engine.decide('PreToolUse', { toolName: 'Bash' });
    expect(d).toMatchObject({ decision: 'allow', blocked: false });
    expect(onlyRun(d)).toMatchObject({ cause: 'http_status', status: 302, failed: 'open' });
    expect(redirector.hits).toHaveLength(1);
    expect(target.hits).toHaveLength(0);
  });

  it('[L-RUN-5] an answer over 1 MiB (2 MiB) → allow, cause output_limit', async () => {
    const big = JSON.stringify({ decision: 'deny', reason: 'x'.repeat(2 * 1024 * 1024) });
    const server = await startServer((_req, res) => reply(res, 200, big));
    const { engine } = await projectEngine({ PreToolUse: [{ hooks: [http_(server.url)] }] });
    const d = await engine.decide('PreToolUse', { toolName: 'Bash' });
    expect(d).toMatchObject({ decision: 'allow', blocked: false });
    expect(onlyRun(d)).toMatchObject({ outcome: 'error', cause: 'output_limit', failed: 'open' });
  });

  it('[L-RUN-5] [L-ANS-3] no answer within the timeout → allow, cause timeout', async () => {
    const server = await startServer(() => {
      // never answers
    });
    const { engine } = await projectEngine({
      PreToolUse: [{ hooks: [http_(server.url, { timeout: 300 })] }],
    });
    const d = await engine.decide('PreToolUse', { toolName: 'Bash' });
    expect(d).toMatchObject({ decision: 'allow', blocked: false });
    expect(onlyRun(d)).toMatchObject({ outcome: 'timeout', cause: 'timeout', failed: 'open' });
    expect(server.hits).toHaveLength(1);
  });

  it('[L-RUN-5] [L-ANS-3] failMode closed + 500 → deny, blocked', async () => {
    const server = await startServer((_req, res) => reply(res, 500, 'oops'));
    const { engine } = await projectEngine({
      PreToolUse: [{ hooks: [http_(server.url, { failMode: 'closed' })] }],
    });
    const d = await engine.decide('PreToolUse', { toolName: 'Bash' });
    expect(d).toMatchObject({ decision: 'deny', blocked: true });
    expect(onlyRun(d)).toMatchObject({
      cause: 'http_status',
      status: 500,
      failed: 'closed',
      decision: 'deny',
    });
  });

  it('[L-RUN-5] methods other than POST/PUT/PATCH and credential headers are refused at load', async () => {
    const { project, home } = setup();
    writeJson(lurusFile(project), {
      PreToolUse: [{ hooks: [http_('http://127.0.0.1:9/a', { method: 'GET' })] }],
    });
    writeJson(lurusFile(project, 'settings.json'), {
      hooks: { PreToolUse: [{ hooks: [http_('http://127.0.0.1:9/b', { headers: { 'X-Api-Key': 'k' } })] }] },
      projectHooks: {
        PreToolUse: [{ hooks: [http_('http://127.0.0.1:9/c', { headers: { 'X-A': 'a\r\nb: c' } })] }],
      },
    });
    const engine = await engineFor(project, home);
    expect(engine.gate.config.issues.map((i) => i.path)).toEqual([
      '$.PreToolUse[0].hooks[0].method',
      '$.hooks.PreToolUse[0].hooks[0].headers',
      '$.projectHooks.PreToolUse[0].hooks[0].headers',
    ]);
    expect((await engine.decide('PreToolUse', { toolName: 'Bash' })).runs).toEqual([]);
  });
});

describe('[L-TRUST-1] consent with the real trust store under the temp HOME', () => {
  const GUARD = '.lurus/hooks/guard.sh';

  function consentProject(): { project: string; home: string; guard: string } {
    const { project, home } = setup();
    const guard = writeScript(
      project,
      GUARD,
      `echo ran >> ran.txt\necho '{"decision":"deny","reason":"guard says no"}'`,
    );
    writeJson(lurusFile(project), { PreToolUse: [{ matcher: 'Bash', hooks: [cmd(`sh ${GUARD}`)] }] });
    writeJson(lurusFile(home), {
      PreToolUse: [{ hooks: [cmd(`echo global >> global.txt; ${ALLOW}`)] }],
    });
    return { project, home, guard };
  }

  const ranCount = (project: string) => {
    const file = path.join(project, 'ran.txt');
    return existsSync(file) ? read(file).trim().split('\n').length : 0;
  };
  const globalCount = (project: string) => read(path.join(project, 'global.txt')).trim().split('\n').length;
  const approve = (project: string, home: string) =>
    approveProject(loadLurusConfig({ projectDir: project, home }));

  it('[L-TRUST-1] without approval project hooks are skipped (skipped_untrusted), never run; global hooks run', async () => {
    const { project, home } = consentProject();
    const engine = await engineWithRealTrust(project, home);
    expect(engine.gate.trust.trusted).toBe(false);
    const d = await engine.decide('PreToolUse', { toolName: 'Bash', toolInput: { command: 'ls' } });
    expect(d).toMatchObject({ decision: 'allow', blocked: false });
    expect(d.runs.map((r) => r.outcome)).toEqual(['ok', 'skipped_untrusted']);
    expect(d.runs[1]).toMatchObject({
      hook: `sh ${GUARD}`,
      source: `${lurusFile(project)}#/PreToolUse/0/hooks/0`,
      cause: 'untrusted',
    });
    expect(d.runs[1]!.reason).toMatch(/trust/);
    expect(ranCount(project)).toBe(0);
    expect(globalCount(project)).toBe(1);
    expect(existsSync(trustStorePath(home))).toBe(false);
  });

  it('[L-TRUST-1] after approveProject the project hooks run (a new engine reads the store under HOME)', async () => {
    const { project, home } = consentProject();
    approve(project, home);
    expect(existsSync(trustStorePath(home))).toBe(true);
    const engine = await engineWithRealTrust(project, home);
    expect(engine.gate.trust.trusted).toBe(true);
    const d = await engine.decide('PreToolUse', { toolName: 'Bash' });
    expect(d).toMatchObject({ decision: 'deny', blocked: true, reason: 'guard says no' });
    expect(d.runs.map((r) => r.outcome)).toEqual(['ok', 'deny']);
    expect(ranCount(project)).toBe(1);
  });

  it('[L-TRUST-1] [L-TRUST-6] a one-byte change to the referenced script after approval → skipped with cause changed_since_approval (new engine)', async () => {
    const { project, home, guard } = consentProject();
    approve(project, home);
    appendFileSync(guard, ' ');
    const engine = await engineWithRealTrust(project, home);
    // The approval stands; the hook cannot run as approved.
    expect(engine.gate.trust.trusted).toBe(true);
    const d = await engine.decide('PreToolUse', { toolName: 'Bash' });
    expect(d.decision).toBe('allow');
    expect(d.runs.map((r) => r.outcome)).toEqual(['ok', 'skipped_untrusted']);
    expect(d.runs[1]).toMatchObject({ cause: 'changed_since_approval' });
    expect(d.runs[1]!.reason).toContain('guard.sh changed since approval');
    expect(ranCount(project)).toBe(0);
    expect(globalCount(project)).toBe(1);
  });

  it('[L-TRUST-1] a one-byte change DURING a session is caught before the next run; restoring the bytes runs it again', async () => {
    const { project, home, guard } = consentProject();
    approve(project, home);
    const engine = await engineWithRealTrust(project, home);
    const first = await engine.decide('PreToolUse', { toolName: 'Bash' });
    expect(first.decision).toBe('deny');
    expect(ranCount(project)).toBe(1);

    const original = read(guard);
    // Same length, one byte different: the edited script would record "RAN".
    writeFileSync(guard, original.replace('echo ran', 'echo RAN'));
    const second = await engine.decide('PreToolUse', { toolName: 'Bash' });
    expect(second).toMatchObject({ decision: 'allow', blocked: false });
    expect(second.runs.map((r) => r.outcome)).toEqual(['ok', 'skipped_untrusted']);
    expect(second.runs[1]!.reason).toMatch(/changed since approval/);
    expect(read(path.join(project, 'ran.txt'))).not.toContain('RAN');
    expect(ranCount(project)).toBe(1);

    writeFileSync(guard, original);
    const third = await engine.decide('PreToolUse', { toolName: 'Bash' });
    expect(third.decision).toBe('deny');
    expect(ranCount(project)).toBe(2);
    expect(globalCount(project)).toBe(3);
  });

  it('[L-TRUST-1] a script deleted during a session is not run (pinned present, now absent)', async () => {
    const { project, home } = consentProject();
    approve(project, home);
    const engine = await engineWithRealTrust(project, home);
    await engine.decide('PreToolUse', { toolName: 'Bash' });
    rmSync(path.join(project, GUARD));
    const d = await engine.decide('PreToolUse', { toolName: 'Bash' });
    expect(d.runs.map((r) => r.outcome)).toEqual(['ok', 'skipped_untrusted']);
  });

  it('[L-TRUST-1] approval of another project does not approve this one', async () => {
    const { project, home } = consentProject();
    const other = tempDir('hw-other-');
    writeJson(lurusFile(other), { PreToolUse: [{ hooks: [cmd(ALLOW)] }] });
    approve(other, home);
    const engine = await engineWithRealTrust(project, home);
    const d = await engine.decide('PreToolUse', { toolName: 'Bash' });
    expect(d.runs.map((r) => r.outcome)).toEqual(['ok', 'skipped_untrusted']);
  });

  it('[L-TRUST-1] global hooks run without any approval, even with no project hooks at all', async () => {
    const { project, home } = setup();
    writeJson(lurusFile(home), { Stop: [{ hooks: [mark('global', denyWith('continue'))] }] });
    const engine = await engineWithRealTrust(project, home);
    const d = await engine.decide('Stop', { trigger: 'end_turn' });
    expect(d).toMatchObject({ decision: 'deny', blocked: true, reason: 'continue' });
    expect(orderOf(project)).toEqual(['global']);
  });

  it('[L-TRUST-1] [L-SRC-5] project settings sources and project HTTP hooks need consent too: nothing is sent before it', async () => {
    const { project, home } = setup();
    const server = await startServer((_req, res) => reply(res, 200, { decision: 'allow' }));
    writeJson(lurusFile(project, 'settings.json'), {
      hooks: { PreToolUse: [{ hooks: [{ type: 'http', url: server.url }] }] },
      projectHooks: { PreToolUse: [{ hooks: [mark('project-settings')] }] },
    });
    const engine = await engineWithRealTrust(project, home);
    const d = await engine.decide('PreToolUse', { toolName: 'Bash', toolInput: { secret: 'data' } });
    expect(d.runs.map((r) => r.outcome)).toEqual(['skipped_untrusted', 'skipped_untrusted']);
    expect(server.hits).toHaveLength(0);
    expect(orderOf(project)).toEqual([]);

    approve(project, home);
    engine.gate.reload();
    const after = await engine.decide('PreToolUse', { toolName: 'Bash' });
    expect(after.runs.map((r) => r.outcome)).toEqual(['ok', 'ok']);
    expect(server.hits).toHaveLength(1);
    expect(orderOf(project)).toEqual(['project-settings']);
  });

  it('[L-TRUST-6] a change to .lurus/hooks.json after approval: the approved text keeps running, the new version waits', async () => {
    const { project, home } = consentProject();
    approve(project, home);
    writeJson(lurusFile(project), {
      PreToolUse: [{ matcher: 'Bash', hooks: [mark('added'), cmd(`sh ${GUARD}`)] }],
    });
    const engine = await engineWithRealTrust(project, home);
    expect(engine.gate.trust.pending).toEqual([lurusFile(realpathSync(project))]);
    const d = await engine.decide('PreToolUse', { toolName: 'Bash' });
    // The approved guard ran and denied; the added hook never ran.
    expect(d).toMatchObject({ decision: 'deny', blocked: true, reason: 'guard says no' });
    expect(d.runs.map((r) => r.outcome)).toEqual(['ok', 'deny']);
    expect(d.runs[1]).toMatchObject({ hook: `sh ${GUARD}`, consent: 'newer_version_pending' });
    expect(ranCount(project)).toBe(1);
    expect(orderOf(project)).toEqual([]);
  });

  it('[L-TRUST-1] a project approved and opened through a symlinked path runs its hooks', async () => {
    // The store is keyed by real path and pins are taken under the real path; the gate's
    // mid-session re-check looks the pins up under the given (symlink) path and finds none.
    const { project, home } = consentProject();
    const link = path.join(tempDir('hw-link-'), 'proj');
    symlinkSync(project, link, 'dir');
    approve(link, home);
    const engine = await engineWithRealTrust(link, home);
    expect(engine.gate.trust.trusted).toBe(true);
    const d = await engine.decide('PreToolUse', { toolName: 'Bash' });
    expect(d.runs.map((r) => r.outcome)).toEqual(['ok', 'deny']);
    expect(ranCount(project)).toBe(1);
  });
});

describe('(beyond, SPEC §4) in-process hooks', () => {
  it('[§4] use(PreToolUse, {matcher: "Write"}) denies Write, not Read; its record has source in-process', async () => {
    const { project, home } = setup();
    const engine = await engineFor(project, home);
    const seen: unknown[] = [];
    engine.use('PreToolUse', { matcher: 'Write' }, async (ctx, info) => {
      seen.push({ ctx, event: info.event, cwd: info.cwd, signal: info.signal instanceof AbortSignal });
      return { decision: 'deny', reason: 'no' };
    });
    const d = await engine.decide('PreToolUse', { toolName: 'Write', toolInput: { path: 'x' } });
    expect(d).toMatchObject({ decision: 'deny', blocked: true, reason: 'no' });
    expect(onlyRun(d)).toMatchObject({
      source: 'in-process',
      hook: 'in-process:PreToolUse#1',
      event: 'PreToolUse',
      outcome: 'deny',
      decision: 'deny',
    });
    expect(seen).toEqual([
      {
        ctx: { toolName: 'Write', toolInput: { path: 'x' } },
        event: 'PreToolUse',
        cwd: project,
        signal: true,
      },
    ]);
    expect(await engine.decide('PreToolUse', { toolName: 'Read' })).toEqual({
      decision: 'allow',
      blocked: false,
      runs: [],
    });
    expect(seen).toHaveLength(1);
  });

  it('[§4] returning undefined allows (outcome ok); an answer with additionalContext is kept', async () => {
    const { project, home } = setup();
    const engine = await engineFor(project, home);
    engine.use('UserPromptSubmit', {}, () => undefined);
    engine.use('UserPromptSubmit', { name: 'ctx' }, async () => ({
      decision: 'allow',
      additionalContext: 'from code',
    }));
    const d = await engine.decide('UserPromptSubmit', { prompt: 'x' });
    expect(d).toMatchObject({ decision: 'allow', blocked: false, additionalContext: 'from code' });
    expect(d.runs.map((r) => [r.hook, r.outcome])).toEqual([
      ['in-process:UserPromptSubmit#1', 'ok'],
      ['ctx', 'ok'],
    ]);
  });

  it('[L-RUN-1] sync and async hooks mixed: run in order, contexts joined, the first deny stops the rest', async () => {
    const { project, home } = setup();
    const engine = await engineFor(project, home);
    const order: string[] = [];
    engine.use('PreToolUse', { name: 'sync-ctx' }, () => {
      order.push('sync-ctx');
      return { decision: 'allow', additionalContext: 'a' };
    });
    engine.use('PreToolUse', { name: 'async-ctx' }, async () => {
      await new Promise((r) => setImmediate(r));
      order.push('async-ctx');
      return { decision: 'allow', additionalContext: 'b' };
    });
    engine.use('PreToolUse', { name: 'sync-deny' }, () => {
      order.push('sync-deny');
      return { decision: 'deny', reason: 'no' };
    });
    engine.use('PreToolUse', { name: 'never' }, () => {
      order.push('never');
    });
    const d = await engine.decide('PreToolUse', { toolName: 'Bash' });
    expect(order).toEqual(['sync-ctx', 'async-ctx', 'sync-deny']);
    expect(d).toMatchObject({ decision: 'deny', blocked: true, reason: 'no', additionalContext: 'a\nb' });
    expect(d.runs.map((r) => r.hook)).toEqual(['sync-ctx', 'async-ctx', 'sync-deny']);
    // Every decision, synchronous or not, is settled: close() does not wait for one.
    await engine.decide('PreToolUse', { toolName: 'Bash' });
    await engine.close();
    await expect(engine.decide('PreToolUse', { toolName: 'Bash' })).rejects.toThrow(/closed/);
  });

  it('[§4] [L-ANS-3] throwing → allow, cause exception (fail-open); failMode closed → deny', async () => {
    const { project, home } = setup();
    const engine = await engineFor(project, home);
    const off = engine.use('PreToolUse', {}, () => {
      throw new Error('boom');
    });
    const open = await engine.decide('PreToolUse', { toolName: 'Bash' });
    expect(open).toMatchObject({ decision: 'allow', blocked: false });
    expect(onlyRun(open)).toMatchObject({
      outcome: 'error',
      cause: 'exception',
      reason: 'boom',
      failed: 'open',
      source: 'in-process',
    });
    off();
    engine.use('PreToolUse', { failMode: 'closed' }, async () => {
      throw new Error('boom closed');
    });
    const closed = await engine.decide('PreToolUse', { toolName: 'Bash' });
    expect(closed).toMatchObject({ decision: 'deny', blocked: true, reason: 'boom closed' });
    expect(onlyRun(closed)).toMatchObject({ cause: 'exception', failed: 'closed' });
  });

  it('[§4] [L-ANS-3] an invalid answer from code ("ask") fails open with cause invalid_answer', async () => {
    const { project, home } = setup();
    const engine = await engineFor(project, home);
    engine.use('PreToolUse', {}, async () => ({ decision: 'ask' }) as unknown as GateAnswer);
    const d = await engine.decide('PreToolUse', { toolName: 'Bash' });
    expect(d.decision).toBe('allow');
    expect(onlyRun(d)).toMatchObject({ outcome: 'error', cause: 'invalid_answer', failed: 'open' });
  });

  it('[§4] timeout (50 ms, the hook awaits 1 s) → outcome timeout, allow, and its AbortSignal is aborted', async () => {
    const { project, home } = setup();
    const engine = await engineFor(project, home);
    let signal: AbortSignal | undefined;
    let abortedEvent = false;
    engine.use('PreToolUse', { timeout: 50 }, async (_ctx, info) => {
      signal = info.signal;
      info.signal.addEventListener('abort', () => {
        abortedEvent = true;
      });
      await sleep(1000);
      return { decision: 'deny', reason: 'too late' };
    });
    const d = await engine.decide('PreToolUse', { toolName: 'Bash' });
    expect(d).toMatchObject({ decision: 'allow', blocked: false });
    expect(onlyRun(d)).toMatchObject({ outcome: 'timeout', cause: 'timeout', failed: 'open' });
    expect(signal?.aborted).toBe(true);
    expect(abortedEvent).toBe(true);
  });

  it('[§4] timeout with failMode closed → deny', async () => {
    const { project, home } = setup();
    const engine = await engineFor(project, home);
    engine.use('Stop', { timeout: 50, failMode: 'closed' }, () => new Promise(() => {}));
    const d = await engine.decide('Stop', { trigger: 'x' });
    expect(d).toMatchObject({ decision: 'deny', blocked: true });
    expect(onlyRun(d)).toMatchObject({ outcome: 'timeout', failed: 'closed' });
  });

  it('[§4] [L-MATCH-3] use() refuses an unknown gate event and an invalid matcher regex (TypeError)', async () => {
    const { project, home } = setup();
    const engine = await engineFor(project, home);
    expect(() => engine.use('pretooluse' as LurusEventName, {}, () => undefined)).toThrow(TypeError);
    expect(() => engine.use('PreToolUse', { matcher: '(Write' }, () => undefined)).toThrow(TypeError);
    expect(await engine.decide('PreToolUse', { toolName: '(Write' })).toEqual({
      decision: 'allow',
      blocked: false,
      runs: [],
    });
  });

  it('[§4] the unsubscribe function removes the hook', async () => {
    const { project, home } = setup();
    const engine = await engineFor(project, home);
    let calls = 0;
    const off = engine.use('PreToolUse', {}, () => {
      calls++;
      return { decision: 'deny', reason: 'on' };
    });
    expect((await engine.decide('PreToolUse', { toolName: 'Bash' })).decision).toBe('deny');
    off();
    off();
    expect(await engine.decide('PreToolUse', { toolName: 'Bash' })).toEqual({
      decision: 'allow',
      blocked: false,
      runs: [],
    });
    expect(calls).toBe(1);
  });

  it('[§4] [L-RUN-1] in-process hooks run before file hooks (and stop them on deny); they survive reload()', async () => {
    const { project, home } = setup();
    writeJson(lurusFile(home), { PreToolUse: [{ hooks: [mark('global-file')] }] });
    writeJson(lurusFile(project), { PreToolUse: [{ hooks: [mark('project-file')] }] });
    const engine = await engineFor(project, home);
    const order: string[] = [];
    engine.use('PreToolUse', { name: 'first' }, () => {
      order.push('first');
    });
    engine.use('PreToolUse', { name: 'second' }, () => {
      order.push('second');
    });
    const d = await engine.decide('PreToolUse', { toolName: 'Bash' });
    expect(d.runs.map((r) => r.source === 'in-process')).toEqual([true, true, false, false]);
    expect(order).toEqual(['first', 'second']);
    expect(orderOf(project)).toEqual(['global-file', 'project-file']);

    engine.gate.reload();
    engine.use('PreToolUse', { matcher: 'Bash', name: 'denier' }, () => ({
      decision: 'deny',
      reason: 'code',
    }));
    const denied = await engine.decide('PreToolUse', { toolName: 'Bash' });
    expect(denied).toMatchObject({ decision: 'deny', reason: 'code' });
    expect(denied.runs.map((r) => r.hook)).toEqual(['first', 'second', 'denier']);
    expect(orderOf(project)).toEqual(['global-file', 'project-file']);
  });

  it('[§4] observe: use("tool_call", fn) is called with the envelope after emit (fire-and-forget)', async () => {
    const { project, home } = setup();
    const engine = await engineFor(project, home, { sessionId: 'sess-test' });
    const calls: unknown[] = [];
    engine.use('tool_call', (envelope) => {
      calls.push(envelope);
    });
    const payload = { tool: 'shell', success: true, output: 'ok' };
    expect(engine.emit('tool_call', payload)).toBeUndefined();
    expect(calls).toHaveLength(0);
    await engine.drain();
    expect(calls).toEqual([
      { event: 'tool_call', timestamp: expect.any(String), session_id: 'sess-test', payload },
    ]);
    expect(engine.runs({ event: 'tool_call' })[0]).toMatchObject({ source: 'in-process', outcome: 'ok' });
  });

  it('[§4] observe: a throwing observer yields an error record, not an exception', async () => {
    const { project, home } = setup();
    const engine = await engineFor(project, home);
    engine.use('tool_call', () => {
      throw new Error('observer broke');
    });
    engine.use('tool_call', async () => {
      throw new Error('async observer broke');
    });
    expect(() => engine.emit('tool_call', { tool: 't', success: false, output: '' })).not.toThrow();
    await engine.drain();
    const records = engine.runs({ event: 'tool_call' });
    expect(records.map((r) => [r.outcome, r.cause, r.reason]).sort()).toEqual([
      ['error', 'exception', 'async observer broke'],
      ['error', 'exception', 'observer broke'],
    ]);
  });
});

describe('decide() arguments', () => {
  it('rejects (never throws) with a HookInputError naming `event` for an unknown event (names are case-sensitive)', async () => {
    const { project, home } = setup();
    const engine = await engineFor(project, home);
    for (const event of ['Nope', 'pretooluse', 'tool_call', '']) {
      let pending: Promise<unknown> | undefined;
      expect(() => {
        pending = engine.decide(event, {});
      }, event).not.toThrow();
      await expect(pending, event).rejects.toThrow(HookInputError);
      await expect(pending, event).rejects.toMatchObject({ field: 'event' });
    }
  });

  it('rejects with a HookInputError naming `context` for a context that is not an object', async () => {
    const { project, home } = setup();
    const engine = await engineFor(project, home);
    for (const context of [null, undefined, [], 'Write', 42, true]) {
      const what = JSON.stringify(context) ?? 'undefined';
      await expect(engine.decide('PreToolUse', context), what).rejects.toMatchObject({
        name: 'HookInputError',
        field: 'context',
      });
    }
  });

  it('rejects after close(), and close() stops a running command hook through its runner', async () => {
    const { project, engine } = await projectEngine(
      { PreToolUse: [{ hooks: [cmd(`echo $$ > pid.txt; exec sleep 60`)] }] },
      { shutdownGraceMs: 50 },
    );
    const running = engine.decide('PreToolUse', { toolName: 'Bash' });
    const pidFile = path.join(project, 'pid.txt');
    while (!existsSync(pidFile) || read(pidFile).trim() === '') await sleep(10);
    await engine.close();
    const d = await running;
    // Stopped, not waited for: fail-open with the cause the runner gives (timeout of the group).
    expect(d.runs[0]).toMatchObject({ outcome: 'timeout', failed: 'open' });
    expect(() => process.kill(Number(read(pidFile).trim()), 0)).toThrow();
    await expect(engine.decide('PreToolUse', {})).rejects.toThrow(EngineClosedError);
  });

  it('with no hooks configured: {decision: "allow", blocked: false, runs: []}', async () => {
    const { project, home } = setup();
    const engine = await engineFor(project, home);
    for (const event of ['PreToolUse', 'Stop', 'SessionStart'] as const) {
      expect(await engine.decide(event, {})).toEqual({ decision: 'allow', blocked: false, runs: [] });
    }
  });

  it('hooks configured but none matching: the same empty allow', async () => {
    const { project, engine } = await projectEngine({
      PreToolUse: [{ matcher: '^Write$', hooks: [mark('w')] }],
    });
    expect(await engine.decide('PreToolUse', { toolName: 'Read' })).toEqual({
      decision: 'allow',
      blocked: false,
      runs: [],
    });
    expect(orderOf(project)).toEqual([]);
  });
});
