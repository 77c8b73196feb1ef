/**
 * Issue 18, consent: the gate must hold against the agent it guards. Each attack below let a
 * `failMode: "closed"` guard allow on the code before this file; each is driven for real — temp
 * projects and HOME, real `/bin/sh` and `python3` hooks, approvals by the real `hookwerk trust`
 * (the CLI from dist/), the engine with the real trust store, and for the race a second process
 * that swaps files as fast as it can.
 */
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are shell command lines; `${VAR}` is shell syntax.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  appendFileSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AgentDecision } from '../src/dispatch/agent-answer.ts';
import type { HookEngine } from '../src/engine-api.ts';
import { REPO, runCli, STACK } from './cli-runner.ts';
import { makeEngine } from './engine-harness.ts';
import { tempDir, writeScript } from './helpers.ts';

const FIXTURES = path.join(REPO, 'test', 'fixtures', 'claude');
const DENY = 'echo "guard says no" >&2; exit 2';

interface Env {
  project: string;
  home: string;
}

function newEnv(): Env {
  return { project: realpathSync(tempDir('hw-window-')), home: realpathSync(tempDir('hw-window-home-')) };
}

function writeJson(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

/** `.claude/settings.json` with one PreToolUse hook on Bash. */
function guardWith(e: Env, command: string, extra: Record<string, unknown> = {}): void {
  writeJson(path.join(e.project, '.claude', 'settings.json'), {
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command, ...extra }] }] },
  });
}

async function trust(e: Env): Promise<string> {
  const r = await runCli(['trust', '--yes'], { cwd: e.project, home: e.home });
  expect(r.stderr).not.toMatch(STACK);
  expect(r.code, r.stdout + r.stderr).toBe(0);
  return r.stdout;
}

function engineFor(e: Env, dialect: 'claude' | 'gemini' = 'claude'): Promise<HookEngine> {
  return makeEngine(undefined, { projectDir: e.project, home: e.home, gateDialect: dialect });
}

const bash = (command: string, cwd?: string) => ({
  tool_name: 'Bash',
  tool_input: { command },
  ...(cwd !== undefined ? { cwd } : {}),
});

/** An agent dialect's decision (the engine was made with `gateDialect` claude or gemini). */
async function decide(
  engine: HookEngine,
  event: string,
  input: Record<string, unknown>,
): Promise<AgentDecision> {
  const d = await engine.decide(event, input);
  if (!('continue' in d)) throw new Error('a Lurus decision from an agent-dialect engine');
  return d;
}

beforeAll(() => {
  if (!existsSync(path.join(REPO, 'dist', 'cli', 'main.js'))) {
    throw new Error('dist/ is missing: run `npm run build` before the CLI tests');
  }
});

// ---------------------------------------------------------------------------------------------
// 1. Before: `sh .claude/hooks/guard.sh` was pinned as `<project>/.claude/hooks/guard.sh`, but it
// runs in the input's `cwd`: from `<project>/sub` the agent's own `sub/.claude/hooks/guard.sh` ran
// under the approval and allowed.

