/**
 * The Codex CLI dialect end to end [A-CDX-1; C-OUT-1, C-SRC-4]: `.codex/hooks.json` and
 * `config.toml` `[hooks]` files and the hook scripts of test/fixtures/codex/ (Python, Node, sh —
 * written the way Codex's hook guides teach) run unchanged through `engine.decide` and
 * `hookwerk decide --dialect codex`, as real processes started by `$SHELL -lc`, in temp projects
 * with a temp folder as `~`. The expectations are Codex CLI 0.171's behaviour as observed
 * (research/codex-facts.md). Hooks that must overlap meet through files, never the clock.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { trustStorePath } from '../src/consent/trust-store.ts';
import type { AgentDecision } from '../src/dispatch/agent-answer.ts';
import type { HookEngine, HookEngineOptions } from '../src/engine-api.ts';
import type { RunRecord } from '../src/records/run-record.ts';
import { REPO, runCli, STACK } from './cli-runner.ts';
import { makeEngine } from './engine-harness.ts';
import { tempDir } from './helpers.ts';
import { trustInProcess } from './trust-in-process.ts';

// ---------------------------------------------------------------------------------------------
// helpers

const FIXTURES = path.join(REPO, 'test', 'fixtures', 'codex');
const trustAll = () => ({ trusted: true, reason: 'test' });

type Handler = Record<string, unknown>;
interface Group {
  matcher?: string;
  hooks: Handler[];
}
type EventMap = Partial<Record<string, Group[]>>;
type Input = Record<string, unknown>;

const cmd = (command: string, extra: Handler = {}): Handler => ({ type: 'command', command, ...extra });
/** A hook that prints `answer` (an object) on stdout and exits 0. */
const answering = (answer: unknown, extra: Handler = {}): Handler =>
  cmd(`printf '%s' '${JSON.stringify(answer)}'`, extra);
const bash = (command: string): Input => ({ tool_name: 'Bash', tool_input: { command } });
const patchOf = (file: string) => `*** Begin Patch\n*** Update File: ${file}\n@@\n-a\n+b\n*** End Patch\n`;
const applyPatch = (file: string): Input => ({
  tool_name: 'apply_patch',
  tool_input: { command: patchOf(file) },
});

function write(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}
const writeJson = (file: string, value: unknown) => write(file, `${JSON.stringify(value, null, 2)}\n`);

interface Setup {
  project: string;
  home: string;
  /** `~/.codex` (the user layer). */
  user: string;
}

function setup(): Setup {
  const project = tempDir('hw-cdx-');
  const home = tempDir('hw-cdx-home-');
  return { project, home, user: path.join(home, '.codex') };
}

const projectHooks = (s: Setup) => path.join(s.project, '.codex', 'hooks.json');
const projectToml = (s: Setup) => path.join(s.project, '.codex', 'config.toml');

/** Copies fixture scripts into `<project>/.codex/hooks/` (executable, as a user installs them). */
function installScripts(s: Setup, ...names: string[]): void {
  const dir = path.join(s.project, '.codex', 'hooks');
  mkdirSync(dir, { recursive: true });
  for (const name of names) copyFileSync(path.join(FIXTURES, name), path.join(dir, name));
}

/** The environment Codex would run with: the test's, HOME the temp home. */
const envOf = (s: Setup, extra: Record<string, string> = {}) => ({ ...process.env, HOME: s.home, ...extra });

function codexEngine(s: Setup, extra: Partial<HookEngineOptions> = {}): Promise<HookEngine> {
  return makeEngine(undefined, {
    projectDir: s.project,
    home: s.home,
    gateDialect: 'codex',
    env: envOf(s),
    trust: trustAll,
    ...extra,
  });
}

async function decide(engine: HookEngine, event: string, input: Input = {}): Promise<AgentDecision> {
  return (await engine.decide(event, input)) as AgentDecision;
}

/** A project whose `.codex/hooks.json` holds `map`, and an engine over it (consent granted). */
async function projectEngine(map: EventMap, extra: Partial<HookEngineOptions> = {}) {
  const s = setup();
  writeJson(projectHooks(s), { hooks: map });
  const engine = await codexEngine(s, extra);
  expect(engine.gate.config.issues).toEqual([]);
  return { ...s, engine };
}

function onlyRun(d: { runs: RunRecord[] }): RunRecord {
  expect(d.runs).toHaveLength(1);
  return d.runs[0]!;
}

/**
 * The approval in this process, where approving is set-up and not what is tested (a CLI start is
 * ~0.4 s of CPU); the consent cases approve through the real `hookwerk trust --yes`.
 */
async function trustHere(s: Setup): Promise<void> {
  expect((await trustInProcess(s.project, s.home)).stderr).toBe('');
}

async function cliTrust(s: Setup, extra: string[] = []): Promise<void> {
  const r = await runCli(['trust', '--yes', '--project', s.project, ...extra], { home: s.home });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
}

async function cliDecide(s: Setup, event: string, input: Input, extra: string[] = []) {
  const r = await runCli(['decide', event, '--dialect', 'codex', '--project', s.project, ...extra], {
    home: s.home,
    stdin: { text: JSON.stringify(input) },
  });
  expect(r.stderr).not.toMatch(STACK);
  return { code: r.code, stderr: r.stderr, d: JSON.parse(r.stdout || '{"runs":[]}') as AgentDecision };
}

const readJson = (file: string): Record<string, unknown> => JSON.parse(readFileSync(file, 'utf8'));

// ---------------------------------------------------------------------------------------------
// 1. Sources

