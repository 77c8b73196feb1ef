/**
 * The Claude Code dialect [§5] end to end: hook files shaped as Claude Code users write them
 * (`.claude/settings.json`, `settings.local.json`, `~/.claude/settings.json`, managed settings,
 * plugin folders with `hooks/hooks.json`) and real scripts in Python, Node and POSIX sh
 * (test/fixtures/claude/), run unchanged through `engine.decide` and `hookwerk decide --dialect
 * claude` (from dist/), in temp projects with a temp HOME.
 */
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${CLAUDE_PLUGIN_ROOT}`-style strings are hook file syntax.
import { execFileSync } from 'node:child_process';
import {
  appendFileSync,
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { claudePluginDataDir } from '../src/dialects/agent/claude-plugin-data.ts';
import type { AgentDecision } from '../src/dispatch/agent-answer.ts';
import type { HookEngine, HookEngineOptions } from '../src/engine-api.ts';
import type { RunRecord } from '../src/records/run-record.ts';
import { REPO, runCli, STACK } from './cli-runner.ts';
import { makeEngine } from './engine-harness.ts';
import { tempDir, waitFor } from './helpers.ts';
import { closeHttpServers, replyJson, startHttpServer } from './http-server.ts';
import { trustInProcess } from './trust-in-process.ts';

// ---------------------------------------------------------------------------------------------
// helpers

const FIXTURES = path.join(REPO, 'test', 'fixtures', 'claude');
const trustAll = () => ({ trusted: true, reason: 'test' });

type Handler = Record<string, unknown>;
type HookMap = Record<string, Array<{ matcher?: string; hooks: Handler[] }>>;
type Scope = 'managed' | 'user' | 'project' | 'local';

const cmd = (command: string, extra: Handler = {}): Handler => ({ type: 'command', command, ...extra });
/** A PreToolUse answer with `permissionDecision`, as a shell command. */
const permission = (decision: string, reason: string) =>
  `echo '${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: decision, permissionDecisionReason: reason } })}'`;

interface Env {
  project: string;
  home: string;
  /** The managed settings file of the engine (`claude.managedSettings`). */
  managed: string;
}

/** A temp project and a temp HOME, by their real paths. */
function newEnv(): Env {
  const project = realpathSync(tempDir('hw-claude-'));
  const home = realpathSync(tempDir('hw-claude-home-'));
  return { project, home, managed: path.join(home, 'managed-settings.json') };
}

function writeJson(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, typeof value === 'string' ? value : `${JSON.stringify(value, null, 2)}\n`);
}

function settingsPath(e: Env, scope: Scope): string {
  switch (scope) {
    case 'managed':
      return e.managed;
    case 'user':
      return path.join(e.home, '.claude', 'settings.json');
    case 'project':
      return path.join(e.project, '.claude', 'settings.json');
    case 'local':
      return path.join(e.project, '.claude', 'settings.local.json');
  }
}

/** Writes `{...extra, hooks}` as the settings file of `scope`; returns its path. */
function writeSettings(e: Env, scope: Scope, hooks: HookMap, extra: Record<string, unknown> = {}): string {
  const file = settingsPath(e, scope);
  writeJson(file, { ...extra, hooks });
  return file;
}

/**
 * Copies a fixture script into the project (default `.claude/hooks/<name>`), executable, and
 * returns the command as Claude Code users write it: `"$CLAUDE_PROJECT_DIR"/.claude/hooks/<name>`.
 */
function installHook(e: Env, name: string, dest = `.claude/hooks/${name}`): string {
  const to = path.join(e.project, dest);
  mkdirSync(path.dirname(to), { recursive: true });
  copyFileSync(path.join(FIXTURES, name), to);
  chmodSync(to, 0o755);
  return `"$CLAUDE_PROJECT_DIR"/${dest}`;
}

/** A copy of the plugin-audit fixture as `<temp>/<name>` (its data folder is named after `name`). */
function copyPlugin(name = 'plugin-audit'): string {
  const dir = path.join(realpathSync(tempDir('hw-plugins-')), name);
  cpSync(path.join(FIXTURES, 'plugin-audit'), dir, { recursive: true });
  return dir;
}

/**
 * [C-RUN-3] Claude Code's data folder of a `--plugin-dir` plugin without a manifest:
 * `<home>/.claude/plugins/data/<plugin folder name>-inline`.
 */
const pluginData = (e: Env, plugin: string) =>
  path.join(e.home, '.claude', 'plugins', 'data', `${path.basename(plugin)}-inline`);

interface EngineOpts {
  plugins?: string[];
  /** Use the real trust store under HOME instead of trusting everything. */
  realTrust?: boolean;
  env?: NodeJS.ProcessEnv;
  sessionId?: string;
}

/** [C-LIB-1] An engine speaking the claude dialect over `e`; closed after the test. */
function engineFor(e: Env, opts: EngineOpts = {}): Promise<HookEngine> {
  const options: HookEngineOptions = {
    projectDir: e.project,
    home: e.home,
    gateDialect: 'claude',
    claude: { managedSettings: e.managed, plugins: opts.plugins ?? [] },
    ...(opts.realTrust ? {} : { trust: trustAll }),
    ...(opts.env !== undefined ? { env: opts.env } : {}),
    ...(opts.sessionId !== undefined ? { sessionId: opts.sessionId } : {}),
  };
  return makeEngine(undefined, options);
}

async function decide(
  engine: HookEngine,
  event: string,
  input: Record<string, unknown>,
): Promise<AgentDecision> {
  const d = (await engine.decide(event, input)) as AgentDecision;
  for (const run of d.runs) expect(run.dialect).toBe('claude');
  return d;
}

const bash = (command: string) => ({ tool_name: 'Bash', tool_input: { command } });
const ran = (d: { runs: RunRecord[] }) => d.runs.map((r) => r.hook);
const outcomes = (d: { runs: RunRecord[] }) => d.runs.map((r) => r.outcome);
const read = (file: string) => readFileSync(file, 'utf8');
const lines = (file: string) =>
  existsSync(file)
    ? read(file)
        .split('\n')
        .filter((l) => l !== '')
    : [];

/** [C-CLI-1] `hookwerk decide EVENT --dialect claude` in the project, HOME = the temp home. */
async function cliDecide(
  e: Env,
  event: string,
  input: Record<string, unknown> | { stdin: string },
  plugins: string[] = [],
): Promise<{ code: number | null; d: AgentDecision; stderr: string }> {
  const pluginArgs = plugins.flatMap((p) => ['--plugin-dir', p]);
  const fromStdin = 'stdin' in input && typeof input.stdin === 'string';
  const r = await runCli(
    [
      'decide',
      event,
      '--dialect',
      'claude',
      ...pluginArgs,
      ...(fromStdin ? [] : ['--input', JSON.stringify(input)]),
    ],
    {
      cwd: e.project,
      home: e.home,
      ...(fromStdin ? { stdin: { text: String(input.stdin) } } : {}),
    },
  );
  expect(r.stderr).not.toMatch(STACK);
  expect(r.stdout.split('\n'), r.stdout + r.stderr).toHaveLength(2);
  return { code: r.code, d: JSON.parse(r.stdout) as AgentDecision, stderr: r.stderr };
}

/** [C-SRC-4] `hookwerk trust --yes [--plugin-dir …]` in the project; must approve. */
async function trustCli(e: Env, plugins: string[] = []): Promise<string> {
  const r = await runCli(['trust', '--yes', ...plugins.flatMap((p) => ['--plugin-dir', p])], {
    cwd: e.project,
    home: e.home,
  });
  expect(r.stderr).not.toMatch(STACK);
  expect(r.code, r.stdout + r.stderr).toBe(0);
  return r.stdout;
}

beforeAll(() => {
  if (!existsSync(path.join(REPO, 'dist', 'cli', 'main.js'))) {
    throw new Error('dist/ is missing: run `npm run build` before the CLI tests');
  }
});

afterEach(closeHttpServers);

// ---------------------------------------------------------------------------------------------
// 1. Real scripts, unchanged

/**
 * Each case starts its scripts several times and the CLI twice: a budget for a loaded 2-core machine
 * with other test files running (the first cases of a file also pay the worker's warm-up). A budget
 * against a hang, not a threshold.
 */
const SCRIPTS_BUDGET_MS = 120_000;

describe('[C-ANS-1..3] [C-EV-1] [C-CLI-1] Claude Code hook scripts run unchanged', {
  timeout: SCRIPTS_BUDGET_MS,
}, () => {
  it('[C-ANS-2] a Python Bash guard that exits 2 with a stderr reason blocks `rm -rf /` and allows `ls` (exit 2 / 0)', async () => {
    const e = newEnv();
    writeSettings(e, 'project', {
      PreToolUse: [{ matcher: 'Bash', hooks: [cmd(`python3 ${installHook(e, 'bash-guard.py')}`)] }],
    });
    const engine = await engineFor(e);

    const blocked = await decide(engine, 'PreToolUse', bash('rm -rf /'));
    expect(blocked).toMatchObject({ decision: 'deny', blocked: true, continue: true });
    expect(blocked.reason).toBe('bash-guard: refusing a forced recursive delete: rm -rf /');
    expect(blocked.runs).toHaveLength(1);
    expect(blocked.runs[0]).toMatchObject({
      outcome: 'deny',
      exitCode: 2,
      permission: 'deny',
      decision: 'deny',
    });

    for (const command of ['cd build && rm -fr out', 'rm -r -f tmp']) {
      expect((await decide(engine, 'PreToolUse', bash(command))).blocked, command).toBe(true);
    }
    const allowed = await decide(engine, 'PreToolUse', bash('ls'));
    expect(allowed).toMatchObject({ decision: 'allow', blocked: false, continue: true });
    expect(allowed.reason).toBeUndefined();
    expect(allowed.runs[0]).toMatchObject({ outcome: 'ok', exitCode: 0, decision: 'allow' });

    // The CLI, with the real trust store: approve, then decide.
    await trustInProcess(e.project, e.home);
    const no = await cliDecide(e, 'PreToolUse', bash('rm -rf /'));
    expect(no.code).toBe(2);
    expect(no.d).toMatchObject({ decision: 'deny', blocked: true });
    expect(no.d.reason).toContain('rm -rf /');
    const yes = await cliDecide(e, 'PreToolUse', bash('ls'));
    expect(yes.code).toBe(0);
    expect(yes.d).toMatchObject({ decision: 'allow', blocked: false });
    expect(outcomes(yes.d)).toEqual(['ok']);
  });

  it('[C-ANS-3] a Python guard answering hookSpecificOutput.permissionDecision "deny" blocks with its permissionDecisionReason', async () => {
    const e = newEnv();
    writeSettings(e, 'project', {
      PreToolUse: [{ matcher: 'Bash', hooks: [cmd(installHook(e, 'bash-guard-json.py'))] }],
    });
    const engine = await engineFor(e);
    const blocked = await decide(engine, 'PreToolUse', bash('git clean -x && rm -rf node_modules'));
    expect(blocked).toMatchObject({
      decision: 'deny',
      blocked: true,
      reason: 'forced recursive rm is not allowed here',
    });
    expect(blocked.runs[0]).toMatchObject({ outcome: 'deny', exitCode: 0, permission: 'deny' });
    const allowed = await decide(engine, 'PreToolUse', bash('ls -la'));
    expect(allowed).toMatchObject({ decision: 'allow', blocked: false });
    expect(allowed.runs[0]).toMatchObject({ outcome: 'ok', exitCode: 0 });

    await trustInProcess(e.project, e.home);
    expect((await cliDecide(e, 'PreToolUse', bash('rm -rf /'))).code).toBe(2);
    expect((await cliDecide(e, 'PreToolUse', bash('ls'))).code).toBe(0);
  });

  it('[C-ANS-3] a Node .env protector on Edit|Write|MultiEdit denies .env files and allows README.md', async () => {
    const e = newEnv();
    writeSettings(e, 'project', {
      PreToolUse: [
        { matcher: 'Edit|Write|MultiEdit', hooks: [cmd(`node ${installHook(e, 'protect-env.mjs')}`)] },
      ],
    });
    const engine = await engineFor(e);
    const write = (tool: string, file_path: string) => ({
      tool_name: tool,
      tool_input: { file_path, content: 'X=1\n' },
    });

    const env = await decide(engine, 'PreToolUse', write('Write', path.join(e.project, '.env')));
    expect(env).toMatchObject({
      decision: 'deny',
      blocked: true,
      reason: '.env holds secrets; edit it by hand',
    });
    const local = await decide(engine, 'PreToolUse', write('MultiEdit', 'config/.env.local'));
    expect(local).toMatchObject({ decision: 'deny', blocked: true });
    const readme = await decide(engine, 'PreToolUse', write('Edit', path.join(e.project, 'README.md')));
    expect(readme).toMatchObject({ decision: 'allow', blocked: false });
    expect(outcomes(readme)).toEqual(['ok']);
    // Not one of its tools: the hook is not even started.
    expect((await decide(engine, 'PreToolUse', write('Read', '.env'))).runs).toEqual([]);

    await trustInProcess(e.project, e.home);
    expect((await cliDecide(e, 'PreToolUse', write('Write', '.env'))).code).toBe(2);
    expect((await cliDecide(e, 'PreToolUse', write('Write', 'README.md'))).code).toBe(0);
  });

  it('[C-EV-1] a sh Stop hook keeps the agent going with decision "block" until stop_hook_active is true', async () => {
    const e = newEnv();
    writeSettings(e, 'project', { Stop: [{ hooks: [cmd(installHook(e, 'keep-going.sh'))] }] });
    const engine = await engineFor(e);

    const first = await decide(engine, 'Stop', { stop_hook_active: false });
    expect(first).toMatchObject({
      decision: 'deny',
      blocked: true,
      continue: true,
      reason: 'Run the test suite and fix what fails before stopping.',
    });
    expect(first.runs[0]).toMatchObject({ outcome: 'deny', exitCode: 0 });
    const again = await decide(engine, 'Stop', { stop_hook_active: true });
    expect(again).toMatchObject({ decision: 'allow', blocked: false });
    expect(again.reason).toBeUndefined();

    await trustInProcess(e.project, e.home);
    const cliFirst = await cliDecide(e, 'Stop', { stop_hook_active: false });
    expect(cliFirst.code).toBe(2);
    expect(cliFirst.d.reason).toBe('Run the test suite and fix what fails before stopping.');
    expect((await cliDecide(e, 'Stop', { stop_hook_active: true })).code).toBe(0);
  });

  it('[C-ANS-1] a SessionStart hook printing plain text gives additionalContext, and never blocks', async () => {
    const e = newEnv();
    writeSettings(e, 'project', {
      SessionStart: [{ matcher: 'startup', hooks: [cmd(installHook(e, 'session-context.sh'))] }],
    });
    const engine = await engineFor(e);
    const d = await decide(engine, 'SessionStart', { source: 'startup' });
    expect(d).toMatchObject({ decision: 'allow', blocked: false, continue: true });
    expect(d.additionalContext).toBe(
      `Project notes: ${path.basename(e.project)} uses tabs, never spaces.\nSession opened from ${e.project}.`,
    );
    expect(d.runs[0]).toMatchObject({ outcome: 'ok', additionalContext: d.additionalContext });

    await trustInProcess(e.project, e.home);
    const c = await cliDecide(e, 'SessionStart', { source: 'startup' });
    expect(c.code).toBe(0);
    expect(c.d.additionalContext).toBe(d.additionalContext);
  });

  it('[C-RUN-3] export lines a SessionStart hook writes to $CLAUDE_ENV_FILE come back as `env`; other events get no env file', async () => {
    const e = newEnv();
    const script = installHook(e, 'session-env.sh');
    writeSettings(e, 'project', {
      SessionStart: [{ hooks: [cmd(script)] }],
      PreToolUse: [{ hooks: [cmd(script)] }],
    });
    const engine = await engineFor(e);
    const d = await decide(engine, 'SessionStart', { source: 'startup' });
    expect(d.runs[0]).toMatchObject({ outcome: 'ok', exitCode: 0 });
    expect(d.env).toEqual({
      NODE_ENV: 'test',
      GREETING: 'hello world',
      PROJECT_NAME: path.basename(e.project),
    });
    // File order, later lines win (NODE_ENV keeps its first place).
    expect(Object.keys(d.env ?? {})).toEqual(['NODE_ENV', 'GREETING', 'PROJECT_NAME']);

    // PreToolUse gets no CLAUDE_ENV_FILE: the script exits 1 — a recorded error that blocks nothing.
    const pre = await decide(engine, 'PreToolUse', bash('ls'));
    expect(pre).toMatchObject({ decision: 'allow', blocked: false });
    expect(pre.env).toBeUndefined();
    expect(pre.runs[0]).toMatchObject({
      outcome: 'error',
      exitCode: 1,
      cause: 'exit_code',
      reason: 'session-env: CLAUDE_ENV_FILE is not set',
      failed: 'open',
    });

    await trustInProcess(e.project, e.home);
    const c = await cliDecide(e, 'SessionStart', { source: 'resume' });
    expect(c.code).toBe(0);
    expect(c.d.env).toEqual(d.env);
  });

  it('[C-RUN-3] [C-ANS-4] each hook gets an empty env file of its own; a name two hooks export takes the later-configured value', async () => {
    const e = newEnv();
    const empty = 'test -s "$CLAUDE_ENV_FILE" && echo "not empty" >&2 && exit 1';
    writeSettings(e, 'project', {
      SessionStart: [
        {
          hooks: [
            cmd(
              `${empty}; while [ ! -f second.done ]; do sleep 0.02; done; echo "export WHO=first" >> "$CLAUDE_ENV_FILE"; echo "export ONLY_FIRST=1" >> "$CLAUDE_ENV_FILE"`,
              {
                timeout: 20,
              },
            ),
            cmd(`${empty}; echo "export WHO=second" >> "$CLAUDE_ENV_FILE"; touch second.done`, {
              timeout: 20,
            }),
          ],
        },
      ],
    });
    const engine = await engineFor(e);
    const d = await decide(engine, 'SessionStart', { source: 'startup' });
    expect(outcomes(d)).toEqual(['ok', 'ok']);
    expect(d.env).toEqual({ WHO: 'second', ONLY_FIRST: '1' });
  });

  it('[C-ANS-3] a Python UserPromptSubmit hook blocks a prompt holding a secret and adds context to the others', async () => {
    const e = newEnv();
    writeSettings(e, 'project', {
      UserPromptSubmit: [{ hooks: [cmd(`python3 ${installHook(e, 'prompt-guard.py')}`)] }],
    });
    const engine = await engineFor(e);
    const secret = await decide(engine, 'UserPromptSubmit', {
      prompt: 'deploy with key sk-abcdefghijklmnopqrstuvwx please',
    });
    expect(secret).toMatchObject({
      decision: 'deny',
      blocked: true,
      reason: 'the prompt seems to contain a secret; remove it and resend',
    });
    expect(secret.additionalContext).toBeUndefined();
    const fine = await decide(engine, 'UserPromptSubmit', { prompt: 'add a test' });
    expect(fine).toMatchObject({
      decision: 'allow',
      blocked: false,
      additionalContext: 'prompt-guard: checked 10 characters, nothing secret',
    });

    await trustInProcess(e.project, e.home);
    expect((await cliDecide(e, 'UserPromptSubmit', { prompt: 'password=hunter2' })).code).toBe(2);
    const ok = await cliDecide(e, 'UserPromptSubmit', { prompt: 'hello' });
    expect(ok.code).toBe(0);
    expect(ok.d.additionalContext).toBe('prompt-guard: checked 5 characters, nothing secret');
  });

  it('[C-SRC-1] [C-RUN-1] [C-RUN-3] a plugin folder: ${CLAUDE_PLUGIN_ROOT} scripts in shell and exec form, state in $CLAUDE_PLUGIN_DATA', async () => {
    const e = newEnv();
    const plugin = copyPlugin();
    const data = pluginData(e, plugin);
    const engine = await engineFor(e, { plugins: [plugin] });

    // Shell form: `${CLAUDE_PLUGIN_ROOT}/scripts/count-sessions.sh`, counting in its data folder.
    const s1 = await decide(engine, 'SessionStart', { source: 'startup' });
    expect(s1.runs[0]).toMatchObject({ outcome: 'ok', exitCode: 0 });
    expect(s1.runs[0]?.source).toContain(path.join(plugin, 'hooks', 'hooks.json'));
    expect(s1.additionalContext).toBe('plugin-audit: session 1');
    const s2 = await decide(engine, 'SessionStart', { source: 'resume' });
    expect(s2.additionalContext).toBe('plugin-audit: session 2');
    expect(read(path.join(data, 'sessions')).trim()).toBe('2');

    // Exec form: `node ${CLAUDE_PLUGIN_ROOT}/scripts/fence.cjs ${CLAUDE_PLUGIN_DATA} ${CLAUDE_PROJECT_DIR}`.
    const inside = await decide(engine, 'PreToolUse', {
      tool_name: 'Write',
      tool_input: { file_path: 'src/a.ts' },
    });
    expect(inside).toMatchObject({ decision: 'allow', blocked: false });
    expect(inside.runs[0]).toMatchObject({ outcome: 'ok', exitCode: 0 });
    const outside = await decide(engine, 'PreToolUse', {
      tool_name: 'Edit',
      tool_input: { file_path: '/etc/hosts' },
    });
    expect(outside).toMatchObject({
      decision: 'deny',
      blocked: true,
      reason: `/etc/hosts is outside the project ${e.project}`,
    });
    expect(lines(path.join(data, 'audit.log'))).toEqual(['Write src/a.ts', 'Edit /etc/hosts']);
    // Its matcher is Write|Edit.
    expect((await decide(engine, 'PreToolUse', bash('ls'))).runs).toEqual([]);

    // The CLI with --plugin-dir, after `trust --yes --plugin-dir`.
    await trustInProcess(e.project, e.home, [plugin]);
    const c = await cliDecide(e, 'PreToolUse', { tool_name: 'Write', tool_input: { file_path: '/tmp/x' } }, [
      plugin,
    ]);
    expect(c.code).toBe(2);
    expect(c.d.reason).toBe(`/tmp/x is outside the project ${e.project}`);
    const s3 = await cliDecide(e, 'SessionStart', { source: 'startup' }, [plugin]);
    expect(s3.code).toBe(0);
    expect(s3.d.additionalContext).toBe('plugin-audit: session 3');
    expect(lines(path.join(data, 'audit.log'))).toHaveLength(3);
  });

  it('[C-ANS-3] a Node PreToolUse hook returning updatedInput rewrites the tool input', async () => {
    const e = newEnv();
    writeSettings(e, 'project', {
      PreToolUse: [{ matcher: 'Bash', hooks: [cmd(`node ${installHook(e, 'rewrite-input.cjs')}`)] }],
    });
    const engine = await engineFor(e);
    const d = await decide(engine, 'PreToolUse', {
      tool_name: 'Bash',
      tool_input: { command: 'grep -rn TODO src', description: 'find todos' },
    });
    expect(d).toMatchObject({
      decision: 'allow',
      blocked: false,
      reason: 'grep rewritten to rg',
      updatedInput: { command: 'rg -rn TODO src', description: 'find todos' },
    });
    expect(d.runs[0]).toMatchObject({ outcome: 'ok', permission: 'allow' });
    const untouched = await decide(engine, 'PreToolUse', bash('ls'));
    expect(untouched.updatedInput).toBeUndefined();
    expect(untouched.decision).toBe('allow');

    await trustInProcess(e.project, e.home);
    const c = await cliDecide(e, 'PreToolUse', bash('grep x y'));
    expect(c.code).toBe(0);
    expect(c.d.updatedInput).toEqual({ command: 'rg x y' });
  });
});

// 2. Timeouts: the shared dialect suite (dialect-suite.test.ts) holds them for every dialect.

// ---------------------------------------------------------------------------------------------
// 3. Matchers

describe('[C-MATCH-1] [C-MATCH-2] matchers', () => {
  async function matcherEngine() {
    const e = newEnv();
    const echo = (name: string) => cmd(`echo ${name}`);
    writeSettings(e, 'project', {
      PreToolUse: [
        { matcher: 'Bash', hooks: [echo('bash')] },
        { matcher: 'Edit|Write', hooks: [echo('edit-or-write')] },
        { matcher: 'Edit.*', hooks: [echo('edit-regex')] },
        { matcher: 'mcp__memory__.*', hooks: [echo('memory')] },
        { matcher: 'Read, Grep', hooks: [echo('read-or-grep')] },
        { matcher: '*', hooks: [echo('star')] },
        { hooks: [echo('none')] },
      ],
      UserPromptSubmit: [{ matcher: 'Bash', hooks: [echo('prompt')] }],
      Stop: [{ matcher: 'no-such-thing', hooks: [echo('stop')] }],
      SessionStart: [
        { matcher: 'resume', hooks: [echo('resume')] },
        { matcher: 'startup|clear', hooks: [echo('startup-or-clear')] },
      ],
      Notification: [{ matcher: 'idle_prompt', hooks: [echo('idle')] }],
      PreCompact: [{ matcher: 'manual', hooks: [echo('manual')] }],
    });
    return engineFor(e);
  }

  it('[C-MATCH-2] names are exact, `|` and `,` lists are exact names, anything else is an unanchored case-sensitive regex', async () => {
    const engine = await matcherEngine();
    const tool = async (tool_name: string) =>
      ran(await decide(engine, 'PreToolUse', { tool_name, tool_input: {} }));
    const all = ['echo star', 'echo none'];
    expect(await tool('Bash')).toEqual(['echo bash', ...all]);
    expect(await tool('BashOutput')).toEqual(all);
    expect(await tool('bash')).toEqual(all);
    expect(await tool('Edit')).toEqual(['echo edit-or-write', 'echo edit-regex', ...all]);
    expect(await tool('Write')).toEqual(['echo edit-or-write', ...all]);
    expect(await tool('MultiEdit')).toEqual(['echo edit-regex', ...all]);
    expect(await tool('NotebookEdit')).toEqual(['echo edit-regex', ...all]);
    expect(await tool('mcp__memory__create_entities')).toEqual(['echo memory', ...all]);
    expect(await tool('mcp__github__create_issue')).toEqual(all);
    expect(await tool('Grep')).toEqual(['echo read-or-grep', ...all]);
    expect(await tool('Read')).toEqual(['echo read-or-grep', ...all]);
  });

  it('[C-MATCH-1] a matcher on an event without a matched field is ignored', async () => {
    const engine = await matcherEngine();
    expect(ran(await decide(engine, 'UserPromptSubmit', { prompt: 'hi' }))).toEqual(['echo prompt']);
    expect(ran(await decide(engine, 'Stop', { stop_hook_active: false }))).toEqual(['echo stop']);
  });

  it('[C-MATCH-1] the matched field per event: SessionStart source, Notification notification_type, PreCompact trigger', async () => {
    const engine = await matcherEngine();
    expect(ran(await decide(engine, 'SessionStart', { source: 'resume' }))).toEqual(['echo resume']);
    expect(ran(await decide(engine, 'SessionStart', { source: 'clear' }))).toEqual(['echo startup-or-clear']);
    expect(ran(await decide(engine, 'SessionStart', { source: 'compact' }))).toEqual([]);
    const note = (notification_type: string) =>
      decide(engine, 'Notification', { message: 'Claude is waiting', notification_type });
    expect(ran(await note('idle_prompt'))).toEqual(['echo idle']);
    expect(ran(await note('permission_prompt'))).toEqual([]);
    expect(ran(await decide(engine, 'PreCompact', { trigger: 'manual' }))).toEqual(['echo manual']);
    expect(ran(await decide(engine, 'PreCompact', { trigger: 'auto' }))).toEqual([]);
    // The field is the event's own: PreToolUse looks at tool_name, never at `source`.
    expect(ran(await decide(engine, 'PreToolUse', { tool_name: 'Read', source: 'Bash' }))).not.toContain(
      'echo bash',
    );
  });

  it('[C-RUN-2] [A-ALL-1] explain says which file wins when two files name the same handler, and it runs once', async () => {
    const e = newEnv();
    writeSettings(e, 'user', { PreToolUse: [{ matcher: 'Bash', hooks: [cmd('echo same >> ran.log')] }] });
    const local = writeSettings(e, 'local', {
      PreToolUse: [{ matcher: 'Bash', hooks: [cmd('echo same >> ran.log')] }],
    });
    const engine = await engineFor(e);
    const why = engine.explain('PreToolUse', { tool_name: 'Bash' });
    expect(why.map((x) => x.verdict)).toEqual(['runs', 'duplicate']);
    expect(why[1]?.source).toContain(local);
    // The winner by its source (an identifier, absolute); in words with the home shown as `~` [G-FAIL-5].
    expect(why[1]?.duplicateOf).toBe(`${settingsPath(e, 'user')}#/hooks/PreToolUse/0/hooks/0`);
    expect(why[1]?.detail).toContain(
      'the same handler as ~/.claude/settings.json#/hooks/PreToolUse/0/hooks/0',
    );
    expect(why[1]?.detail).toContain('which wins');
    const d = await decide(engine, 'PreToolUse', bash('ls'));
    expect(ran(d)).toEqual(['echo same >> ran.log']);
    await trustInProcess(e.project, e.home);
    const cli = await runCli(
      ['explain', 'PreToolUse', '--dialect', 'claude', '--project', e.project, '--tool', 'Bash'],
      { home: e.home },
    );
    expect(cli.stdout).toMatch(/duplicate\s+echo same/);
  });
});

