/**
 * The GitHub Copilot CLI dialect end to end [A-COP-1; C-OUT-1, C-SRC-4]: Copilot hook files
 * (`.github/hooks/*.json`, `$COPILOT_HOME`, `.claude/settings.json`, repo settings, a policy folder)
 * and hook scripts written for Copilot CLI (bash + jq, Node; test/fixtures/copilot/ and
 * examples/copilot-demo/) run unchanged through `engine.decide` and `hookwerk decide --dialect
 * copilot`, as real processes, in temp projects with a temp folder as `~`. The behaviour asserted is
 * Copilot CLI 1.0.102's as observed (research/copilot-facts.md). Nothing waits on the clock.
 */
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentDecision } from '../src/dispatch/agent-answer.ts';
import type { HookEngine, HookEngineOptions } from '../src/engine-api.ts';
import { REPO, runCli, STACK } from './cli-runner.ts';
import { makeEngine } from './engine-harness.ts';
import { tempDir, writeScript } from './helpers.ts';

// ---------------------------------------------------------------------------------------------
// helpers

const FIXTURES = path.join(REPO, 'test', 'fixtures', 'copilot');
const trustAll = () => ({ trusted: true, reason: 'test' });
type Entry = Record<string, unknown>;
type Input = Record<string, unknown>;

interface Setup {
  project: string;
  home: string;
  copilotHome: string;
  policy: string;
}

function setup(): Setup {
  const project = tempDir('hw-cop-');
  const home = tempDir('hw-cop-home-');
  return { project, home, copilotHome: path.join(home, '.copilot'), policy: tempDir('hw-cop-policy-') };
}

function writeJson(file: string, value: unknown): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, typeof value === 'string' ? value : `${JSON.stringify(value, null, 2)}\n`);
  return file;
}

/** `<project>/.github/hooks/<name>.json` holding `hooks`. */
const repoHooks = (s: Setup, name: string, hooks: Record<string, unknown>, extra: object = { version: 1 }) =>
  writeJson(path.join(s.project, '.github', 'hooks', `${name}.json`), { ...extra, hooks });

const cmd = (bash: string, extra: Entry = {}): Entry => ({ type: 'command', bash, ...extra });
/** A hook that prints `answer` as its JSON output. */
const answering = (answer: unknown, extra: Entry = {}): Entry =>
  cmd(`echo '${JSON.stringify(answer)}'`, extra);
/** A fixture script, by absolute path. */
const fixture = (name: string) => path.join(FIXTURES, name);
const dump = (name: string, extra: Entry = {}): Entry =>
  cmd(fixture('dump.sh'), { ...extra, env: { DUMP: name, ...((extra.env as object | undefined) ?? {}) } });
const order = (name: string): Entry => cmd(`${fixture('order.sh')} ${name}`);
const readDump = (s: Setup, name: string) =>
  JSON.parse(readFileSync(path.join(s.project, 'dumps', `${name}.json`), 'utf8')) as {
    stdin: Record<string, unknown>;
    cwd: string;
    env: Record<string, string>;
  };
const orderLog = (s: Setup) =>
  existsSync(path.join(s.project, 'order.log'))
    ? readFileSync(path.join(s.project, 'order.log'), 'utf8').trim().split('\n')
    : [];

// Copilot passes env values literally: neither form of expansion happens.
const LITERAL_MARK = ['x-$HOME-$', '{HOME}'].join('');
const bash = (command: string): Input => ({ toolName: 'bash', toolArgs: { command, description: command } });

function copilotEngine(s: Setup, extra: Partial<HookEngineOptions> = {}): Promise<HookEngine> {
  return makeEngine(undefined, {
    projectDir: s.project,
    home: s.home,
    gateDialect: 'copilot',
    copilot: { policyDir: s.policy, copilotHome: s.copilotHome },
    trust: trustAll,
    ...extra,
  });
}

async function decide(engine: HookEngine, event: string, input: Input = {}): Promise<AgentDecision> {
  return (await engine.decide(event, input)) as AgentDecision;
}

/** A project whose `.github/hooks/hooks.json` holds `hooks`, an engine over it, and one decide. */
async function decideWith(event: string, hooks: Record<string, unknown>, input: Input = {}) {
  const s = setup();
  repoHooks(s, 'hooks', hooks);
  const engine = await copilotEngine(s);
  expect(engine.gate.config.issues).toEqual([]);
  return { s, d: await decide(engine, event, input), engine };
}

/** The CLI as a user runs it, with `~` and `$COPILOT_HOME` in temp folders. */
function cli(s: Setup, args: string[], stdin?: unknown) {
  return runCli(args, {
    home: s.home,
    env: { COPILOT_HOME: s.copilotHome },
    ...(stdin !== undefined ? { stdin: { text: JSON.stringify(stdin) } } : {}),
  });
}

async function cliTrust(s: Setup): Promise<void> {
  const r = await cli(s, ['trust', '--yes', '--project', s.project]);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
}

/** Sets a file's modification time (seconds since the epoch). */
const touch = (file: string, seconds: number) => utimesSync(file, seconds, seconds);

// ---------------------------------------------------------------------------------------------