describe('[A-CDX-1] sources: user and project hooks.json and config.toml [hooks], plugins, added up', () => {
  it('[A-CDX-1] all four files load, user before project, hooks.json before config.toml; a layer with both warns', async () => {
    const s = setup();
    const line = (tag: string) => cmd(`echo ${tag} >> order.log`);
    writeJson(path.join(s.user, 'hooks.json'), {
      hooks: { UserPromptSubmit: [{ hooks: [line('user-json')] }] },
    });
    write(
      path.join(s.user, 'config.toml'),
      `model = "gpt-5"\n\n[[hooks.UserPromptSubmit]]\n[[hooks.UserPromptSubmit.hooks]]\ntype = "command"\ncommand = "echo user-toml >> order.log"\n`,
    );
    writeJson(projectHooks(s), { hooks: { UserPromptSubmit: [{ hooks: [line('project-json')] }] } });
    write(
      projectToml(s),
      `[[hooks.UserPromptSubmit]]\nmatcher = "ignored on this event"\n[[hooks.UserPromptSubmit.hooks]]\ntype = "command"\ncommand = "echo project-toml >> order.log"\ntimeout = 5\n`,
    );
    const engine = await codexEngine(s);
    const config = engine.gate.config;
    expect(config.issues).toEqual([]);
    expect(config.sources.map((x) => [x.scope, path.basename(x.file), x.hookCount])).toEqual([
      ['user', 'hooks.json', 1],
      ['user', 'config.toml', 1],
      ['project', 'hooks.json', 1],
      ['project', 'config.toml', 1],
    ]);
    expect(
      config.warnings.filter((w) => w.message.includes('loading hooks from both')).map((w) => w.file),
    ).toEqual([path.join(s.user, 'config.toml'), projectToml(s)]);
    const d = await decide(engine, 'UserPromptSubmit', { prompt: 'hi' });
    // Records in configuration order; the commands ran in the session folder (the project).
    expect(d.runs.map((r) => r.hook)).toEqual([
      'echo user-json >> order.log',
      'echo user-toml >> order.log',
      'echo project-json >> order.log',
      'echo project-toml >> order.log',
    ]);
    expect(readFileSync(path.join(s.project, 'order.log'), 'utf8').trim().split('\n').sort()).toEqual([
      'project-json',
      'project-toml',
      'user-json',
      'user-toml',
    ]);
  });

  it('[A-CDX-1] CODEX_HOME moves the user layer away from ~/.codex', async () => {
    const s = setup();
    const elsewhere = tempDir('hw-cdx-codexhome-');
    writeJson(path.join(s.user, 'hooks.json'), {
      hooks: { Stop: [{ hooks: [answering({ decision: 'block', reason: 'from ~/.codex' })] }] },
    });
    writeJson(path.join(elsewhere, 'hooks.json'), {
      hooks: { Stop: [{ hooks: [answering({ decision: 'block', reason: 'from CODEX_HOME' })] }] },
    });
    const engine = await codexEngine(s, { env: envOf(s, { CODEX_HOME: elsewhere }) });
    expect(await decide(engine, 'Stop', { stop_hook_active: false })).toMatchObject({
      blocked: true,
      reason: 'from CODEX_HOME',
    });
  });

  it('[A-CDX-1] [C-SRC-4] a CODEX_HOME inside the project is not a user layer: its hooks never run without consent', async () => {
    const s = setup();
    const inside = path.join(s.project, 'tools', 'codex-home');
    writeJson(path.join(inside, 'hooks.json'), {
      hooks: { PreToolUse: [{ hooks: [cmd('echo ran >> smuggled.log')] }] },
    });
    const engine = await makeEngine(undefined, {
      projectDir: s.project,
      home: s.home,
      gateDialect: 'codex',
      env: envOf(s, { CODEX_HOME: inside }),
    });
    const config = engine.gate.config;
    expect(config.sources.map((x) => x.scope)).toEqual(['project', 'project']);
    expect(config.warnings).toEqual([
      expect.objectContaining({
        file: inside,
        message: expect.stringContaining('CODEX_HOME is inside the project'),
      }),
    ]);
    expect((await decide(engine, 'PreToolUse', bash('ls'))).runs).toEqual([]);
    expect(existsSync(path.join(s.project, 'smuggled.log'))).toBe(false);
  });

  it('[A-CDX-1] Codex skips a file it cannot deserialize whole (unknown handler type, fractional timeout, bad TOML); unknown events and fields are ignored', async () => {
    const s = setup();
    writeJson(projectHooks(s), {
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [cmd('exit 2')] },
          { hooks: [{ type: 'http', url: 'http://127.0.0.1:9/hook' }] },
        ],
      },
    });
    write(
      projectToml(s),
      '[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "true"\ntimeout = 1.5\n',
    );
    writeJson(path.join(s.user, 'hooks.json'), {
      hooks: {
        Notification: [{ hooks: [cmd('true')] }],
        Stop: [{ hooks: [cmd('true', { shell: 'bash' })] }],
      },
    });
    write(path.join(s.user, 'config.toml'), 'this is = not [toml\n');
    const config = (await codexEngine(s)).gate.config;
    expect(config.issues).toEqual([
      {
        file: path.join(s.user, 'config.toml'),
        path: '$',
        message: expect.stringMatching(/^invalid TOML: .*\(line 1, column \d+\)$/),
      },
      {
        file: projectHooks(s),
        path: '$.hooks.PreToolUse[1].hooks[0].type',
        message:
          'unknown handler type "http" (Codex knows command, prompt, agent, mcp_tool); Codex skips this whole file',
      },
      {
        file: projectToml(s),
        path: '$.hooks.Stop[0].hooks[0].timeout',
        message:
          'timeout must be a whole number of seconds (0 or more); Codex skips this whole file (Codex: failed to parse TOML hooks)',
      },
    ]);
    expect(config.sources.map((x) => x.state)).toEqual(['ok', 'invalid', 'invalid', 'invalid']);
    expect(config.hooks.map((h) => h.event)).toEqual(['Stop']);
    expect(config.warnings).toEqual([
      expect.objectContaining({
        path: '$.hooks.Notification',
        level: 'warning',
        message: expect.stringContaining('not a Codex CLI event'),
      }),
      expect.objectContaining({
        path: '$.hooks.Stop[0].hooks[0].shell',
        level: 'warning',
        message: 'unknown field "shell" (ignored)',
      }),
    ]);
  });

  it('[A-CDX-1] prompt, agent and mcp_tool handlers, empty commands and a group with an invalid regex are skipped with a warning', async () => {
    const s = setup();
    writeJson(projectHooks(s), {
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              { type: 'prompt', prompt: 'is this safe?' },
              { type: 'agent', prompt: 'review' },
              { type: 'mcp_tool', server: 'guard', tool: 'check', input: {} },
              cmd('   '),
              cmd('echo kept >> kept.log'),
            ],
          },
          { matcher: '([', hooks: [cmd('exit 2'), cmd('exit 2')] },
        ],
      },
    });
    const engine = await codexEngine(s);
    const config = engine.gate.config;
    expect(config.issues).toEqual([]);
    expect(config.hooks.map((h) => h.name)).toEqual(['echo kept >> kept.log']);
    expect(config.warnings.map((w) => `${w.path}: ${w.message}`)).toEqual([
      expect.stringMatching(/^\$\.hooks\.PreToolUse\[0\]\.hooks\[0\]: skipping prompt hook/),
      expect.stringMatching(/^\$\.hooks\.PreToolUse\[0\]\.hooks\[1\]: skipping agent hook/),
      expect.stringMatching(/^\$\.hooks\.PreToolUse\[0\]\.hooks\[2\]: skipping mcp_tool hook/),
      '$.hooks.PreToolUse[0].hooks[3].command: skipping empty hook command (as Codex)',
      expect.stringMatching(
        /^\$\.hooks\.PreToolUse\[1\]\.matcher: matcher "\(\[" is not a valid regular expression .*; Codex skips this matcher group$/,
      ),
    ]);
    expect(await decide(engine, 'PreToolUse', bash('ls'))).toMatchObject({ blocked: false });
  });

  it('[A-CDX-1] [features] hooks = false turns every hook off (the project overrides the user); [hooks.state] enabled = false turns one off', async () => {
    const s = setup();
    writeJson(projectHooks(s), {
      hooks: {
        Stop: [
          {
            hooks: [
              answering({ decision: 'block', reason: 'first' }),
              answering({ decision: 'block', reason: 'second' }),
            ],
          },
        ],
      },
    });
    write(
      path.join(s.user, 'config.toml'),
      `[hooks.state."${projectHooks(s)}:stop:0:0"]\nenabled = false\ntrusted_hash = "sha256:00"\n`,
    );
    let engine = await codexEngine(s);
    let d = await decide(engine, 'Stop', { stop_hook_active: false });
    expect(d).toMatchObject({ blocked: true, reason: 'second' });
    expect(engine.explain('Stop', {}).map((e) => e.verdict)).toEqual(['disabled', 'runs']);

    write(path.join(s.user, 'config.toml'), '[features]\nhooks = false\n');
    engine = await codexEngine(s);
    d = await decide(engine, 'Stop', { stop_hook_active: false });
    expect(d.blocked).toBe(false);
    write(projectToml(s), '[features]\nhooks = true\n');
    engine = await codexEngine(s);
    expect(await decide(engine, 'Stop', { stop_hook_active: false })).toMatchObject({
      blocked: true,
      reason: 'first',
    });
  });
});