// ---------------------------------------------------------------------------------------------
// 4. `if` rules

describe('[C-RUN-1] `if: "Bash(rm *)"`', () => {
  it('[C-RUN-1] runs the handler only for commands with an `rm` subcommand (after &&, ;, |, inside $(), after VAR=x)', async () => {
    const e = newEnv();
    const guard = cmd('echo "rm seen" >&2; exit 2', { if: 'Bash(rm *)' });
    writeSettings(e, 'project', {
      PreToolUse: [{ hooks: [guard, cmd('echo always')] }],
    });
    const engine = await engineFor(e);
    const check = async (command: string, blocked: boolean) => {
      const d = await decide(engine, 'PreToolUse', bash(command));
      expect(d.blocked, command).toBe(blocked);
      expect(ran(d), command).toEqual(
        blocked ? ['echo "rm seen" >&2; exit 2', 'echo always'] : ['echo always'],
      );
      if (blocked) expect(d.reason).toBe('rm seen');
    };
    await check('rm -rf build', true);
    await check('cd build && rm -f a.o', true);
    await check('make; rm core', true);
    await check('ls | rm -i x', true);
    await check('echo $(rm -f y)', true);
    await check('FOO=1 rm z', true);
    await check('ls -la', false);
    await check('echo rm', false);
    await check('rmdir empty', false);
    // Another tool: the rule's tool is Bash, so the handler does not run.
    const write = await decide(engine, 'PreToolUse', {
      tool_name: 'Write',
      tool_input: { file_path: 'rm x' },
    });
    expect(ran(write)).toEqual(['echo always']);
  });

  it('[C-RUN-1] a rule it cannot read runs the handler', async () => {
    const e = newEnv();
    writeSettings(e, 'project', {
      PreToolUse: [{ hooks: [cmd('echo unreadable-rule', { if: 'Bash(rm *' })] }],
    });
    const engine = await engineFor(e);
    expect(ran(await decide(engine, 'PreToolUse', bash('ls')))).toEqual(['echo unreadable-rule']);
  });
});