describe('[A-COP-1] sources and their order', () => {
  it('[A-COP-1] user hooks/*.json, user settings, .github/hooks/*.json, .claude/settings.json, repo settings: in that order, one after another', async () => {
    const s = setup();
    writeJson(path.join(s.copilotHome, 'hooks', 'mine.json'), {
      version: 1,
      hooks: { sessionEnd: [order('user-dir')] },
    });
    writeJson(path.join(s.copilotHome, 'settings.json'), {
      model: 'gpt-5',
      hooks: { sessionEnd: [order('user-settings')] },
    });
    repoHooks(s, 'repo', { sessionEnd: [order('repo-dir-1'), order('repo-dir-2')] });
    writeJson(path.join(s.project, '.claude', 'settings.json'), {
      hooks: { SessionEnd: [{ hooks: [{ type: 'command', command: `${fixture('order.sh')} claude` }] }] },
    });
    writeJson(path.join(s.project, '.github', 'copilot', 'settings.json'), {
      hooks: { sessionEnd: [order('repo-settings')] },
    });
    writeJson(path.join(s.policy, 'org.json'), { version: 1, hooks: { sessionEnd: [order('policy')] } });
    const engine = await copilotEngine(s);
    const d = await decide(engine, 'sessionEnd', { reason: 'complete' });
    const expected = [
      'policy',
      'user-dir',
      'user-settings',
      'repo-dir-1',
      'repo-dir-2',
      'claude',
      'repo-settings',
    ];
    expect(orderLog(s)).toEqual(expected);
    // Records in the same order, each naming its file.
    expect(d.runs.map((r) => path.basename(r.source.replace(/#.*$/, '')))).toEqual([
      'org.json',
      'mine.json',
      'settings.json',
      'repo.json',
      'repo.json',
      'settings.json',
      'settings.json',
    ]);
    expect(d.runs.every((r) => r.dialect === 'copilot' && r.outcome === 'ok')).toBe(true);
  });

  it('[A-COP-1] .github/hooks/*.json run by file name descending, whatever their times (as 1.0.102, npm run differential)', async () => {
    const s = setup();
    const a = repoHooks(s, 'a', { sessionEnd: [order('a')] });
    const b = repoHooks(s, 'B', { sessionEnd: [order('B')] });
    const c = repoHooks(s, 'c', { sessionEnd: [order('c')] });
    touch(c, 1_700_000_000);
    touch(b, 1_700_000_100);
    touch(a, 1_700_000_200);
    writeJson(path.join(s.copilotHome, 'hooks', 'aa.json'), { hooks: { sessionEnd: [order('user-aa')] } });
    writeJson(path.join(s.copilotHome, 'hooks', 'zz.json'), { hooks: { sessionEnd: [order('user-zz')] } });
    await decide(await copilotEngine(s), 'sessionEnd');
    // Code points: `B` < `a` < `c`, run descending.
    expect(orderLog(s)).toEqual(['user-zz', 'user-aa', 'c', 'a', 'B']);
  });

  it('[A-COP-1] version may be left out; another version skips the file (validate: error with file and path)', async () => {
    const s = setup();
    repoHooks(s, 'nov', { sessionEnd: [order('no-version')] }, {});
    const bad = repoHooks(s, 'v2', { sessionEnd: [order('version-2')] }, { version: 2 });
    const engine = await copilotEngine(s);
    await decide(engine, 'sessionEnd');
    expect(orderLog(s)).toEqual(['no-version']);
    expect(engine.gate.config.issues).toEqual([
      expect.objectContaining({
        file: bad,
        path: '$.version',
        message: expect.stringContaining('version must be 1'),
      }),
    ]);
    const v = await cli(s, ['validate', '--dialect', 'copilot', '--project', s.project]);
    expect(v.code).toBe(1);
    expect(v.stderr).toContain(`${bad}: $.version: version must be 1`);
    expect(v.stderr).not.toMatch(STACK);
  });

  it('[A-COP-1] a file that is not JSON is skipped whole, the others run; validate names it', async () => {
    const s = setup();
    const broken = writeJson(path.join(s.project, '.github', 'hooks', 'broken.json'), '{"hooks": {');
    repoHooks(s, 'good', { sessionEnd: [order('good')] });
    const engine = await copilotEngine(s);
    await decide(engine, 'sessionEnd');
    expect(orderLog(s)).toEqual(['good']);
    expect(engine.gate.config.issues.map((i) => i.file)).toEqual([broken]);
    const v = await cli(s, ['validate', '--dialect', 'copilot', '--project', s.project]);
    expect(v.code).toBe(1);
    expect(v.stderr).toMatch(new RegExp(`${broken.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: \\$`));
  });

  it('[A-COP-1] disableAllHooks in .github/copilot/settings.json turns off repo and user hooks, never policy hooks', async () => {
    const s = setup();
    writeJson(path.join(s.policy, 'org.json'), { hooks: { sessionEnd: [order('policy')] } });
    writeJson(path.join(s.copilotHome, 'hooks', 'u.json'), { hooks: { sessionEnd: [order('user')] } });
    repoHooks(s, 'r', { sessionEnd: [order('repo')] });
    writeJson(path.join(s.project, '.github', 'copilot', 'settings.json'), { disableAllHooks: true });
    const engine = await copilotEngine(s);
    await decide(engine, 'sessionEnd');
    expect(orderLog(s)).toEqual(['policy']);
    const why = engine.explain('sessionEnd', {});
    expect(why.filter((e) => e.verdict === 'disabled')).toHaveLength(2);
  });

  it('[A-COP-1] disableAllHooks in $COPILOT_HOME/settings.json is not honoured (as 1.0.102); validate warns', async () => {
    const s = setup();
    writeJson(path.join(s.copilotHome, 'settings.json'), { disableAllHooks: true });
    repoHooks(s, 'r', { sessionEnd: [order('repo')] });
    await decide(await copilotEngine(s), 'sessionEnd');
    expect(orderLog(s)).toEqual(['repo']);
    const v = await cli(s, ['validate', '--dialect', 'copilot', '--project', s.project]);
    expect(v.stderr).toContain('warning:');
    expect(v.stderr).toContain('does not honour disableAllHooks here');
  });

  it('[A-COP-1] entries: flat or one {matcher, hooks} level; deeper nesting, "" matchers, powershell-only and exec+bash are skipped with a reason', async () => {
    const s = setup();
    const file = repoHooks(s, 'h', {
      sessionEnd: [
        order('flat'),
        { matcher: '.*', hooks: [order('grouped')] },
        { hooks: [{ hooks: [order('too-deep')] }] },
        cmd(`${fixture('order.sh')} empty-matcher`, { matcher: '' }),
        { type: 'command', powershell: 'Write-Output hi' },
        { type: 'command', exec: '/bin/echo', bash: 'echo both' },
        { type: 'command', command: `${fixture('order.sh')} command-field` },
        { type: 'command', exec: fixture('order.sh'), args: ['exec-form'] },
      ],
    });
    const engine = await copilotEngine(s);
    await decide(engine, 'sessionEnd');
    expect(orderLog(s)).toEqual(['flat', 'grouped', 'command-field', 'exec-form']);
    const messages = engine.gate.config.warnings.map((w) => `${w.path}: ${w.message}`);
    expect(messages).toEqual([
      '$.hooks.sessionEnd[2].hooks[0]: nested hooks deeper than one level are not supported; this handler is skipped',
      '$.hooks.sessionEnd[3]: matcher cannot be empty (Copilot CLI never runs this hook); skipped',
      '$.hooks.sessionEnd[4]: only "powershell" is given: on Linux and macOS Copilot CLI runs "bash"; skipped',
      "$.hooks.sessionEnd[5]: specify either 'exec' (native executable) or 'bash'/'powershell'/'command' (shell), not both; skipped",
    ]);
    const v = await cli(s, ['validate', '--dialect', 'copilot', '--project', s.project]);
    expect(v.code).toBe(1);
    expect(v.stderr).toContain(`${file}: $.hooks.sessionEnd[3]: matcher cannot be empty`);
  });

  it('[A-COP-1] an unknown event key never runs; validate warns and lists the events', async () => {
    const s = setup();
    repoHooks(s, 'h', { beforeShellExecution: [order('x')], sessionEnd: [order('known')] });
    const v = await cli(s, ['validate', '--dialect', 'copilot', '--project', s.project]);
    expect(v.code).toBe(0);
    expect(v.stderr).toContain('warning:');
    expect(v.stderr).toContain('"beforeShellExecution" is not a Copilot CLI event');
    expect(v.stdout).toContain('1 hooks (project)');
  });
});

describe('[A-COP-1] matchers: anchored regexes', () => {
  it('[A-COP-1] `bas` does not match bash; `ba.h|view` does; a group matcher and an entry matcher both apply', async () => {
    const { s } = await decideWith(
      'preToolUse',
      {
        preToolUse: [
          cmd(`${fixture('order.sh')} bas`, { matcher: 'bas' }),
          cmd(`${fixture('order.sh')} ba.h-or-view`, { matcher: 'ba.h|view' }),
          {
            matcher: 'bash|edit',
            hooks: [
              cmd(`${fixture('order.sh')} group`),
              cmd(`${fixture('order.sh')} group-edit-only`, { matcher: 'edit' }),
            ],
          },
          cmd(`${fixture('order.sh')} view-only`, { matcher: 'view' }),
        ],
      },
      bash('ls'),
    );
    expect(orderLog(s)).toEqual(['ba.h-or-view', 'group']);
  });

  it('[A-COP-1] PascalCase keys and .claude/settings.json match the PascalCased tool name they get (`Bash`)', async () => {
    const s = setup();
    repoHooks(s, 'h', {
      PreToolUse: [
        cmd(`${fixture('order.sh')} pascal-Bash`, { matcher: 'Bash' }),
        cmd(`${fixture('order.sh')} pascal-bash`, { matcher: 'bash' }),
      ],
    });
    writeJson(path.join(s.project, '.claude', 'settings.json'), {
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [{ type: 'command', command: `${fixture('order.sh')} claude-Bash` }] },
        ],
      },
    });
    await decide(await copilotEngine(s), 'preToolUse', bash('ls'));
    expect(orderLog(s)).toEqual(['pascal-Bash', 'claude-Bash']);
  });

  it('[A-ALL-1] a handler in a Copilot file and in .claude/settings.json runs once; explain names the file that wins', async () => {
    const s = setup();
    const audit = `${fixture('order.sh')} audit`;
    repoHooks(s, 'h', { preToolUse: [cmd(audit)] });
    writeJson(path.join(s.project, '.claude', 'settings.json'), {
      hooks: {
        PreToolUse: [
          { hooks: [{ type: 'command', command: audit }] },
          { hooks: [{ type: 'command', command: `${fixture('order.sh')} claude-only` }] },
        ],
      },
    });
    const engine = await copilotEngine(s);
    await decide(engine, 'preToolUse', bash('ls'));
    expect(orderLog(s)).toEqual(['audit', 'claude-only']);
    const why = engine.explain('preToolUse', { toolName: 'bash' });
    const claudeCopy = why.find((x) => x.verdict === 'duplicate');
    expect(claudeCopy?.source).toContain(path.join('.claude', 'settings.json'));
    expect(claudeCopy?.detail).toContain(path.join('.github', 'hooks', 'h.json'));
    // Copies within Copilot's own files still run twice, as Copilot CLI runs them.
    const t = setup();
    repoHooks(t, 'h', { preToolUse: [cmd(audit), cmd(audit)] });
    await decide(await copilotEngine(t), 'preToolUse', bash('ls'));
    expect(orderLog(t)).toEqual(['audit', 'audit']);
  });
});