// ---------------------------------------------------------------------------------------------
// 2. How a hook runs

describe('[A-CDX-1] runs: $SHELL -lc in the session cwd, Codex environment, stdin', () => {
  it('[A-CDX-1] stdin has Codex fields; cwd is the session cwd; no CLAUDE_PROJECT_DIR; relative commands resolve there', async () => {
    const s = setup();
    const session = path.join(s.project, 'pkg');
    mkdirSync(path.join(session, '.codex', 'hooks'), { recursive: true });
    copyFileSync(
      path.join(FIXTURES, 'record-env.sh'),
      path.join(session, '.codex', 'hooks', 'record-env.sh'),
    );
    const out = path.join(s.home, 'seen.json');
    writeJson(projectHooks(s), {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [cmd(`sh .codex/hooks/record-env.sh ${out}`)] }] },
    });
    const engine = await codexEngine(s, { env: envOf(s, { MARKER: 'from-codex' }) });
    const d = await decide(engine, 'PreToolUse', {
      ...bash('ls'),
      cwd: session,
      turn_id: 't1',
      tool_use_id: 'call_1',
    });
    expect(onlyRun(d)).toMatchObject({ outcome: 'ok', dialect: 'codex' });
    const seen = readJson(out);
    expect(seen.cwd).toBe(session);
    expect(seen.env).toEqual({ MARKER: 'from-codex' });
    expect(seen.stdin).toEqual({
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
      cwd: session,
      turn_id: 't1',
      tool_use_id: 'call_1',
      hook_event_name: 'PreToolUse',
      session_id: expect.any(String),
      transcript_path: null,
      permission_mode: 'default',
    });
  });

  it('[A-CDX-1] SessionEnd and Interrupt get no permission_mode; their hooks observe, exit 2 blocks nothing', async () => {
    const s = setup();
    const log = path.join(s.home, 'ends.jsonl');
    const observer = cmd(`cat >> ${log}; echo >> ${log}; echo "cannot stop this" >&2; exit 2`);
    writeJson(projectHooks(s), {
      hooks: { SessionEnd: [{ hooks: [observer] }], Interrupt: [{ hooks: [observer] }] },
    });
    const engine = await codexEngine(s);
    for (const [event, extra] of [
      ['SessionEnd', { reason: 'other' }],
      ['Interrupt', { turn_id: 't9' }],
    ] as const) {
      const d = await decide(engine, event, extra);
      expect(d).toMatchObject({ blocked: false, continue: true });
      expect(onlyRun(d)).toMatchObject({ cause: 'exit_2_ignored', failed: 'open' });
    }
    const inputs = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l));
    expect(inputs.map((i) => [i.hook_event_name, 'permission_mode' in i, i.transcript_path])).toEqual([
      ['SessionEnd', false, null],
      ['Interrupt', false, null],
    ]);
  });

  it('[A-CDX-1] commands run in a login shell of $SHELL (bash -lc here), /bin/sh when SHELL is unset', async () => {
    const s = setup();
    writeJson(projectHooks(s), {
      hooks: {
        UserPromptSubmit: [
          {
            hooks: [
              cmd('if shopt -q login_shell 2>/dev/null; then echo "login bash"; else echo "not bash"; fi'),
            ],
          },
        ],
      },
    });
    const withBash = await codexEngine(s, { env: envOf(s, { SHELL: '/bin/bash' }) });
    expect((await decide(withBash, 'UserPromptSubmit', { prompt: 'x' })).additionalContext).toBe(
      'login bash',
    );
    const env: NodeJS.ProcessEnv = envOf(s);
    delete env.SHELL;
    const withSh = await codexEngine(s, { env });
    expect((await decide(withSh, 'UserPromptSubmit', { prompt: 'x' })).additionalContext).toBe('not bash');
  });

  it('[A-CDX-1] identical hooks are not merged: the same audit logger in two groups runs twice', async () => {
    const s = setup();
    installScripts(s, 'audit.sh');
    const audit = cmd('sh .codex/hooks/audit.sh');
    writeJson(projectHooks(s), {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [audit] }, { hooks: [audit] }] },
    });
    const d = await decide(await codexEngine(s), 'PreToolUse', bash('ls'));
    expect(d.runs).toHaveLength(2);
    const lines = readFileSync(path.join(s.project, 'audit.jsonl'), 'utf8').trim().split('\n');
    expect(lines.map((l) => JSON.parse(l).tool_input.command)).toEqual(['ls', 'ls']);
  });
});

