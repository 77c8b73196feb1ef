/**
 * Issue 28, the ralph-wiggum regression: [L-TRUST-8] as amended. A hook that keeps a log or a
 * state file beside its pinned code keeps its answer; a pinned file or folder replaced, renamed
 * away or edited during the run, or new code dropped into a folder pinned whole, still voids it;
 * and no discarded answer ever turns a guard's deny into an allow. Real `/bin/sh` hooks, temp
 * projects and HOMEs, approvals in the real trust store, the engine and (for Cursor) the CLI from
 * dist/. Hooks that wait for one another wait for a file, never for the clock.
 */
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are shell command lines; `${VAR}` is shell syntax.
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { approveProject } from '../src/consent/project-consent.ts';
import { readGateProject } from '../src/dialects/surfaces/gate-project.ts';
import type { AgentDecision } from '../src/dispatch/agent-answer.ts';
import type { Decision } from '../src/dispatch/gate-sequential.ts';
import type { HookEngine, HookEngineOptions } from '../src/engine-api.ts';
import { REPO, runCli, STACK } from './cli-runner.ts';
import { makeEngine } from './engine-harness.ts';
import { tempDir, writeScript } from './helpers.ts';

interface Env {
  project: string;
  home: string;
}

function newEnv(): Env {
  return { project: realpathSync(tempDir('hw-beside-')), home: realpathSync(tempDir('hw-beside-home-')) };
}

