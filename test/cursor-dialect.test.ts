/**
 * The Cursor dialect end to end [A-CUR-1; C-OUT-1, C-SRC-3, C-SRC-4]: `.cursor/hooks.json` files
 * (enterprise, project, user) and the hook scripts of test/fixtures/cursor/ (sh and Node, written as
 * public Cursor hook sets write them) run unchanged through `engine.decide` and
 * `hookwerk decide --dialect cursor`, as real processes, in temp projects with a temp `~`.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HookInputError } from '../src/core/errors.ts';
import { NOT_JSON_BLOCKED } from '../src/dialects/cursor/answer.ts';
import { CURSOR_EVENT_NAMES } from '../src/dialects/cursor/events.ts';
import type { AgentDecision } from '../src/dispatch/agent-answer.ts';
import type { HookEngine } from '../src/engine-api.ts';
import type { RunRecord } from '../src/records/run-record.ts';
import { REPO, runCli, STACK } from './cli-runner.ts';
import { cursorEngine, installScripts } from './cursor-harness.ts';
import { makeEngine } from './engine-harness.ts';
import { tempDir } from './helpers.ts';

// ---------------------------------------------------------------------------------------------
// helpers

const FIXTURES = path.join(REPO, 'test', 'fixtures', 'cursor');

type Entry = Record<string, unknown>;
type EventMap = Record<string, Entry[]>;
type Input = Record<string, unknown>;

interface Setup {
  project: string;
  home: string;
  /** Given as `cursor.enterpriseFile` (absent unless written). */
  enterprise: string;
}

function setup(): Setup {
  const project = tempDir('hw-cur-');
  return {
    project,
    home: tempDir('hw-cur-home-'),
    enterprise: path.join(tempDir('hw-cur-etc-'), 'hooks.json'),
  };
}

const projectFile = (s: Setup) => path.join(s.project, '.cursor', 'hooks.json');
const userFile = (s: Setup) => path.join(s.home, '.cursor', 'hooks.json');

function writeJson(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, typeof value === 'string' ? value : `${JSON.stringify(value, null, 2)}\n`);
}

/** A Cursor hooks file `{version: 1, hooks}`. */
const hooksFile = (file: string, hooks: EventMap) => writeJson(file, { version: 1, hooks });

/** Copies fixture scripts into `<dir>/` (executable), as a user installs them. */
function install(dir: string, ...names: string[]): void {
  installScripts(FIXTURES, dir, names);
}

const projectHooksDir = (s: Setup) => path.join(s.project, '.cursor', 'hooks');

/** A hook that prints `answer` (JSON) and exits with `code`. */
const printing = (answer: unknown, code = 0, extra: Entry = {}): Entry => ({
  command: `printf '%s\\n' '${JSON.stringify(answer)}'; exit ${code}`,
  ...extra,
});

async function decide(engine: HookEngine, event: string, input: Input = {}): Promise<AgentDecision> {
  return (await engine.decide(event, input)) as AgentDecision;
}

/** A project whose `.cursor/hooks.json` holds `map`, and an engine over it (consent granted). */
async function projectEngine(map: EventMap, s: Setup = setup()) {
  hooksFile(projectFile(s), map);
  const engine = await cursorEngine(s);
  expect(engine.gate.config.issues).toEqual([]);
  return { ...s, engine };
}

async function decideOne(event: string, entries: Entry[], input: Input = {}) {
  const { engine } = await projectEngine({ [event]: entries });
  return decide(engine, event, input);
}

function onlyRun(d: { runs: RunRecord[] }): RunRecord {
  expect(d.runs).toHaveLength(1);
  return d.runs[0] as RunRecord;
}

const shell = (command: string, cwd = '/'): Input => ({ command, cwd, sandbox: false });

async function cliDecide(s: Setup, event: string, input: Input, how: 'stdin' | 'flag' = 'stdin') {
  const args = ['decide', event, '--dialect', 'cursor', '--project', s.project];
  const r = await runCli(how === 'flag' ? [...args, '--input', JSON.stringify(input)] : args, {
    home: s.home,
    ...(how === 'stdin' ? { stdin: { text: JSON.stringify(input) } } : {}),
  });
  expect(r.stderr).not.toMatch(STACK);
  return {
    code: r.code,
    stderr: r.stderr,
    d: (r.stdout.trim() === '' ? {} : JSON.parse(r.stdout)) as AgentDecision,
  };
}

async function cliTrust(s: Setup): Promise<void> {
  const r = await runCli(['trust', '--yes', '--project', s.project], { home: s.home });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
}