// ---------------------------------------------------------------------------------------------
// 3. Matchers

describe('[A-CDX-1] matchers: exact names, unanchored regex, apply_patch aliases', () => {
  it('[A-CDX-1] Bash, ^Ba.*$, * and "" match the shell tool; bash, shell, exec_command and Write do not', async () => {
    const tags = ['Bash', '^Ba.*$', '*', '', 'bash', 'shell', 'exec_command', 'Write'];
    const { engine } = await projectEngine({
      PreToolUse: tags.map((matcher, i) => ({ matcher, hooks: [cmd(`echo m${i}`)] })),
    });
    const d = await decide(engine, 'PreToolUse', bash('ls'));
    expect(d.runs.map((r) => r.hook)).toEqual(['echo m0', 'echo m1', 'echo m2', 'echo m3']);
  });

  it('[A-CDX-1] a patch is matched by apply_patch, Write, Edit|Write (not Bash); the Claude-style .env guard denies it', async () => {
    const s = setup();
    installScripts(s, 'protect-env.mjs');
    const guard = cmd('node .codex/hooks/protect-env.mjs');
    writeJson(projectHooks(s), {
      hooks: {
        PreToolUse: [
          { matcher: 'Edit|Write', hooks: [guard] },
          { matcher: 'apply_patch', hooks: [cmd('echo by-name')] },
          { matcher: 'Write', hooks: [cmd('echo by-write')] },
          { matcher: 'Bash', hooks: [cmd('echo by-bash')] },
        ],
      },
    });
    const engine = await codexEngine(s);
    const ok = await decide(engine, 'PreToolUse', applyPatch('src/app.ts'));
    expect(ok.runs.map((r) => r.hook)).toEqual([
      'node .codex/hooks/protect-env.mjs',
      'echo by-name',
      'echo by-write',
    ]);
    expect(ok.blocked).toBe(false);
    const env = await decide(engine, 'PreToolUse', applyPatch('config/.env'));
    expect(env).toMatchObject({
      decision: 'deny',
      blocked: true,
      reason: 'config/.env holds secrets; edit it by hand',
    });
    expect(engine.explain('PreToolUse', { tool_name: 'apply_patch' }).map((e) => e.verdict)).toEqual([
      'runs',
      'runs',
      'runs',
      'matcher',
    ]);
  });

  it('[A-CDX-1] SessionStart matches source (startup runs, resume does not); UserPromptSubmit ignores its matcher', async () => {
    const { engine } = await projectEngine({
      SessionStart: [{ matcher: 'startup', hooks: [cmd('echo "session context"')] }],
      UserPromptSubmit: [{ matcher: 'never-matches-anything', hooks: [cmd('echo "prompt context"')] }],
    });
    expect((await decide(engine, 'SessionStart', { source: 'startup' })).additionalContext).toBe(
      'session context',
    );
    expect((await decide(engine, 'SessionStart', { source: 'resume' })).runs).toEqual([]);
    expect((await decide(engine, 'UserPromptSubmit', { prompt: 'x' })).additionalContext).toBe(
      'prompt context',
    );
  });
});

// ---------------------------------------------------------------------------------------------
// 4. Exit codes and output

