/**
 * Cursor's "Third-party imports" end to end [A-CUR-1, A-ALL-1; C-SRC-4]: the Claude Code files
 * Cursor reads (`.claude/settings.local.json`, `.claude/settings.json`, `~/.claude/settings.json`)
 * and the Claude hook scripts of test/fixtures/cursor-claude/ run unchanged under
 * `--dialect cursor`, with Cursor's event and tool maps and either answer format, as real
 * processes in temp projects with a temp `~`; a handler both a Cursor and a Claude file name runs once.
 */
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { NOT_JSON_BLOCKED } from '../src/dialects/cursor/answer.ts';
import type { AgentDecision } from '../src/dispatch/agent-answer.ts';
import type { HookEngine } from '../src/engine-api.ts';
import { REPO, runCli, STACK } from './cli-runner.ts';
import { cursorEngine, installScripts } from './cursor-harness.ts';
import { tempDir } from './helpers.ts';
import { trustInProcess } from './trust-in-process.ts';

const FIXTURES = path.join(REPO, 'test', 'fixtures', 'cursor-claude');

type Input = Record<string, unknown>;
type Handler = Record<string, unknown>;

interface Setup {
  project: string;
  home: string;
  enterprise: string;
}

function setup(): Setup {
  return {
    project: tempDir('hw-cc-'),
    home: tempDir('hw-cc-home-'),
    enterprise: path.join(tempDir('hw-cc-etc-'), 'hooks.json'),
  };
}

const claudeProject = (s: Setup) => path.join(s.project, '.claude', 'settings.json');
const claudeLocal = (s: Setup) => path.join(s.project, '.claude', 'settings.local.json');
const claudeUser = (s: Setup) => path.join(s.home, '.claude', 'settings.json');
const cursorProject = (s: Setup) => path.join(s.project, '.cursor', 'hooks.json');
const cursorUser = (s: Setup) => path.join(s.home, '.cursor', 'hooks.json');