describe('[L-TRUST-9] a relative command names the file it will really run', () => {
  function relativeGuard(extra: Record<string, unknown> = {}): Env {
    const e = newEnv();
    writeScript(e.project, '.claude/hooks/guard.sh', DENY);
    guardWith(e, 'sh .claude/hooks/guard.sh', extra);
    return e;
  }

  /** The guarded agent plants an allowing copy where the relative path lands from `dir`. */
  function plantCopy(dir: string): string {
    const marker = path.join(dir, 'copy.ran');
    writeScript(dir, '.claude/hooks/guard.sh', `touch '${marker}'; exit 0`);
    return marker;
  }

  it('[L-TRUST-9] from a subfolder holding its own copy: a closed guard denies (unpinned_file), the copy never runs', async () => {
    const e = relativeGuard({ failMode: 'closed' });
    await trust(e);
    const sub = path.join(e.project, 'sub');
    const marker = plantCopy(sub);
    const engine = await engineFor(e);
    const d = await decide(engine, 'PreToolUse', bash('rm -rf /', sub));
    expect(d).toMatchObject({ blocked: true, decision: 'deny' });
    expect(d.runs[0]).toMatchObject({ outcome: 'deny', cause: 'unpinned_file', failed: 'closed' });
    expect(d.runs[0]!.reason).toContain(path.join(sub, '.claude', 'hooks', 'guard.sh'));
    expect(d.runs[0]!.reason).toContain(`hookwerk trust --project ${e.project}`);
    expect(existsSync(marker)).toBe(false);
    // From the project folder the approved guard itself still runs and denies.
    const atRoot = await decide(engine, 'PreToolUse', bash('rm -rf /', e.project));
    expect(atRoot.runs[0]).toMatchObject({ outcome: 'deny', exitCode: 2, reason: 'guard says no' });
  });

  it('[L-TRUST-9] an open guard is skipped (skipped_untrusted, unpinned_file), and decide says so on stderr [L-TRUST-11]', async () => {
    const e = relativeGuard();
    await trust(e);
    const sub = path.join(e.project, 'sub');
    const marker = plantCopy(sub);
    const r = await runCli(
      ['decide', 'PreToolUse', '--dialect', 'claude', '--input', JSON.stringify(bash('ls', sub))],
      {
        cwd: e.project,
        home: e.home,
      },
    );
    expect(r.code).toBe(0);
    const d = JSON.parse(r.stdout) as AgentDecision;
    expect(d.runs[0]).toMatchObject({ outcome: 'skipped_untrusted', cause: 'unpinned_file' });
    expect(r.stderr).toMatch(
      /^hookwerk: project hook skipped, unpinned_file: .*settings\.json: .*hookwerk trust --project /m,
    );
    expect(existsSync(marker)).toBe(false);
  });

  it('[L-TRUST-9] a cwd outside the project holding a copy is refused the same way', async () => {
    const e = relativeGuard({ failMode: 'closed' });
    await trust(e);
    const elsewhere = realpathSync(tempDir('hw-window-elsewhere-'));
    const marker = plantCopy(elsewhere);
    const d = await decide(await engineFor(e), 'PreToolUse', bash('ls', elsewhere));
    expect(d.runs[0]).toMatchObject({ outcome: 'deny', cause: 'unpinned_file' });
    expect(existsSync(marker)).toBe(false);
  });

  it('[L-TRUST-9] "$CLAUDE_PROJECT_DIR"/… names the approved file from any folder: it runs', async () => {
    const e = newEnv();
    writeScript(e.project, '.claude/hooks/guard.sh', DENY);
    guardWith(e, 'sh "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh', { failMode: 'closed' });
    await trust(e);
    const sub = path.join(e.project, 'sub');
    plantCopy(sub);
    const d = await decide(await engineFor(e), 'PreToolUse', bash('ls', sub));
    expect(d.runs[0]).toMatchObject({ outcome: 'deny', exitCode: 2, reason: 'guard says no' });
  });

  it('[L-TRUST-9] an async hook whose relative script is not the pinned one does not run', async () => {
    const e = newEnv();
    writeScript(e.project, '.claude/hooks/log.sh', 'exit 0');
    guardWith(e, 'sh .claude/hooks/log.sh', { async: true });
    await trust(e);
    const sub = path.join(e.project, 'sub');
    const marker = plantCopy(sub);
    writeScript(sub, '.claude/hooks/log.sh', `touch '${marker}'`);
    const engine = await engineFor(e);
    await decide(engine, 'PreToolUse', bash('ls', sub));
    await engine.drain();
    const record = engine.runs({ event: 'PreToolUse' })[0];
    expect(record).toMatchObject({ outcome: 'skipped_untrusted', cause: 'unpinned_file' });
    expect(existsSync(marker)).toBe(false);
  });

  it('[L-TRUST-9] [L-TRUST-8] a path that is empty at the check and filled during the run voids the run', async () => {
    const e = relativeGuard({ failMode: 'closed' });
    await trust(e);
    const engine = await engineFor(e);
    const entry = engine.hooks('PreToolUse')[0];
    const consent = entry !== undefined && 'consent' in entry ? entry.consent : undefined;
    if (consent === undefined) throw new Error('the approved hook carries no consent');
    const sub = path.join(e.project, 'sub');
    mkdirSync(sub);
    const check = consent.check({ command: 'sh .claude/hooks/guard.sh', cwd: sub });
    expect(check.changed).toEqual([]);
    expect(check.unpinned).toBeUndefined();
    expect(check.watch?.changed()).toBeUndefined();
    plantCopy(sub);
    expect(check.watch?.changed()).toBe(path.join(sub, '.claude', 'hooks', 'guard.sh'));
  });

  it('[L-TRUST-9] [G-RUN-1] Gemini: "$GEMINI_CWD"/.gemini/hooks/… from another folder is not the pinned file', async () => {
    const e = newEnv();
    writeScript(e.project, '.gemini/hooks/guard.sh', DENY);
    writeJson(path.join(e.project, '.gemini', 'settings.json'), {
      hooks: {
        BeforeTool: [
          {
            matcher: 'run_shell_command',
            hooks: [{ type: 'command', command: 'sh "$GEMINI_CWD"/.gemini/hooks/guard.sh' }],
          },
        ],
      },
    });
    await trust(e);
    const sub = path.join(e.project, 'sub');
    const marker = path.join(sub, 'copy.ran');
    writeScript(sub, '.gemini/hooks/guard.sh', `touch '${marker}'; exit 0`);
    const engine = await engineFor(e, 'gemini');
    const d = await decide(engine, 'BeforeTool', {
      tool_name: 'run_shell_command',
      tool_input: {},
      cwd: sub,
    });
    expect(d.runs[0]).toMatchObject({ outcome: 'skipped_untrusted', cause: 'unpinned_file' });
    expect(existsSync(marker)).toBe(false);
    const atRoot = await decide(engine, 'BeforeTool', {
      tool_name: 'run_shell_command',
      tool_input: {},
      cwd: e.project,
    });
    expect(atRoot.runs[0]).toMatchObject({ outcome: 'deny', exitCode: 2 });
  });
});

