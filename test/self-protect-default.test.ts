/**
 * [T-SELF-1, G-LIB-1, R-HOOK-4] `self-protect` on by default, on the real guard layer and
 * fast path: it runs with no policy file; a user or project policy's `false` is ignored (a warning,
 * and its reasons say so), its `ask`/`except` shape an extra copy only (a warning), `true` adds no
 * second copy; only a source of scope `managed` (`mayTurnOffDefaultGuards`) turns it off or shapes
 * it. The fast path sends the calls it looks at to the engine even without any policy file.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { actionView } from '../src/action/action-view.ts';
import { TOOL_ACCESS } from '../src/action/tool-paths.ts';
import { mayTurnOffDefaultGuards } from '../src/dialects/policy/guard-settings.ts';
import { type GuardSource, guardsLayer } from '../src/dialects/policy/guards.ts';
import { policyProblems } from '../src/dialects/policy/strict.ts';
import { DEFAULT_GUARD_TOOLS, defaultGuardsLookAt } from '../src/guards/default-guards.ts';
import { selfProtectGuard } from '../src/guards/self-protect.ts';
import { scanPolicy } from '../src/hook/policy-prefilter.ts';
import { tempDir } from './helpers.ts';

function bases() {
  const root = tempDir('hw-selfdef-');
  const home = path.join(root, 'home');
  const projectDir = path.join(root, 'project');
  for (const d of [home, projectDir]) mkdirSync(d);
  return { home, projectDir, tmpDir: path.join(root, 'tmp') };
}

function decide(sources: readonly GuardSource[], command: string) {
  const b = bases();
  const layer = guardsLayer(sources, b);
  const input = { tool_name: 'Bash', tool_input: { command }, cwd: b.projectDir };
  return layer?.decide('PreToolUse', input, () => actionView(input, b));
}

const user = (guards: unknown): GuardSource => ({ file: '/u/policy.json', scope: 'user', value: { guards } });
const managed = (guards: unknown): GuardSource => ({
  file: '/etc/hookwerk/policy.json',
  scope: 'managed',
  value: { guards },
});
const TRUST = 'hookwerk trust --yes --project .';

describe('[T-SELF-1] on by default', () => {
  it('runs with no policy file at all, as hookwerk', () => {
    expect(decide([], TRUST)).toMatchObject({
      decision: 'deny',
      who: 'guards.self-protect',
      source: 'hookwerk#/guards/self-protect',
    });
    expect(decide([], 'ls -la')).toBeUndefined();
  });

  it("a user policy's false is ignored: validate warns, the reason says so", () => {
    const d = decide([user({ 'self-protect': false })], TRUST);
    expect(d?.decision).toBe('deny');
    expect(d?.reason).toContain(
      '("self-protect": false in /u/policy.json is ignored: only a managed policy turns it off)',
    );
    expect(policyProblems('/u/policy.json', { guards: { 'self-protect': false } }, 'user')).toEqual([
      {
        file: '/u/policy.json',
        path: '$.guards["self-protect"]',
        message: '"self-protect": false is ignored: only a managed policy turns this guard off',
        level: 'warning',
      },
    ]);
  });

  it("a user policy's ask or except shapes only its own extra copy: the shipped one still denies", () => {
    const d = decide([user({ 'self-protect': { decision: 'ask', except: [`Bash(${TRUST})`] } })], TRUST);
    expect(d).toMatchObject({ decision: 'deny', source: 'hookwerk#/guards/self-protect' });
    const problems = policyProblems('/u/policy.json', { guards: { 'self-protect': { decision: 'ask' } } });
    expect(problems.map((p) => [p.level, p.message])).toEqual([
      [
        'warning',
        '"self-protect" stays on as shipped (deny, no except): this file\'s ask or except applies only to its own extra check; only a managed policy changes it',
      ],
    ]);
  });

  it('true in a user policy adds no second copy', () => {
    const b = bases();
    const layer = guardsLayer([user({ 'self-protect': true })], b);
    const lines = layer?.explain('PreToolUse', undefined, () => actionView({}, b)) ?? [];
    expect(lines.map((l) => l.source)).toEqual(['hookwerk#/guards/self-protect']);
  });
});

describe('[T-MGD-1] only the managed policy turns it off or shapes it', () => {
  it('mayTurnOffDefaultGuards is the scope check: managed only', () => {
    expect(mayTurnOffDefaultGuards('managed')).toBe(true);
    for (const scope of ['user', 'project', 'local', undefined] as const)
      expect(mayTurnOffDefaultGuards(scope)).toBe(false);
  });

  it('false in a source of scope managed turns it off, with no warning', () => {
    expect(decide([managed({ 'self-protect': false })], TRUST)).toBeUndefined();
    expect(
      decide([managed({ 'self-protect': false }), user({ 'self-protect': false })], TRUST),
    ).toBeUndefined();
    expect(
      policyProblems('/etc/hookwerk/policy.json', { guards: { 'self-protect': false } }, 'managed'),
    ).toEqual([]);
  });

  it('an object in the managed policy is the one copy that runs', () => {
    const sources = [managed({ 'self-protect': { except: [`Bash(${TRUST})`] } })];
    expect(decide(sources, TRUST)).toBeUndefined();
    expect(decide(sources, `echo '{}' > ~/.hookwerk/policy.json`)).toMatchObject({
      decision: 'deny',
      source: '/etc/hookwerk/policy.json#/guards/self-protect',
    });
  });
});

describe('[R-HOOK-4, T-SELF-1] the fast path knows the guard on by default', () => {
  it("its tools are the view's file tools, the shell and Codex's patches; the guard's own list is the same", () => {
    expect([...DEFAULT_GUARD_TOOLS].sort()).toEqual(
      ['Bash', 'apply_patch', ...Object.keys(TOOL_ACCESS)].sort(),
    );
    expect(selfProtectGuard.tools).toBe(DEFAULT_GUARD_TOOLS);
    expect(selfProtectGuard.onByDefault).toBe(true);
    expect(defaultGuardsLookAt('PreToolUse', undefined)).toBe(true);
    expect(defaultGuardsLookAt('PostToolUse', 'Bash')).toBe(false);
  });

  it('no policy file at all: a Bash, Read or Write PreToolUse reaches the engine (closed); a WebFetch, or PostToolUse, does not', () => {
    const b = bases();
    const scan = (event: string, tool: string) =>
      scanPolicy({ projectDir: b.projectDir, home: b.home, agent: 'claude', event, tool });
    for (const tool of ['Bash', 'Read', 'Write', 'apply_patch', 'Delete'])
      expect(scan('PreToolUse', tool), tool).toEqual({ mayRun: true, closedGuard: true, stale: true });
    expect(scan('PreToolUse', 'WebFetch')).toEqual({ mayRun: false, closedGuard: false, stale: false });
    expect(scan('PostToolUse', 'Bash')).toEqual({ mayRun: false, closedGuard: false, stale: false });
  });
});