function writeJson(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

/** A Claude Code settings file: `{hooks: {EVENT: [{matcher?, hooks: [HANDLER…]}]}}`. */
function claudeFile(file: string, hooks: Record<string, Array<{ matcher?: string; hooks: Handler[] }>>) {
  writeJson(file, { hooks });
}

const cmd = (command: string, extra: Handler = {}): Handler => ({ type: 'command', command, ...extra });

/** Copies fixture scripts into `<project>/.claude/hooks/` (executable), as a user installs them. */
function install(s: Setup, ...names: string[]): void {
  installScripts(FIXTURES, path.join(s.project, '.claude', 'hooks'), names);
}

async function decide(engine: HookEngine, event: string, input: Input = {}): Promise<AgentDecision> {
  return (await engine.decide(event, input)) as AgentDecision;
}

const tool = (tool_name: string, tool_input: Input): Input => ({ tool_name, tool_input });

async function cliDecide(s: Setup, event: string, input: Input) {
  const r = await runCli(['decide', event, '--dialect', 'cursor', '--project', s.project], {
    home: s.home,
    stdin: { text: JSON.stringify(input) },
  });
  expect(r.stderr).not.toMatch(STACK);
  return { code: r.code, stderr: r.stderr, d: JSON.parse(r.stdout) as AgentDecision };
}

/**
 * The approval in this process, where approving is set-up and not what is tested (a CLI start is
 * ~0.4 s of CPU); the consent cases approve through the real `hookwerk trust --yes`.
 */
async function trustHere(s: Setup): Promise<void> {
  expect((await trustInProcess(s.project, s.home)).stderr).toBe('');
}

const logLines = (s: Setup, name: string) =>
  existsSync(path.join(s.project, 'logs', name))
    ? readFileSync(path.join(s.project, 'logs', name), 'utf8')
        .trim()
        .split('\n')
    : [];

// ---------------------------------------------------------------------------------------------
// 1. Events, tools, answers

describe('[A-CUR-1] Claude Code hook files run under Cursor (Third-party imports, on by default)', () => {
  it('[A-CUR-1] a Claude PreToolUse "Bash" guard runs on preToolUse Shell; its nested deny is Cursor\'s permission deny', async () => {
    const s = setup();
    install(s, 'guard-bash.mjs');
    claudeFile(claudeProject(s), {
      PreToolUse: [
        { matcher: 'Bash', hooks: [cmd('node "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard-bash.mjs')] },
      ],
    });
    await trustHere(s);
    const r = await cliDecide(s, 'preToolUse', tool('Shell', { command: 'rm -rf /' }));
    expect(r.code).toBe(2);
    expect(r.d).toMatchObject({
      blocked: true,
      decision: 'deny',
      reason: 'Destructive command blocked: rm -rf /',
      // permissionDecisionReason → user_message, which Cursor also shows the user.
      systemMessage: 'Destructive command blocked: rm -rf /',
      permission: { behavior: 'deny', message: 'Destructive command blocked: rm -rf /' },
    });
    expect(r.d.runs).toHaveLength(1);
    expect(r.d.runs[0]?.source).toBe(`${claudeProject(s)}#/hooks/PreToolUse/0/hooks/0`);
  });

  it("[A-CUR-1] the guard's silent allow path blocks on preToolUse: Claude hooks run under Cursor's stricter stdout rule (ruflo#2613)", async () => {
    const s = setup();
    install(s, 'guard-bash.mjs');
    claudeFile(claudeProject(s), {
      PreToolUse: [{ matcher: 'Bash', hooks: [cmd('node .claude/hooks/guard-bash.mjs')] }],
    });
    const engine = await cursorEngine(s);
    const ls = await decide(engine, 'preToolUse', tool('Shell', { command: 'ls' }));
    expect(ls).toMatchObject({ blocked: true, reason: NOT_JSON_BLOCKED });
    // A tool the matcher does not name never runs the guard: nothing to block.
    const read = await decide(engine, 'preToolUse', tool('Read', { file_path: 'a.txt' }));
    expect(read).toMatchObject({ blocked: false, runs: [] });
  });

  it('[A-CUR-1] text that is not JSON on preToolUse blocks; on postToolUse it is a failed hook that lets the action stand', async () => {
    const s = setup();
    claudeFile(claudeProject(s), {
      PreToolUse: [{ matcher: '*', hooks: [cmd("cat >/dev/null; echo 'checking command...'")] }],
      PostToolUse: [{ matcher: '*', hooks: [cmd("cat >/dev/null; echo 'done'")] }],
    });
    const engine = await cursorEngine(s);
    expect(await decide(engine, 'preToolUse', tool('Grep', { pattern: 'x' }))).toMatchObject({
      blocked: true,
      reason: NOT_JSON_BLOCKED,
    });
    const post = await decide(engine, 'postToolUse', tool('Grep', { pattern: 'x' }));
    expect(post.blocked).toBe(false);
    expect(post.runs[0]).toMatchObject({ cause: 'invalid_answer' });
  });

  it('[A-CUR-1] Edit→Write: a Claude "Write|Edit" .env guard (exit 2, stderr) refuses a Cursor Write; a Glob matcher never runs', async () => {
    const s = setup();
    install(s, 'protect-env.sh');
    claudeFile(claudeProject(s), {
      PreToolUse: [
        { matcher: 'Edit', hooks: [cmd('.claude/hooks/protect-env.sh')] },
        { matcher: 'Glob', hooks: [cmd('cat >/dev/null; echo \'{"permission":"deny"}\'')] },
      ],
    });
    const engine = await cursorEngine(s);
    const env = await decide(engine, 'preToolUse', tool('Write', { file_path: `${s.project}/.env` }));
    expect(env).toMatchObject({ blocked: true, reason: 'Blocked: .env files are protected' });
    expect(env.runs).toHaveLength(1);
    const ok = await decide(engine, 'preToolUse', tool('Write', { file_path: `${s.project}/a.ts` }));
    expect(ok).toMatchObject({ blocked: false });
    expect(ok.runs).toHaveLength(1);
  });

  it('[A-CUR-1] a Claude PostToolUse "Edit|MultiEdit" formatter runs on a Cursor Write; its additionalContext reaches the model', async () => {
    const s = setup();
    install(s, 'format-on-edit.sh');
    claudeFile(claudeProject(s), {
      PostToolUse: [{ matcher: 'Edit|MultiEdit', hooks: [cmd('.claude/hooks/format-on-edit.sh')] }],
    });
    const engine = await cursorEngine(s);
    const d = await decide(engine, 'postToolUse', tool('Write', { file_path: 'src/a.ts' }));
    expect(d).toMatchObject({ blocked: false, additionalContext: 'formatted src/a.ts' });
    expect(logLines(s, 'formatted.log')).toEqual(['src/a.ts']);
    await decide(engine, 'postToolUse', tool('Shell', { command: 'ls' }));
    expect(logLines(s, 'formatted.log')).toEqual(['src/a.ts']);
  });

  it("[A-CUR-1] hookSpecificOutput.updatedInput is the rewrite; a Cursor file's updated_input wins (higher priority)", async () => {
    const s = setup();
    const rewrite = (command: string) =>
      `cat >/dev/null; printf '%s' '${JSON.stringify({
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'allow',
          updatedInput: { command },
        },
      })}'`;
    claudeFile(claudeProject(s), {
      PreToolUse: [{ matcher: 'Bash', hooks: [cmd(rewrite('npm test -- --ci'))] }],
    });
    const engine = await cursorEngine(s);
    expect(await decide(engine, 'preToolUse', tool('Shell', { command: 'npm test' }))).toMatchObject({
      blocked: false,
      updatedInput: { command: 'npm test -- --ci' },
      permission: { behavior: 'allow' },
    });
    writeJson(cursorProject(s), {
      version: 1,
      hooks: {
        preToolUse: [
          {
            command: `cat >/dev/null; echo '{"permission":"allow","updated_input":{"command":"npm test -- --silent"}}'`,
          },
        ],
      },
    });
    const both = await cursorEngine(s);
    const d = await decide(both, 'preToolUse', tool('Shell', { command: 'npm test' }));
    expect(d.updatedInput).toEqual({ command: 'npm test -- --silent' });
    expect(d.runs.map((r) => r.source.split('#')[0])).toEqual([cursorProject(s), claudeProject(s)]);
  });

  it("[A-CUR-1] Cursor's own fields from a Claude file are read too (both formats accepted)", async () => {
    const s = setup();
    claudeFile(claudeUser(s), {
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [cmd(`cat >/dev/null; echo '{"permission":"deny","agent_message":"no shell today"}'`)],
        },
      ],
    });
    const d = await decide(await cursorEngine(s), 'preToolUse', tool('Shell', { command: 'ls' }));
    expect(d).toMatchObject({ blocked: true, reason: 'no shell today' });
  });

  it('[A-CUR-1] a Claude Stop hook (decision "block" + reason) is a follow-up, with no loop_limit cap; a native hook stops at 5', async () => {
    const s = setup();
    install(s, 'keep-going.sh');
    claudeFile(claudeProject(s), { Stop: [{ hooks: [cmd('.claude/hooks/keep-going.sh')] }] });
    const engine = await cursorEngine(s);
    await trustHere(s);
    const r = await cliDecide(s, 'stop', { status: 'completed', loop_count: 12 });
    expect(r.code).toBe(2);
    expect(r.d).toMatchObject({ blocked: true, reason: 'Tests are failing: run npm test and fix them' });
    // The same answer from a native hook is capped by the default loop_limit of 5.
    writeJson(cursorUser(s), {
      version: 1,
      hooks: { stop: [{ command: `cat >/dev/null; echo '{"followup_message":"native says go on"}'` }] },
    });
    const both = await cursorEngine(s);
    const d = await decide(both, 'stop', { status: 'completed', loop_count: 12 });
    expect(d).toMatchObject({ blocked: true, reason: 'Tests are failing: run npm test and fix them' });
    expect(d.runs[0]?.reason).toMatch(/loop_limit reached/);
    expect(engine.gate.config.hooks).toHaveLength(1);
  });

  it('[A-CUR-1] SubagentStop: a nested decision "block" + reason is a follow-up on subagentStop (status completed)', async () => {
    const s = setup();
    claudeFile(claudeProject(s), {
      SubagentStop: [
        {
          hooks: [
            cmd(
              `cat >/dev/null; echo '{"hookSpecificOutput":{"decision":"block","reason":"review the diff first"}}'`,
            ),
          ],
        },
      ],
    });
    const engine = await cursorEngine(s);
    expect(
      await decide(engine, 'subagentStop', { subagent_type: 'generalPurpose', status: 'completed' }),
    ).toMatchObject({ blocked: true, reason: 'review the diff first' });
    expect(
      await decide(engine, 'subagentStop', { subagent_type: 'generalPurpose', status: 'error' }),
    ).toMatchObject({ blocked: false });
  });

  it('[A-CUR-1] UserPromptSubmit → beforeSubmitPrompt: a secret scanner (exit 2) refuses the prompt; a flat decision "block" too', async () => {
    const s = setup();
    install(s, 'secret-scan.sh');
    claudeFile(claudeLocal(s), { UserPromptSubmit: [{ hooks: [cmd('.claude/hooks/secret-scan.sh')] }] });
    await trustHere(s);
    const secret = await cliDecide(s, 'beforeSubmitPrompt', {
      prompt: 'deploy with sk-abcdefghijklmnopqrstuvwx',
    });
    expect(secret.code).toBe(2);
    expect(secret.d).toMatchObject({
      blocked: true,
      reason: 'Prompt refused: it contains what looks like an API key',
    });
    const fine = await cliDecide(s, 'beforeSubmitPrompt', { prompt: 'fix the bug' });
    expect(fine.code).toBe(0);
    expect(fine.d.blocked).toBe(false);

    claudeFile(claudeLocal(s), {
      UserPromptSubmit: [
        { hooks: [cmd(`cat >/dev/null; echo '{"decision":"block","reason":"no prompts on Friday"}'`)] },
      ],
    });
    expect(await decide(await cursorEngine(s), 'beforeSubmitPrompt', { prompt: 'x' })).toMatchObject({
      blocked: true,
      reason: 'no prompts on Friday',
    });
  });

  it('[A-CUR-1] a Claude `if` rule meets Cursor\'s tool types: "Bash(rm *)" runs on Shell rm, not on Shell ls', async () => {
    const s = setup();
    claudeFile(claudeProject(s), {
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            cmd(`cat >/dev/null; echo '{"permission":"deny","user_message":"rm needs a human"}'`, {
              if: 'Bash(rm *)',
            }),
          ],
        },
      ],
    });
    const engine = await cursorEngine(s);
    expect(await decide(engine, 'preToolUse', tool('Shell', { command: 'rm a.txt' }))).toMatchObject({
      blocked: true,
      reason: 'rm needs a human',
    });
    expect(await decide(engine, 'preToolUse', tool('Shell', { command: 'ls' }))).toMatchObject({
      blocked: false,
      runs: [],
    });
  });

  it('[A-CUR-1] SessionStart → sessionStart (its additionalContext reaches the model), SessionEnd and PreCompact run on theirs', async () => {
    const s = setup();
    install(s, 'audit.sh');
    claudeFile(claudeProject(s), {
      SessionStart: [
        {
          matcher: 'startup',
          hooks: [
            cmd(
              `cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"branch: main"}}'`,
            ),
          ],
        },
      ],
      SessionEnd: [{ hooks: [cmd('.claude/hooks/audit.sh')] }],
      PreCompact: [{ matcher: 'auto', hooks: [cmd('.claude/hooks/audit.sh')] }],
    });
    const engine = await cursorEngine(s);
    expect(await decide(engine, 'sessionStart', { composer_mode: 'agent' })).toMatchObject({
      blocked: false,
      additionalContext: 'branch: main',
    });
    await decide(engine, 'preCompact', { trigger: 'auto' });
    await decide(engine, 'sessionEnd', { reason: 'completed' });
    expect(logLines(s, 'audit.jsonl').map((l) => JSON.parse(l).hook_event_name)).toEqual([
      'preCompact',
      'sessionEnd',
    ]);
  });

  it('[A-CUR-1] `cursor.claudeFiles: false` and nothing else turns the Claude files off', async () => {
    const s = setup();
    claudeFile(claudeUser(s), {
      Stop: [{ hooks: [cmd(`cat >/dev/null; echo '{"decision":"block","reason":"go on"}'`)] }],
    });
    expect((await cursorEngine(s)).gate.config.hooks).toHaveLength(1);
    const off = await cursorEngine(s, { cursor: { enterpriseFile: s.enterprise, claudeFiles: false } });
    expect(off.gate.config.hooks).toHaveLength(0);
    expect(off.gate.config.sources.map((x) => x.file)).not.toContain(claudeUser(s));
    expect(await decide(off, 'stop', { status: 'completed' })).toMatchObject({ blocked: false, runs: [] });
  });
});

