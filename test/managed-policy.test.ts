/**
 * [T-MGD-1] The managed policy `/etc/hookwerk/policy.json`, end to end: real `hookwerk hook`
 * processes run as an unprivileged account (the agent) in a mount namespace where a temp folder
 * is /etc/hookwerk (`managed-namespace.ts`); the user's and the project's policy files are the
 * agent's own. The managed rules win over every user and project file; `managedOnly` leaves those
 * out; a managed policy root does not own denies; an edit is seen by the next call, cold and warm.
 */
import { chmodSync, chownSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { claudeVerdict } from './claude-verdict.ts';
import { type CliProcess, startProgram } from './cli-process.ts';
import type { CliResult } from './cli-runner.ts';
import {
  type Account,
  agentAccount,
  agentEnv,
  hookwerkIn,
  INSTALLED_BIN,
  namespaceArgv,
  openTempDir,
  ownedDir,
} from './managed-namespace.ts';

const MANAGED = '/etc/hookwerk/policy.json';

/** Each test runs a dozen real processes in namespaces: minutes on a loaded 2-core machine, not 30 s. */
const SLOW = { timeout: 180_000 };

interface Setup {
  agent: Account;
  home: string;
  project: string;
  /** The folder bound at /etc/hookwerk. */
  etc: string;
  binds: Record<string, string>;
}

function setup(): Setup {
  const agent = agentAccount();
  const base = openTempDir('hw-managed-');
  const home = ownedDir(path.join(base, 'home'), agent, 0o700);
  const project = ownedDir(path.join(base, 'project'), agent);
  const etc = path.join(base, 'etc-hookwerk');
  mkdirSync(etc, { mode: 0o755 });
  chmodSync(etc, 0o755);
  return { agent, home, project, etc, binds: { '/etc/hookwerk': etc } };
}

/** The managed policy, as root writes it: root's, 0644. */
function writeManaged(s: Setup, policy: unknown): void {
  const file = path.join(s.etc, 'policy.json');
  writeFileSync(file, JSON.stringify(policy));
  chmodSync(file, 0o644);
}

/** A policy file of the agent's own (`dir`: its home or the project). */
function writeOwn(s: Setup, dir: string, policy: unknown): void {
  const folder = ownedDir(path.join(dir, '.hookwerk'), s.agent);
  const file = path.join(folder, 'policy.json');
  writeFileSync(file, typeof policy === 'string' ? policy : JSON.stringify(policy));
  chownSync(file, s.agent.uid, s.agent.gid);
}

const bash = (s: Setup, command: string) =>
  JSON.stringify({
    hook_event_name: 'PreToolUse',
    session_id: 'sess-managed',
    cwd: s.project,
    tool_name: 'Bash',
    tool_input: { command },
  });

/** `hookwerk hook --agent claude` as the agent, `input` on stdin. */
function hook(s: Setup, input: string, extra: Record<string, string> = {}): Promise<CliResult> {
  return hookwerkIn(['hook', '--agent', 'claude'], {
    binds: s.binds,
    as: s.agent,
    env: agentEnv(s.home, extra),
    cwd: s.project,
    stdin: { text: input },
  });
}

/** Any hookwerk command as the agent in the project. */
function asAgent(s: Setup, args: string[]): Promise<CliResult> {
  return hookwerkIn(args, { binds: s.binds, as: s.agent, env: agentEnv(s.home), cwd: s.project });
}

const ALLOW_HOOK = {
  type: 'command',
  command: `printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'`,
};

describe('[T-MGD-1] the managed policy runs first, and no user or project file turns it off', SLOW, () => {
  it('[T-MGD-1, G-PERM-1] a managed deny wins over a user and a project allow, an allowing hook, disableAllHooks and HOOKWERK_POLICY_ERRORS', async () => {
    const s = setup();
    writeOwn(s, s.home, {
      permissions: { allow: ['Bash(curl *)', 'Bash(echo *)'] },
      disableAllHooks: true,
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [ALLOW_HOOK] }] },
    });
    writeOwn(s, s.project, { permissions: { allow: ['Bash(curl *)'] } });
    expect((await asAgent(s, ['trust', '--yes', '--project', s.project])).code).toBe(0);
    // Without a managed policy the user's allow decides: the case below is not vacuous.
    expect(claudeVerdict(await hook(s, bash(s, 'curl https://example.com'))).decision).toBe('allow');

    writeManaged(s, {
      permissions: { deny: ['Bash(curl *)'] },
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [{ type: 'command', command: `echo 'the managed hook says no' >&2; exit 2` }],
          },
        ],
      },
    });
    const curl = claudeVerdict(
      await hook(s, bash(s, 'curl https://example.com'), { HOOKWERK_POLICY_ERRORS: 'open' }),
    );
    expect(curl).toEqual({ decision: 'deny', reason: `${MANAGED}: permissions.deny: Bash(curl *)` });
    // The user's disableAllHooks leaves the managed hook on; its deny beats the user hook's allow.
    const echo = claudeVerdict(await hook(s, bash(s, 'echo hi')));
    expect(echo.decision).toBe('deny');
    expect(echo.reason).toContain('the managed hook says no');
  });

  it('[T-MGD-1, G-LIB-1] a user `false` and a project `except` cannot turn a managed guard off', async () => {
    const s = setup();
    writeManaged(s, { guards: { 'force-push': true } });
    writeOwn(s, s.home, { guards: { 'force-push': false } });
    writeOwn(s, s.project, { guards: { 'force-push': { except: ['Bash(git push -f origin main)'] } } });
    expect((await asAgent(s, ['trust', '--yes', '--project', s.project])).code).toBe(0);
    const push = claudeVerdict(await hook(s, bash(s, 'git push -f origin main')));
    expect(push.decision).toBe('deny');
    expect(push.reason).toMatch(new RegExp(`^${MANAGED}: guards\\.force-push: `));
    // validate names the ignored switch, and lists the managed source.
    const checked = await asAgent(s, ['validate']);
    expect(checked.stdout).toContain(`ok: ${MANAGED}: 0 hooks, 1 rule (managed)`);
    expect(checked.stderr).toContain(
      '"force-push": false is ignored: the managed policy turns this guard on',
    );
  });

  it('[T-MGD-1] "managedOnly": true leaves the user and project policy out (a broken one too); validate and explain say so', async () => {
    const s = setup();
    writeOwn(s, s.home, {
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [{ type: 'command', command: `echo 'user says no' >&2; exit 2` }] },
        ],
      },
    });
    writeOwn(s, s.project, '{ "hooks": ');
    expect(claudeVerdict(await hook(s, bash(s, 'echo hi'))).decision).toBe('deny');

    writeManaged(s, { managedOnly: true, permissions: { deny: ['Bash(curl *)'] } });
    expect(claudeVerdict(await hook(s, bash(s, 'echo hi')))).toEqual({ decision: 'none' });
    expect(claudeVerdict(await hook(s, bash(s, 'curl x'))).decision).toBe('deny');
    const checked = await asAgent(s, ['validate']);
    expect(checked.code, checked.stderr).toBe(0);
    expect(checked.stdout).toContain(`ok: ${MANAGED}: 0 hooks, 1 rule (managed)`);
    expect(checked.stderr).toContain(`ignored: the managed policy ${MANAGED} says "managedOnly": true`);
    const explained = await asAgent(s, ['explain', 'PreToolUse', '--dialect', 'policy', '--tool', 'Bash']);
    expect(explained.stdout).toContain(MANAGED);
    expect(explained.stdout).not.toContain('user says no');
  });
});