describe('[A-COP-1] the input each hook gets', () => {
  it('[A-COP-1] camelCase keys get Copilot\'s form (no event name, ms timestamp, toolName "bash"); PascalCase keys the VS Code form', async () => {
    const { s, d } = await decideWith(
      'preToolUse',
      { preToolUse: [dump('camel')], PreToolUse: [dump('pascal')] },
      { ...bash('git status'), sessionId: 'sess-1', timestamp: 1_764_619_066_300, cwd: '/work/repo' },
    );
    expect(d.blocked).toBe(false);
    expect(readDump(s, 'camel').stdin).toEqual({
      sessionId: 'sess-1',
      timestamp: 1_764_619_066_300,
      cwd: '/work/repo',
      toolName: 'bash',
      toolArgs: { command: 'git status', description: 'git status' },
    });
    expect(readDump(s, 'pascal').stdin).toEqual({
      hook_event_name: 'PreToolUse',
      session_id: 'sess-1',
      timestamp: '2025-12-01T19:57:46.300Z',
      cwd: '/work/repo',
      tool_name: 'Bash',
      tool_input: { command: 'git status', description: 'git status' },
    });
  });

  it('[A-COP-1] .claude/settings.json PreToolUse gets the snake_case form with tool_name "Bash" (no transcript_path, no tool_use_id)', async () => {
    const s = setup();
    writeJson(path.join(s.project, '.claude', 'settings.json'), {
      hooks: {
        PreToolUse: [
          { hooks: [{ type: 'command', command: `DUMP=claude-file ${fixture('dump.sh')}`, timeout: 10 }] },
        ],
      },
    });
    await decide(await copilotEngine(s), 'preToolUse', bash('ls'));
    const got = readDump(s, 'claude-file');
    expect(got.stdin.hook_event_name).toBe('PreToolUse');
    expect(got.stdin.tool_name).toBe('Bash');
    expect(got.stdin.tool_input).toEqual({ command: 'ls', description: 'ls' });
    expect(typeof got.stdin.timestamp).toBe('string');
    expect(got.stdin).not.toHaveProperty('transcript_path');
    expect(got.stdin).not.toHaveProperty('tool_use_id');
    expect(got.env.COPILOT_HOOK_DIR).toBe(path.join(s.project, '.claude'));
  });

  it("[A-COP-1] toolArgs as a JSON string (Copilot's docs) is accepted: matched, kept as given for camel hooks, an object in the VS Code form", async () => {
    const { s } = await decideWith(
      'preToolUse',
      { preToolUse: [dump('camel', { matcher: 'bash' })], PreToolUse: [dump('pascal')] },
      { toolName: 'bash', toolArgs: '{"command":"ls -la"}' },
    );
    expect(readDump(s, 'camel').stdin.toolArgs).toBe('{"command":"ls -la"}');
    expect(readDump(s, 'pascal').stdin.tool_input).toEqual({ command: 'ls -la' });
  });

  it("[A-COP-1] a snake_case input from the caller reaches camel hooks in Copilot's form", async () => {
    const { s } = await decideWith(
      'PreToolUse',
      { preToolUse: [dump('camel', { matcher: 'bash' })] },
      {
        hook_event_name: 'PreToolUse',
        session_id: 's9',
        timestamp: '2026-12-01T19:57:46.300Z',
        tool_name: 'Bash',
        tool_input: { command: 'ls' },
      },
    );
    expect(readDump(s, 'camel').stdin).toEqual({
      sessionId: 's9',
      timestamp: Date.parse('2026-12-01T19:57:46.300Z'),
      cwd: s.project,
      toolName: 'bash',
      toolArgs: { command: 'ls' },
    });
  });

  it('[A-COP-1] permissionRequest gets hookName, toolInput and permissionSuggestions; agentStop stop_hook_active', async () => {
    const s = setup();
    repoHooks(s, 'h', { permissionRequest: [dump('perm')], agentStop: [dump('stop')], Stop: [dump('Stop')] });
    const engine = await copilotEngine(s);
    await decide(engine, 'permissionRequest', { toolName: 'bash', toolInput: { command: 'npm test' } });
    await decide(engine, 'agentStop', { transcriptPath: '/t/events.jsonl', stopReason: 'end_turn' });
    const perm = readDump(s, 'perm').stdin;
    expect(Object.keys(perm)).toEqual([
      'hookName',
      'sessionId',
      'timestamp',
      'cwd',
      'toolName',
      'toolInput',
      'permissionSuggestions',
    ]);
    expect(perm).toMatchObject({
      hookName: 'permissionRequest',
      toolInput: { command: 'npm test' },
      permissionSuggestions: [],
    });
    expect(readDump(s, 'stop').stdin).toMatchObject({
      transcriptPath: '/t/events.jsonl',
      stopReason: 'end_turn',
      stop_hook_active: false,
    });
    expect(readDump(s, 'Stop').stdin).toMatchObject({
      hook_event_name: 'Stop',
      transcript_path: '/t/events.jsonl',
      stop_reason: 'end_turn',
      stop_hook_active: false,
    });
  });

  it('[A-COP-1] env: COPILOT_PROJECT_DIR, CLAUDE_PROJECT_DIR, COPILOT_HOOK_DIR, literal env values; cwd the repo root or `cwd` against it', async () => {
    const s = setup();
    mkdirSync(path.join(s.project, 'sub'));
    repoHooks(s, 'h', {
      preToolUse: [dump('root', { env: { MARK: LITERAL_MARK } }), dump('sub', { cwd: 'sub' })],
    });
    writeJson(path.join(s.copilotHome, 'hooks', 'u.json'), { hooks: { preToolUse: [dump('user')] } });
    await decide(await copilotEngine(s), 'preToolUse', { ...bash('ls'), cwd: '/somewhere/else' });
    const root = readDump(s, 'root');
    expect(root.cwd).toBe(s.project);
    expect(root.stdin.cwd).toBe('/somewhere/else');
    expect(root.env).toEqual({
      COPILOT_PROJECT_DIR: s.project,
      CLAUDE_PROJECT_DIR: s.project,
      COPILOT_HOOK_DIR: path.join(s.project, '.github', 'hooks'),
      COPILOT_CLI: '1',
      MARK: LITERAL_MARK,
    });
    expect(readDump(s, 'sub').cwd).toBe(path.join(s.project, 'sub'));
    expect(readDump(s, 'user').env.COPILOT_HOOK_DIR).toBe(path.join(s.copilotHome, 'hooks'));
  });
});