// ---------------------------------------------------------------------------------------------
// 2. Loading and validate

describe('[A-CUR-1, C-SRC-3] the Claude files in validate and explain', () => {
  it('[A-CUR-1] validate lists the Claude sources below the Cursor ones; Notification, PermissionRequest and unmapped events are warnings', async () => {
    const s = setup();
    writeJson(cursorUser(s), { version: 1, hooks: { stop: [{ command: 'echo {}' }] } });
    claudeFile(claudeUser(s), {
      PreToolUse: [{ matcher: 'Bash', hooks: [cmd('echo {}')] }],
      Notification: [{ hooks: [cmd('notify-send hi')] }],
      PermissionRequest: [{ hooks: [cmd('echo {}')] }],
      PostToolUseFailure: [{ hooks: [cmd('echo {}')] }],
      Stop: [{ hooks: [{ type: 'http', url: 'https://example.com/hook' }, cmd('')] }],
    });
    const r = await runCli(['validate', '--dialect', 'cursor', '--project', s.project], { home: s.home });
    expect(r.stderr).not.toMatch(STACK);
    const file = claudeUser(s);
    expect(r.stderr.trim().split('\n')).toEqual(
      expect.arrayContaining([
        `warning: ${file}: $.hooks.Notification[0].hooks[0]: Cursor does not support Claude's "Notification" hooks: this hook never runs in Cursor`,
        `warning: ${file}: $.hooks.PermissionRequest[0].hooks[0]: Cursor does not support Claude's "PermissionRequest" hooks: this hook never runs in Cursor`,
        `warning: ${file}: $.hooks.PostToolUseFailure[0].hooks[0]: Cursor maps no event onto Claude's "PostToolUseFailure": this hook never runs in Cursor`,
        `${file}: $.hooks.Stop[0].hooks[0].type: Cursor runs command hooks only; this http hook is skipped`,
        `${file}: $.hooks.Stop[0].hooks[1].command: command must not be empty; this handler is skipped`,
      ]),
    );
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`ok: ${cursorUser(s)}: 1 hooks (user)`);
    // A file with skipped handlers is not "ok"; its good handler still runs, below the Cursor file's.
    expect(r.stdout).not.toContain(`ok: ${file}`);
    const engine = await cursorEngine(s);
    expect(engine.gate.config.hooks.map((h) => [h.event, h.origin.path])).toEqual([
      ['stop', '$.hooks.stop[0]'],
      ['preToolUse', '$.hooks.PreToolUse[0].hooks[0]'],
    ]);
  });

  it('[A-CUR-1] a Claude settings file that is not JSON is skipped whole; the Cursor files still run', async () => {
    const s = setup();
    mkdirSync(path.dirname(claudeProject(s)), { recursive: true });
    writeFileSync(claudeProject(s), '{ "hooks": ');
    writeJson(cursorUser(s), {
      version: 1,
      hooks: {
        preToolUse: [
          { command: `cat >/dev/null; echo '{"permission":"deny","agent_message":"cursor guard"}'` },
        ],
      },
    });
    const engine = await cursorEngine(s);
    expect(engine.gate.config.issues).toEqual([expect.objectContaining({ file: claudeProject(s) })]);
    expect(await decide(engine, 'preToolUse', tool('Shell', { command: 'ls' }))).toMatchObject({
      blocked: true,
      reason: 'cursor guard',
    });
  });

  it('[A-CUR-1] explain with a Claude tool matcher: "Bash" matches the Cursor tool type Shell', async () => {
    const s = setup();
    claudeFile(claudeUser(s), { PreToolUse: [{ matcher: 'Bash', hooks: [cmd('echo {}')] }] });
    const explain = (name: string) =>
      runCli(['explain', 'preToolUse', '--tool', name, '--dialect', 'cursor', '--project', s.project], {
        home: s.home,
      });
    const shell = await explain('Shell');
    expect(shell.stderr).not.toMatch(STACK);
    expect(shell.stdout).toMatch(/1\. RUNS .*\n.*matcher "Bash" matches "Shell"/);
    const read = await explain('Read');
    expect(read.stdout).toMatch(/matcher "Bash" does not match "Read"/);
  });
});