describe('[T-MGD-1, G-FAIL-1] a managed policy root does not own is a broken policy file', SLOW, () => {
  const cases: Array<[string, (s: Setup) => void, RegExp]> = [
    [
      'the file is group-writable',
      (s) => chmodSync(path.join(s.etc, 'policy.json'), 0o664),
      /policy\.json must be owned by root and not writable by group or others \(owner uid 0, mode 0664\)/,
    ],
    [
      "the file is the agent's",
      (s) => chownSync(path.join(s.etc, 'policy.json'), s.agent.uid, s.agent.gid),
      /policy\.json must be owned by root/,
    ],
    [
      "the folder is the agent's",
      (s) => chownSync(s.etc, s.agent.uid, s.agent.gid),
      /\/etc\/hookwerk must be owned by root/,
    ],
    [
      'the folder is world-writable and the file was moved away',
      (s) => {
        chmodSync(s.etc, 0o777);
        rmSync(path.join(s.etc, 'policy.json'));
      },
      /\/etc\/hookwerk must be owned by root and not writable by group or others \(owner uid 0, mode 0777\)/,
    ],
  ];
  for (const [name, spoil, why] of cases)
    it(`[T-MGD-1] ${name}: PreToolUse is denied with the reason, even with HOOKWERK_POLICY_ERRORS=open; other events only say it`, async () => {
      const s = setup();
      writeManaged(s, { permissions: { deny: ['Bash(curl *)'] } });
      spoil(s);
      const r = await hook(s, bash(s, 'ls'), { HOOKWERK_POLICY_ERRORS: 'open' });
      const v = claudeVerdict(r);
      expect(v.decision).toBe('deny');
      expect(v.reason).toMatch(why);
      expect(v.reason).toMatch(
        /^hookwerk: \/etc\/hookwerk\/policy\.json: \$: .* — fix it, or check it with hookwerk validate$/,
      );
      const post = await hook(
        s,
        JSON.stringify({ ...JSON.parse(bash(s, 'ls')), hook_event_name: 'PostToolUse', tool_response: {} }),
      );
      expect(claudeVerdict(post)).toEqual({ decision: 'none' });
      expect(post.stderr).toMatch(why);
    });
});