describe('[A-COP-1] preToolUse answers', () => {
  it('[A-COP-1] permissionDecision deny blocks with its reason; without one: "No reason provided"', async () => {
    const withReason = await decideWith(
      'preToolUse',
      { preToolUse: [answering({ permissionDecision: 'deny', permissionDecisionReason: 'no rm' })] },
      bash('rm -rf /'),
    );
    expect(withReason.d).toMatchObject({ decision: 'deny', blocked: true, reason: 'no rm', continue: true });
    expect(withReason.d.runs[0]).toMatchObject({
      outcome: 'deny',
      decision: 'deny',
      permission: 'deny',
      dialect: 'copilot',
    });
    const bare = await decideWith(
      'preToolUse',
      { preToolUse: [answering({ permissionDecision: 'deny' })] },
      bash('x'),
    );
    expect(bare.d).toMatchObject({ blocked: true, reason: 'No reason provided' });
  });

  it('[A-COP-1] exit 2 denies with the fixed reason; stderr is not used and a stdout allow is ignored', async () => {
    const { d } = await decideWith(
      'preToolUse',
      { preToolUse: [cmd(`echo '{"permissionDecision":"allow"}'; echo 'Blocked: rm -rf' >&2; exit 2`)] },
      bash('rm -rf /'),
    );
    expect(d).toMatchObject({ decision: 'deny', blocked: true, reason: 'hook exited with code 2' });
  });

  it.each([1, 3, 127])(
    '[A-COP-1] exit %i denies too (fail-closed: the hook errored), whatever stdout says',
    async (code) => {
      const { d } = await decideWith(
        'preToolUse',
        { preToolUse: [cmd(`echo '{"permissionDecision":"allow"}'; exit ${code}`)] },
        bash('ls'),
      );
      expect(d.blocked).toBe(true);
      expect(d.decision).toBe('deny');
      expect(d.reason).toBe(
        `preToolUse hook errored (exited with code ${code}${code === 127 ? ' (command or script not found)' : ''})`,
      );
      expect(d.runs[0]).toMatchObject({ outcome: 'deny', failed: 'closed', exitCode: code });
    },
  );

  it('[A-COP-1] a missing script denies (bash exits 127): a broken guard never lets the tool through', async () => {
    const { d } = await decideWith(
      'preToolUse',
      { preToolUse: [cmd('./.github/hooks/scripts/gone.sh')] },
      bash('ls'),
    );
    expect(d.blocked).toBe(true);
  });

  it('[A-COP-1] plain text, invalid JSON and empty output are no opinion', async () => {
    const { d } = await decideWith(
      'preToolUse',
      { preToolUse: [cmd('echo checking...'), cmd(`echo '{not json'`), cmd('true')] },
      bash('ls'),
    );
    expect(d).toMatchObject({ decision: 'allow', blocked: false });
    expect(d.runs).toHaveLength(3);
    expect(d).not.toHaveProperty('permission');
  });

  it('[A-COP-1, C-OUT-1] modifiedArgs becomes updatedInput; allow and ask are the decision', async () => {
    const s = setup();
    repoHooks(s, 'h', {
      preToolUse: [
        cmd(fixture('rewrite-npm.sh'), { matcher: 'bash' }),
        cmd(`node ${fixture('mcp-gate.mjs')}`),
      ],
    });
    const engine = await copilotEngine(s);
    const npm = await decide(engine, 'preToolUse', bash('npm test'));
    expect(npm).toMatchObject({
      decision: 'allow',
      blocked: false,
      updatedInput: { command: './scripts/npmw test' },
    });
    const ask = await decide(engine, 'preToolUse', {
      toolName: 'github-mcp-server/create_issue',
      toolArgs: {},
    });
    expect(ask).toMatchObject({ decision: 'ask', blocked: false, reason: 'create_issue changes GitHub' });
    const deny = await decide(engine, 'preToolUse', { toolName: 'shady-server/run', toolArgs: {} });
    expect(deny).toMatchObject({
      decision: 'deny',
      blocked: true,
      reason: 'MCP server shady-server is not allow-listed',
    });
  });

  it('[A-COP-1] hooks run one after another and the first deny stops the chain (gate option inOrder + stopsAfter)', async () => {
    const { s, d } = await decideWith(
      'preToolUse',
      {
        preToolUse: [
          cmd(`${fixture('order.sh')} first; echo '{"permissionDecision":"allow"}'`),
          cmd(
            `${fixture('order.sh')} second; echo '{"permissionDecision":"deny","permissionDecisionReason":"second says no"}'`,
          ),
          cmd(`${fixture('order.sh')} third`),
        ],
      },
      bash('ls'),
    );
    expect(d).toMatchObject({ decision: 'deny', blocked: true, reason: 'second says no' });
    expect(orderLog(s)).toEqual(['first', 'second']);
    expect(d.runs).toHaveLength(2);
  });

  it('[A-COP-1] one after another, not at once: a hook that waits for the next one to start never sees it', async () => {
    // The first waits for a file the second writes; run at once it would see it. Run in order, it
    // times out (fail-open) before the second starts.
    const { s, d } = await decideWith('sessionEnd', {
      sessionEnd: [
        cmd('while [ ! -f started-2 ]; do sleep 0.05; done; echo saw-2 > saw', { timeoutSec: 0.5 }),
        cmd('touch started-2'),
      ],
    });
    expect(existsSync(path.join(s.project, 'started-2'))).toBe(true);
    expect(existsSync(path.join(s.project, 'saw'))).toBe(false);
    expect(d.runs.map((r) => r.outcome)).toEqual(['timeout', 'ok']);
  });
});