// ---------------------------------------------------------------------------------------------
// 3. [A-ALL-1] once

describe('[A-ALL-1] a handler a Cursor file and a Claude file both name runs once', () => {
  it('[A-ALL-1] a tool installed into .cursor/hooks.json and .claude/settings.json (the double-firing report) runs once; explain names the winner', async () => {
    const s = setup();
    install(s, 'audit.sh');
    const line = '.claude/hooks/audit.sh';
    writeJson(cursorProject(s), {
      version: 1,
      hooks: { preToolUse: [{ command: line }], stop: [{ command: line }] },
    });
    claudeFile(claudeProject(s), {
      PreToolUse: [{ matcher: '*', hooks: [cmd(line)] }],
      Stop: [{ hooks: [cmd(line)] }],
    });
    await trustHere(s);
    const r = await cliDecide(s, 'preToolUse', tool('Shell', { command: 'ls' }));
    expect(r.code).toBe(0);
    expect(r.d.runs).toHaveLength(1);
    expect(r.d.runs[0]?.source).toBe(`${cursorProject(s)}#/hooks/preToolUse/0`);
    expect(logLines(s, 'audit.jsonl')).toHaveLength(1);
    await cliDecide(s, 'stop', { status: 'completed' });
    expect(logLines(s, 'audit.jsonl')).toHaveLength(2);

    const explain = await runCli(
      ['explain', 'preToolUse', '--tool', 'Shell', '--dialect', 'cursor', '--project', s.project],
      { home: s.home },
    );
    expect(explain.stderr).not.toMatch(STACK);
    expect(explain.code).toBe(0);
    expect(explain.stdout).toMatch(/1\. RUNS /);
    expect(explain.stdout).toContain(
      `the same handler as ${cursorProject(s)}#/hooks/preToolUse/0, which wins: it runs once [C-RUN-2, A-ALL-1]`,
    );
  });

  it('[A-ALL-1] user-level installs too: ~/.cursor/hooks.json and ~/.claude/settings.json; exec-form args meet the shell line', async () => {
    const s = setup();
    const script = path.join(s.home, 'bin', 'audit.sh');
    mkdirSync(path.dirname(script), { recursive: true });
    copyFileSync(path.join(FIXTURES, 'audit.sh'), script);
    chmodSync(script, 0o755);
    writeJson(cursorUser(s), { version: 1, hooks: { postToolUse: [{ command: `sh ${script}` }] } });
    claudeFile(claudeUser(s), { PostToolUse: [{ hooks: [cmd('sh', { args: [script] })] }] });
    const engine = await cursorEngine(s);
    const d = await decide(engine, 'postToolUse', tool('Write', { file_path: 'a.ts' }));
    expect(d.runs).toHaveLength(1);
    expect(d.runs[0]?.source.split('#')[0]).toBe(cursorUser(s));
    expect(logLines(s, 'audit.jsonl')).toHaveLength(1);
  });

  it('[A-ALL-1] different commands both run; the same command on another event is not folded', async () => {
    const s = setup();
    install(s, 'audit.sh');
    writeJson(cursorProject(s), {
      version: 1,
      hooks: { postToolUse: [{ command: '.claude/hooks/audit.sh' }] },
    });
    claudeFile(claudeProject(s), {
      PreToolUse: [{ hooks: [cmd('.claude/hooks/audit.sh')] }],
      PostToolUse: [{ hooks: [cmd('sh .claude/hooks/audit.sh')] }],
    });
    const engine = await cursorEngine(s);
    expect((await decide(engine, 'postToolUse', tool('Write', { file_path: 'a' }))).runs).toHaveLength(2);
    expect((await decide(engine, 'preToolUse', tool('Write', { file_path: 'a' }))).runs).toHaveLength(1);
    expect(logLines(s, 'audit.jsonl')).toHaveLength(3);
  });
});