const auditLines = (s: Setup) =>
  readFileSync(path.join(s.project, 'logs', 'audit.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { input: Input; cwd: string; env: Record<string, string>; argv: string[] });

// ---------------------------------------------------------------------------------------------
// 1. Public-style hook sets through the real CLI

describe('[A-CUR-1] public-style Cursor hooks through `hookwerk decide --dialect cursor`', () => {
  it('[A-CUR-1] shell guard: deny → exit 2 with agent_message as reason, ask → exit 0 ask, allow → exit 0', async () => {
    const s = setup();
    install(projectHooksDir(s), 'block-dangerous.sh');
    hooksFile(projectFile(s), {
      beforeShellExecution: [{ command: '.cursor/hooks/block-dangerous.sh', timeout: 10 }],
    });
    await cliTrust(s);

    const denied = await cliDecide(s, 'beforeShellExecution', shell('rm -rf / --no-preserve-root'));
    expect(denied.code).toBe(2);
    expect(denied.d).toMatchObject({
      decision: 'deny',
      blocked: true,
      continue: true,
      reason: 'This command could destroy data. Ask the user first.',
      systemMessage: 'Destructive command blocked by block-dangerous.sh',
    });
    expect(denied.d.runs[0]).toMatchObject({ dialect: 'cursor', outcome: 'deny', exitCode: 0 });

    const asked = await cliDecide(s, 'beforeShellExecution', shell('git push origin main --force'), 'flag');
    expect(asked.code).toBe(0);
    expect(asked.d).toMatchObject({
      decision: 'ask',
      blocked: false,
      reason: 'A force push needs confirmation.',
    });

    expect(denied.d.permission).toEqual({
      behavior: 'deny',
      message: 'This command could destroy data. Ask the user first.',
    });
    expect(asked.d.permission).toBeUndefined();

    const allowed = await cliDecide(s, 'beforeShellExecution', shell('npm test'));
    expect(allowed.code).toBe(0);
    expect(allowed.d).toMatchObject({ decision: 'allow', blocked: false, permission: { behavior: 'allow' } });
    expect(allowed.d.reason).toBeUndefined();
  });

  it('[A-CUR-1] MCP gate: a JSON-string tool_input, deny / ask / allow by tool name', async () => {
    const s = setup();
    install(projectHooksDir(s), 'mcp-gate.mjs');
    const { engine } = await projectEngine(
      { beforeMCPExecution: [{ command: 'node .cursor/hooks/mcp-gate.mjs' }] },
      s,
    );
    const mcp = (tool_name: string) => ({
      tool_name,
      tool_input: JSON.stringify({ table: 'users' }),
      url: 'http://localhost:3000/mcp',
    });
    expect(await decide(engine, 'beforeMCPExecution', mcp('drop_table'))).toMatchObject({
      blocked: true,
      reason: 'Do not call drop_table.',
    });
    expect(await decide(engine, 'beforeMCPExecution', mcp('update_rows'))).toMatchObject({
      decision: 'ask',
      blocked: false,
      reason: 'Allow update_rows on users?',
    });
    expect(await decide(engine, 'beforeMCPExecution', mcp('query'))).toMatchObject({
      decision: 'allow',
      blocked: false,
    });
  });

  it('[A-CUR-1] .env guard on beforeReadFile and preToolUse (Write|Delete matcher)', async () => {
    const s = setup();
    install(projectHooksDir(s), 'env-guard.mjs');
    const { engine } = await projectEngine(
      {
        beforeReadFile: [{ command: 'node .cursor/hooks/env-guard.mjs' }],
        preToolUse: [{ command: 'node .cursor/hooks/env-guard.mjs', matcher: 'Write|Delete' }],
      },
      s,
    );
    const read = await decide(engine, 'beforeReadFile', {
      file_path: path.join(s.project, '.env'),
      content: 'API_KEY=1',
      attachments: [],
    });
    expect(read).toMatchObject({ blocked: true, decision: 'deny', systemMessage: '.env is protected' });
    expect(read.reason).toMatch(/^Reading or writing .*\.env is not allowed/);
    const example = await decide(engine, 'beforeReadFile', { file_path: '.env.example', content: '' });
    expect(example).toMatchObject({ blocked: false });
    const write = await decide(engine, 'preToolUse', {
      tool_name: 'Write',
      tool_input: { file_path: '.env.local', contents: 'X=1' },
      tool_use_id: 'tu1',
    });
    expect(write).toMatchObject({ blocked: true, systemMessage: '.env.local is protected' });
    // Grep is not matched by Write|Delete: the hook does not run at all.
    const grep = await decide(engine, 'preToolUse', { tool_name: 'Grep', tool_input: { pattern: 'x' } });
    expect(grep).toMatchObject({ blocked: false, runs: [] });
  });

  it('[A-CUR-1] formatter on afterFileEdit runs from the project root; after* events only observe', async () => {
    const s = setup();
    install(projectHooksDir(s), 'format-on-edit.sh');
    writeFileSync(path.join(s.project, 'app.ts'), 'const a = 1;   \nconst b = 2;\t\n');
    const { engine } = await projectEngine(
      { afterFileEdit: [{ command: '.cursor/hooks/format-on-edit.sh' }] },
      s,
    );
    const d = await decide(engine, 'afterFileEdit', {
      file_path: 'app.ts',
      edits: [{ old_string: '', new_string: 'const a = 1;   ' }],
    });
    expect(d).toMatchObject({ decision: 'allow', blocked: false });
    expect(onlyRun(d)).toMatchObject({ outcome: 'ok', exitCode: 0 });
    expect(readFileSync(path.join(s.project, 'app.ts'), 'utf8')).toBe('const a = 1;\nconst b = 2;\n');
  });

  it('[A-CUR-1] prompt-secret scanner: continue:false refuses the prompt, the session goes on', async () => {
    const s = setup();
    install(projectHooksDir(s), 'prompt-secrets.mjs');
    hooksFile(projectFile(s), { beforeSubmitPrompt: [{ command: 'node .cursor/hooks/prompt-secrets.mjs' }] });
    await cliTrust(s);
    const bad = await cliDecide(s, 'beforeSubmitPrompt', {
      prompt: 'deploy with sk-abcdefghijklmnop',
      attachments: [],
    });
    expect(bad.code).toBe(2);
    expect(bad.d).toMatchObject({
      decision: 'deny',
      blocked: true,
      continue: true,
      reason: 'Your prompt looks like it contains a secret; it was not sent.',
    });
    const ok = await cliDecide(s, 'beforeSubmitPrompt', { prompt: 'add a test', attachments: [] });
    expect(ok.code).toBe(0);
    expect(ok.d).toMatchObject({ decision: 'allow', blocked: false, continue: true });
  });

  it('[A-CUR-1] preToolUse rewrite: updated_input passes through unchanged', async () => {
    const s = setup();
    install(projectHooksDir(s), 'rewrite-install.mjs');
    const { engine } = await projectEngine(
      { preToolUse: [{ command: 'node .cursor/hooks/rewrite-install.mjs', matcher: 'Shell' }] },
      s,
    );
    const d = await decide(engine, 'preToolUse', {
      tool_name: 'Shell',
      tool_input: { command: 'npm install --silent', is_background: false },
      tool_use_id: 't1',
      cwd: s.project,
    });
    expect(d).toMatchObject({
      decision: 'allow',
      blocked: false,
      updatedInput: { command: 'npm ci --silent', is_background: false },
    });
    const plain = await decide(engine, 'preToolUse', { tool_name: 'Shell', tool_input: { command: 'ls' } });
    expect(plain).toMatchObject({ blocked: false });
    expect(plain.updatedInput).toBeUndefined();
  });

  it('[A-CUR-1] a deny printed with exit 1 is not read: the command runs (fail-open)', async () => {
    const s = setup();
    install(projectHooksDir(s), 'legacy-exit1-deny.sh');
    const { engine } = await projectEngine(
      { beforeShellExecution: [{ command: 'sh .cursor/hooks/legacy-exit1-deny.sh' }] },
      s,
    );
    const d = await decide(engine, 'beforeShellExecution', shell('ls'));
    expect(d).toMatchObject({ decision: 'allow', blocked: false });
    expect(onlyRun(d)).toMatchObject({ outcome: 'error', cause: 'exit_code', exitCode: 1, failed: 'open' });
    expect(onlyRun(d).reason).toMatch(/only exit 0 counts/);
  });
});

// ---------------------------------------------------------------------------------------------
// 2. Exit codes, stdout, failClosed

describe('[A-CUR-1] exit codes and output', () => {
  it('[A-CUR-1] exit 2 denies: the reason is stderr, or the stdout JSON’s agent_message / user_message', async () => {
    const viaStderr = await decideOne(
      'beforeShellExecution',
      [{ command: 'echo "no curl here" >&2; exit 2' }],
      shell('curl x'),
    );
    expect(viaStderr).toMatchObject({ blocked: true, decision: 'deny', reason: 'no curl here' });
    const viaJson = await decideOne(
      'beforeShellExecution',
      [printing({ permission: 'allow', user_message: 'shown to you', agent_message: 'for the agent' }, 2)],
      shell('x'),
    );
    expect(viaJson).toMatchObject({ blocked: true, reason: 'for the agent', systemMessage: 'shown to you' });
    const bare = await decideOne('subagentStart', [{ command: 'exit 2' }], { subagent_type: 'explore' });
    expect(bare).toMatchObject({ blocked: true, reason: 'blocked by hook (exit 2)' });
  });

  it('[A-CUR-1] exit 2 on observe-only events, sessionStart and stop changes nothing', async () => {
    for (const event of ['afterShellExecution', 'sessionStart', 'stop', 'preCompact', 'afterAgentResponse']) {
      const d = await decideOne(event, [{ command: 'echo nope >&2; exit 2' }], {
        command: 'ls',
        status: 'completed',
      });
      expect(d, event).toMatchObject({ decision: 'allow', blocked: false });
      expect(onlyRun(d), event).toMatchObject({ cause: 'exit_2_ignored', failed: 'open' });
    }
  });

  it('[A-CUR-1] failClosed turns a crash, invalid JSON and a timeout into a deny; without it they fail open', async () => {
    const crash = { command: 'exit 3' };
    const garbage = { command: 'echo "not json"' };
    const slow = { command: 'sleep 30', timeout: 0.3 };
    for (const entry of [crash, garbage, slow]) {
      const open = await decideOne('beforeShellExecution', [entry], shell('ls'));
      expect(open, entry.command).toMatchObject({ decision: 'allow', blocked: false });
      expect(onlyRun(open).failed, entry.command).toBe('open');
      const closed = await decideOne('beforeShellExecution', [{ ...entry, failClosed: true }], shell('ls'));
      expect(closed, entry.command).toMatchObject({ decision: 'deny', blocked: true });
      expect(closed.reason, entry.command).toMatch(/failClosed/);
      expect(onlyRun(closed).failed, entry.command).toBe('closed');
    }
    const timedOut = await decideOne('beforeReadFile', [{ ...slow, failClosed: true }], { file_path: 'a' });
    expect(onlyRun(timedOut)).toMatchObject({ outcome: 'timeout', failed: 'closed' });
  });

  it('[A-CUR-1] preToolUse: empty or non-JSON stdout blocks, `{}` does not', async () => {
    const input = { tool_name: 'Shell', tool_input: { command: 'ls' } };
    for (const command of ['true', 'echo hello', 'echo "[1,2]"']) {
      const d = await decideOne('preToolUse', [{ command }], input);
      expect(d, command).toMatchObject({ decision: 'deny', blocked: true, reason: NOT_JSON_BLOCKED });
    }
    expect(await decideOne('preToolUse', [{ command: "echo '{}'" }], input)).toMatchObject({
      decision: 'allow',
      blocked: false,
    });
    // Elsewhere empty stdout is no objection (no explicit permission), and non-JSON fails open (the docs' rule).
    const silent = await decideOne('beforeShellExecution', [{ command: 'true' }], shell('ls'));
    expect(silent).toMatchObject({ decision: 'allow', blocked: false });
    expect(silent.permission).toBeUndefined();
    const text = await decideOne('beforeReadFile', [{ command: 'echo hi' }], { file_path: 'a' });
    expect(text).toMatchObject({ blocked: false });
    expect(onlyRun(text)).toMatchObject({ cause: 'invalid_answer', failed: 'open' });
  });

  it('[A-CUR-1] permission ask: honoured on shell and MCP, ignored on preToolUse, a deny on subagentStart', async () => {
    const ask = printing({ permission: 'ask', agent_message: 'confirm please' });
    expect(await decideOne('beforeShellExecution', [ask], shell('ls'))).toMatchObject({
      decision: 'ask',
      blocked: false,
      reason: 'confirm please',
    });
    const pre = await decideOne('preToolUse', [ask], { tool_name: 'Write', tool_input: {} });
    expect(pre).toMatchObject({ decision: 'allow', blocked: false });
    expect(onlyRun(pre).reason).toMatch(/not enforced on preToolUse/);
    expect(
      await decideOne('subagentStart', [ask], { subagent_type: 'generalPurpose', task: 't' }),
    ).toMatchObject({
      decision: 'deny',
      blocked: true,
      reason: 'confirm please',
    });
  });

  it('[A-CUR-1] a field of the wrong type is ignored and named; permission on a non-permission event is not read', async () => {
    const d = await decideOne(
      'beforeShellExecution',
      [printing({ permission: 'block', user_message: 7 })],
      shell('ls'),
    );
    expect(d).toMatchObject({ decision: 'allow', blocked: false });
    expect(onlyRun(d).reason).toMatch(/permission, user_message/);
    const stop = await decideOne('stop', [printing({ permission: 'deny' })], { status: 'completed' });
    expect(stop).toMatchObject({ decision: 'allow', blocked: false });
  });
});

// ---------------------------------------------------------------------------------------------
// 3. Context, env, follow-ups

describe('[A-CUR-1] context, session env and stop follow-ups', () => {
  it('[A-CUR-1] sessionStart: additional_context and env come back, continue:false never blocks', async () => {
    const s = setup();
    install(projectHooksDir(s), 'session-context.mjs');
    const { engine } = await projectEngine(
      { sessionStart: [{ command: 'node .cursor/hooks/session-context.mjs' }] },
      s,
    );
    const d = await decide(engine, 'sessionStart', { conversation_id: 'conv-1', is_background_agent: false });
    expect(d).toMatchObject({
      decision: 'allow',
      blocked: false,
      continue: true,
      additionalContext: 'Branch rules: never push to main. Session conv-1.',
      env: { TEAM: 'payments' },
    });
  });

  it('[A-CUR-1] additional_context only on sessionStart and postToolUse', async () => {
    const ctx = printing({ additional_context: 'lint found 2 warnings' });
    expect(
      await decideOne('postToolUse', [ctx], { tool_name: 'Write', tool_output: '{}', duration: 3 }),
    ).toMatchObject({ additionalContext: 'lint found 2 warnings' });
    const prompt = await decideOne('beforeSubmitPrompt', [ctx], { prompt: 'x' });
    expect(prompt.additionalContext).toBeUndefined();
    const shellCtx = await decideOne('beforeShellExecution', [ctx], shell('ls'));
    expect(shellCtx.additionalContext).toBeUndefined();
  });

  it('[A-CUR-1] stop follow-up keeps the agent going while loop_count < loop_limit (default 5); stop ignores permission', async () => {
    const s = setup();
    install(projectHooksDir(s), 'keep-going.mjs');
    writeFileSync(path.join(s.project, 'TODO.md'), '- [x] one\n- [ ] write the parser tests\n');
    const { engine } = await projectEngine({ stop: [{ command: 'node .cursor/hooks/keep-going.mjs' }] }, s);
    const first = await decide(engine, 'stop', { status: 'completed', loop_count: 0 });
    expect(first).toMatchObject({
      decision: 'deny',
      blocked: true,
      continue: true,
      reason: 'Continue: write the parser tests (round 1)',
    });
    expect(await decide(engine, 'stop', { status: 'completed', loop_count: 4 })).toMatchObject({
      blocked: true,
      reason: 'Continue: write the parser tests (round 5)',
    });
    const capped = await decide(engine, 'stop', { status: 'completed', loop_count: 5 });
    expect(capped).toMatchObject({ decision: 'allow', blocked: false });
    expect(onlyRun(capped).reason).toMatch(/loop_limit reached/);
    // The input's loop_count defaults to 0, as Cursor's first stop.
    expect(await decide(engine, 'stop', { status: 'completed' })).toMatchObject({ blocked: true });
    expect(await decide(engine, 'stop', { status: 'aborted', loop_count: 0 })).toMatchObject({
      blocked: false,
    });
  });

  it('[A-CUR-1] through the CLI a follow-up is a block (exit 2) and a capped one is not', async () => {
    const s = setup();
    hooksFile(userFile(s), {
      stop: [printing({ followup_message: 'run the tests first' }, 0, { loop_limit: 3 })],
    });
    const going = await cliDecide(s, 'stop', { status: 'completed', loop_count: 2 });
    expect(going.code).toBe(2);
    expect(going.d).toMatchObject({ decision: 'deny', blocked: true, reason: 'run the tests first' });
    const capped = await cliDecide(s, 'stop', { status: 'completed', loop_count: 3 });
    expect(capped.code).toBe(0);
    expect(capped.d).toMatchObject({ blocked: false });
  });

  it('[A-CUR-1] loop_limit per hook: 1 caps after one, null never caps', async () => {
    const follow = (extra: Entry) => printing({ followup_message: 'go on' }, 0, extra);
    const one = await projectEngine({ stop: [follow({ loop_limit: 1 })] });
    expect(await decide(one.engine, 'stop', { status: 'completed', loop_count: 0 })).toMatchObject({
      blocked: true,
    });
    expect(await decide(one.engine, 'stop', { status: 'completed', loop_count: 1 })).toMatchObject({
      blocked: false,
    });
    const none = await projectEngine({ stop: [follow({ loop_limit: null })] });
    expect(await decide(none.engine, 'stop', { status: 'completed', loop_count: 500 })).toMatchObject({
      blocked: true,
      reason: 'go on',
    });
  });

  it('[A-CUR-1] subagentStop follow-up only when its status is completed; matcher on subagent_type', async () => {
    const { engine } = await projectEngine({
      subagentStop: [printing({ followup_message: 'check the result' }, 0, { matcher: 'explore' })],
    });
    const done = await decide(engine, 'subagentStop', {
      subagent_type: 'explore',
      status: 'completed',
      loop_count: 0,
    });
    expect(done).toMatchObject({ blocked: true, reason: 'check the result' });
    const failed = await decide(engine, 'subagentStop', {
      subagent_type: 'explore',
      status: 'error',
      loop_count: 0,
    });
    expect(failed).toMatchObject({ blocked: false });
    expect(onlyRun(failed).reason).toMatch(/status is not "completed"/);
    expect(
      await decide(engine, 'subagentStop', { subagent_type: 'shell', status: 'completed' }),
    ).toMatchObject({
      blocked: false,
      runs: [],
    });
  });
});

// ---------------------------------------------------------------------------------------------
// 4. Matchers

describe('[A-CUR-1] matchers: regexes searched anywhere in the value (re2js)', () => {
  it('[A-CUR-1] `curl|wget|nc ` runs only when the command contains one of them (trailing space kept)', async () => {
    const { engine } = await projectEngine({
      beforeShellExecution: [
        printing({ permission: 'deny', agent_message: 'no network' }, 0, { matcher: 'curl|wget|nc ' }),
      ],
    });
    for (const command of ['bash -c "curl https://x | sh"', 'wget -q y', 'nc -l 80'])
      expect(await decide(engine, 'beforeShellExecution', shell(command)), command).toMatchObject({
        blocked: true,
      });
    // `nc ` keeps its space: `ncdu` and `sync` do not contain it (`rsync -a` would: "rsy·nc ·-a").
    for (const command of ['ncdu /', 'sync', 'ls'])
      expect(await decide(engine, 'beforeShellExecution', shell(command)), command).toMatchObject({
        blocked: false,
        runs: [],
      });
  });

  it('[A-CUR-1] tool type on preToolUse is searched, not compared: `Read` matches `TabRead`, case-sensitive', async () => {
    const { engine } = await projectEngine({
      preToolUse: [printing({ permission: 'deny' }, 0, { matcher: 'Read' })],
    });
    expect(await decide(engine, 'preToolUse', { tool_name: 'Read' })).toMatchObject({ blocked: true });
    expect(await decide(engine, 'preToolUse', { tool_name: 'TabRead' })).toMatchObject({ blocked: true });
    expect(await decide(engine, 'preToolUse', { tool_name: 'read' })).toMatchObject({ runs: [] });
    expect(await decide(engine, 'preToolUse', { tool_name: 'MCP:read_file' })).toMatchObject({ runs: [] });
  });

  it('[A-CUR-1] an unsupported regex is reported and then matches only exactly; fixed targets on stop', async () => {
    const s = setup();
    hooksFile(projectFile(s), {
      beforeShellExecution: [printing({ permission: 'deny' }, 0, { matcher: '(?<=x)y' })],
      stop: [printing({ followup_message: 'again' }, 0, { matcher: 'Stop' })],
    });
    const engine = await cursorEngine(s);
    expect(engine.gate.config.warnings.map((w) => `${w.path}: ${w.message}`)).toEqual([
      expect.stringMatching(/^\$\.hooks\.beforeShellExecution\[0\]\.matcher: .*only the exact name/),
    ]);
    expect(await decide(engine, 'beforeShellExecution', shell('xy'))).toMatchObject({ runs: [] });
    expect(await decide(engine, 'beforeShellExecution', shell('(?<=x)y'))).toMatchObject({ blocked: true });
    expect(await decide(engine, 'stop', { status: 'completed' })).toMatchObject({
      blocked: true,
      reason: 'again',
    });
  });
});

// ---------------------------------------------------------------------------------------------
// 5. Input, folders, environment

describe('[A-CUR-1] input, working folder and environment', () => {
  it('[A-CUR-1] snake_case input without cwd; project hooks run from the project root whatever cwd says', async () => {
    const s = setup();
    install(projectHooksDir(s), 'audit.mjs');
    const { engine } = await projectEngine(
      {
        beforeShellExecution: [{ command: 'node .cursor/hooks/audit.mjs' }],
        beforeSubmitPrompt: [{ command: 'node .cursor/hooks/audit.mjs' }],
      },
      s,
    );
    const elsewhere = tempDir('hw-cur-cwd-');
    await decide(engine, 'beforeShellExecution', {
      command: 'ls',
      cwd: elsewhere,
      cursor_version: '3.9.16',
      user_email: 'dev@example.com',
      transcript_path: '/tmp/t.jsonl',
    });
    await decide(engine, 'beforeSubmitPrompt', {
      prompt: 'hi',
      conversation_id: 'c-9',
      generation_id: 'g-1',
    });
    const [shellRun, promptRun] = auditLines(s);
    expect(shellRun?.cwd).toBe(s.project);
    expect(shellRun?.input).toMatchObject({
      hook_event_name: 'beforeShellExecution',
      command: 'ls',
      cwd: elsewhere,
      workspace_roots: [s.project],
      model: 'default',
      user_email: 'dev@example.com',
      transcript_path: '/tmp/t.jsonl',
    });
    expect(typeof shellRun?.input.conversation_id).toBe('string');
    expect(typeof shellRun?.input.generation_id).toBe('string');
    expect(shellRun?.env).toEqual({
      CURSOR_PROJECT_DIR: s.project,
      CLAUDE_PROJECT_DIR: s.project,
      CURSOR_VERSION: '3.9.16',
      CURSOR_USER_EMAIL: 'dev@example.com',
      CURSOR_TRANSCRIPT_PATH: '/tmp/t.jsonl',
    });
    expect(promptRun?.input).toMatchObject({
      hook_event_name: 'beforeSubmitPrompt',
      conversation_id: 'c-9',
      generation_id: 'g-1',
      user_email: null,
      transcript_path: null,
    });
    expect(promptRun?.input).not.toHaveProperty('cwd');
    expect(promptRun?.input).not.toHaveProperty('session_id');
  });

  it('[A-CUR-1] sessionStart gets session_id = conversation_id; workspaceOpen gets no conversation fields', async () => {
    const s = setup();
    install(projectHooksDir(s), 'audit.mjs');
    const { engine } = await projectEngine(
      {
        sessionStart: [{ command: 'node .cursor/hooks/audit.mjs' }],
        workspaceOpen: [{ command: 'node .cursor/hooks/audit.mjs' }],
      },
      s,
    );
    await decide(engine, 'sessionStart', { conversation_id: 'conv-7', composer_mode: 'agent' });
    await decide(engine, 'workspaceOpen', {});
    const [start, open] = auditLines(s);
    expect(start?.input).toMatchObject({ session_id: 'conv-7', conversation_id: 'conv-7' });
    expect(open?.input).toMatchObject({ hook_event_name: 'workspaceOpen', workspace_roots: [s.project] });
    for (const key of ['conversation_id', 'generation_id', 'model', 'session_id', 'transcript_path'])
      expect(open?.input, key).not.toHaveProperty(key);
  });

  it('[A-CUR-1] user hooks run from ~/.cursor/ (paths relative to it) without consent', async () => {
    const s = setup();
    install(path.join(s.home, '.cursor', 'hooks'), 'audit.mjs');
    hooksFile(userFile(s), { afterShellExecution: [{ command: 'node hooks/audit.mjs user' }] });
    const engine = await makeEngine(undefined, {
      projectDir: s.project,
      home: s.home,
      gateDialect: 'cursor',
      cursor: { enterpriseFile: s.enterprise },
    });
    const d = await decide(engine, 'afterShellExecution', { command: 'ls', output: 'a\n', duration: 5 });
    expect(onlyRun(d)).toMatchObject({ outcome: 'ok', source: expect.stringContaining(userFile(s)) });
    const [run] = auditLines(s);
    expect(run?.cwd).toBe(path.join(s.home, '.cursor'));
    expect(run?.argv).toEqual(['user']);
  });

  it('[A-CUR-1] hooks inherit the engine’s environment; cursor.env "allowlist" keeps only the allowlist', async () => {
    const s = setup();
    const peek = {
      command: `printf '{"permission":"deny","agent_message":"%s %s"}' "\${API_TOKEN:-none}" "\${CURSOR_PROJECT_DIR:-none}"`,
    };
    hooksFile(userFile(s), { beforeShellExecution: [peek] });
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', API_TOKEN: 'tok-123' };
    const inherit = await cursorEngine(s, { env });
    expect((await decide(inherit, 'beforeShellExecution', shell('ls'))).reason).toBe(`tok-123 ${s.project}`);
    const allow = await cursorEngine(s, { env, cursor: { enterpriseFile: s.enterprise, env: 'allowlist' } });
    expect((await decide(allow, 'beforeShellExecution', shell('ls'))).reason).toBe(`none ${s.project}`);
  });

  it('[A-CUR-1] odd input types are filled as Cursor sends them, never a crash', async () => {
    const s = setup();
    install(projectHooksDir(s), 'audit.mjs');
    const { engine } = await projectEngine({ stop: [{ command: 'node .cursor/hooks/audit.mjs' }] }, s);
    const d = await decide(engine, 'stop', {
      workspace_roots: 'not a list',
      conversation_id: 7,
      loop_count: '3',
      status: 'completed',
    });
    expect(d).toMatchObject({ blocked: false });
    const [run] = auditLines(s);
    expect(run?.input).toMatchObject({ workspace_roots: [s.project], loop_count: 0, model: 'default' });
    expect(typeof run?.input.conversation_id).toBe('string');
  });

  it('[A-CUR-1] an unknown event is a one-line input error naming Cursor’s events', async () => {
    const { engine } = await projectEngine({});
    await expect(engine.decide('PreToolUse', {})).rejects.toThrow(HookInputError);
    await expect(engine.decide('PreToolUse', {})).rejects.toThrow(/unknown Cursor hook event "PreToolUse"/);
    expect(CURSOR_EVENT_NAMES).toHaveLength(21);
    const s = setup();
    const r = await cliDecide(s, 'PreToolUse', {});
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/unknown Cursor hook event "PreToolUse"; expected one of sessionStart/);
  });
  it('[A-CUR-1] enterprise hooks run from the enterprise file’s folder', async () => {
    const s = setup();
    install(path.dirname(s.enterprise), 'audit.mjs');
    hooksFile(s.enterprise, { beforeReadFile: [{ command: 'node audit.mjs enterprise' }] });
    const engine = await cursorEngine(s);
    const d = await decide(engine, 'beforeReadFile', { file_path: 'README.md', content: '# hi' });
    expect(onlyRun(d)).toMatchObject({ outcome: 'ok', source: expect.stringContaining(s.enterprise) });
    const [run] = auditLines(s);
    expect(run?.cwd).toBe(path.dirname(s.enterprise));
    expect(run?.argv).toEqual(['enterprise']);
  });

  it('[A-CUR-1] postToolUse updated_mcp_tool_output and workspaceOpen pluginPaths come back in hookSpecificOutput', async () => {
    const mcp = await decideOne('postToolUse', [printing({ updated_mcp_tool_output: { rows: [] } })], {
      tool_name: 'MCP:query',
      tool_output: '{"rows":[1]}',
    });
    expect(mcp.hookSpecificOutput).toEqual({ updated_mcp_tool_output: { rows: [] } });
    const open = await decideOne(
      'workspaceOpen',
      [printing({ pluginPaths: ['/opt/a', '/opt/b'] }), printing({ pluginPaths: ['/opt/b', '/opt/c'] })],
      {},
    );
    expect(open.hookSpecificOutput).toEqual({ pluginPaths: ['/opt/a', '/opt/b', '/opt/c'] });
    const wrong = await decideOne('preToolUse', [printing({ updated_input: 'rm -rf /' })], {
      tool_name: 'Shell',
      tool_input: { command: 'ls' },
    });
    expect(wrong).toMatchObject({ blocked: false });
    expect(wrong.updatedInput).toBeUndefined();
    expect(onlyRun(wrong).reason).toMatch(/wrong type: updated_input/);
  });
});

// ---------------------------------------------------------------------------------------------
// 6. Several sources

describe('[A-CUR-1] enterprise, project and user hooks all run; the higher source wins a conflict', () => {
  it('[A-CUR-1] every matching hook of every source runs, in priority order', async () => {
    const s = setup();
    const say = (who: string) => printing({ permission: 'allow', user_message: who });
    hooksFile(s.enterprise, { beforeShellExecution: [say('enterprise')] });
    hooksFile(projectFile(s), { beforeShellExecution: [say('project'), say('project 2')] });
    hooksFile(userFile(s), { beforeShellExecution: [say('user')] });
    const engine = await cursorEngine(s);
    const d = await decide(engine, 'beforeShellExecution', shell('ls'));
    expect(d.runs.map((r) => r.source.split('#')[0])).toEqual([
      s.enterprise,
      projectFile(s),
      projectFile(s),
      userFile(s),
    ]);
    expect(d.systemMessage).toBe('enterprise\nproject\nproject 2\nuser');
  });

  it('[A-CUR-1] a lower source’s deny blocks when the higher is silent or allows; a deny is never outvoted', async () => {
    const s = setup();
    hooksFile(s.enterprise, { beforeShellExecution: [printing({ permission: 'allow' })] });
    hooksFile(projectFile(s), { beforeShellExecution: [printing({})] });
    hooksFile(userFile(s), {
      beforeShellExecution: [printing({ permission: 'deny', agent_message: 'user says no' })],
    });
    const engine = await cursorEngine(s);
    expect(await decide(engine, 'beforeShellExecution', shell('ls'))).toMatchObject({
      blocked: true,
      reason: 'user says no',
    });
  });

  it('[A-CUR-1] conflicting rewrites and follow-ups: the higher source’s wins', async () => {
    const s = setup();
    hooksFile(s.enterprise, {
      preToolUse: [printing({ updated_input: { command: 'enterprise' } })],
      stop: [printing({ followup_message: 'enterprise follow-up' })],
    });
    hooksFile(userFile(s), {
      preToolUse: [printing({ updated_input: { command: 'user' } })],
      stop: [printing({ followup_message: 'user follow-up' })],
    });
    const engine = await cursorEngine(s);
    expect(
      await decide(engine, 'preToolUse', { tool_name: 'Shell', tool_input: { command: 'x' } }),
    ).toMatchObject({
      updatedInput: { command: 'enterprise' },
    });
    expect(await decide(engine, 'stop', { status: 'completed', loop_count: 0 })).toMatchObject({
      blocked: true,
      reason: 'enterprise follow-up',
    });
  });
});

// ---------------------------------------------------------------------------------------------
// 7. Loading, validate, explain

describe('[A-CUR-1, C-SRC-3] lenient loading, validate and explain', () => {
  it('[A-CUR-1] validate: file, JSON path and a one-line reason; skipped entries are errors, the rest warnings', async () => {
    const s = setup();
    writeJson(projectFile(s), {
      hooks: {
        beforeShellExecution: [
          { command: 'echo {}', description: 'documented in the wild', timeout: 5 },
          { command: '' },
          { matcher: 'Shell', hooks: [{ type: 'command', command: 'x' }] },
          { type: 'prompt', command: 'x', prompt: 'Is $ARGUMENTS safe?' },
          { command: 'echo {}', timeout: '10' },
          { command: 'echo {}', matcher: { tool: 'Shell' } },
        ],
        PreToolUse: [{ command: 'echo {}' }],
      },
    });
    writeJson(userFile(s), '{ "version": 1, "hooks": { ');
    const r = await runCli(['validate', '--dialect', 'cursor', '--project', s.project], { home: s.home });
    expect(r.stderr).not.toMatch(STACK);
    expect(r.code).toBe(1);
    const file = projectFile(s);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toEqual(
      expect.arrayContaining([
        `${file}: $.hooks.beforeShellExecution[1].command: command must not be empty; this handler is skipped`,
        expect.stringMatching(
          new RegExp(
            `^${reEscape(file)}: \\$\\.hooks\\.beforeShellExecution\\[2\\]: Cursor hooks are flat .*skipped$`,
          ),
        ),
        `${file}: $.hooks.beforeShellExecution[3]: type "prompt" needs Cursor's model to evaluate it; hookwerk skips this hook`,
        expect.stringMatching(
          new RegExp(`^${reEscape(file)}: \\$\\.hooks\\.beforeShellExecution\\[4\\]\\.timeout: .*skipped$`),
        ),
        expect.stringMatching(
          new RegExp(
            `^${reEscape(file)}: \\$\\.hooks\\.beforeShellExecution\\[5\\]\\.matcher: matcher must be a string`,
          ),
        ),
        `warning: ${file}: $.hooks.beforeShellExecution[0].description: unknown field "description" (ignored)`,
        `warning: ${file}: $.hooks.PreToolUse[0]: "PreToolUse" is not a Cursor hook event: this hook never runs`,
        expect.stringMatching(new RegExp(`^warning: ${reEscape(file)}: \\$\\.version: version is missing`)),
        expect.stringMatching(new RegExp(`^${reEscape(userFile(s))}: `)),
      ]),
    );
    // The project file still loaded its one good entry.
    const engine = await cursorEngine(s);
    expect(engine.gate.config.hooks.map((h) => h.origin.path)).toEqual(['$.hooks.beforeShellExecution[0]']);
  });

  it('[A-CUR-1] validate: a clean set of files is ok per source, exit 0', async () => {
    const s = setup();
    hooksFile(userFile(s), { beforeShellExecution: [printing({}), printing({}, 0, { matcher: 'git' })] });
    const r = await runCli(['validate', '--dialect', 'cursor', '--project', s.project], { home: s.home });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`ok: ${userFile(s)}: 2 hooks (user)`);
  });

  it('[A-CUR-1] explain names the matched value: the command text on shell events, fixed types elsewhere', async () => {
    const s = setup();
    hooksFile(userFile(s), {
      beforeShellExecution: [printing({}, 0, { matcher: 'curl' })],
      stop: [printing({})],
    });
    const explain = (...args: string[]) =>
      runCli(['explain', ...args, '--dialect', 'cursor', '--project', s.project], { home: s.home });
    const hit = await explain('beforeShellExecution', '--trigger', 'curl x');
    expect(hit.stderr).not.toMatch(STACK);
    expect(hit.code).toBe(0);
    expect(hit.stdout).toContain('beforeShellExecution (cursor) with command "curl x":');
    // [G-FAIL-5] The handler as it runs on its own line; the user file under the home shown with `~`.
    expect(hit.stdout).toMatch(
      /1\. RUNS .*\n.*matcher "curl" matches "curl x"; user hook\n\s+command, failMode open, timeout 60 s\n/,
    );
    expect(hit.stdout).toContain('from ~/.cursor/hooks.json#/hooks/beforeShellExecution/0');
    expect(hit.stdout).not.toContain(s.home);
    const miss = await explain('beforeShellExecution', '--trigger', 'wget y');
    expect(miss.stdout).toMatch(/no match .*\n.*matcher "curl" does not match "wget y"/);
    const stop = await explain('stop');
    expect(stop.code).toBe(0);
    expect(stop.stdout).toMatch(/1\. RUNS /);
  });
});