describe('[A-COP-1] permissionRequest answers', () => {
  it('[A-COP-1] behavior allow / deny with message; later hooks override earlier ones', async () => {
    const allow = await decideWith(
      'permissionRequest',
      { permissionRequest: [answering({ behavior: 'allow' })] },
      { toolName: 'bash', toolInput: { command: 'npm test' } },
    );
    expect(allow.d).toMatchObject({ decision: 'allow', blocked: false, permission: { behavior: 'allow' } });
    const deny = await decideWith(
      'permissionRequest',
      { permissionRequest: [answering({ behavior: 'deny', message: 'not on CI' })] },
      { toolName: 'bash', toolInput: {} },
    );
    expect(deny.d).toMatchObject({
      decision: 'deny',
      reason: 'not on CI',
      permission: { behavior: 'deny', message: 'not on CI' },
      continue: true,
    });
    const override = await decideWith(
      'permissionRequest',
      {
        permissionRequest: [
          answering({ behavior: 'deny', message: 'first' }),
          answering({ behavior: 'allow' }),
        ],
      },
      { toolName: 'bash', toolInput: {} },
    );
    expect(override.d).toMatchObject({ decision: 'allow', permission: { behavior: 'allow' } });
    expect(override.d.runs).toHaveLength(2);
  });

  it('[A-COP-1] exit 2 denies with stdout\'s message (stderr ignored); exit 1 denies: "Permission request hook failed"', async () => {
    const two = await decideWith(
      'permissionRequest',
      { permissionRequest: [cmd(`echo '{"message":"from stdout"}'; echo 'from stderr' >&2; exit 2`)] },
      { toolName: 'bash', toolInput: {} },
    );
    expect(two.d).toMatchObject({
      decision: 'deny',
      reason: 'from stdout',
      permission: { behavior: 'deny', message: 'from stdout' },
    });
    const one = await decideWith(
      'permissionRequest',
      { permissionRequest: [cmd('exit 1')] },
      { toolName: 'bash', toolInput: {} },
    );
    expect(one.d).toMatchObject({ decision: 'deny', reason: 'Permission request hook failed' });
    expect(one.d.runs[0]).toMatchObject({ failed: 'closed' });
  });

  it('[A-COP-1] interrupt: true on a deny stops the agent (continue: false)', async () => {
    const { d } = await decideWith(
      'permissionRequest',
      { permissionRequest: [answering({ behavior: 'deny', message: 'stop everything', interrupt: true })] },
      { toolName: 'bash', toolInput: {} },
    );
    expect(d).toMatchObject({
      decision: 'deny',
      continue: false,
      stopReason: 'stop everything',
      permission: { interrupt: true },
    });
  });

  it('[A-COP-1] the matcher tests the camelCase tool name', async () => {
    const { d } = await decideWith(
      'permissionRequest',
      {
        permissionRequest: [
          answering({ behavior: 'deny' }, { matcher: 'view' }),
          answering({ behavior: 'allow' }, { matcher: 'ba.h' }),
        ],
      },
      { toolName: 'bash', toolInput: {} },
    );
    expect(d.runs).toHaveLength(1);
    expect(d.permission).toEqual({ behavior: 'allow' });
  });
});