// ---------------------------------------------------------------------------------------------
// 4. Consent

describe('[C-SRC-4, A-CUR-1] the Claude project files need `hookwerk trust` under --dialect cursor', () => {
  it('[C-SRC-4] before trust a .claude/settings.json guard is skipped_untrusted; trust pins it and .claude/hooks/; a changed script does not run', async () => {
    const s = setup();
    install(s, 'protect-env.sh');
    claudeFile(claudeProject(s), {
      PreToolUse: [{ matcher: 'Write', hooks: [cmd('.claude/hooks/protect-env.sh')] }],
    });
    const write = tool('Write', { file_path: `${s.project}/.env` });
    const before = await cliDecide(s, 'preToolUse', write);
    expect(before.code).toBe(0);
    expect(before.d.runs[0]).toMatchObject({ outcome: 'skipped_untrusted', cause: 'untrusted' });
    const validate = await runCli(['validate', '--dialect', 'cursor', '--project', s.project], {
      home: s.home,
    });
    expect(validate.stdout).toContain(`note: project hooks of ${s.project}: not approved`);

    const review = await runCli(['trust', '--project', s.project], { home: s.home });
    expect(review.stderr).not.toMatch(STACK);
    expect(review.stdout).toContain('.claude/hooks/protect-env.sh');
    const trust = await runCli(['trust', '--yes', '--project', s.project], {
      home: s.home,
    });
    expect(trust.stderr).toBe('');
    expect(trust.code).toBe(0);
    const after = await cliDecide(s, 'preToolUse', write);
    expect(after.code).toBe(2);
    expect(after.d).toMatchObject({ blocked: true, reason: 'Blocked: .env files are protected' });

    writeFileSync(path.join(s.project, '.claude', 'hooks', 'protect-env.sh'), '#!/bin/sh\necho "{}"\n');
    const changed = await cliDecide(s, 'preToolUse', write);
    expect(changed.code).toBe(0);
    expect(changed.d.runs[0]?.outcome).toBe('skipped_untrusted');
  });

  it('[C-SRC-4] an edit to .claude/settings.local.json after trust waits for consent; ~/.claude/settings.json needs none', async () => {
    const s = setup();
    claudeFile(claudeUser(s), {
      Stop: [{ hooks: [cmd(`cat >/dev/null; echo '{"decision":"block","reason":"user says go on"}'`)] }],
    });
    const r = await cliDecide(s, 'stop', { status: 'completed' });
    expect(r.code).toBe(2);
    expect(r.d.reason).toBe('user says go on');

    claudeFile(claudeLocal(s), { PreToolUse: [{ hooks: [cmd(`cat >/dev/null; echo '{}'`)] }] });
    const trust = await runCli(['trust', '--yes', '--project', s.project], {
      home: s.home,
    });
    expect(trust.code).toBe(0);
    expect((await cliDecide(s, 'preToolUse', tool('Shell', { command: 'ls' }))).d.runs[0]?.outcome).not.toBe(
      'skipped_untrusted',
    );
    claudeFile(claudeLocal(s), {
      PreToolUse: [{ hooks: [cmd(`cat >/dev/null; echo '{"permission":"deny","user_message":"sneaky"}'`)] }],
    });
    const pending = await cliDecide(s, 'preToolUse', tool('Shell', { command: 'ls' }));
    expect(pending.d.blocked).toBe(false);
    expect(pending.d.runs[0]?.consent).toBe('newer_version_pending');
  });
});