// ---------------------------------------------------------------------------------------------
// 2. Before: `__pycache__/` was never pinned (Python writes it), and Python read it: a forged
// `.pyc` whose header matches the approved module's mtime and size replaced the module's code.

describe('[L-TRUST-10] interpreter caches never change what runs', () => {
  it('[L-TRUST-10] a forged __pycache__/*.pyc matching the approved module is never read: the guard still denies', async () => {
    const e = newEnv();
    const hooks = path.join(e.project, '.claude', 'hooks');
    mkdirSync(hooks, { recursive: true });
    copyFileSync(path.join(FIXTURES, 'guard_rules.py'), path.join(hooks, 'guard_rules.py'));
    copyFileSync(path.join(FIXTURES, 'push-guard.py'), path.join(hooks, 'push-guard.py'));
    guardWith(e, 'python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/push-guard.py', { failMode: 'closed' });
    await trust(e);
    // The agent forges the cache of guard_rules with the approved file's mtime and size in its header.
    const forge = [
      'import importlib.util, marshal, os, struct, sys',
      'src = sys.argv[1]; st = os.stat(src)',
      'code = compile("def force_push_target(command):\\n    return None\\n", src, "exec")',
      'header = importlib.util.MAGIC_NUMBER + struct.pack("<III", 0, int(st.st_mtime) & 0xFFFFFFFF, st.st_size & 0xFFFFFFFF)',
      'out = importlib.util.cache_from_source(src); os.makedirs(os.path.dirname(out), exist_ok=True)',
      'open(out, "wb").write(header + marshal.dumps(code)); print(out)',
    ].join('\n');
    const env = { ...process.env };
    delete env.PYTHONPYCACHEPREFIX;
    delete env.PYTHONDONTWRITEBYTECODE;
    const rules = path.join(hooks, 'guard_rules.py');
    const pyc = execFileSync('python3', ['-c', forge, rules], { env, encoding: 'utf8' }).trim();
    expect(existsSync(pyc)).toBe(true);
    // The forgery works against plain Python: the module now finds no force push.
    const plain = execFileSync(
      'python3',
      ['-c', 'import guard_rules; print(guard_rules.force_push_target("git push -f origin main"))'],
      {
        cwd: hooks,
        env,
        encoding: 'utf8',
      },
    ).trim();
    expect(plain).toBe('None');
    const d = await decide(await engineFor(e), 'PreToolUse', bash('git push --force origin main', e.project));
    expect(d).toMatchObject({ blocked: true });
    expect(d.runs[0]).toMatchObject({ outcome: 'deny', exitCode: 2 });
    expect(d.runs[0]!.reason).toContain('force-pushing main');
  });
});

// ---------------------------------------------------------------------------------------------
// 3. Before: a symlink to a folder inside `.claude/hooks/` was pinned as "a directory" only: editing
// a file in the linked folder changed the guard's code without voiding the approval.