describe('[A-COP-1] stop, prompt and tool-result answers', () => {
  it('[A-COP-1] agentStop (and PascalCase Stop) decision block: blocked, the reason is the next prompt', async () => {
    const { d } = await decideWith(
      'agentStop',
      { agentStop: [answering({ decision: 'block', reason: 'run the tests first' })] },
      { stopReason: 'end_turn' },
    );
    expect(d).toMatchObject({ decision: 'deny', blocked: true, reason: 'run the tests first' });
    const pascal = await decideWith('agentStop', {
      Stop: [answering({ decision: 'block', reason: 'again' })],
    });
    expect(pascal.d).toMatchObject({ blocked: true, reason: 'again' });
    const done = await decideWith('agentStop', { agentStop: [answering({ decision: 'allow' })] });
    expect(done.d).toMatchObject({ blocked: false, decision: 'allow' });
  });

  it('[A-COP-1] subagentStop: block with reason, modifiedResponse kept', async () => {
    const { d } = await decideWith('subagentStop', {
      subagentStop: [answering({ decision: 'block', reason: 'cite sources', modifiedResponse: 'draft' })],
    });
    expect(d).toMatchObject({
      blocked: true,
      reason: 'cite sources',
      hookSpecificOutput: { modifiedResponse: 'draft' },
    });
  });

  it('[A-COP-1] userPromptSubmitted: block, modifiedPrompt and additionalContext', async () => {
    const block = await decideWith(
      'userPromptSubmitted',
      { userPromptSubmitted: [answering({ decision: 'block', reason: 'secret in prompt' })] },
      { prompt: 'x' },
    );
    expect(block.d).toMatchObject({ blocked: true, reason: 'secret in prompt' });
    const rewrite = await decideWith(
      'userPromptSubmitted',
      {
        userPromptSubmitted: [
          answering({ modifiedPrompt: 'UPS-MODIFIED', additionalContext: 'UPS-CTX' }),
          answering({ additionalContext: 'more' }),
        ],
      },
      { prompt: 'hello' },
    );
    expect(rewrite.d).toMatchObject({
      blocked: false,
      decision: 'allow',
      additionalContext: 'UPS-CTX\nmore',
      hookSpecificOutput: { modifiedPrompt: 'UPS-MODIFIED' },
    });
  });

  it('[A-COP-1] userPromptSubmitted exit 2 is only a warning (systemMessage): the prompt goes through', async () => {
    const { d } = await decideWith(
      'userPromptSubmitted',
      { userPromptSubmitted: [cmd(`echo 'prompt looks odd' >&2; exit 2`)] },
      { prompt: 'x' },
    );
    expect(d).toMatchObject({ blocked: false, decision: 'allow', systemMessage: 'prompt looks odd' });
  });

  it('[A-COP-1] PreToolUse hooks of the VS Code form may answer in hookSpecificOutput (as 1.0.102); camelCase keys may not', async () => {
    const s = setup();
    const hso = (fields: object) =>
      answering({ hookSpecificOutput: { hookEventName: 'PreToolUse', ...fields } });
    writeJson(path.join(s.project, '.claude', 'settings.json'), {
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              {
                type: 'command',
                command: `echo '${JSON.stringify({ hookSpecificOutput: { permissionDecision: 'allow', updatedInput: { command: 'touch safe' } } })}'`,
              },
            ],
          },
        ],
      },
    });
    repoHooks(s, 'h', {
      preToolUse: [hso({ permissionDecision: 'deny', permissionDecisionReason: 'camel: never read' })],
      PreToolUse: [hso({ permissionDecision: 'ask', permissionDecisionReason: 'pascal asks' })],
    });
    const d = await decide(await copilotEngine(s), 'preToolUse', bash('rm -rf x'));
    expect(d).toMatchObject({
      decision: 'ask',
      blocked: false,
      reason: 'pascal asks',
      updatedInput: { command: 'touch safe' },
    });
    expect(d.runs[0]?.reason).toContain('not read by Copilot CLI on preToolUse: hookSpecificOutput');

    const deny = await decideWith(
      'preToolUse',
      { PreToolUse: [hso({ permissionDecision: 'deny', permissionDecisionReason: 'pascal denies' })] },
      bash('ls'),
    );
    expect(deny.d).toMatchObject({ blocked: true, reason: 'pascal denies' });
  });

  it('[A-COP-1] Claude-style hookSpecificOutput under UserPromptSubmit is ignored, as Copilot CLI ignores it; the record says so', async () => {
    const { d } = await decideWith('userPromptSubmitted', {
      UserPromptSubmit: [
        answering({
          hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'claude ctx' },
        }),
      ],
    });
    expect(d).not.toHaveProperty('additionalContext');
    expect(d.runs[0]?.reason).toContain('not read by Copilot CLI on userPromptSubmitted: hookSpecificOutput');
  });

  it('[A-COP-1] postToolUse decision block replaces the tool result; a formatter on edits runs and decides nothing', async () => {
    const s = setup();
    writeFileSync(path.join(s.project, 'a.ts'), 'const a = 1;   \n');
    repoHooks(s, 'h', {
      postToolUse: [
        cmd(fixture('format-on-edit.sh'), { matcher: 'edit|create' }),
        answering({ decision: 'block', reason: 'output held secrets' }, { matcher: 'bash' }),
      ],
    });
    const engine = await copilotEngine(s);
    const edit = await decide(engine, 'postToolUse', {
      toolName: 'edit',
      toolArgs: { path: 'a.ts' },
      toolResult: { resultType: 'success', textResultForLlm: 'edited' },
    });
    expect(edit).toMatchObject({ blocked: false, decision: 'allow' });
    expect(readFileSync(path.join(s.project, 'a.ts'), 'utf8')).toBe('const a = 1;\n');
    const shell = await decide(engine, 'postToolUse', {
      ...bash('cat .env'),
      toolResult: { resultType: 'success', textResultForLlm: 'X=1' },
    });
    expect(shell).toMatchObject({ blocked: true, reason: 'output held secrets' });
  });

  it('[A-COP-1] postToolUseFailure exit 2 + stderr is guidance for the model; sessionStart additionalContext reaches it', async () => {
    const fail = await decideWith(
      'postToolUseFailure',
      { postToolUseFailure: [cmd(`echo 'try view on an existing path' >&2; exit 2`)] },
      { toolName: 'view', toolArgs: { path: 'nope' }, error: 'Path does not exist' },
    );
    expect(fail.d).toMatchObject({ blocked: false, additionalContext: 'try view on an existing path' });
    const start = await decideWith(
      'sessionStart',
      { sessionStart: [answering({ additionalContext: 'repo uses pnpm' })] },
      { source: 'new' },
    );
    expect(start.d).toMatchObject({ blocked: false, additionalContext: 'repo uses pnpm' });
  });
});