// ---------------------------------------------------------------------------------------------
// 5. Parallel runs, deterministic merge

describe('[C-RUN-2] [C-ANS-4] parallel, merged in configuration order', () => {
  /** A shell line that waits for `file` (in the project, the hook's cwd) to exist. */
  const waitForFile = (file: string) => `while [ ! -f ${file} ]; do sleep 0.02; done`;
  const updated = (command: string) =>
    `echo '${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: { command } } })}'`;

  it('[C-RUN-2] [C-ANS-4] two hooks give updatedInput, the first slower: they run together and the later-configured one wins', async () => {
    const e = newEnv();
    // The first waits until the second has answered: it can only finish if both run at once.
    const slow = cmd(
      `cat > /dev/null; ${waitForFile('second.done')}; ${updated('from-first')}; touch first.done`,
      {
        timeout: 20,
      },
    );
    const fast = cmd(`cat > /dev/null; ${updated('from-second')}; touch second.done`, { timeout: 20 });
    writeSettings(e, 'project', { PreToolUse: [{ matcher: 'Bash', hooks: [slow] }, { hooks: [fast] }] });
    const engine = await engineFor(e);
    const d = await decide(engine, 'PreToolUse', bash('ls'));
    expect(outcomes(d)).toEqual(['ok', 'ok']);
    expect(ran(d)).toEqual([slow.command, fast.command]);
    expect(existsSync(path.join(e.project, 'first.done'))).toBe(true);
    expect(d.updatedInput).toEqual({ command: 'from-second' });
  });

  it('[C-ANS-4] additionalContext is joined in configuration order, not finish order', async () => {
    const e = newEnv();
    // Finish order: third, second, first.
    writeSettings(e, 'project', {
      UserPromptSubmit: [
        {
          hooks: [
            cmd(`${waitForFile('2.done')}; echo first; touch 1.done`, { timeout: 20 }),
            cmd(`${waitForFile('3.done')}; echo second; touch 2.done`, { timeout: 20 }),
          ],
        },
        { hooks: [cmd('echo third; touch 3.done', { timeout: 20 })] },
      ],
    });
    const engine = await engineFor(e);
    const d = await decide(engine, 'UserPromptSubmit', { prompt: 'go' });
    expect(outcomes(d)).toEqual(['ok', 'ok', 'ok']);
    expect(d.additionalContext).toBe('first\nsecond\nthird');
    expect(d.runs.map((r) => r.additionalContext)).toEqual(['first', 'second', 'third']);
  });

  it('[C-ANS-4] permission: deny > defer > ask > allow, whatever the configuration order', async () => {
    const e = newEnv();
    writeSettings(e, 'project', {
      PreToolUse: [
        { matcher: 'T4', hooks: [cmd(permission('deny', 'denied'))] },
        { matcher: 'T2|T3|T4', hooks: [cmd(permission('ask', 'asked'))] },
        { matcher: '*', hooks: [cmd(permission('allow', 'allowed'))] },
        { matcher: 'T3|T4', hooks: [cmd(permission('defer', 'deferred'))] },
      ],
    });
    const engine = await engineFor(e);
    const tool = (tool_name: string) => decide(engine, 'PreToolUse', { tool_name, tool_input: {} });
    expect(await tool('T1')).toMatchObject({ decision: 'allow', blocked: false });
    expect(await tool('T2')).toMatchObject({ decision: 'ask', blocked: false, reason: 'asked' });
    expect(await tool('T3')).toMatchObject({ decision: 'defer', blocked: false, reason: 'asked\ndeferred' });
    const t4 = await tool('T4');
    expect(t4).toMatchObject({ decision: 'deny', blocked: true, reason: 'denied' });
    expect(t4.runs.map((r) => r.permission)).toEqual(['deny', 'ask', 'allow', 'defer']);

    await trustInProcess(e.project, e.home);
    expect((await cliDecide(e, 'PreToolUse', { tool_name: 'T3' })).code).toBe(0);
    expect((await cliDecide(e, 'PreToolUse', { tool_name: 'T4' })).code).toBe(2);
  });
});