describe('[A-CDX-1] exit codes and output, as Codex reads them', () => {
  it('[A-CDX-1] exit 2 blocks with stderr as the reason (stdout ignored): the Python rm -rf guard', async () => {
    const s = setup();
    installScripts(s, 'block-rm-rf.py');
    writeJson(projectHooks(s), {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [cmd('python3 .codex/hooks/block-rm-rf.py')] }] },
    });
    const engine = await codexEngine(s);
    const d = await decide(engine, 'PreToolUse', bash('rm -rf build'));
    expect(d).toMatchObject({
      decision: 'deny',
      blocked: true,
      reason: 'Blocked by policy: rm -rf is not allowed (rm -rf build)',
    });
    expect(onlyRun(d)).toMatchObject({ outcome: 'deny', exitCode: 2 });
    expect((await decide(engine, 'PreToolUse', bash('ls -la'))).blocked).toBe(false);
  });

  it('[A-CDX-1] exit 2 with an empty stderr is a failed hook, not a block; exit 1 with a deny on stdout is ignored', async () => {
    const { engine } = await projectEngine({
      PreToolUse: [
        { hooks: [cmd('echo "would block" ; exit 2')] },
        {
          hooks: [
            cmd(
              `printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}'; exit 1`,
            ),
          ],
        },
      ],
    });
    const d = await decide(engine, 'PreToolUse', bash('rm -rf /'));
    expect(d).toMatchObject({ decision: 'allow', blocked: false });
    expect(d.runs.map((r) => [r.outcome, r.cause, r.failed])).toEqual([
      ['error', 'exit_2_without_stderr', 'open'],
      ['error', 'exit_code', 'open'],
    ]);
  });

  const hso = (fields: Record<string, unknown>) => ({
    hookSpecificOutput: { hookEventName: 'PreToolUse', ...fields },
  });
  const unsupported: Array<[string, unknown, string]> = [
    ['an unknown top-level field', { decision: 'block', reason: 'x', extra: 1 }, 'Unrecognized key'],
    [
      'no hookEventName',
      { hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'x' } },
      'hookEventName',
    ],
    ['decision: "deny"', { decision: 'deny', reason: 'x' }, 'decision'],
    [
      'permissionDecision: "ask"',
      hso({ permissionDecision: 'ask', permissionDecisionReason: 'x' }),
      'unsupported permissionDecision:ask',
    ],
    ['decision: "approve"', { decision: 'approve' }, 'unsupported decision:approve'],
    [
      'a deny without a reason',
      hso({ permissionDecision: 'deny' }),
      'without a non-empty permissionDecisionReason',
    ],
    [
      'a block with a blank reason',
      { decision: 'block', reason: '  ' },
      'decision:block without a non-empty reason',
    ],
    ['continue: false', { continue: false, stopReason: 'halt' }, 'unsupported continue:false'],
    [
      'allow without updatedInput',
      hso({ permissionDecision: 'allow' }),
      'unsupported permissionDecision:allow',
    ],
    [
      'updatedInput without allow',
      hso({ updatedInput: { command: 'ls' } }),
      'updatedInput without permissionDecision:allow',
    ],
    ['a reason without a decision', { reason: 'why' }, 'reason without decision'],
    ['an array', [1, 2], 'not an object'],
    ['broken JSON', '{"decision": "block",', 'not valid JSON'],
  ];
  it.each(unsupported)(
    '[A-CDX-1] PreToolUse output with %s is a failed hook: the tool runs',
    async (_what, answer, why) => {
      const text = typeof answer === 'string' ? answer : JSON.stringify(answer);
      const { engine } = await projectEngine({ PreToolUse: [{ hooks: [cmd(`printf '%s' '${text}'`)] }] });
      const d = await decide(engine, 'PreToolUse', bash('rm -rf /'));
      expect(d).toMatchObject({ decision: 'allow', blocked: false });
      expect(onlyRun(d)).toMatchObject({ outcome: 'error', cause: 'invalid_answer', failed: 'open' });
      expect(onlyRun(d).reason).toContain(why);
    },
  );

  it('[A-CDX-1] failMode "closed" (hookwerk) turns a failed guard into a block', async () => {
    const { engine } = await projectEngine({
      PreToolUse: [{ hooks: [cmd(`printf '%s' '{"decision":"deny"}'`, { failMode: 'closed' })] }],
    });
    const d = await decide(engine, 'PreToolUse', bash('ls'));
    expect(d).toMatchObject({ decision: 'deny', blocked: true });
    expect(onlyRun(d)).toMatchObject({ cause: 'invalid_answer', failed: 'closed' });
  });

  it('[A-CDX-1] allow + updatedInput rewrites the command; context and systemMessage count; any block wins over the rewrite', async () => {
    const s = setup();
    installScripts(s, 'rewrite-npm.mjs');
    const rewrite = cmd('node .codex/hooks/rewrite-npm.mjs');
    const context = answering({
      systemMessage: 'rewrites are logged',
      ...hso({ additionalContext: 'CI uses npm ci' }),
    });
    writeJson(projectHooks(s), { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [rewrite, context] }] } });
    let engine = await codexEngine(s);
    const d = await decide(engine, 'PreToolUse', bash('npm install --silent'));
    expect(d).toMatchObject({
      decision: 'allow',
      blocked: false,
      updatedInput: { command: 'npm ci --silent' },
      additionalContext: 'CI uses npm ci',
      systemMessage: 'rewrites are logged',
    });
    expect(d).not.toHaveProperty('permission');

    writeJson(projectHooks(s), {
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [rewrite, cmd('echo "no installs today" >&2; exit 2')] }],
      },
    });
    engine = await codexEngine(s);
    const blocked = await decide(engine, 'PreToolUse', bash('npm install'));
    expect(blocked).toMatchObject({ decision: 'deny', blocked: true, reason: 'no installs today' });
    expect(blocked).not.toHaveProperty('updatedInput');
  });

  it('[A-CDX-1] two blocks: the reason of the first hook in configuration order, not the first to finish (user before project)', async () => {
    const s = setup();
    const flag = path.join(s.home, 'second-done');
    // The user hook (first in order) waits until the project hook has answered, so it finishes last.
    writeJson(path.join(s.user, 'hooks.json'), {
      hooks: {
        PreToolUse: [
          {
            hooks: [
              cmd(
                `i=0; while [ ! -f ${flag} ] && [ $i -lt 200 ]; do sleep 0.1; i=$((i+1)); done; echo "user says no" >&2; exit 2`,
              ),
            ],
          },
        ],
      },
    });
    writeJson(projectHooks(s), {
      hooks: { PreToolUse: [{ hooks: [cmd(`echo "project says no" >&2; touch ${flag}; exit 2`)] }] },
    });
    const d = await decide(await codexEngine(s), 'PreToolUse', bash('ls'));
    expect(existsSync(flag)).toBe(true);
    expect(d).toMatchObject({ blocked: true, reason: 'user says no' });
    expect(d.runs.map((r) => r.outcome)).toEqual(['deny', 'deny']);
  });

  it('[A-CDX-1] PostToolUse: a block replaces the tool result with the reason; continue:false too (default text); context from the formatter', async () => {
    const s = setup();
    installScripts(s, 'lint-after-patch.sh');
    writeJson(projectHooks(s), {
      hooks: {
        PostToolUse: [
          { matcher: 'apply_patch', hooks: [cmd('sh .codex/hooks/lint-after-patch.sh')] },
          {
            matcher: 'Bash',
            hooks: [answering({ decision: 'block', reason: 'output withheld: it held a token' })],
          },
          { matcher: '^Bash$', hooks: [answering({ continue: false })] },
        ],
      },
    });
    const engine = await codexEngine(s);
    const patched = await decide(engine, 'PostToolUse', { ...applyPatch('a.ts'), tool_response: 'Success.' });
    expect(patched).toMatchObject({ blocked: false, additionalContext: 'prettier: 2 files reformatted' });
    const shell = await decide(engine, 'PostToolUse', {
      ...bash('cat .npmrc'),
      tool_response: 'TOKEN=abc\n',
    });
    expect(shell).toMatchObject({
      blocked: true,
      reason: 'output withheld: it held a token',
      continue: true,
    });
    expect(shell.runs.map((r) => r.reason)).toEqual([
      'output withheld: it held a token',
      'PostToolUse hook stopped execution',
    ]);
  });

  it('[A-CDX-1] PostToolUse updatedMCPToolOutput replaces an MCP tool output; on the shell tool it fails the whole answer', async () => {
    const redact = answering({
      decision: 'block',
      reason: 'redacted',
      hookSpecificOutput: { hookEventName: 'PostToolUse', updatedMCPToolOutput: { content: [] } },
    });
    const { engine } = await projectEngine({ PostToolUse: [{ hooks: [redact] }] });
    const mcp = await decide(engine, 'PostToolUse', {
      tool_name: 'mcp__vault__read',
      tool_input: { path: 'x' },
      tool_response: 'secret',
    });
    expect(mcp).toMatchObject({
      blocked: true,
      reason: 'redacted',
      hookSpecificOutput: { updatedMCPToolOutput: { content: [] } },
    });
    const shell = await decide(engine, 'PostToolUse', { ...bash('cat x'), tool_response: 'secret' });
    expect(shell).toMatchObject({ blocked: false });
    expect(shell).not.toHaveProperty('hookSpecificOutput');
    expect(onlyRun(shell)).toMatchObject({ cause: 'invalid_answer', failed: 'open' });
  });

  it('[A-CDX-1] UserPromptSubmit: plain stdout is context, a block keeps the prompt from the model (the Python secret scanner)', async () => {
    const s = setup();
    installScripts(s, 'prompt-secrets.py');
    writeJson(projectHooks(s), {
      hooks: { UserPromptSubmit: [{ hooks: [cmd('python3 .codex/hooks/prompt-secrets.py')] }] },
    });
    const engine = await codexEngine(s);
    expect(await decide(engine, 'UserPromptSubmit', { prompt: 'fix the parser' })).toMatchObject({
      blocked: false,
      additionalContext: 'Team rule: run the tests before committing.',
    });
    expect(await decide(engine, 'UserPromptSubmit', { prompt: 'use password=hunter2' })).toMatchObject({
      decision: 'deny',
      blocked: true,
      reason: 'prompt holds a secret; not sent',
    });
  });

  it('[A-CDX-1] Stop: a block keeps the agent going (the reason is its next prompt), once; plain stdout fails; continue:false stops', async () => {
    const s = setup();
    installScripts(s, 'keep-going.mjs');
    writeFileSync(path.join(s.project, 'OPEN_WORK'), 'the parser tests\n');
    writeJson(projectHooks(s), {
      hooks: { Stop: [{ hooks: [cmd('node .codex/hooks/keep-going.mjs'), cmd('echo done')] }] },
    });
    const engine = await codexEngine(s);
    const first = await decide(engine, 'Stop', { stop_hook_active: false, last_assistant_message: 'Done.' });
    expect(first).toMatchObject({ blocked: true, reason: 'continue: the parser tests' });
    expect(first.runs[1]).toMatchObject({ outcome: 'error', cause: 'invalid_answer', failed: 'open' });
    expect((await decide(engine, 'Stop', { stop_hook_active: true })).blocked).toBe(false);

    const { engine: stopper } = await projectEngine({
      Stop: [{ hooks: [answering({ continue: false, stopReason: 'budget spent' })] }],
    });
    expect(await decide(stopper, 'Stop', { stop_hook_active: false })).toMatchObject({
      blocked: false,
      continue: false,
      stopReason: 'budget spent',
    });
  });

  it('[A-CDX-1] SessionStart: exit 2 blocks nothing (failed); decision:block is an unknown field; plain stdout is context', async () => {
    const { engine } = await projectEngine({
      SessionStart: [
        { hooks: [cmd('echo "no session" >&2; exit 2')] },
        { hooks: [answering({ decision: 'block', reason: 'x' })] },
        { hooks: [cmd('echo "repo: hookwerk"')] },
      ],
    });
    const d = await decide(engine, 'SessionStart', { source: 'startup' });
    expect(d).toMatchObject({ blocked: false, continue: true, additionalContext: 'repo: hookwerk' });
    expect(d.runs.map((r) => r.cause)).toEqual(['exit_2_ignored', 'invalid_answer', undefined]);
  });

  it('[A-CDX-1] PermissionRequest: behavior deny (default message), exit 2 denies with stderr, allow; updatedInput is unsupported', async () => {
    const allow = answering({
      hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } },
    });
    const deny = answering({
      hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny' } },
    });
    const rewrite = answering({
      hookSpecificOutput: {
        hookEventName: 'PermissionRequest',
        decision: { behavior: 'allow', updatedInput: { command: 'ls' } },
      },
    });
    const input = { tool_name: 'Bash', tool_input: { command: 'git push', description: 'push the branch' } };
    let r = await projectEngine({ PermissionRequest: [{ hooks: [allow] }] });
    expect(await decide(r.engine, 'PermissionRequest', input)).toMatchObject({
      decision: 'allow',
      permission: { behavior: 'allow' },
    });
    r = await projectEngine({ PermissionRequest: [{ hooks: [allow, deny] }] });
    expect(await decide(r.engine, 'PermissionRequest', input)).toMatchObject({
      decision: 'deny',
      blocked: false,
      permission: { behavior: 'deny', message: 'PermissionRequest hook denied approval' },
    });
    r = await projectEngine({
      PermissionRequest: [{ hooks: [cmd('echo "pushes need review" >&2; exit 2')] }],
    });
    expect(await decide(r.engine, 'PermissionRequest', input)).toMatchObject({
      decision: 'deny',
      permission: { behavior: 'deny', message: 'pushes need review' },
    });
    r = await projectEngine({ PermissionRequest: [{ hooks: [rewrite] }] });
    const d = await decide(r.engine, 'PermissionRequest', input);
    expect(d).toMatchObject({ decision: 'allow' });
    expect(d).not.toHaveProperty('permission');
    expect(onlyRun(d).reason).toContain('unsupported updatedInput');
  });
});