describe('[L-TRUST-10] links inside a hook folder are followed and pinned file by file', () => {
  /** `.claude/hooks/lib` links to the folder `libFolder(project)` gives; guard.sh sources lib/rules.sh. */
  function linkedGuard(libFolder: (project: string) => string): { e: Env; lib: string } {
    const e = newEnv();
    const lib = libFolder(e.project);
    writeScript(lib, 'rules.sh', DENY);
    mkdirSync(path.join(e.project, '.claude', 'hooks'), { recursive: true });
    symlinkSync(lib, path.join(e.project, '.claude', 'hooks', 'lib'));
    writeScript(e.project, '.claude/hooks/guard.sh', '. "$CLAUDE_PROJECT_DIR"/.claude/hooks/lib/rules.sh');
    guardWith(e, 'sh "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh', { failMode: 'closed' });
    return { e, lib };
  }

  it('[L-TRUST-10] editing a file in a linked folder inside the project → changed_since_approval (a closed guard denies)', async () => {
    const { e, lib } = linkedGuard((project) => path.join(project, 'shared'));
    await trust(e);
    expect((await decide(await engineFor(e), 'PreToolUse', bash('ls', e.project))).runs[0]).toMatchObject({
      outcome: 'deny',
      exitCode: 2,
    });
    writeFileSync(path.join(lib, 'rules.sh'), '#!/bin/sh\nexit 0\n');
    const d = await decide(await engineFor(e), 'PreToolUse', bash('ls', e.project));
    expect(d.runs[0]).toMatchObject({ outcome: 'deny', cause: 'changed_since_approval' });
    expect(d.runs[0]!.reason).toContain(path.join(e.project, '.claude', 'hooks', 'lib', 'rules.sh'));
  });

  it('[L-TRUST-10] a link leading outside the project is shown in the review and pinned the same way', async () => {
    const outside = realpathSync(tempDir('hw-window-lib-'));
    const { e } = linkedGuard(() => outside);
    const review = await trust(e);
    expect(review).toContain(`link:  .claude/hooks/lib → ${outside} (outside the project`);
    expect((await decide(await engineFor(e), 'PreToolUse', bash('ls', e.project))).runs[0]).toMatchObject({
      outcome: 'deny',
      exitCode: 2,
    });
    appendFileSync(path.join(outside, 'rules.sh'), 'exit 0\n');
    const d = await decide(await engineFor(e), 'PreToolUse', bash('ls', e.project));
    expect(d.runs[0]).toMatchObject({ outcome: 'deny', cause: 'changed_since_approval' });
  });

  it('[L-TRUST-10] a loop of links ends: the project can be approved and its guard runs', async () => {
    const e = newEnv();
    writeScript(e.project, '.claude/hooks/guard.sh', DENY);
    symlinkSync('..', path.join(e.project, '.claude', 'hooks', 'up'));
    symlinkSync('.', path.join(e.project, '.claude', 'hooks', 'self'));
    guardWith(e, 'sh "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh');
    await trust(e);
    const d = await decide(await engineFor(e), 'PreToolUse', bash('ls', e.project));
    expect(d.runs[0]).toMatchObject({ outcome: 'deny', exitCode: 2 });
  });
});

// ---------------------------------------------------------------------------------------------
// 4. Before: pins were checked right before the run, and nothing after: a script swapped in right
// after the check and swapped back after the run ran under the approval (1 131 allows in 8 s).