describe('[C-EV-1] [C-OUT-1] which events block, and the rest of the decision', () => {
  it('[C-EV-1] exit 2 blocks PostToolUse, SubagentStop, PreCompact, ConfigChange, TaskCompleted; never Notification, SessionEnd, PostCompact or an unknown event', async () => {
    const e = newEnv();
    const no = cmd('echo "stop right there" >&2; exit 2');
    const blocking = ['PostToolUse', 'SubagentStop', 'PreCompact', 'ConfigChange', 'TaskCompleted'];
    const never = ['Notification', 'SessionEnd', 'PostCompact', 'FutureEvent'];
    writeSettings(
      e,
      'project',
      Object.fromEntries([...blocking, ...never].map((ev) => [ev, [{ hooks: [no] }]])),
    );
    const engine = await engineFor(e);
    for (const event of blocking) {
      const d = await decide(engine, event, {});
      expect(d, event).toMatchObject({ decision: 'deny', blocked: true, reason: 'stop right there' });
    }
    for (const event of never) {
      const d = await decide(engine, event, {});
      expect(d, event).toMatchObject({ decision: 'allow', blocked: false });
      expect(d.runs[0], event).toMatchObject({ outcome: 'error', cause: 'exit_2_ignored', failed: 'open' });
    }
  });

  it('[C-ANS-4] [C-OUT-1] continue: false with the first stopReason in configuration order; systemMessages joined in that order', async () => {
    const e = newEnv();
    const stop = (reason: string, message: string) =>
      `echo '${JSON.stringify({ continue: false, stopReason: reason, systemMessage: message })}'`;
    writeSettings(e, 'project', {
      PostToolUse: [
        {
          hooks: [
            cmd(`while [ ! -f b.done ]; do sleep 0.02; done; ${stop('first stop', 'm1')}`, { timeout: 20 }),
            cmd(`${stop('second stop', 'm2')}; touch b.done`, { timeout: 20 }),
            cmd('echo only recorded'),
          ],
        },
      ],
    });
    const engine = await engineFor(e);
    const d = await decide(engine, 'PostToolUse', { tool_name: 'Bash', tool_response: { stdout: '' } });
    expect(d).toMatchObject({
      decision: 'allow',
      blocked: false,
      continue: false,
      stopReason: 'first stop',
      systemMessage: 'm1\nm2',
    });
    expect(d.additionalContext).toBeUndefined();
    expect(d.runs[2]?.reason).toMatch(/only recorded/);
  });
});

// ---------------------------------------------------------------------------------------------
// 6. Identical handlers

describe('[C-RUN-2] identical handlers', () => {
  it('[C-RUN-2] [G-FAIL-5] the same handler (and matcher) in project and local settings runs once; exec forms with other args stay apart', async () => {
    const e = newEnv();
    const count = cmd('echo run >> "$CLAUDE_PROJECT_DIR/count.txt"');
    const exec = (arg: string) => ({
      type: 'command',
      command: 'sh',
      args: ['-c', 'echo "$0" >> exec.txt', arg],
    });
    const projectFile = writeSettings(e, 'project', {
      PreToolUse: [{ matcher: 'Bash', hooks: [count, exec('a')] }],
    });
    writeSettings(e, 'local', { PreToolUse: [{ matcher: 'Bash', hooks: [count, exec('a'), exec('b')] }] });
    const engine = await engineFor(e);
    const d = await decide(engine, 'PreToolUse', bash('ls'));
    expect(d.runs).toHaveLength(3);
    expect(d.runs[0]?.source).toBe(`${projectFile}#/hooks/PreToolUse/0/hooks/0`);
    expect(lines(path.join(e.project, 'count.txt'))).toEqual(['run']);
    expect(lines(path.join(e.project, 'exec.txt')).sort()).toEqual(['a', 'b']);
  });

  it('[C-RUN-2] two plugin folders with the same hooks both run', async () => {
    const e = newEnv();
    const one = copyPlugin('plugin-audit');
    const two = copyPlugin('plugin-audit-copy');
    const engine = await engineFor(e, { plugins: [one, two] });
    const d = await decide(engine, 'SessionStart', { source: 'startup' });
    expect(outcomes(d)).toEqual(['ok', 'ok']);
    expect(d.additionalContext).toBe('plugin-audit: session 1\nplugin-audit-copy: session 1');
    const w = await decide(engine, 'PreToolUse', { tool_name: 'Write', tool_input: { file_path: 'a' } });
    expect(w.runs).toHaveLength(2);
    expect(lines(path.join(pluginData(e, one), 'audit.log'))).toEqual(['Write a']);
    expect(lines(path.join(pluginData(e, two), 'audit.log'))).toEqual(['Write a']);
  });
});

// ---------------------------------------------------------------------------------------------
// 7. async

describe('[C-RUN-1] async: true', () => {
  it('[C-RUN-1] an async hook never decides but is recorded', async () => {
    const e = newEnv();
    const asyncDeny = cmd(`cat > /dev/null; touch async.ran; ${permission('deny', 'too late')}`, {
      async: true,
    });
    const asyncStop = cmd('echo "no" >&2; exit 2', { async: true });
    writeSettings(e, 'project', {
      PreToolUse: [{ hooks: [asyncDeny, cmd('echo sync')] }],
      Stop: [{ hooks: [asyncStop] }],
    });
    const engine = await engineFor(e);
    const seen: RunRecord[] = [];
    engine.bus.subscribe('hookwerk.run.*', (msg) => {
      seen.push(msg.payload as RunRecord);
    });

    const d = await decide(engine, 'PreToolUse', bash('ls'));
    expect(d).toMatchObject({ decision: 'allow', blocked: false });
    expect(ran(d)).toEqual(['echo sync']);
    const record = await waitFor(
      () => seen.find((r) => r.hook === asyncDeny.command && r.cause === 'async'),
      'the async hook record',
    );
    expect(record).toMatchObject({ event: 'PreToolUse', dialect: 'claude', exitCode: 0 });
    expect(existsSync(path.join(e.project, 'async.ran'))).toBe(true);

    const stop = await decide(engine, 'Stop', { stop_hook_active: false });
    expect(stop).toMatchObject({ decision: 'allow', blocked: false, runs: [] });
    const stopRecord = await waitFor(
      () => engine.runs({ event: 'Stop' }).find((r) => r.hook === asyncStop.command),
      'the async Stop record in engine.runs()',
    );
    expect(stopRecord).toMatchObject({ cause: 'async', exitCode: 2 });
  });
});