// ---------------------------------------------------------------------------------------------
// 5. Plugins

describe('[A-CDX-1] plugin folders: hooks/hooks.json with PLUGIN_ROOT, PLUGIN_DATA and their Claude names', () => {
  it('[A-CDX-1] [C-SRC-4] a plugin hook needs trust; then it runs with the four variables and the PLUGIN_ROOT placeholder filled in', async () => {
    const s = setup();
    const plugin = path.join(tempDir('hw-cdx-plugin-'), 'guardian');
    copyFileSync(
      path.join(FIXTURES, 'record-env.sh'),
      path.join(mkdirP(path.join(plugin, 'scripts')), 'record-env.sh'),
    );
    writeJson(path.join(plugin, '.codex-plugin', 'plugin.json'), { name: 'guardian-plugin' });
    const out = path.join(s.home, 'plugin-seen.json');
    writeJson(path.join(plugin, 'hooks', 'hooks.json'), {
      description: 'records what it gets',
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [cmd(`sh "\${PLUGIN_ROOT}/scripts/record-env.sh" ${out}`)] }],
      },
    });
    const before = await cliDecide(s, 'PreToolUse', bash('ls'), ['--plugin-dir', plugin]);
    expect(onlyRun(before.d)).toMatchObject({ outcome: 'skipped_untrusted' });
    expect(existsSync(out)).toBe(false);

    await cliTrust(s, ['--plugin-dir', plugin]);
    const after = await cliDecide(s, 'PreToolUse', bash('ls'), ['--plugin-dir', plugin]);
    expect(after.code).toBe(0);
    expect(onlyRun(after.d)).toMatchObject({ outcome: 'ok', dialect: 'codex' });
    const data = path.join(s.home, '.codex', 'plugins', 'data', 'guardian-plugin');
    expect(readJson(out).env).toEqual({
      PLUGIN_ROOT: plugin,
      CLAUDE_PLUGIN_ROOT: plugin,
      PLUGIN_DATA: data,
      CLAUDE_PLUGIN_DATA: data,
    });
    expect(existsSync(data)).toBe(true);
  });
});