function writeJson(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

/** Approves the project as it is now, as `hookwerk trust --yes` does. */
function approve(e: Env): void {
  const read = readGateProject(e.project, e.home);
  approveProject({ home: e.home, surface: read.surface, projectTexts: read.texts });
}

/** An engine over the approved project, with the real trust store under the temp HOME. */
function engineFor(e: Env, gateDialect: 'claude' | 'copilot' | 'lurus', extra: HookEngineOptions = {}) {
  return makeEngine(undefined, { projectDir: e.project, home: e.home, gateDialect, ...extra });
}

async function decide(
  engine: HookEngine,
  event: string,
  input: Record<string, unknown>,
): Promise<AgentDecision> {
  const d = await engine.decide(event, input);
  if (!('continue' in d)) throw new Error('a Lurus decision from an agent-dialect engine');
  return d;
}

/** `.claude/settings.json` with `hooks` under `event` (matcher `Bash` on the tool events). */
function claudeHooks(e: Env, event: string, hooks: Array<Record<string, unknown>>): void {
  const group = event === 'PreToolUse' ? { matcher: 'Bash', hooks } : { hooks };
  writeJson(path.join(e.project, '.claude', 'settings.json'), { hooks: { [event]: [group] } });
}

const cmd = (command: string, extra: Record<string, unknown> = {}) => ({
  type: 'command',
  command,
  ...extra,
});
const BASH = (command: string, cwd: string) => ({ tool_name: 'Bash', tool_input: { command }, cwd });
/** Runs the hook script at `rel` by the absolute path every folder names alike. */
const script = (rel: string) => `sh "$CLAUDE_PROJECT_DIR"/${rel}`;

beforeAll(() => {
  if (!existsSync(path.join(REPO, 'dist', 'cli', 'main.js'))) {
    throw new Error('dist/ is missing: run `npm run build` before the CLI tests');
  }
});

// ---------------------------------------------------------------------------------------------
// 1. Before: every folder between the project and the pinned code was compared by its times, so a
// file made in `.claude/` (ralph-wiggum's loop state) or `.cursor/` (an audit log) discarded every
// answer of the decide as `changed_during_run`.

describe('[L-TRUST-8] a hook that writes beside its pinned code keeps its answer', () => {
  it('[L-TRUST-8] ralph-wiggum: a Stop hook that writes .claude/ralph-loop.local.md and a log under .claude/hooks/logs/ and answers block: the block stands, run after run', async () => {
    const e = newEnv();
    // As the plugin's stop hook does: the loop state in `.claude/`, replaced atomically once it exists.
    writeScript(
      e.project,
      '.claude/hooks/stop-hook.sh',
      [
        'cd "$CLAUDE_PROJECT_DIR"',
        'state=.claude/ralph-loop.local.md',
        'if [ -f "$state" ]; then',
        '  n=$(sed -n "s/^iteration: //p" "$state"); n=$((n + 1))',
        '  sed "s/^iteration: .*/iteration: $n/" "$state" > "$state.tmp.$$" && mv "$state.tmp.$$" "$state"',
        'else',
        '  n=1; printf "iteration: 1\\nprompt: fix the tests\\n" > "$state"',
        'fi',
        'mkdir -p .claude/hooks/logs && echo "iteration $n" >> .claude/hooks/logs/ralph.log',
        `printf '{"decision":"block","reason":"fix the tests (iteration %s)"}\\n' "$n"`,
      ].join('\n'),
    );
    claudeHooks(e, 'Stop', [cmd(script('.claude/hooks/stop-hook.sh'))]);
    approve(e);
    const engine = await engineFor(e, 'claude');
    for (const n of [1, 2]) {
      const d = await decide(engine, 'Stop', { stop_hook_active: n > 1 });
      expect(d.runs[0]?.cause, JSON.stringify(d.runs[0])).toBeUndefined();
      expect(d).toMatchObject({ blocked: true, reason: `fix the tests (iteration ${n})` });
    }
    const state = readFileSync(path.join(e.project, '.claude', 'ralph-loop.local.md'), 'utf8');
    expect(state).toContain('iteration: 2');
    expect(readFileSync(path.join(e.project, '.claude/hooks/logs/ralph.log'), 'utf8')).toBe(
      'iteration 1\niteration 2\n',
    );
  });

  it("[L-TRUST-8] Cursor's docs example through `hookwerk decide --dialect cursor`: the audit hook appends to .cursor/audit.log, the guard beside it denies `git push origin main` — the deny stands", async () => {
    const e = newEnv();
    writeScript(
      e.project,
      '.cursor/hooks/audit.sh',
      'cat > /dev/null\necho "$(date) shell" >> .cursor/audit.log',
    );
    writeScript(
      e.project,
      '.cursor/hooks/block-git.sh',
      [
        'input=$(cat)',
        'case "$input" in',
        `  *"git push origin main"*) echo '{"permission":"deny","user_message":"no push to main","agent_message":"pushing to main is not allowed"}' ;;`,
        `  *) echo '{"permission":"allow"}' ;;`,
        'esac',
      ].join('\n'),
    );
    writeJson(path.join(e.project, '.cursor', 'hooks.json'), {
      version: 1,
      hooks: {
        beforeShellExecution: [
          { command: '.cursor/hooks/audit.sh' },
          { command: '.cursor/hooks/block-git.sh' },
        ],
      },
    });
    const trust = await runCli(['trust', '--yes'], { cwd: e.project, home: e.home });
    expect(trust.code, trust.stdout + trust.stderr).toBe(0);
    const r = await runCli(['decide', '--dialect', 'cursor', 'beforeShellExecution'], {
      cwd: e.project,
      home: e.home,
      stdin: { text: JSON.stringify({ command: 'git push origin main', cwd: e.project }) },
    });
    expect(r.stderr).not.toMatch(STACK);
    expect(r.code, r.stdout + r.stderr).toBe(2);
    const d = JSON.parse(r.stdout) as AgentDecision;
    expect(d).toMatchObject({ decision: 'deny', blocked: true, reason: 'pushing to main is not allowed' });
    expect(d.runs.map((run) => run.cause)).toEqual([undefined, undefined]);
    expect(readFileSync(path.join(e.project, '.cursor', 'audit.log'), 'utf8').split('\n')).toHaveLength(2);
  });
  it('[L-TRUST-8] [L-TRUST-11] the review and explain agree with decide: a new log in a hook folder is listed as voiding nothing; a deleted pinned file there is a change', async () => {
    const e = newEnv();
    writeScript(e.project, '.claude/hooks/guard.sh', 'echo "guard says no" >&2; exit 2');
    writeFileSync(path.join(e.project, '.claude', 'hooks', 'rules.txt'), 'rules\n');
    claudeHooks(e, 'PreToolUse', [cmd(script('.claude/hooks/guard.sh'))]);
    approve(e);
    writeFileSync(path.join(e.project, '.claude', 'hooks', 'run.log'), 'ran\n');
    const cli = (...args: string[]) => runCli(args, { cwd: e.project, home: e.home });
    const review = await cli('trust');
    expect(review.stdout).toContain(
      '.claude/hooks/run.log (new; cannot run as code, so it voids nothing; approving pins it)',
    );
    const runs = await cli('explain', 'PreToolUse', '--dialect', 'claude', '--tool', 'Bash');
    expect(runs.stdout).toMatch(/RUNS/);
    expect(runs.stdout).not.toMatch(/changed_since_approval/);

    rmSync(path.join(e.project, '.claude', 'hooks', 'rules.txt'));
    const after = await cli('trust');
    expect(after.stdout).toContain('.claude/hooks/rules.txt (deleted)');
    const refused = await cli('explain', 'PreToolUse', '--dialect', 'claude', '--tool', 'Bash');
    expect(refused.stdout).toMatch(/changed_since_approval/);
    const d = await decide(await engineFor(e, 'claude'), 'PreToolUse', BASH('ls', e.project));
    expect(d.runs[0]).toMatchObject({ outcome: 'skipped_untrusted', cause: 'changed_since_approval' });
  });
});

// ---------------------------------------------------------------------------------------------
// 2. What still voids a run: the amended check is of what the approval pins.

describe('[L-TRUST-8] a pinned file or folder changed during the run, or new code, still voids the answer', () => {
  it('[L-TRUST-8] a pinned script edited during its run: a closed guard denies (changed_during_run), naming the script', async () => {
    const e = newEnv();
    const guard = writeScript(e.project, '.claude/hooks/guard.sh', 'echo "# edited" >> "$0"; exit 0');
    claudeHooks(e, 'PreToolUse', [cmd(script('.claude/hooks/guard.sh'), { failMode: 'closed' })]);
    approve(e);
    const d = await decide(await engineFor(e, 'claude'), 'PreToolUse', BASH('ls', e.project));
    expect(d.runs[0]).toMatchObject({ outcome: 'deny', cause: 'changed_during_run' });
    expect(d.runs[0]?.reason).toContain(guard);
    expect(d.blocked).toBe(true);
  });

  it('[L-TRUST-8] a pinned folder renamed away and back during the run is seen, though the hook also writes its state file beside it', async () => {
    const e = newEnv();
    writeScript(e.project, '.claude/hooks/lib/rules.sh', 'RULE=deny');
    writeScript(
      e.project,
      '.claude/hooks/guard.sh',
      [
        'cd "$CLAUDE_PROJECT_DIR"',
        'mv .claude/hooks/lib .claude/lib-away && mv .claude/lib-away .claude/hooks/lib',
        'echo ran > .claude/guard-state.local.md',
        'exit 0',
      ].join('\n'),
    );
    claudeHooks(e, 'PreToolUse', [cmd(script('.claude/hooks/guard.sh'), { failMode: 'closed' })]);
    approve(e);
    const d = await decide(await engineFor(e, 'claude'), 'PreToolUse', BASH('ls', e.project));
    expect(d.runs[0]).toMatchObject({ outcome: 'deny', cause: 'changed_during_run' });
    expect(d.runs[0]?.reason).toContain(path.join(e.project, '.claude', 'hooks', 'lib'));
  });

  it('[L-TRUST-8] a new executable .sh (or a .py) dropped into a folder pinned whole during the run voids it, and the approval after it; a log does not', async () => {
    const e = newEnv();
    const dropped = path.join(e.project, '.claude', 'hooks', 'dropped.sh');
    writeScript(
      e.project,
      '.claude/hooks/guard.sh',
      [
        'cd "$CLAUDE_PROJECT_DIR"/.claude/hooks',
        'echo ran >> guard.log',
        'echo "exit 0" > dropped.sh && chmod 755 dropped.sh',
        'exit 0',
      ].join('\n'),
    );
    claudeHooks(e, 'PreToolUse', [cmd(script('.claude/hooks/guard.sh'))]);
    approve(e);
    const engine = await engineFor(e, 'claude');
    const d = await decide(engine, 'PreToolUse', BASH('ls', e.project));
    expect(d.runs[0]).toMatchObject({ outcome: 'skipped_untrusted', cause: 'changed_during_run' });
    expect(d.runs[0]?.reason).toContain(dropped);
    const next = await decide(engine, 'PreToolUse', BASH('ls', e.project));
    expect(next.runs[0]).toMatchObject({ outcome: 'skipped_untrusted', cause: 'changed_since_approval' });
    expect(next.runs[0]?.reason).toContain(dropped);

    // A plain file with an extension an interpreter loads counts the same, without an executable bit.
    const py = newEnv();
    writeScript(
      py.project,
      '.claude/hooks/guard.sh',
      'cd "$CLAUDE_PROJECT_DIR"/.claude/hooks; echo "x = 1" > helper.py; exit 0',
    );
    claudeHooks(py, 'PreToolUse', [cmd(script('.claude/hooks/guard.sh'))]);
    approve(py);
    const p = await decide(await engineFor(py, 'claude'), 'PreToolUse', BASH('ls', py.project));
    expect(p.runs[0]).toMatchObject({ outcome: 'skipped_untrusted', cause: 'changed_during_run' });
    expect(p.runs[0]?.reason).toContain(path.join(py.project, '.claude', 'hooks', 'helper.py'));
  });
  it('[L-TRUST-8] a log made executable during the run, and code in a hook folder that did not exist when the run was checked, void it too', async () => {
    const e = newEnv();
    writeScript(
      e.project,
      '.claude/hooks/guard.sh',
      'chmod +x "$CLAUDE_PROJECT_DIR"/.claude/hooks/notes.log; exit 0',
    );
    claudeHooks(e, 'PreToolUse', [cmd(script('.claude/hooks/guard.sh'))]);
    approve(e);
    // Made after the approval: not pinned, and no code until the run makes it executable.
    const log = path.join(e.project, '.claude', 'hooks', 'notes.log');
    writeFileSync(log, 'a note\n');
    const d = await decide(await engineFor(e, 'claude'), 'PreToolUse', BASH('ls', e.project));
    expect(d.runs[0]).toMatchObject({ outcome: 'skipped_untrusted', cause: 'changed_during_run' });
    expect(d.runs[0]?.reason).toContain(log);

    // `.lurus/` (a hook folder of the same approval) is made during the run, with a script in it.
    const fresh = newEnv();
    writeScript(
      fresh.project,
      '.claude/hooks/guard.sh',
      'mkdir -p "$CLAUDE_PROJECT_DIR"/.lurus/hooks && echo "exit 0" > "$CLAUDE_PROJECT_DIR"/.lurus/hooks/new.sh; exit 0',
    );
    claudeHooks(fresh, 'PreToolUse', [cmd(script('.claude/hooks/guard.sh'))]);
    approve(fresh);
    const f = await decide(await engineFor(fresh, 'claude'), 'PreToolUse', BASH('ls', fresh.project));
    expect(f.runs[0]).toMatchObject({ outcome: 'skipped_untrusted', cause: 'changed_during_run' });
    expect(f.runs[0]?.reason).toContain(path.join(fresh.project, '.lurus', 'hooks', 'new.sh'));
  });
});

// ---------------------------------------------------------------------------------------------
// 3. Before: the hooks of one decide shared one watch, taken before the first of them ran, and a
// discarded answer of an open hook was a skip — so one hook's change turned a sibling guard's deny
// into an allow, and in a chain a hook was judged by what the hooks before it did.

describe('[L-TRUST-8] no discarded answer turns a deny into an allow', () => {
  it('[L-TRUST-8] parallel: a sibling changes a pinned file while the guard runs; the guard (failMode open) denied, so the decision still denies (changed_during_run)', async () => {
    const e = newEnv();
    const mark = path.join(e.project, 'edited.mark');
    writeScript(e.project, '.claude/hooks/rules.txt', 'rules');
    writeScript(
      e.project,
      '.claude/hooks/editor.sh',
      `echo more >> "$CLAUDE_PROJECT_DIR"/.claude/hooks/rules.txt; touch '${mark}'`,
    );
    // The guard ends only once the edit is made: its run surely spans it.
    writeScript(
      e.project,
      '.claude/hooks/guard.sh',
      `while [ ! -e '${mark}' ]; do sleep 0.01; done; echo "guard says no" >&2; exit 2`,
    );
    claudeHooks(e, 'PreToolUse', [
      cmd(script('.claude/hooks/editor.sh')),
      cmd(script('.claude/hooks/guard.sh')),
    ]);
    approve(e);
    const d = await decide(
      await engineFor(e, 'claude'),
      'PreToolUse',
      BASH('git push origin main', e.project),
    );
    expect(d.blocked, JSON.stringify(d.runs)).toBe(true);
    expect(d.runs[1]).toMatchObject({ outcome: 'deny', cause: 'changed_during_run' });
    // The discarded run's own words are not passed on: the reason is the refusal's.
    expect(d.reason).toContain('changed while the hook ran');
  });

  it('[L-TRUST-8] Lurus: an open guard whose run changed a pinned file and denied still denies', async () => {
    const e = newEnv();
    writeScript(e.project, '.lurus/hooks/rules.txt', 'rules');
    writeScript(
      e.project,
      '.lurus/hooks/guard.sh',
      'echo more >> "$(dirname "$0")"/rules.txt; echo no >&2; exit 2',
    );
    writeJson(path.join(e.project, '.lurus', 'hooks.json'), {
      PreToolUse: [{ hooks: [cmd('sh .lurus/hooks/guard.sh')] }],
    });
    approve(e);
    const d: Decision | AgentDecision = await (await engineFor(e, 'lurus')).decide('PreToolUse', {
      toolName: 'Bash',
    });
    expect(d).toMatchObject({ decision: 'deny', blocked: true });
    expect(d.runs[0]).toMatchObject({ outcome: 'deny', cause: 'changed_during_run' });
  });

  it('[L-TRUST-8] in order (Copilot): a hook that touched a pinned file before the guard started does not void the guard: each hook is watched from its own check', async () => {
    const e = newEnv();
    writeScript(e.project, '.github/hooks/rules.txt', 'rules');
    const entry = (bash: string) => ({ type: 'command', bash });
    writeJson(path.join(e.project, '.github', 'hooks', 'guard.json'), {
      version: 1,
      hooks: {
        preToolUse: [
          // Same content, new times: the pin holds, but the first run's watch sees it move.
          entry('touch .github/hooks/rules.txt'),
          entry(`echo '{"permissionDecision":"deny","permissionDecisionReason":"guard says no"}'`),
        ],
      },
    });
    approve(e);
    const engine = await engineFor(e, 'copilot', {
      copilot: { copilotHome: path.join(e.home, '.copilot'), policyDir: tempDir('hw-beside-policy-') },
    });
    const d = await decide(engine, 'preToolUse', { toolName: 'bash', toolArgs: { command: 'ls' } });
    expect(d.runs.map((r) => r.cause)).toEqual(['changed_during_run', undefined]);
    expect(d).toMatchObject({ blocked: true, reason: 'guard says no' });
  });
});