// ---------------------------------------------------------------------------------------------
// 8. Lenient loading

describe('[C-SRC-3] lenient loading', () => {
  function lenientProject(): { e: Env; file: string } {
    const e = newEnv();
    const file = writeSettings(
      e,
      'project',
      {
        FutureEvent: [{ hooks: [cmd('echo future')] }],
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              cmd('echo kept-1', { colour: 'blue' }),
              { type: 'prompt', prompt: 'Is this command safe?' },
              { type: 'command' },
              cmd('echo kept-2', { statusMessage: 'checking', once: true, shell: 'bash' }),
            ],
          },
        ],
      },
      { permissions: { allow: ['Bash(ls:*)'] } },
    );
    return { e, file };
  }

  it('[C-SRC-3] an unknown event, an unknown field, a prompt handler and a handler without command: the other hooks still load and run', async () => {
    const { e, file } = lenientProject();
    const engine = await engineFor(e);
    const { config } = engine.gate;
    expect(config.issues).toEqual([]);
    const warnings = config.warnings.map((w) => `${w.path}: ${w.message}`);
    expect(warnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\$\.hooks\.FutureEvent: .*not an event Claude Code documents/),
        expect.stringMatching(/PreToolUse\[0\]\.hooks\[0\]\.colour: unknown field "colour"/),
        expect.stringMatching(/PreToolUse\[0\]\.hooks\[1\]: handler type "prompt" is not supported/),
        expect.stringMatching(/PreToolUse\[0\]\.hooks\[2\]\.command: .*this handler is skipped/),
      ]),
    );
    expect(config.warnings.every((w) => w.file === file)).toBe(true);
    const d = await decide(engine, 'PreToolUse', bash('ls'));
    expect(ran(d)).toEqual(['echo kept-1', 'echo kept-2']);
    expect(outcomes(d)).toEqual(['ok', 'ok']);
    const future = await decide(engine, 'FutureEvent', { anything: 1 });
    expect(ran(future)).toEqual(['echo future']);
    expect(future).toMatchObject({ decision: 'allow', blocked: false });
  });

  it('[C-SRC-3] [C-CLI-1] validate --dialect claude reports the skipped handlers (exit 1), the unknown field and the prompt hook as warnings', async () => {
    const { e, file } = lenientProject();
    const r = await runCli(['validate', '--dialect', 'claude'], { cwd: e.project, home: e.home });
    expect(r.stderr).not.toMatch(STACK);
    expect(r.code).toBe(1);
    const errLines = r.stderr.split('\n');
    const errorLine = (re: RegExp) => errLines.find((l) => !l.startsWith('warning:') && re.test(l));
    const warningLine = (re: RegExp) => errLines.find((l) => l.startsWith('warning:') && re.test(l));
    // [G-FAIL-3] Claude Code runs a prompt hook: the file is fine for the agent, hookwerk says it skips it.
    expect(warningLine(/handler type "prompt" is not supported/), r.stderr).toContain(file);
    expect(errorLine(/handler type "prompt"/)).toBeUndefined();
    expect(errorLine(/hooks\[2\]\.command.*this handler is skipped/), r.stderr).toContain(file);
    expect(warningLine(/unknown field "colour"/), r.stderr).toContain(file);
    expect(warningLine(/FutureEvent/), r.stderr).toBeDefined();
    expect(errorLine(/colour/)).toBeUndefined();
  });
});

// ---------------------------------------------------------------------------------------------
// 9. Sources

describe('[C-SRC-1] [C-SRC-2] sources and switches', () => {
  /** Every source has a SessionStart hook printing its own name (plain text: context). */
  function everySource(switches: Partial<Record<Scope, Record<string, unknown>>> = {}) {
    const e = newEnv();
    for (const scope of ['managed', 'user', 'project', 'local'] as const) {
      writeSettings(e, scope, { SessionStart: [{ hooks: [cmd(`echo ${scope}`)] }] }, switches[scope] ?? {});
    }
    const plugin = path.join(realpathSync(tempDir('hw-plugins-')), 'tiny-plugin');
    writeJson(path.join(plugin, 'hooks', 'hooks.json'), {
      description: 'says its name',
      // Prints only when its data folder was made for it [C-RUN-3].
      hooks: { SessionStart: [{ hooks: [cmd('test -d "$CLAUDE_PLUGIN_DATA" && echo plugin')] }] },
    });
    return { e, plugin };
  }

  it('[C-SRC-1] managed, user, project, local, plugins: all merged, in that order', async () => {
    const { e, plugin } = everySource();
    const engine = await engineFor(e, { plugins: [plugin] });
    const d = await decide(engine, 'SessionStart', { source: 'startup' });
    expect(d.additionalContext).toBe('managed\nuser\nproject\nlocal\nplugin');
    expect(d.runs.map((r) => r.source.split('#')[0])).toEqual([
      e.managed,
      settingsPath(e, 'user'),
      settingsPath(e, 'project'),
      settingsPath(e, 'local'),
      path.join(plugin, 'hooks', 'hooks.json'),
    ]);
  });

  it('[C-SRC-2] disableAllHooks in managed settings turns every hook off', async () => {
    const { e, plugin } = everySource({ managed: { disableAllHooks: true } });
    const engine = await engineFor(e, { plugins: [plugin] });
    const d = await decide(engine, 'SessionStart', { source: 'startup' });
    expect(d.runs).toEqual([]);
    expect(d.additionalContext).toBeUndefined();
    const why = engine.explain('SessionStart', { source: 'startup' });
    expect(why).toHaveLength(5);
    expect(why.every((x) => x.verdict === 'disabled' && /managed settings/.test(x.detail))).toBe(true);
  });

  it('[C-SRC-2] disableAllHooks in project settings keeps only managed hooks; the last of user/project/local wins', async () => {
    const off = everySource({ project: { disableAllHooks: true } });
    const d1 = await decide(await engineFor(off.e, { plugins: [off.plugin] }), 'SessionStart', {});
    expect(d1.additionalContext).toBe('managed');

    const back = everySource({ user: { disableAllHooks: true }, local: { disableAllHooks: false } });
    const d2 = await decide(await engineFor(back.e, { plugins: [back.plugin] }), 'SessionStart', {});
    expect(d2.additionalContext).toBe('managed\nuser\nproject\nlocal\nplugin');
  });

  it('[C-SRC-2] allowManagedHooksOnly in managed settings lets only managed hooks run', async () => {
    const { e, plugin } = everySource({ managed: { allowManagedHooksOnly: true } });
    const d = await decide(await engineFor(e, { plugins: [plugin] }), 'SessionStart', {});
    expect(d.additionalContext).toBe('managed');
    expect(d.runs).toHaveLength(1);
  });
});

// ---------------------------------------------------------------------------------------------
// 10. Consent