describe('[A-CDX-1] a plugin folder shared with Claude Code', () => {
  it('[A-CDX-1] [C-SRC-4] a Claude plugin with an http hook (which Codex cannot read) is still approved by trust; validate --dialect codex says Codex skips it', async () => {
    const s = setup();
    const plugin = mkdirP(path.join(tempDir('hw-cdx-plugin-'), 'claude-style'));
    writeJson(path.join(plugin, 'hooks', 'hooks.json'), {
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [cmd('echo "no" >&2; exit 2')] },
          { hooks: [{ type: 'http', url: 'http://127.0.0.1:9/audit' }] },
        ],
      },
    });
    await cliTrust(s, ['--plugin-dir', plugin]);
    const v = await runCli(
      ['validate', '--dialect', 'codex', '--project', s.project, '--plugin-dir', plugin],
      {
        home: s.home,
      },
    );
    expect(v.code).toBe(1);
    expect(v.stderr).toContain(
      `${path.join(plugin, 'hooks', 'hooks.json')}: $.hooks.PreToolUse[1].hooks[0].type: unknown handler type "http"`,
    );
    const codex = await cliDecide(s, 'PreToolUse', bash('ls'), ['--plugin-dir', plugin]);
    expect(codex).toMatchObject({ code: 0, d: { blocked: false, runs: [] } });
    const claude = await runCli(
      ['decide', 'PreToolUse', '--dialect', 'claude', '--project', s.project, '--plugin-dir', plugin],
      { home: s.home, stdin: { text: JSON.stringify(bash('ls')) } },
    );
    expect(claude.code).toBe(2);
  });
});

