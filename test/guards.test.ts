/**
 * [G-LIB-1, G-LIB-2, G-LIB-3, G-FAIL-1, G-FAIL-5] `guards` in policy files, decided by the real
 * engine (`gateDialect: 'policy'`, what `hookwerk hook` runs) on real files: the strict settings
 * (an unknown guard, option, decision or except entry denies with file, JSON path and cause), the
 * order (after the permissions; the first deny stops; an ask waits for a later deny), guards only
 * adding across files (a project cannot switch off or loosen a user's guard, and can add one),
 * `except`, each guard's own options, a line that cannot be read, a guard that throws, a guard on
 * by default, and `explain`. The corpora of the three guards: guard-corpus.test.ts.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { actionView } from '../src/action/action-view.ts';
import { readGuardSettings } from '../src/dialects/policy/guard-settings.ts';
import { guardMergeWarnings, guardsLayer } from '../src/dialects/policy/guards.ts';
import { policyProblems } from '../src/dialects/policy/strict.ts';
import type { AgentDecision } from '../src/dispatch/agent-answer.ts';
import { GUARD_TABLE, type ShippedGuard } from '../src/guards/guard-table.ts';
import { makeEngine } from './engine-harness.ts';
import { tempDir } from './helpers.ts';

interface Policies {
  user?: Record<string, unknown>;
  project?: Record<string, unknown>;
}

function writeJson(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(value, null, 2));
}

async function policyEngine(p: Policies) {
  const root = tempDir('hw-guards-');
  const home = path.join(root, 'home');
  const project = path.join(root, 'project');
  const tmp = path.join(root, 'tmp');
  for (const d of [path.join(project, 'build'), home, tmp]) mkdirSync(d, { recursive: true });
  if (p.user !== undefined) writeJson(path.join(home, '.hookwerk', 'policy.json'), p.user);
  if (p.project !== undefined) writeJson(path.join(project, '.hookwerk', 'policy.json'), p.project);
  const engine = await makeEngine(undefined, {
    projectDir: project,
    home,
    env: { ...process.env, HOME: home, TMPDIR: tmp },
    gateDialect: 'policy',
    trust: () => ({ trusted: true, reason: 'test' }),
  });
  const bash = async (command: string) => {
    const d = await engine.decide('PreToolUse', {
      session_id: 's',
      cwd: project,
      tool_name: 'Bash',
      tool_input: { command },
    });
    if (!('continue' in d)) throw new Error('not an agent decision');
    return d;
  };
  return { engine, home, project, tmp, bash };
}

function verdict(d: AgentDecision): 'deny' | 'ask' | 'allow' | 'none' {
  if (d.blocked) return 'deny';
  if (d.decision === 'ask') return 'ask';
  return d.runs.some((r) => r.permission === 'allow') ? 'allow' : 'none';
}

describe('[G-LIB-1, G-FAIL-1] guard settings are strict', () => {
  it.each([
    [
      { 'destructive-delet': true },
      '$.guards["destructive-delet"]',
      'unknown guard "destructive-delet": did you mean "destructive-delete"?',
    ],
    [{ forcepush: true }, '$.guards.forcepush', 'did you mean "force-push"?'],
    [{ sandbox: true }, '$.guards.sandbox', 'unknown guard "sandbox" (the guards are destructive-delete'],
    [
      { publish: 'yes' },
      '$.guards.publish',
      'a guard is true, false or an object of its options (got string)',
    ],
    [{ publish: { decision: 'allow' } }, '$.guards.publish.decision', 'decision must be "deny" or "ask"'],
    [
      { publish: { decison: 'ask' } },
      '$.guards.publish.decison',
      'unknown option "decison" of guard "publish"',
    ],
    [{ 'force-push': { branches: 'main' } }, '$.guards["force-push"].branches', 'expected array'],
    [{ 'force-push': { allowLease: 'yes' } }, '$.guards["force-push"].allowLease', 'expected boolean'],
    [
      { 'destructive-delete': { inside: 'maybe' } },
      '$.guards["destructive-delete"].inside',
      'inside must be "allow", "ask" or "deny"',
    ],
    [
      { 'destructive-delete': { allow: ['~bob/x'] } },
      '$.guards["destructive-delete"].allow[0]',
      'only ~/ names the home folder',
    ],
    [{ 'force-push': { except: ['git push "origin'] } }, '$.guards["force-push"].except[0]', 'unbalanced'],
    [{ 'force-push': { except: [''] } }, '$.guards["force-push"].except[0]', 'must not be empty'],
    [{ publish: { except: 'npm publish' } }, '$.guards.publish.except', 'expected array'],
  ])('%j is an error at %s', (guards, at, cause) => {
    const problems = policyProblems('/p.json', { guards });
    expect(problems).toContainEqual(
      expect.objectContaining({ path: at, message: expect.stringContaining(cause) }),
    );
    expect(problems.every((p) => p.level === undefined)).toBe(true);
  });

  it('the gate denies with the file, the JSON path and the cause; nothing of the file runs', async () => {
    const { bash } = await policyEngine({
      user: { guards: { publish: true, 'force-push': { branch: ['main'] } } },
    });
    const d = await bash('ls');
    expect(verdict(d)).toBe('deny');
    expect(d.reason).toContain('$.guards["force-push"].branch');
    expect(d.reason).toContain('unknown option "branch" of guard "force-push"');
    expect(d.reason).toContain('fix it, or check it with hookwerk validate');
  });

  it('true, false and objects with decision, except and options read without a problem', () => {
    expect(
      policyProblems('/p.json', {
        guards: {
          'destructive-delete': {
            inside: 'ask',
            allow: ['~/.cache/**', '/var/tmp/x', 'out'],
            decision: 'deny',
          },
          'force-push': {
            branches: ['main', 'release/*'],
            allowLease: true,
            except: ['git push -f origin main', 'Bash(git push *)'],
          },
          publish: false,
        },
      }),
    ).toEqual([]);
  });
});

describe('[G-LIB-2] order: after the permissions, in the table order; the first deny stops, an ask waits for a later deny', () => {
  it('a permission deny comes first; its reason names the rule, not the guard', async () => {
    const { bash } = await policyEngine({
      user: { permissions: { deny: ['Bash(rm *)'] }, guards: { 'destructive-delete': true } },
    });
    const d = await bash('rm -rf ~');
    expect(d.reason).toContain('permissions.deny: Bash(rm *)');
    expect(d.runs.map((r) => r.cause)).toEqual(['permission']);
  });

  it('an ask of an earlier guard gives way to a later guard that denies', async () => {
    const { bash } = await policyEngine({
      user: { guards: { 'destructive-delete': { decision: 'ask' }, 'force-push': true } },
    });
    // (Not `rm -rf ~`: it takes ~/.hookwerk along, which self-protect, on by default, denies.)
    const asked = await bash('rm -rf ~/Documents');
    expect(verdict(asked)).toBe('ask');
    expect(asked.reason).toContain('~/.hookwerk/policy.json: guards.destructive-delete: rm -rf ~/Documents ');
    const denied = await bash('rm -rf ~/Documents; git push -f origin main');
    expect(verdict(denied)).toBe('deny');
    expect(denied.reason).toContain(
      'guards.force-push: git push -f origin main force-pushes main, a protected branch',
    );
    expect(denied.runs).toEqual([
      expect.objectContaining({ hook: 'guards.force-push', cause: 'guard', outcome: 'deny' }),
    ]);
  });

  it('a permission allow does not silence a guard: ask over allow', async () => {
    const { bash } = await policyEngine({
      user: { permissions: { allow: ['Bash(npm *)'] }, guards: { publish: true } },
    });
    expect(verdict(await bash('npm publish'))).toBe('ask');
    expect(verdict(await bash('npm test'))).toBe('allow');
  });

  it('the first deny stops: a later guard is not asked', async () => {
    const { bash } = await policyEngine({
      user: { guards: { 'destructive-delete': true, 'force-push': true } },
    });
    const d = await bash('git push -f origin main && rm -rf /');
    expect(d.reason).toContain('guards.destructive-delete: rm -rf / deletes the root folder /');
    expect(d.runs.map((r) => r.hook)).toEqual(['guards.destructive-delete']);
  });

  it('a guard that asks, and no hook objects: the answer is ask, recorded as the guard', async () => {
    const { bash } = await policyEngine({ user: { guards: { publish: true } } });
    const d = await bash('npx vsce publish');
    expect(verdict(d)).toBe('ask');
    expect(d.reason).toBe(
      '~/.hookwerk/policy.json: guards.publish: vsce publish publishes an editor extension',
    );
  });
});

describe('[G-LIB-1] across files, guards only add', () => {
  it("a project's false does not switch off the user's guard (a validate warning says so)", async () => {
    const { bash, engine } = await policyEngine({
      user: { guards: { 'force-push': true } },
      project: { guards: { 'force-push': false } },
    });
    expect(verdict(await bash('git push -f origin main'))).toBe('deny');
    expect(engine.gate.config.warnings).toContainEqual(
      expect.objectContaining({
        path: '$.guards["force-push"]',
        message: expect.stringContaining('false is ignored'),
      }),
    );
  });

  it("a project's except does not loosen the user's guard; the user's own except does", async () => {
    const loose = await policyEngine({
      user: { guards: { 'force-push': true } },
      project: { guards: { 'force-push': { except: ['git push -f origin main'] } } },
    });
    const d = await loose.bash('git push -f origin main');
    expect(verdict(d)).toBe('deny');
    expect(d.reason).toMatch(/^~\/\.hookwerk\/policy\.json: guards\.force-push: /);
    const own = await policyEngine({
      user: { guards: { 'force-push': { except: ['git push -f origin main'] } } },
    });
    expect(verdict(await own.bash('git push -f origin main'))).toBe('none');
    expect(verdict(await own.bash('git push -f origin master'))).toBe('deny');
  });

  it('a project turns on a guard the user did not, and tightens one the user has (ask → deny)', async () => {
    const on = await policyEngine({
      user: { guards: { publish: false } },
      project: { guards: { publish: true } },
    });
    const asked = await on.bash('npm publish');
    expect(verdict(asked)).toBe('ask');
    expect(asked.reason).toMatch(/^.*\/project\/\.hookwerk\/policy\.json: guards\.publish: /);
    const tight = await policyEngine({
      user: { guards: { publish: true } },
      project: { guards: { publish: { decision: 'deny' } } },
    });
    expect(verdict(await tight.bash('npm publish'))).toBe('deny');
  });

  it('guardMergeWarnings: only a project false under a user true', () => {
    const user = { file: '/h/.hookwerk/policy.json', scope: 'user' as const };
    const project = { file: '/p/.hookwerk/policy.json', scope: 'project' as const };
    expect(
      guardMergeWarnings([
        { ...user, value: { guards: { publish: true, 'force-push': false } } },
        { ...project, value: { guards: { publish: false, 'force-push': false } } },
      ]),
    ).toEqual([expect.objectContaining({ file: project.file, path: '$.guards.publish', level: 'warning' })]);
  });
});

describe('[G-LIB-1] except: Bash patterns read strictly, path globs on path and real', () => {
  it.each([
    ['git push origin main', 'git push -f origin main', 'deny'],
    ['git push -f origin main', 'git push -f origin main', 'none'],
    ['git push -f origin main', 'git push -f --no-verify origin main', 'deny'],
    ['git push * origin main', 'git push -f --no-verify origin main', 'deny'],
    ['Bash(git push -f origin *)', 'git push -f origin main', 'none'],
    ['git push -f origin release/*', 'git push -f origin release/1.0', 'none'],
  ])('except %j, %s: %s', async (except, command, want) => {
    const { bash } = await policyEngine({ user: { guards: { 'force-push': { except: [except] } } } });
    expect(verdict(await bash(command))).toBe(want);
  });

  it('a path glob excepts a delete of what it names, not a delete above it', async () => {
    const { bash } = await policyEngine({
      user: { guards: { 'destructive-delete': { except: ['~/scratch'] } } },
    });
    expect(verdict(await bash('rm -rf ~/scratch'))).toBe('none');
    expect(verdict(await bash('rm -rf ~/scratch/a'))).toBe('none');
    expect(verdict(await bash('rm -rf ~'))).toBe('deny');
    expect(verdict(await bash('rm -rf ~/other'))).toBe('deny');
  });
});

describe('[G-LIB-1, G-LIB-3] each guard’s options', () => {
  it('destructive-delete inside: ask and deny; allow globs outside the project, never for the home or the root', async () => {
    const ask = await policyEngine({ user: { guards: { 'destructive-delete': { inside: 'ask' } } } });
    const asked = await ask.bash('rm -rf build');
    expect(verdict(asked)).toBe('ask');
    expect(asked.reason).toContain(
      'deletes build inside the project (inside: "ask")'.replace('build', `${ask.project}/build`),
    );
    expect(verdict(await ask.bash('rm -rf ~'))).toBe('deny');
    const deny = await policyEngine({ user: { guards: { 'destructive-delete': { inside: 'deny' } } } });
    expect(verdict(await deny.bash('rm -rf build'))).toBe('deny');
    const allow = await policyEngine({ user: { guards: { 'destructive-delete': { allow: ['~/.cache'] } } } });
    expect(verdict(await allow.bash('rm -rf ~/.cache/pip'))).toBe('none');
    expect(verdict(await allow.bash('rm -rf ~/.cache'))).toBe('none');
    expect(verdict(await allow.bash('rm -rf ~/.cachet'))).toBe('deny');
    const all = await policyEngine({ user: { guards: { 'destructive-delete': { allow: ['/'] } } } });
    expect(verdict(await all.bash('rm -rf /opt/app'))).toBe('none');
    expect(verdict(await all.bash('rm -rf /'))).toBe('deny');
    expect(verdict(await all.bash('rm -rf ~'))).toBe('deny');
    expect(verdict(await all.bash('rm -rf ..'))).toBe('deny');
    expect(verdict(await all.bash('rm -rf .git'))).toBe('deny');
  });

  it('destructive-delete: a sub-path of the temp folder passes, the temp folder itself does not', async () => {
    const { bash, tmp } = await policyEngine({ user: { guards: { 'destructive-delete': true } } });
    expect(verdict(await bash(`rm -rf ${tmp}/build`))).toBe('none');
    expect(verdict(await bash(`rm -rf ${tmp}`))).toBe('deny');
    expect(verdict(await bash(`rm -rf ${tmp}/*`))).toBe('deny');
  });

  it('force-push branches and allowLease', async () => {
    const { bash } = await policyEngine({
      user: { guards: { 'force-push': { branches: ['prod/**'], allowLease: true } } },
    });
    expect(verdict(await bash('git push -f origin main'))).toBe('none');
    expect(verdict(await bash('git push -f origin prod/eu/1'))).toBe('deny');
    expect(verdict(await bash('git push --force-with-lease origin prod/x'))).toBe('none');
    expect(verdict(await bash('git push --force-with-lease --force origin prod/x'))).toBe('deny');
    expect(verdict(await bash('git push --force-with-lease origin +prod/x'))).toBe('deny');
  });

  it('publish with decision deny', async () => {
    const { bash } = await policyEngine({ user: { guards: { publish: { decision: 'deny' } } } });
    expect(verdict(await bash('cargo publish'))).toBe('deny');
  });
});

describe('[G-LIB-1] never silently open', () => {
  it('a command line that cannot be read is objected to by every guard that reads commands', async () => {
    const { bash, engine } = await policyEngine({ user: { guards: { publish: true } } });
    const d = await bash('echo "oops');
    // publish asks, then self-protect (on by default, T-SELF-1) denies: the line may hide `hookwerk trust`.
    expect(verdict(d)).toBe('deny');
    expect(d.reason).toContain('guards.self-protect: cannot read this command safely');
    const lines = engine.explain('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'echo "oops' } });
    expect(lines.find((l) => l.hook === 'guards.publish')?.detail).toContain(
      'asks: cannot read this command safely',
    );
  });

  const fake = (over: Partial<ShippedGuard>): ShippedGuard => ({
    name: 'fake',
    defaultDecision: 'deny',
    options: z.strictObject({ level: z.number().default(1) }),
    check: () => [],
    ...over,
  });
  const ctx = (root: string) => ({
    projectDir: path.join(root, 'p'),
    home: path.join(root, 'h'),
    tmpDir: '/tmp',
  });
  const call = (command: string) => ({ tool_name: 'Bash', tool_input: { command } });
  const viewOf = (command: string) => () => actionView(call(command), { projectDir: '/p', home: '/h' });

  it('a guard that throws denies, naming the error', () => {
    const layer = guardsLayer(
      [{ file: '/u.json', scope: 'user', value: { guards: { fake: true } } }],
      ctx(tempDir()),
      [
        fake({
          check: () => {
            throw new Error('boom\nmore');
          },
        }),
      ],
    );
    expect(layer?.decide('PreToolUse', call('ls'), viewOf('ls'))).toEqual({
      decision: 'deny',
      reason: '/u.json: guards.fake: the guard failed, so it objects: boom',
      who: 'guards.fake',
      source: '/u.json#/guards/fake',
    });
  });

  it('a guard on by default runs unnamed, and a false in a policy file is ignored with a warning', () => {
    const always = fake({ onByDefault: true, check: (_c, o) => [{ saw: `level ${JSON.stringify(o)}` }] });
    const unnamed = guardsLayer([{ file: '/u.json', scope: 'user', value: {} }], ctx(tempDir()), [always]);
    expect(unnamed?.decide('PreToolUse', call('ls'), viewOf('ls'))?.reason).toBe(
      'hookwerk: guards.fake: level {"level":1}',
    );
    const off = guardsLayer(
      [{ file: '/u.json', scope: 'user', value: { guards: { fake: false } } }],
      ctx(tempDir()),
      [always],
    );
    expect(off?.decide('PreToolUse', call('ls'), viewOf('ls'))?.decision).toBe('deny');
    expect(policyProblems('/u.json', { guards: { 'destructive-delete': false } })).toEqual([]);
    // [T-SELF-1] Of the shipped guards, self-protect is on by default.
    expect(GUARD_TABLE.filter((g) => g.onByDefault === true).map((g) => g.name)).toEqual(['self-protect']);
  });

  it('[T-MGD-1] only the managed policy`s false turns a guard on by default off, without a warning', () => {
    const always = fake({ onByDefault: true, check: () => [{ saw: 'seen' }] });
    const managedOff = {
      file: '/etc/hookwerk/policy.json',
      scope: 'managed' as const,
      value: { guards: { fake: false } },
    };
    expect(guardsLayer([managedOff], ctx(tempDir()), [always])).toBeUndefined();
    // A user policy may still turn it on again for itself (guards only add).
    const userOn = { file: '/u.json', scope: 'user' as const, value: { guards: { fake: true } } };
    expect(
      guardsLayer([managedOff, userOn], ctx(tempDir()), [always])?.decide(
        'PreToolUse',
        call('ls'),
        viewOf('ls'),
      )?.reason,
    ).toBe('/u.json: guards.fake: seen');
    expect(
      readGuardSettings('/etc/hookwerk/policy.json', { fake: false }, [always], 'managed').problems,
    ).toEqual([]);
    expect(readGuardSettings('/u.json', { fake: false }, [always], 'user').problems).toHaveLength(1);
  });

  it('no guard on: no layer; the fast path indexes the tools the guards look at', () => {
    // Without the guards on by default (a managed policy's `self-protect: false`, T-MGD-1).
    const table = GUARD_TABLE.filter((g) => g.onByDefault !== true);
    expect(
      guardsLayer(
        [{ file: '/u.json', scope: 'user', value: { guards: { publish: false } } }],
        ctx(tempDir()),
        table,
      ),
    ).toBeUndefined();
    const layer = guardsLayer(
      [{ file: '/u.json', scope: 'user', value: { guards: { publish: true, 'force-push': true } } }],
      ctx(tempDir()),
      table,
    );
    expect(layer?.tools('PreToolUse')).toEqual(['Bash']);
    expect(layer?.tools('PostToolUse')).toBeNull();
    expect(layer?.closes('PreToolUse')).toBe(true);
  });
});

describe('[G-FAIL-5] explain lists the guards in force, after the permission rules, each tested against the call', () => {
  it('in run order, with file, decision and except, and what each saw', async () => {
    const { engine } = await policyEngine({
      user: {
        permissions: { deny: ['Bash(curl *)'] },
        guards: { publish: true, 'destructive-delete': { except: ['rm -rf ~/tmp'] } },
      },
      project: { guards: { 'destructive-delete': { decision: 'ask' } } },
    });
    const lines = engine.explain('PreToolUse', {
      tool_name: 'Bash',
      tool_input: { command: 'sudo rm -fr /' },
    });
    expect(lines.map((l) => [l.kind, l.hook, l.verdict])).toEqual([
      ['permission', 'permissions.deny: Bash(curl *)', 'matcher'],
      ['guard', 'guards.destructive-delete', 'runs'],
      ['guard', 'guards.destructive-delete', 'runs'],
      ['guard', 'guards.publish', 'matcher'],
      ['guard', 'guards.self-protect', 'runs'],
    ]);
    expect(lines[1]!.detail).toBe(
      'guard of ~/.hookwerk/policy.json (deny, except rm -rf ~/tmp): denies: rm -fr / deletes the root folder /',
    );
    expect(lines[2]!.detail).toMatch(
      /project\/\.hookwerk\/policy\.json \(ask\): asks: rm -fr \/ deletes the root folder \/$/,
    );
    expect(lines[3]!.detail).toContain('does not object to this call');
    const read = engine.explain('PreToolUse', { tool_name: 'Read', tool_input: { file_path: 'x' } });
    expect(read.find((l) => l.kind === 'guard')?.detail).toContain('does not look at Read calls');
    expect(read.find((l) => l.hook === 'guards.self-protect')?.detail).toBe(
      'guard of hookwerk (deny): does not object to this call',
    );
    const none = engine.explain('PreToolUse', {});
    expect(none.filter((l) => l.kind === 'guard').map((l) => l.detail)[0]).toContain(
      'checked before every hook on PreToolUse for Bash',
    );
  });
});