describe('[C-SRC-4] consent with the real trust store', () => {
  function consentProject() {
    const e = newEnv();
    const guard = installHook(e, 'bash-guard.py');
    const jsonGuard = installHook(e, 'bash-guard-json.py', 'tools/bash-guard-json.py');
    writeSettings(e, 'project', {
      PreToolUse: [{ matcher: 'Bash', hooks: [cmd(`python3 ${guard}`)] }],
    });
    writeSettings(e, 'local', {
      PreToolUse: [{ matcher: 'Bash', hooks: [cmd(jsonGuard)] }],
      SessionStart: [{ hooks: [cmd('echo local context')] }],
    });
    writeSettings(e, 'user', { SessionStart: [{ hooks: [cmd('echo user context')] }] });
    return e;
  }

  it('[C-SRC-4] project, local and plugin hooks are skipped_untrusted until `hookwerk trust --yes --plugin-dir`', async () => {
    const e = consentProject();
    const plugin = copyPlugin();
    const before = await engineFor(e, { plugins: [plugin], realTrust: true });
    const d = await decide(before, 'PreToolUse', bash('rm -rf /'));
    expect(d).toMatchObject({ decision: 'allow', blocked: false });
    // Every hook of an unapproved source is listed, its matcher untested (fence's is Write|Edit).
    expect(outcomes(d)).toEqual(['skipped_untrusted', 'skipped_untrusted', 'skipped_untrusted']);
    const s = await decide(before, 'SessionStart', { source: 'startup' });
    expect(s.additionalContext).toBe('user context');
    expect(outcomes(s)).toEqual(['ok', 'skipped_untrusted', 'skipped_untrusted']);
    expect(existsSync(pluginData(e, plugin))).toBe(false);
    const cliBefore = await cliDecide(e, 'PreToolUse', bash('rm -rf /'), [plugin]);
    expect(cliBefore.code).toBe(0);
    expect(outcomes(cliBefore.d).every((o) => o === 'skipped_untrusted')).toBe(true);

    await trustCli(e, [plugin]);
    const after = await engineFor(e, { plugins: [plugin], realTrust: true });
    const blocked = await decide(after, 'PreToolUse', bash('rm -rf /'));
    expect(blocked).toMatchObject({ decision: 'deny', blocked: true });
    expect(outcomes(blocked)).toEqual(['deny', 'deny']);
    const s2 = await decide(after, 'SessionStart', { source: 'startup' });
    expect(s2.additionalContext).toBe('user context\nlocal context\nplugin-audit: session 1');
    expect((await cliDecide(e, 'PreToolUse', bash('rm -rf /'), [plugin])).code).toBe(2);
  });

  it('[C-SRC-4] a plugin folder not given at trust time stays skipped_untrusted', async () => {
    const e = consentProject();
    const approved = copyPlugin('plugin-audit');
    const stranger = copyPlugin('plugin-stranger');
    await trustCli(e, [approved]);
    const engine = await engineFor(e, { plugins: [approved, stranger], realTrust: true });
    const d = await decide(engine, 'SessionStart', { source: 'startup' });
    expect(d.runs.map((r) => [r.source.split('#')[0], r.outcome])).toEqual([
      [settingsPath(e, 'user'), 'ok'],
      [settingsPath(e, 'local'), 'ok'],
      [path.join(approved, 'hooks', 'hooks.json'), 'ok'],
      [path.join(stranger, 'hooks', 'hooks.json'), 'skipped_untrusted'],
    ]);
    expect(existsSync(pluginData(e, stranger))).toBe(false);
    const c = await cliDecide(e, 'SessionStart', { source: 'startup' }, [approved, stranger]);
    expect(outcomes(c.d)).toEqual(['ok', 'ok', 'ok', 'skipped_untrusted']);
  });

  it('[C-SRC-4] [L-TRUST-6] editing an approved script under .claude/hooks/ → changed_since_approval (skipped; failMode closed denies)', async () => {
    const e = newEnv();
    const guard = installHook(e, 'bash-guard.py');
    writeSettings(e, 'project', {
      PreToolUse: [
        { matcher: 'Bash', hooks: [cmd(`python3 ${guard}`), cmd('echo closed', { failMode: 'closed' })] },
      ],
    });
    await trustCli(e);
    const ok = await decide(await engineFor(e, { realTrust: true }), 'PreToolUse', bash('ls'));
    expect(outcomes(ok)).toEqual(['ok', 'ok']);

    appendFileSync(path.join(e.project, '.claude', 'hooks', 'bash-guard.py'), '\nsys.exit(0)\n');
    const engine = await engineFor(e, { realTrust: true });
    const d = await decide(engine, 'PreToolUse', bash('rm -rf /'));
    expect(d.runs[0]).toMatchObject({ outcome: 'skipped_untrusted', cause: 'changed_since_approval' });
    expect(d.runs[1]).toMatchObject({ outcome: 'deny', cause: 'changed_since_approval' });
    expect(d).toMatchObject({ decision: 'deny', blocked: true });
    expect(d.reason).toContain(path.join(e.project, '.claude', 'hooks', 'bash-guard.py'));
    const v = await runCli(['validate', '--dialect', 'claude'], { cwd: e.project, home: e.home });
    expect(v.stdout).toMatch(/bash-guard\.py changed since approval/);
  });

  it('[C-SRC-4] [L-TRUST-5] a script named "$CLAUDE_PROJECT_DIR"/tools/x.py outside the hook folders is pinned by content', async () => {
    const e = newEnv();
    const script = installHook(e, 'bash-guard-json.py', 'tools/guard.py');
    expect(script).toBe('"$CLAUDE_PROJECT_DIR"/tools/guard.py');
    writeSettings(e, 'project', { PreToolUse: [{ matcher: 'Bash', hooks: [cmd(script)] }] });
    await trustCli(e);
    const before = await decide(await engineFor(e, { realTrust: true }), 'PreToolUse', bash('rm -rf /'));
    expect(before).toMatchObject({ blocked: true, reason: 'forced recursive rm is not allowed here' });

    // The agent rewrites the guard to allow everything: it no longer runs as approved.
    writeFileSync(path.join(e.project, 'tools', 'guard.py'), '#!/bin/sh\nexit 0\n');
    const after = await decide(await engineFor(e, { realTrust: true }), 'PreToolUse', bash('rm -rf /'));
    expect(after.runs[0]).toMatchObject({ outcome: 'skipped_untrusted', cause: 'changed_since_approval' });
    expect(after.runs[0]?.reason).toContain(path.join(e.project, 'tools', 'guard.py'));

    // A new approval takes the new content.
    await trustCli(e);
    const again = await decide(await engineFor(e, { realTrust: true }), 'PreToolUse', bash('rm -rf /'));
    expect(outcomes(again)).toEqual(['ok']);
  });

  it('[C-SRC-4] [L-TRUST-6] settings changed after approval: the approved text runs; a new settings.local.json waits for consent', async () => {
    const e = newEnv();
    const projectFile = writeSettings(e, 'project', { SessionStart: [{ hooks: [cmd('echo approved')] }] });
    await trustCli(e);
    writeSettings(e, 'project', { SessionStart: [{ hooks: [cmd('echo edited; touch edited.ran')] }] });
    writeSettings(e, 'local', { SessionStart: [{ hooks: [cmd('echo sneaked; touch local.ran')] }] });
    const engine = await engineFor(e, { realTrust: true });
    expect([...engine.gate.trust.pending].sort()).toEqual([projectFile, settingsPath(e, 'local')].sort());
    const d = await decide(engine, 'SessionStart', { source: 'startup' });
    expect(d.additionalContext).toBe('approved');
    expect(d.runs).toHaveLength(1);
    expect(d.runs[0]).toMatchObject({ outcome: 'ok', consent: 'newer_version_pending' });
    expect(existsSync(path.join(e.project, 'edited.ran'))).toBe(false);
    expect(existsSync(path.join(e.project, 'local.ran'))).toBe(false);
    const c = await cliDecide(e, 'SessionStart', { source: 'startup' });
    expect(c.d.additionalContext).toBe('approved');
    expect(c.stderr).toContain(`${projectFile} changed since approval`);
  });

  it('[C-SRC-4] [C-RUN-1] an async hook whose approved script was edited does not run either', async () => {
    const e = newEnv();
    const logger = path.join(e.project, '.claude', 'hooks', 'log.sh');
    writeJson(logger, '#!/bin/sh\ncat >> "$CLAUDE_PROJECT_DIR/log.txt"\n');
    chmodSync(logger, 0o755);
    writeSettings(e, 'project', {
      PostToolUse: [{ hooks: [cmd('"$CLAUDE_PROJECT_DIR"/.claude/hooks/log.sh', { async: true })] }],
    });
    await trustCli(e);
    const engine = await engineFor(e, { realTrust: true });
    const records = () => engine.runs({ event: 'PostToolUse' });
    await decide(engine, 'PostToolUse', { tool_name: 'Bash' });
    await waitFor(() => records().length === 1, 'the first async record');
    expect(records()[0]).toMatchObject({ outcome: 'ok', cause: 'async' });
    expect(lines(path.join(e.project, 'log.txt'))).toHaveLength(1);

    // The guarded agent rewrites the approved logger.
    writeJson(logger, '#!/bin/sh\ntouch "$CLAUDE_PROJECT_DIR/tampered.ran"\n');
    const again = await engineFor(e, { realTrust: true });
    await decide(again, 'PostToolUse', { tool_name: 'Bash' });
    const record = await waitFor(() => again.runs({ event: 'PostToolUse' })[0], 'the second async record');
    expect(record).toMatchObject({ outcome: 'skipped_untrusted', cause: 'changed_since_approval' });
    expect(existsSync(path.join(e.project, 'tampered.ran'))).toBe(false);
  });

  it('[C-SRC-4] [L-TRUST-10] an approved Python hook writes no __pycache__/, and one made outside hookwerk is not a change', async () => {
    const e = newEnv();
    installHook(e, 'guard_rules.py');
    const guard = installHook(e, 'push-guard.py');
    writeSettings(e, 'project', { PreToolUse: [{ matcher: 'Bash', hooks: [cmd(guard)] }] });
    await trustCli(e);
    const rules = path.join(e.project, '.claude', 'hooks', 'guard_rules.py');
    // Python would write its bytecode cache here (as it does outside this test run).
    const env = { ...process.env };
    delete env.PYTHONDONTWRITEBYTECODE;
    delete env.PYTHONPYCACHEPREFIX;
    const engine = await engineFor(e, { realTrust: true, env });
    const first = await decide(engine, 'PreToolUse', bash('git push --force origin main'));
    expect(first).toMatchObject({
      blocked: true,
      reason: 'push-guard: force-pushing main rewrites shared history',
    });
    const cache = path.join(e.project, '.claude', 'hooks', '__pycache__');
    expect(existsSync(cache)).toBe(false);
    // The user runs the guard by hand once: Python caches its module in the project.
    execFileSync('python3', ['-c', 'import py_compile, sys; py_compile.compile(sys.argv[1])', rules], {
      env,
    });
    expect(readdirSync(cache).length).toBeGreaterThan(0);
    const second = await decide(
      await engineFor(e, { realTrust: true, env }),
      'PreToolUse',
      bash('git push -f origin release'),
    );
    expect(second).toMatchObject({ blocked: true });
    expect(second.runs[0]).toMatchObject({ outcome: 'deny', exitCode: 2 });
    expect((await decide(engine, 'PreToolUse', bash('git push origin main'))).blocked).toBe(false);
  });

  it('[C-SRC-4] editing a script of an approved plugin → changed_since_approval', async () => {
    const e = newEnv();
    const plugin = copyPlugin();
    await trustCli(e, [plugin]);
    const ok = await decide(await engineFor(e, { plugins: [plugin], realTrust: true }), 'SessionStart', {});
    expect(ok.additionalContext).toBe('plugin-audit: session 1');
    appendFileSync(path.join(plugin, 'scripts', 'count-sessions.sh'), 'echo tampered\n');
    const d = await decide(await engineFor(e, { plugins: [plugin], realTrust: true }), 'SessionStart', {});
    expect(d.runs[0]).toMatchObject({ outcome: 'skipped_untrusted', cause: 'changed_since_approval' });
    expect(read(path.join(pluginData(e, plugin), 'sessions')).trim()).toBe('1');
  });
});

// ---------------------------------------------------------------------------------------------
// 11. HTTP hooks

describe('[C-RUN-1] [C-ANS-3] HTTP hooks', () => {
  it('[C-IN-1] [C-RUN-1] the input is the POST body, Authorization: Bearer $TOKEN is expanded (allowedEnvVars), a 2xx JSON answer decides', async () => {
    const server = await startHttpServer((_req, res, hit) => {
      const input = JSON.parse(hit.body) as { tool_input: { command: string } };
      const deny = input.tool_input.command.startsWith('rm');
      replyJson(
        res,
        200,
        deny
          ? {
              hookSpecificOutput: {
                hookEventName: 'PreToolUse',
                permissionDecision: 'deny',
                permissionDecisionReason: 'the policy server says no',
              },
            }
          : {},
      );
    });
    const e = newEnv();
    writeSettings(e, 'project', {
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            {
              type: 'http',
              url: server.url,
              headers: { Authorization: 'Bearer $TOKEN', 'X-Other': 'v=${OTHER}' },
              allowedEnvVars: ['TOKEN'],
              timeout: 10,
            },
          ],
        },
      ],
    });
    const engine = await engineFor(e, {
      env: { ...process.env, TOKEN: 'tok-123', OTHER: 'not-listed' },
      sessionId: 'sess-http',
    });
    expect(engine.gate.config.warnings).toEqual([]);
    const d = await decide(engine, 'PreToolUse', bash('rm -rf /'));
    expect(d).toMatchObject({ decision: 'deny', blocked: true, reason: 'the policy server says no' });
    expect(d.runs[0]).toMatchObject({ outcome: 'deny', status: 200, hook: `POST ${server.url}` });
    expect(server.hits).toHaveLength(1);
    const hit = server.hits[0]!;
    expect(hit.method).toBe('POST');
    expect(hit.headers['content-type']).toMatch(/^application\/json/);
    expect(hit.headers.authorization).toBe('Bearer tok-123');
    expect(hit.headers['x-other']).toBe('v=');
    expect(JSON.parse(hit.body)).toEqual({
      ...bash('rm -rf /'),
      hook_event_name: 'PreToolUse',
      session_id: 'sess-http',
      cwd: e.project,
      permission_mode: 'default',
    });
    const allowed = await decide(engine, 'PreToolUse', bash('ls'));
    expect(allowed).toMatchObject({ decision: 'allow', blocked: false });
    expect(allowed.runs[0]).toMatchObject({ outcome: 'ok', status: 200 });
  });

  it('[C-RUN-1] an Authorization header from a variable not in allowedEnvVars is refused (handler skipped, warned)', async () => {
    const server = await startHttpServer((_req, res) => replyJson(res, 200, {}));
    const e = newEnv();
    const file = writeSettings(e, 'project', {
      PreToolUse: [
        {
          hooks: [
            {
              type: 'http',
              url: server.url,
              headers: { Authorization: 'Bearer $TOKEN' },
              allowedEnvVars: [],
            },
            cmd('echo still-here'),
          ],
        },
      ],
    });
    const engine = await engineFor(e, { env: { ...process.env, TOKEN: 'tok-123' } });
    const warning = engine.gate.config.warnings.find((w) => /Authorization/.test(w.message));
    expect(warning).toMatchObject({ file });
    expect(warning?.message).toMatch(/this handler is skipped/);
    const d = await decide(engine, 'PreToolUse', bash('ls'));
    expect(ran(d)).toEqual(['echo still-here']);
    expect(server.hits).toEqual([]);
  });
});