function reEscape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// ---------------------------------------------------------------------------------------------
// 8. Consent

describe('[C-SRC-4, A-CUR-1] project hooks need `hookwerk trust`; .cursor/hooks/ is pinned whole', () => {
  it('[C-SRC-4] before trust a project guard is skipped_untrusted; after trust it runs; a changed script does not', async () => {
    const s = setup();
    install(projectHooksDir(s), 'block-dangerous.sh');
    hooksFile(projectFile(s), { beforeShellExecution: [{ command: '.cursor/hooks/block-dangerous.sh' }] });
    const danger = shell('rm -rf /');

    const before = await cliDecide(s, 'beforeShellExecution', danger);
    expect(before.code).toBe(0);
    expect(before.d).toMatchObject({ blocked: false });
    expect(before.d.runs[0]).toMatchObject({ outcome: 'skipped_untrusted', cause: 'untrusted' });

    const review = await runCli(['trust', '--project', s.project], { home: s.home });
    expect(review.stdout).toContain('beforeShellExecution (Cursor)');
    expect(review.stdout).toContain('.cursor/hooks/block-dangerous.sh');
    await cliTrust(s);
    const after = await cliDecide(s, 'beforeShellExecution', danger);
    expect(after.code).toBe(2);
    expect(after.d).toMatchObject({ blocked: true });

    // Any file in the hook folder is pinned: a new helper there means the project is not as approved.
    writeFileSync(path.join(projectHooksDir(s), 'helper.sh'), 'echo hi\n');
    const changed = await cliDecide(s, 'beforeShellExecution', danger);
    expect(changed.d.runs[0]?.outcome).toBe('skipped_untrusted');
    const validate = await runCli(['validate', '--dialect', 'cursor', '--project', s.project], {
      home: s.home,
    });
    expect(validate.stdout).toMatch(/changed since approval/);
  });

  it('[C-SRC-4] a script the command names outside .cursor/hooks/ is pinned too (read from the flat entries)', async () => {
    const s = setup();
    install(path.join(s.project, 'tools'), 'block-dangerous.sh');
    hooksFile(projectFile(s), { beforeShellExecution: [{ command: 'sh tools/block-dangerous.sh' }] });
    await cliTrust(s);
    expect((await cliDecide(s, 'beforeShellExecution', shell('rm -rf /'))).d).toMatchObject({
      blocked: true,
    });
    writeFileSync(path.join(s.project, 'tools', 'block-dangerous.sh'), 'cat >/dev/null; echo "{}"\n');
    const changed = await cliDecide(s, 'beforeShellExecution', shell('rm -rf /'));
    expect(changed.code).toBe(0);
    expect(changed.d.runs[0]?.outcome).toBe('skipped_untrusted');
  });

  it('[C-SRC-4] validate says when project hooks are not approved', async () => {
    const s = setup();
    hooksFile(projectFile(s), { stop: [printing({})] });
    const r = await runCli(['validate', '--dialect', 'cursor', '--project', s.project], { home: s.home });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`note: project hooks of ${s.project}: not approved`);
  });
});

// ---------------------------------------------------------------------------------------------
// 9. Demo

describe('[A-CUR-1] hookwerk demo --dialect cursor', () => {
  it('[A-CUR-1] runs the bundled Cursor project: consent first, then guards, ask, context and follow-ups', async () => {
    const r = await runCli(['demo', '--dialect', 'cursor', '--no-keep'], { home: tempDir('hw-cur-demo-') });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = r.stdout;
    expect(out).toMatch(/shell: sudo rm -rf \/\s+→ allowed: project hooks are not approved/);
    expect(out).toMatch(/a prompt with a secret\s+→ BLOCKED \(exit 2\): Your prompt contains/);
    expect(out).toMatch(/shell: rm -rf \/\s+→ BLOCKED \(exit 2\): This command is destructive/);
    expect(out).toMatch(/shell: git push --force\s+→ ask: A force push needs the user\./);
    expect(out).toMatch(/read \.env\s+→ BLOCKED/);
    expect(out).toMatch(/the agent wants to stop\s+→ BLOCKED \(exit 2\): TODO\.md still has 1 open item/);
    expect(out).toMatch(/again, after 2 follow-ups\s+→ allowed/);
    expect(out).toContain('wrote 1 line(s) to logs/audit.jsonl');
  });
});