describe('[A-COP-1, C-SRC-4] consent', () => {
  it('[A-COP-1] project hooks need `hookwerk trust`; user hooks run without it; a hook file added later does not run', async () => {
    const s = setup();
    repoHooks(s, 'guard', {
      preToolUse: [answering({ permissionDecision: 'deny', permissionDecisionReason: 'repo guard' })],
    });
    writeJson(path.join(s.copilotHome, 'hooks', 'audit.json'), {
      hooks: { preToolUse: [order('user-audit')] },
    });
    const before = await cli(
      s,
      ['decide', 'preToolUse', '--dialect', 'copilot', '--project', s.project],
      bash('ls'),
    );
    expect(before.code).toBe(0);
    expect(JSON.parse(before.stdout)).toMatchObject({ blocked: false });
    expect(before.stderr).toContain('hookwerk trust');
    expect(orderLog(s)).toEqual(['user-audit']);
    // The skipped hook is named by what it would run, read from the bare file.
    const skipped = (JSON.parse(before.stdout) as AgentDecision).runs.find(
      (r) => r.outcome === 'skipped_untrusted',
    );
    expect(skipped?.hook).toBe(
      `echo '${JSON.stringify({ permissionDecision: 'deny', permissionDecisionReason: 'repo guard' })}'`,
    );

    await cliTrust(s);
    const after = await cli(
      s,
      ['decide', 'preToolUse', '--dialect', 'copilot', '--project', s.project],
      bash('ls'),
    );
    expect(after.code).toBe(2);
    expect(JSON.parse(after.stdout)).toMatchObject({ blocked: true, reason: 'repo guard' });

    // A new file in .github/hooks/ was never reviewed: the approval no longer holds.
    // (Named after the guard, so it runs first: the guard's deny would stop the chain before it.)
    repoHooks(s, 'sneaky', { preToolUse: [order('sneaky')] });
    const added = await cli(
      s,
      ['decide', 'preToolUse', '--dialect', 'copilot', '--project', s.project],
      bash('ls'),
    );
    expect(orderLog(s)).not.toContain('sneaky');
    expect(added.code).toBe(2);
    const d = JSON.parse(added.stdout) as AgentDecision;
    expect(d.runs.map((r) => r.outcome)).toEqual(['ok', 'skipped_untrusted', 'deny']);
    expect(added.stderr).toContain(
      `project hook skipped, untrusted: ${path.join(s.project, '.github', 'hooks', 'sneaky.json')}`,
    );
  });

  it('[A-COP-1] a script in .github/hooks/ changed after trust does not run as approved', async () => {
    const s = setup();
    const script = path.join(s.project, '.github', 'hooks', 'scripts', 'guard.sh');
    mkdirSync(path.dirname(script), { recursive: true });
    writeFileSync(
      script,
      `#!/bin/sh\necho '{"permissionDecision":"deny","permissionDecisionReason":"v1"}'\n`,
    );
    chmodSync(script, 0o755);
    repoHooks(s, 'guard', { preToolUse: [cmd('./.github/hooks/scripts/guard.sh')] });
    await cliTrust(s);
    const v1 = await cli(
      s,
      ['decide', 'preToolUse', '--dialect', 'copilot', '--project', s.project],
      bash('ls'),
    );
    expect(JSON.parse(v1.stdout)).toMatchObject({ blocked: true, reason: 'v1' });
    writeFileSync(script, `#!/bin/sh\necho '{"permissionDecision":"allow"}'\n`);
    const v2 = await cli(
      s,
      ['decide', 'preToolUse', '--dialect', 'copilot', '--project', s.project],
      bash('ls'),
    );
    const d = JSON.parse(v2.stdout) as AgentDecision;
    expect(d.permission).toBeUndefined();
    expect(d.runs[0]?.outcome).toBe('skipped_untrusted');
    expect(v2.stderr).toContain('hookwerk trust');
  });

  it('[A-COP-1] trust reviews every Copilot source of the project and pins .github/hooks/ whole', async () => {
    const s = setup();
    repoHooks(s, 'guard', { preToolUse: [cmd('./.github/hooks/scripts/guard.sh')] });
    // [G-FAIL-2] The script is there: validate fails a command whose script is missing.
    writeScript(path.join(s.project, '.github', 'hooks', 'scripts'), 'guard.sh', 'exit 0');
    writeJson(path.join(s.project, '.github', 'copilot', 'settings.json'), {
      hooks: { agentStop: [cmd('echo')] },
    });
    const review = await cli(s, ['trust', '--project', s.project]);
    expect(review.stdout).toContain('GitHub Copilot CLI');
    expect(review.stdout).toContain('./.github/hooks/scripts/guard.sh');
    await cliTrust(s);
    const v = await cli(s, ['validate', '--dialect', 'copilot', '--project', s.project]);
    expect(v.code).toBe(0);
    expect(v.stdout).toContain('ok: project hooks of');
  });
});