describe('[C-ANS-3] [C-RUN-4] HTTP hooks that fail', () => {
  it('[C-ANS-3] a non-2xx answer is a recorded, non-blocking error; with failMode "closed" it blocks', async () => {
    const server = await startHttpServer((_req, res) =>
      replyJson(res, 503, { decision: 'block', reason: 'x' }),
    );
    const e = newEnv();
    const http = { type: 'http', url: server.url, timeout: 10 };
    writeSettings(e, 'project', {
      PreToolUse: [{ matcher: 'Bash', hooks: [http] }],
      UserPromptSubmit: [{ hooks: [{ ...http, failMode: 'closed' }] }],
    });
    const engine = await engineFor(e);
    const open = await decide(engine, 'PreToolUse', bash('ls'));
    expect(open).toMatchObject({ decision: 'allow', blocked: false });
    expect(open.runs[0]).toMatchObject({ outcome: 'error', status: 503, failed: 'open' });
    const closed = await decide(engine, 'UserPromptSubmit', { prompt: 'hi' });
    expect(closed).toMatchObject({ decision: 'deny', blocked: true });
    expect(closed.runs[0]).toMatchObject({ outcome: 'error', status: 503, failed: 'closed' });
    expect(server.hits).toHaveLength(2);
  });
});

// ---------------------------------------------------------------------------------------------
// 12. What a hook receives

describe('[C-IN-1] [C-RUN-3] what a command hook receives', () => {
  const capture = cmd(
    'cat > "$CLAUDE_PROJECT_DIR/stdin.json"; pwd > "$CLAUDE_PROJECT_DIR/pwd.txt"; ' +
      'printf "%s|%s|%s" "$CLAUDE_PROJECT_DIR" "${MY_SETTING:-unset}" "${LD_PRELOAD:-unset}" > "$CLAUDE_PROJECT_DIR/env.txt"',
  );

  it("[C-IN-1] the caller's input with hook_event_name, session_id, cwd (the project) and permission_mode filled in, one line + \\n; cwd = project", async () => {
    const e = newEnv();
    writeSettings(e, 'project', { PreToolUse: [{ hooks: [capture] }] });
    const engine = await engineFor(e, {
      sessionId: 'sess-in',
      env: { ...process.env, MY_SETTING: 'on', LD_PRELOAD: '/nonexistent/preload.so' },
    });
    const given = { tool_name: 'Write', tool_input: { file_path: 'a.txt', content: 'line 1\nline "2" é ✓' } };
    const d = await decide(engine, 'PreToolUse', given);
    expect(outcomes(d)).toEqual(['ok']);
    const stdin = read(path.join(e.project, 'stdin.json'));
    expect(stdin.endsWith('\n')).toBe(true);
    expect(stdin.slice(0, -1)).not.toContain('\n');
    expect(JSON.parse(stdin)).toEqual({
      ...given,
      hook_event_name: 'PreToolUse',
      session_id: 'sess-in',
      cwd: e.project,
      permission_mode: 'default',
    });
    expect(read(path.join(e.project, 'pwd.txt')).trim()).toBe(e.project);
    // [C-RUN-3] The engine's environment minus the loader's names, plus CLAUDE_PROJECT_DIR.
    expect(read(path.join(e.project, 'env.txt'))).toBe(`${e.project}|on|unset`);
  });

  it("[C-IN-1] [C-RUN-3] the caller's own session_id, cwd, permission_mode and transcript_path are kept; the command runs in that cwd", async () => {
    const e = newEnv();
    writeSettings(e, 'project', { UserPromptSubmit: [{ hooks: [capture] }] });
    const sub = path.join(e.project, 'packages', 'web');
    mkdirSync(sub, { recursive: true });
    const engine = await engineFor(e);
    const given = {
      prompt: 'hi',
      session_id: 'abc-123',
      cwd: sub,
      permission_mode: 'plan',
      transcript_path: '/tmp/transcript.jsonl',
    };
    await decide(engine, 'UserPromptSubmit', given);
    expect(JSON.parse(read(path.join(e.project, 'stdin.json')))).toEqual({
      ...given,
      hook_event_name: 'UserPromptSubmit',
    });
    expect(read(path.join(e.project, 'pwd.txt')).trim()).toBe(sub);
  });

  it('[C-CLI-1] decide reads the input from stdin when --input is not given', async () => {
    const e = newEnv();
    writeSettings(e, 'project', { PreToolUse: [{ hooks: [capture] }] });
    await trustInProcess(e.project, e.home);
    const c = await cliDecide(e, 'PreToolUse', { stdin: `${JSON.stringify(bash('ls'))}\n` });
    expect(c.code).toBe(0);
    expect(outcomes(c.d)).toEqual(['ok']);
    const got = JSON.parse(read(path.join(e.project, 'stdin.json'))) as Record<string, unknown>;
    expect(got).toMatchObject({ ...bash('ls'), hook_event_name: 'PreToolUse', cwd: e.project });
    expect(typeof got.session_id).toBe('string');
    expect(readdirSync(e.project).sort()).toEqual(['.claude', 'env.txt', 'pwd.txt', 'stdin.json']);
  });
});

// ---------------------------------------------------------------------------------------------
// 13. Faithful to Claude Code 2.1 (issue 19): real scripts, real files

/** Writes `text` as an executable script under the project's `.claude/hooks/`; returns its command. */
function script(e: Env, name: string, text: string): string {
  const file = path.join(e.project, '.claude', 'hooks', name);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  chmodSync(file, 0o755);
  return `"$CLAUDE_PROJECT_DIR"/.claude/hooks/${name}`;
}

/** A plugin folder named `folder` with `hooks` and, when given, a manifest `.claude-plugin/plugin.json`. */
function pluginFolder(folder: string, hooks: HookMap, manifest?: unknown): string {
  const dir = path.join(realpathSync(tempDir('hw-plugins-')), folder);
  writeJson(path.join(dir, 'hooks', 'hooks.json'), { hooks });
  if (manifest !== undefined) writeJson(path.join(dir, '.claude-plugin', 'plugin.json'), manifest);
  return dir;
}

describe('[C-ANS-3] hookSpecificOutput without hookEventName (issue 19)', () => {
  const NO_EVENT = `#!/bin/sh
cat > /dev/null
touch "$CLAUDE_PROJECT_DIR/ran-hook"
echo '{"systemMessage":"unseen","hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"DENYNOEV_A"}}'
`;
  const WRONG_EVENT = `#!/bin/sh
cat > /dev/null
echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","permissionDecision":"deny","permissionDecisionReason":"DENYWRONG"}}'
`;

  it('[C-ANS-3] a deny without hookEventName is invalid output: a recorded non-blocking error, the tool runs (engine and CLI)', async () => {
    const e = newEnv();
    writeSettings(e, 'project', {
      PreToolUse: [{ matcher: 'Bash', hooks: [cmd(script(e, 'noevent.sh', NO_EVENT))] }],
    });
    const engine = await engineFor(e);
    const d = await decide(engine, 'PreToolUse', bash('touch ran-orig'));
    expect(existsSync(path.join(e.project, 'ran-hook'))).toBe(true);
    expect(d).toMatchObject({ decision: 'allow', blocked: false, continue: true });
    expect(d.reason).toBeUndefined();
    expect(d.systemMessage).toBeUndefined();
    expect(d.runs[0]).toMatchObject({
      outcome: 'error',
      cause: 'invalid_answer',
      exitCode: 0,
      failed: 'open',
    });
    expect(d.runs[0]?.reason).toBe('JSON output is invalid: hookSpecificOutput.hookEventName is missing');

    await trustInProcess(e.project, e.home);
    const c = await cliDecide(e, 'PreToolUse', bash('touch ran-orig'));
    expect(c.code).toBe(0);
    expect(c.d).toMatchObject({ decision: 'allow', blocked: false });
  });

  it('[C-ANS-3] a wrong hookEventName is the same invalid output, so missing and wrong agree', async () => {
    const e = newEnv();
    writeSettings(e, 'project', {
      PreToolUse: [
        { hooks: [cmd(script(e, 'noevent.sh', NO_EVENT))] },
        { hooks: [cmd(script(e, 'wrongevent.sh', WRONG_EVENT))] },
      ],
    });
    const d = await decide(await engineFor(e), 'PreToolUse', bash('ls'));
    expect(d).toMatchObject({ decision: 'allow', blocked: false });
    expect(d.runs.map((r) => [r.outcome, r.cause])).toEqual([
      ['error', 'invalid_answer'],
      ['error', 'invalid_answer'],
    ]);
    expect(d.runs[1]?.reason).toContain('hookEventName is "PostToolUse", not "PreToolUse"');
  });

  it('[C-ANS-3] with failMode "closed" an answer without hookEventName is a denial', async () => {
    const e = newEnv();
    writeSettings(e, 'project', {
      PreToolUse: [{ hooks: [cmd(script(e, 'noevent.sh', NO_EVENT), { failMode: 'closed' })] }],
    });
    const d = await decide(await engineFor(e), 'PreToolUse', bash('ls'));
    expect(d).toMatchObject({ decision: 'deny', blocked: true });
    expect(d.reason).toContain('hookSpecificOutput.hookEventName is missing');
    expect(d.reason).toContain('failMode "closed" blocks');
    expect(d.runs[0]).toMatchObject({ outcome: 'error', cause: 'invalid_answer', failed: 'closed' });
  });
});