describe('[T-MGD-1, R-HOOK-4] an edited managed policy is seen by the very next call', SLOW, () => {
  const running: CliProcess[] = [];
  afterEach(async () => {
    for (const p of running.splice(0)) await p.stop();
  });

  it('cold (the fast path and its index) and warm (the daemon)', async () => {
    const s = setup();
    // A user policy with a hook on another event: the fast path keeps an index for PreToolUse.
    writeOwn(s, s.home, { hooks: { PostToolUse: [{ hooks: [{ type: 'command', command: 'true' }] }] } });
    expect(claudeVerdict(await hook(s, bash(s, 'echo one')))).toEqual({ decision: 'none' });
    expect(claudeVerdict(await hook(s, bash(s, 'echo one')))).toEqual({ decision: 'none' });
    writeManaged(s, { permissions: { deny: ['Bash(echo one)'] } });
    expect(claudeVerdict(await hook(s, bash(s, 'echo one'))).decision).toBe('deny');
    writeManaged(s, { permissions: { deny: ['Bash(echo two)'] } });
    expect(claudeVerdict(await hook(s, bash(s, 'echo one')))).toEqual({ decision: 'none' });
    expect(claudeVerdict(await hook(s, bash(s, 'echo two'))).decision).toBe('deny');

    // The daemon, as the agent, in the same namespace; the clients ask it (a running one is asked).
    const daemon = startProgram(
      'bwrap',
      namespaceArgv([process.execPath, INSTALLED_BIN, 'daemon'], { binds: s.binds, as: s.agent }),
      { env: agentEnv(s.home), cwd: s.project },
    );
    running.push(daemon);
    await daemon.waitForOutput(/^ready$/m);
    expect(claudeVerdict(await hook(s, bash(s, 'echo two'))).decision).toBe('deny');
    writeManaged(s, { permissions: { deny: ['Bash(echo three)'] } });
    expect(claudeVerdict(await hook(s, bash(s, 'echo two')))).toEqual({ decision: 'none' });
    expect(claudeVerdict(await hook(s, bash(s, 'echo three'))).decision).toBe('deny');
    // A chmod of the folder alone changes what a fresh load reads: the warm engine sees it too.
    chmodSync(s.etc, 0o775);
    expect(claudeVerdict(await hook(s, bash(s, 'echo two'))).reason).toMatch(
      /\/etc\/hookwerk must be owned by root/,
    );
    const status = await asAgent(s, ['daemon', 'status', '--json']);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain(s.project);
    const stopped = await asAgent(s, ['daemon', 'stop']);
    expect(stopped.code, stopped.stderr).toBe(0);
    await daemon.exit;
  });
});