describe('[A-COP-1] the CLI', () => {
  it('[A-COP-1] decide reads the input on stdin, prints the decision, exits 2 when blocked; PascalCase event names work too', async () => {
    const s = setup();
    mkdirSync(path.join(s.project, '.github', 'hooks'), { recursive: true });
    cpSync(path.join(REPO, 'examples', 'copilot-demo', '.github'), path.join(s.project, '.github'), {
      recursive: true,
    });
    await cliTrust(s);
    const rm = await cli(
      s,
      ['decide', 'preToolUse', '--dialect', 'copilot', '--project', s.project],
      bash('rm -rf /'),
    );
    expect(rm.code).toBe(2);
    expect(JSON.parse(rm.stdout)).toMatchObject({
      decision: 'deny',
      blocked: true,
      reason: 'recursive force delete (rm -rf) is not allowed here',
    });
    const pascal = await cli(s, ['decide', 'PreToolUse', '--dialect', 'copilot', '--project', s.project], {
      tool_name: 'Bash',
      tool_input: { command: 'sudo ls' },
    });
    expect(pascal.code).toBe(2);
    expect(JSON.parse(pascal.stdout)).toMatchObject({ reason: 'sudo is not allowed in this project' });
    const ok = await cli(
      s,
      ['decide', 'preToolUse', '--dialect', 'copilot', '--project', s.project],
      bash('npm test'),
    );
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ decision: 'allow', blocked: false });
    const env = await cli(s, ['decide', 'preToolUse', '--dialect', 'copilot', '--project', s.project], {
      toolName: 'create',
      toolArgs: { path: 'config/.env.local', file_text: 'X=1' },
    });
    expect(env.code).toBe(2);
    expect(JSON.parse(env.stdout).reason).toBe('config/.env.local holds secrets: edit it by hand');
  });

  it('[A-COP-1] demo --dialect copilot runs the bundled project', async () => {
    const s = setup();
    const r = await cli(s, ['demo', '--dialect', 'copilot', '--no-keep']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('GitHub Copilot CLI dialect');
    expect(r.stdout).toMatch(/bash: rm -rf \/ +→ BLOCKED \(exit 2\): recursive force delete/);
    expect(r.stdout).toMatch(/edit \.env +→ BLOCKED \(exit 2\): \.env holds secrets/);
    expect(r.stdout).toMatch(/a prompt with a secret +→ BLOCKED/);
    expect(r.stdout).toMatch(/the agent wants to stop +→ BLOCKED \(exit 2\): Not done yet/);
    expect(r.stdout).toContain('wrote 1 line(s) to logs/tool-audit.jsonl');
  });
});