describe('[C-ANS-2] exit 2 with JSON on stdout (issue 19)', () => {
  it('[C-ANS-2] exit 2 blocks even when the JSON allows; the reason is stderr, trimmed; the JSON’s context and message are kept (engine and CLI)', async () => {
    const e = newEnv();
    const hook = script(
      e,
      'exit2json.py',
      `#!/usr/bin/env python3
import json, sys
sys.stdin.read()
print(json.dumps({"systemMessage": "SM", "hookSpecificOutput": {"hookEventName": "PreToolUse",
  "permissionDecision": "allow", "permissionDecisionReason": "JSONALLOW_A", "additionalContext": "CTX"}}))
sys.stderr.write("  EXIT2STDERR_A\\n")
sys.exit(2)
`,
    );
    writeSettings(e, 'project', { PreToolUse: [{ matcher: 'Bash', hooks: [cmd(hook)] }] });
    const d = await decide(await engineFor(e), 'PreToolUse', bash('ls'));
    expect(d).toMatchObject({ decision: 'deny', blocked: true, reason: 'EXIT2STDERR_A' });
    // As Claude Code 2.1.197 (differential pre-exit2-json-context): valid JSON on exit 2 still counts.
    expect(d.systemMessage).toBe('SM');
    expect(d.additionalContext).toBe('CTX');
    expect(d.runs[0]).toMatchObject({
      outcome: 'deny',
      exitCode: 2,
      permission: 'deny',
      reason: 'EXIT2STDERR_A',
    });

    await trustInProcess(e.project, e.home);
    const c = await cliDecide(e, 'PreToolUse', bash('ls'));
    expect(c.code).toBe(2);
    expect(c.d).toMatchObject({ decision: 'deny', blocked: true, reason: 'EXIT2STDERR_A' });
  });

  it('[C-ANS-2] on Stop, exit 2 with a JSON block reason on stdout: the JSON’s reason, as Claude Code 2.1.197 reads it', async () => {
    const e = newEnv();
    const hook = script(
      e,
      'stop.sh',
      `#!/bin/sh
cat > /dev/null
echo '{"decision":"block","reason":"FROM_JSON"}'
echo 'run the tests first' >&2
exit 2
`,
    );
    writeSettings(e, 'project', { Stop: [{ hooks: [cmd(hook)] }] });
    const d = await decide(await engineFor(e), 'Stop', { stop_hook_active: false });
    expect(d).toMatchObject({ decision: 'deny', blocked: true, reason: 'FROM_JSON' });
  });
});

describe('[C-IN-1] permission_mode and session_id (issue 19)', () => {
  /** A hook that writes its stdin to `<project>/in-<event>.json`. */
  const captureTo = (event: string) => cmd(`cat > "$CLAUDE_PROJECT_DIR/in-${event}.json"`);
  const inputOf = (e: Env, event: string) =>
    JSON.parse(read(path.join(e.project, `in-${event}.json`))) as Record<string, unknown>;

  it('[C-IN-1] permission_mode ("default") is filled in where Claude Code sends it, and not on SessionStart, SessionEnd, Notification, PreCompact', async () => {
    const e = newEnv();
    const withMode = ['PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'Stop', 'PermissionRequest'];
    const without = [
      'SessionStart',
      'SessionEnd',
      'Notification',
      'PreCompact',
      'SubagentStart',
      'MadeUpEvent',
    ];
    const hooks: HookMap = {};
    for (const event of [...withMode, ...without]) hooks[event] = [{ hooks: [captureTo(event)] }];
    writeSettings(e, 'user', hooks);
    const engine = await engineFor(e);
    for (const event of [...withMode, ...without]) {
      const d = await decide(engine, event, {});
      expect(outcomes(d), event).toEqual(['ok']);
    }
    for (const event of withMode) expect(inputOf(e, event).permission_mode, event).toBe('default');
    for (const event of without) expect(inputOf(e, event), event).not.toHaveProperty('permission_mode');
    // A permission_mode the caller gives is passed on, on any event.
    await decide(engine, 'SessionStart', { source: 'resume', permission_mode: 'plan' });
    expect(inputOf(e, 'SessionStart')).toMatchObject({ source: 'resume', permission_mode: 'plan' });
  });

  it('[C-IN-1] an input without session_id gets the engine’s session: the same on every decide', async () => {
    const e = newEnv();
    writeSettings(e, 'user', {
      SessionStart: [{ hooks: [captureTo('SessionStart')] }],
      PreToolUse: [{ hooks: [captureTo('PreToolUse')] }],
    });
    const engine = await engineFor(e);
    await decide(engine, 'SessionStart', { source: 'startup' });
    const first = inputOf(e, 'SessionStart').session_id;
    expect(typeof first).toBe('string');
    await decide(engine, 'PreToolUse', bash('ls'));
    expect(inputOf(e, 'PreToolUse').session_id).toBe(first);
    await decide(engine, 'SessionStart', { source: 'resume' });
    expect(inputOf(e, 'SessionStart').session_id).toBe(first);
  });

  it('[C-IN-1] [C-CLI-1] decide --session ID names the session; without it every call for one project shares one; a given session_id wins', async () => {
    const e = newEnv();
    writeSettings(e, 'user', { PreToolUse: [{ hooks: [captureTo('PreToolUse')] }] });
    const sessionOf = async (args: string[], input: Record<string, unknown>, project = e.project) => {
      const r = await runCli(['decide', 'PreToolUse', '--dialect', 'claude', '--project', project, ...args], {
        cwd: project,
        home: e.home,
        stdin: { text: JSON.stringify(input) },
      });
      expect(r.stderr).not.toMatch(STACK);
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(read(path.join(project, 'in-PreToolUse.json'))).session_id as unknown;
    };
    const one = await sessionOf([], bash('ls'));
    expect(one).toMatch(/^sess_[0-9a-f]{12}$/);
    expect(await sessionOf([], bash('pwd'))).toBe(one);
    expect(await sessionOf(['--session', 'agent-7'], bash('ls'))).toBe('agent-7');
    expect(await sessionOf(['--session', 'agent-7'], { ...bash('ls'), session_id: 'given' })).toBe('given');
    // Another project folder, another session.
    const other = realpathSync(tempDir('hw-claude-other-'));
    const two = await sessionOf([], bash('ls'), other);
    expect(two).toMatch(/^sess_[0-9a-f]{12}$/);
    expect(two).not.toBe(one);
    // An empty --session is refused with a one-line error.
    const bad = await runCli(
      ['decide', 'PreToolUse', '--dialect', 'claude', '--session', '', '--input', '{}'],
      {
        cwd: e.project,
        home: e.home,
      },
    );
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--session must be a non-empty id');
    expect(bad.stderr).not.toMatch(STACK);
  });
});

describe('[C-RUN-3] CLAUDE_PLUGIN_DATA is Claude Code’s own folder (issue 19)', () => {
  const report = cmd(
    'cat > /dev/null; printf "%s|%s" "$CLAUDE_PLUGIN_DATA" "$(cat "$CLAUDE_PLUGIN_DATA/state.txt" 2>/dev/null)"',
  );

  it('[C-RUN-3] <home>/.claude/plugins/data/<manifest name>-inline: state Claude Code left there is seen, and what the hook writes stays there', async () => {
    const e = newEnv();
    // The folder is named "plugin"; its manifest names it "diffplug", as in the differential run.
    const plugin = pluginFolder(
      'plugin',
      {
        SessionStart: [{ hooks: [report] }],
        Stop: [
          { hooks: [cmd('cat > /dev/null; echo "written by hookwerk" > "$CLAUDE_PLUGIN_DATA/state.txt"')] },
        ],
      },
      { name: 'diffplug', version: '1.0.0' },
    );
    const data = path.join(e.home, '.claude', 'plugins', 'data', 'diffplug-inline');
    mkdirSync(data, { recursive: true });
    writeFileSync(path.join(data, 'state.txt'), 'written by Claude Code');
    const engine = await engineFor(e, { plugins: [plugin] });
    const s = await decide(engine, 'SessionStart', { source: 'startup' });
    expect(s.additionalContext).toBe(`${data}|written by Claude Code`);
    await decide(engine, 'Stop', {});
    expect(read(path.join(data, 'state.txt')).trim()).toBe('written by hookwerk');
    expect(existsSync(path.join(e.home, '.hookwerk', 'plugin-data'))).toBe(false);
  });

  it('[C-RUN-3] the folder is made on demand (private), for shell form and for ${CLAUDE_PLUGIN_DATA} in exec form', async () => {
    const e = newEnv();
    const plugin = pluginFolder('my-tools', {
      SessionStart: [{ hooks: [report] }],
      PreToolUse: [
        {
          hooks: [
            cmd('sh', {
              args: [
                '-c',
                'cat > /dev/null; printf %s "$1" > "$CLAUDE_PLUGIN_DATA/exec.txt"',
                'sh',
                '${CLAUDE_PLUGIN_DATA}',
              ],
            }),
          ],
        },
      ],
    });
    const data = path.join(e.home, '.claude', 'plugins', 'data', 'my-tools-inline');
    const engine = await engineFor(e, { plugins: [plugin] });
    expect(existsSync(data)).toBe(false);
    const s = await decide(engine, 'SessionStart', { source: 'startup' });
    // No manifest: the folder's name.
    expect(s.additionalContext).toBe(`${data}|`);
    expect(statSync(data).mode & 0o777).toBe(0o700);
    await decide(engine, 'PreToolUse', bash('ls'));
    expect(read(path.join(data, 'exec.txt'))).toBe(data);
  });

  it('[C-RUN-3] the plugin id is made path-safe as Claude Code does; a manifest without a usable name leaves the folder name', () => {
    const home = realpathSync(tempDir('hw-claude-home-'));
    const data = (dir: string) =>
      path.relative(path.join(home, '.claude', 'plugins', 'data'), claudePluginDataDir(home, dir));
    expect(data(pluginFolder('x', {}, { name: 'acme.lint_v2' }))).toBe('acme-lint_v2-inline');
    expect(data(pluginFolder('folder.name', {}))).toBe('folder-name-inline');
    expect(data(pluginFolder('kept', {}, { name: 42 }))).toBe('kept-inline');
    expect(data(pluginFolder('kept-too', {}, '{ not json'))).toBe('kept-too-inline');
  });
});