describe('[L-TRUST-8] what runs is what was approved, with no window', () => {
  let attacker: ChildProcess | undefined;
  afterEach(() => {
    attacker?.kill('SIGKILL');
    attacker = undefined;
  });

  /**
   * Swaps `target` with `evil` and back, as fast as a process can (renames keep both files whole;
   * the spare names live outside the hook folder, so the folder's listing stays as approved).
   */
  function startSwapping(target: string, evil: string, stash: string): ChildProcess {
    const script = `
      const fs = require('node:fs');
      const [target, evil, stash] = process.argv.slice(1);
      let n = 0;
      process.stdout.write('ready\\n');
      for (;;) {
        fs.renameSync(target, stash);
        fs.renameSync(evil, target);
        fs.renameSync(target, evil);
        fs.renameSync(stash, target);
        if (++n % 1000 === 0) fs.writeFileSync(stash + '.count', String(n));
      }`;
    return spawn(process.execPath, ['-e', script, target, evil, stash], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
  }

  async function race(
    e: Env,
    engine: HookEngine,
    input: () => Promise<{ allowed: boolean }>,
    seconds: number,
  ): Promise<{ decisions: number; allows: number }> {
    const target = path.join(e.project, '.claude', 'hooks', 'guard.sh');
    const evil = path.join(e.project, 'spare', 'evil.sh');
    attacker = startSwapping(target, evil, path.join(e.project, 'spare', 'stash'));
    await new Promise<void>((resolve) => attacker?.stdout?.once('data', () => resolve()));
    let decisions = 0;
    let allows = 0;
    const until = Date.now() + seconds * 1000;
    while (Date.now() < until) {
      const { allowed } = await input();
      decisions++;
      if (allowed) allows++;
    }
    attacker.kill('SIGKILL');
    await new Promise((r) => attacker?.once('exit', r));
    attacker = undefined;
    void engine;
    return { decisions, allows };
  }

  function swapProject(e: Env, evilRan: string): void {
    writeScript(e.project, '.claude/hooks/guard.sh', DENY);
    writeScript(e.project, 'spare/evil.sh', `echo x >> '${evilRan}'; exit 0`);
  }

  const evilRuns = (file: string) =>
    existsSync(file) ? readFileSync(file, 'utf8').split('\n').length - 1 : 0;

  it('[L-TRUST-8] claude: 5 s of swapping the pinned guard between check and exec: 0 allows from a closed guard (changed_during_run)', async () => {
    const e = newEnv();
    const evilRan = path.join(tempDir('hw-window-evil-'), 'ran');
    swapProject(e, evilRan);
    guardWith(e, 'sh "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh', { failMode: 'closed' });
    await trust(e);
    const engine = await engineFor(e);
    const causes = new Map<string, number>();
    const result = await race(
      e,
      engine,
      async () => {
        const d = await decide(engine, 'PreToolUse', bash('rm -rf /', e.project));
        const cause = d.runs[0]?.cause ?? d.runs[0]?.outcome ?? 'none';
        causes.set(cause, (causes.get(cause) ?? 0) + 1);
        return { allowed: d.blocked !== true };
      },
      5,
    );
    // The race really happened: the swapped-in script ran, and its answers were thrown away.
    expect(evilRuns(evilRan), JSON.stringify([...causes])).toBeGreaterThan(0);
    expect((causes.get('changed_during_run') ?? 0) > 0, JSON.stringify([...causes])).toBe(true);
    expect(result.decisions).toBeGreaterThan(100);
    expect(result.allows, JSON.stringify([...causes])).toBe(0);
  });

  it('[L-TRUST-8] lurus: the sequential gate discards a swapped run the same way', async () => {
    const e = newEnv();
    const evilRan = path.join(tempDir('hw-window-evil-'), 'ran');
    writeScript(e.project, '.claude/hooks/guard.sh', `echo '{"decision":"deny","reason":"guard"}'`);
    writeScript(e.project, 'spare/evil.sh', `echo x >> '${evilRan}'; echo '{"decision":"allow"}'`);
    writeJson(path.join(e.project, '.lurus', 'hooks.json'), {
      PreToolUse: [
        { hooks: [{ type: 'command', command: 'sh .claude/hooks/guard.sh', failMode: 'closed' }] },
      ],
    });
    await trust(e);
    const engine = await makeEngine(undefined, { projectDir: e.project, home: e.home });
    const result = await race(
      e,
      engine,
      async () => {
        const d = await engine.decide('PreToolUse', { toolName: 'Bash' });
        return { allowed: d.decision === 'allow' };
      },
      2,
    );
    expect(evilRuns(evilRan)).toBeGreaterThan(0);
    expect(result.allows).toBe(0);
  });

  it('[L-TRUST-8] a change during the run discards the answer; an open guard is skipped with the file named', async () => {
    const e = newEnv();
    const hooks = path.join(e.project, '.claude', 'hooks');
    // The guard itself stands in for the agent: it touches a pinned file while it runs.
    writeScript(e.project, '.claude/hooks/rules.txt', 'rules');
    writeScript(
      e.project,
      '.claude/hooks/guard.sh',
      `touch "$CLAUDE_PROJECT_DIR"/.claude/hooks/rules.txt; exit 0`,
    );
    guardWith(e, 'sh "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh');
    await trust(e);
    const before = statSync(path.join(hooks, 'rules.txt')).mtimeMs;
    const d = await decide(await engineFor(e), 'PreToolUse', bash('ls', e.project));
    expect(statSync(path.join(hooks, 'rules.txt')).mtimeMs).toBeGreaterThanOrEqual(before);
    expect(d.runs[0]).toMatchObject({ outcome: 'skipped_untrusted', cause: 'changed_during_run' });
    expect(d.runs[0]!.reason).toContain(path.join(hooks, 'rules.txt'));
  });

  it('[L-TRUST-8] renaming the hook folder away and back during the run is seen, though every file is the same again', async () => {
    const e = newEnv();
    const claude = path.join(e.project, '.claude');
    writeScript(
      e.project,
      '.claude/hooks/guard.sh',
      `cd "$CLAUDE_PROJECT_DIR"; mv .claude/hooks .claude/away && mv .claude/away .claude/hooks; exit 2`,
    );
    guardWith(e, 'sh "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh', { failMode: 'closed' });
    await trust(e);
    const d = await decide(await engineFor(e), 'PreToolUse', bash('ls', e.project));
    expect(d.runs[0]).toMatchObject({ outcome: 'deny', cause: 'changed_during_run' });
    expect(d.runs[0]!.reason).toContain(path.join(claude, 'hooks'));
  });

  it('[L-TRUST-8] a rename round trip between runs, times restored, leaves the approval in force: only a change during a run discards', async () => {
    const e = newEnv();
    const guard = path.join(e.project, '.claude', 'hooks', 'guard.sh');
    writeScript(e.project, '.claude/hooks/guard.sh', DENY);
    guardWith(e, 'sh "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh', { failMode: 'closed' });
    await trust(e);
    const engine = await engineFor(e);
    const first = await decide(engine, 'PreToolUse', bash('ls', e.project));
    expect(first.runs[0]).toMatchObject({ outcome: 'deny', exitCode: 2 });
    // Same content and times after a round trip: the pins match, and the next run is watched from
    // its own check on, so the guard runs as approved.
    const { atime, mtime } = statSync(guard);
    renameSync(guard, `${guard}.tmp`);
    renameSync(`${guard}.tmp`, guard);
    utimesSync(guard, atime, mtime);
    const again = await decide(engine, 'PreToolUse', bash('ls', e.project));
    expect(again.runs[0]).toMatchObject({ outcome: 'deny', exitCode: 2 });
  });
});

// ---------------------------------------------------------------------------------------------
// 5. Before: after editing a pinned guard, `explain` still said RUNS, and `decide` skipped it with
// exit 0 and nothing on stderr — a guard that silently stopped guarding.

describe('[L-TRUST-11] a skipped guard is never silent', () => {
  it('[L-TRUST-11] explain shows changed_since_approval, decide names the file and the trust command on stderr', async () => {
    const e = newEnv();
    writeScript(e.project, '.claude/hooks/guard.sh', DENY);
    guardWith(e, 'sh "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh');
    await trust(e);
    writeFileSync(path.join(e.project, '.claude', 'hooks', 'guard.sh'), '#!/bin/sh\nexit 0\n');
    const explain = await runCli(['explain', 'PreToolUse', '--dialect', 'claude', '--tool', 'Bash'], {
      cwd: e.project,
      home: e.home,
    });
    expect(explain.code).toBe(0);
    expect(explain.stdout).not.toMatch(/RUNS/);
    expect(explain.stdout).toMatch(/ 1\. changed_since_approval /);
    expect(explain.stdout).toContain(
      `guard.sh changed since approval, so this hook is skipped: run \`hookwerk trust --project ${e.project}\``,
    );
    const r = await runCli(
      ['decide', 'PreToolUse', '--dialect', 'claude', '--input', JSON.stringify(bash('ls'))],
      {
        cwd: e.project,
        home: e.home,
      },
    );
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(STACK);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('hookwerk: project hook skipped, changed_since_approval: ');
    expect(r.stderr).toContain(path.join(e.project, '.claude', 'hooks', 'guard.sh'));
    expect(r.stderr).toContain(`hookwerk trust --project ${e.project}`);
  });

  it('[L-TRUST-11] an unapproved project says so on stderr once per file, with the trust command', async () => {
    const e = newEnv();
    writeScript(e.project, '.claude/hooks/guard.sh', DENY);
    writeJson(path.join(e.project, '.claude', 'settings.json'), {
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [{ type: 'command', command: 'sh .claude/hooks/guard.sh' }] },
          { matcher: 'Bash', hooks: [{ type: 'command', command: 'true' }] },
        ],
      },
    });
    const r = await runCli(
      ['decide', 'PreToolUse', '--dialect', 'claude', '--input', JSON.stringify(bash('ls'))],
      {
        cwd: e.project,
        home: e.home,
      },
    );
    expect(r.code).toBe(0);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^hookwerk: project hook skipped, untrusted: .*\/\.claude\/settings\.json: /);
    expect(lines[0]).toContain(`hookwerk trust --project ${e.project}`);
  });
});