function mkdirP(dir: string): string {
  mkdirSync(dir, { recursive: true });
  return dir;
}

// ---------------------------------------------------------------------------------------------
// 6. The CLI: decide, validate, explain, trust, demo

describe('[A-CDX-1] the CLI speaks codex: decide, validate, explain, trust, demo', () => {
  function guardedProject(): Setup {
    const s = setup();
    installScripts(s, 'block-rm-rf.py', 'audit.sh');
    writeJson(projectHooks(s), {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [cmd('python3 .codex/hooks/block-rm-rf.py')] }] },
    });
    write(
      projectToml(s),
      '[[hooks.PostToolUse]]\nmatcher = "*"\n[[hooks.PostToolUse.hooks]]\ntype = "command"\ncommand = "sh .codex/hooks/audit.sh"\nasync = true\n',
    );
    return s;
  }

  it('[A-CDX-1] [C-SRC-4] project hooks are skipped_untrusted until trust; trust pins hooks.json, config.toml and .codex/hooks/; an edited script stops them', async () => {
    const s = guardedProject();
    const before = await cliDecide(s, 'PreToolUse', bash('rm -rf /'));
    expect(before.code).toBe(0);
    expect(onlyRun(before.d)).toMatchObject({ outcome: 'skipped_untrusted', dialect: 'codex' });
    expect(before.stderr).toContain('hookwerk trust');

    const review = await runCli(['trust', '--yes', '--project', s.project], { home: s.home });
    expect(review.code).toBe(0);
    expect(review.stdout).toMatch(/runs: {2}python3 \.codex\/hooks\/block-rm-rf\.py {2}\(\S+ -lc\)/);
    expect(review.stdout).toContain('sh .codex/hooks/audit.sh');
    const store = readFileSync(trustStorePath(s.home), 'utf8');
    for (const file of [projectHooks(s), projectToml(s), path.join(s.project, '.codex', 'hooks', 'audit.sh')])
      expect(store).toContain(JSON.stringify(file));

    const after = await cliDecide(s, 'PreToolUse', bash('rm -rf /'));
    expect(after.code).toBe(2);
    expect(after.d).toMatchObject({
      decision: 'deny',
      blocked: true,
      reason: 'Blocked by policy: rm -rf is not allowed (rm -rf /)',
    });

    writeFileSync(path.join(s.project, '.codex', 'hooks', 'block-rm-rf.py'), 'print("{}")\n');
    const edited = await cliDecide(s, 'PreToolUse', bash('rm -rf /'));
    expect(edited.code).toBe(0);
    expect(onlyRun(edited.d)).toMatchObject({
      outcome: 'skipped_untrusted',
      cause: 'changed_since_approval',
    });
  });

  it('[A-CDX-1] validate --dialect codex: ok lines and warnings exit 0; a file Codex would skip is an error (exit 1)', async () => {
    const s = guardedProject();
    // Codex ignores keys that are not its events, whatever their shape: a warning, never an error.
    writeJson(path.join(s.user, 'hooks.json'), {
      hooks: { PreCompress: [{ hooks: [cmd('true')] }], Notification: 'not a list' },
    });
    const ok = await runCli(['validate', '--dialect', 'codex', '--project', s.project], { home: s.home });
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain(`ok: ${projectHooks(s)}: 1 hooks (project)`);
    expect(ok.stdout).toContain(`ok: ${projectToml(s)}: 1 hooks (project)`);
    expect(ok.stderr).toContain('warning: ');
    expect(ok.stderr).toContain('"PreCompress" is not a Codex CLI event');
    expect(ok.stderr).toContain('"Notification" is not a Codex CLI event');
    expect(ok.stderr).not.toContain('must be a list');

    write(projectToml(s), '[[hooks.PostToolUse]]\nmatcher = 3\n');
    const bad = await runCli(['validate', '--dialect', 'codex', '--project', s.project], { home: s.home });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(
      `${projectToml(s)}: $.hooks.PostToolUse[0].matcher: matcher must be a string`,
    );
    expect(bad.stderr).not.toMatch(STACK);
  });

  it('[A-CDX-1] explain --dialect codex --tool apply_patch: the Edit|Write guard runs, the Bash one does not', async () => {
    const s = setup();
    writeJson(projectHooks(s), {
      hooks: {
        PreToolUse: [
          { matcher: 'Edit|Write', hooks: [cmd('echo patch-guard')] },
          { matcher: 'Bash', hooks: [cmd('echo shell-guard')] },
        ],
      },
    });
    await trustHere(s);
    const r = await runCli(
      ['explain', 'PreToolUse', '--dialect', 'codex', '--project', s.project, '--tool', 'apply_patch'],
      {
        home: s.home,
      },
    );
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines.find((l) => l.includes('patch-guard'))).toContain('RUNS');
    expect(lines.find((l) => l.includes('shell-guard'))).toContain('no match');
  });

  it('[A-CDX-1] demo --dialect codex runs the bundled project: blocks rm -rf, a secret prompt and a .env patch', async () => {
    const r = await runCli(['demo', '--dialect', 'codex'], { home: tempDir('hw-cdx-demo-') });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Codex CLI dialect');
    expect(r.stdout).toMatch(/Bash: rm -rf \/\s+→ BLOCKED \(exit 2\): Blocked: recursive force delete/);
    expect(r.stdout).toMatch(/apply_patch \.env\s+→ BLOCKED \(exit 2\): \.env holds secrets/);
    expect(r.stdout).toMatch(/a prompt with a secret\s+→ BLOCKED/);
    expect(r.stdout).toContain('wrote 1 line(s) to logs/tool-audit.jsonl');
  });
});
