/**
 * `rule` handlers' conditions as units (SPEC §14.4): compiling [G-CEL-3] (size, syntax, names,
 * depth: one-line reasons), evaluating within the bounds [G-CEL-2] (missing keys, wrong types,
 * the step limit and the wall-clock budget, with an injected clock so that no result depends on
 * the machine's speed), the variables [G-CEL-1] — the action view's from a hand-built view, as the
 * view itself is built in src/action/ — the helpers `glob` and `inside`, and the answer a rule
 * stands for on each event. The gate, the files and the CLI: rule-handlers.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { compileWhen } from '../src/rules/cel-program.ts';
import { globMatches, insideFolder } from '../src/rules/path-functions.ts';
import { type RuleView, ruleActivation } from '../src/rules/rule-activation.ts';
import { MAX_WHEN_BYTES, RULE_BOUNDS } from '../src/rules/rule-bounds.ts';
import type { RuleBounds, RuleTest, RuleVariables } from '../src/rules/rule-condition.ts';
import { ruleOutput } from '../src/rules/rule-output.ts';

const PLACES = { home: '/home/u', project: '/home/u/proj' };

function vars(toolInput: Record<string, unknown> = {}, view?: RuleView): RuleVariables {
  return ruleActivation(
    { tool_name: 'Bash', tool_input: toolInput, cwd: '/home/u/proj/sub', session_id: 'sess-1' },
    { event: 'PreToolUse', agent: 'codex', project: '/home/u/proj' },
    view,
  );
}

function compiled(when: string) {
  const c = compileWhen(when);
  if ('error' in c) throw new Error(`does not compile: ${c.error}`);
  return c.condition;
}

/** Bounds no test meets by accident (only the tests of the bounds set tight ones). */
const ROOMY: RuleBounds = { budgetMs: 60_000, maxSteps: 1_000_000, now: () => performance.now() };

function test(when: string, v: RuleVariables = vars(), bounds: RuleBounds = ROOMY): RuleTest {
  return compiled(when).test(v, bounds, PLACES);
}

function compileError(when: string): string {
  const c = compileWhen(when);
  if (!('error' in c)) throw new Error(`compiles: ${when}`);
  return c.error;
}

/** A clock that moves `stepMs` every time it is read: a budget spent after a known number of reads. */
function steppingClock(stepMs: number): () => number {
  let t = 0;
  return () => {
    t += stepMs;
    return t;
  };
}

const LIST = `[${Array.from({ length: 100 }, (_, i) => i).join(', ')}]`;
/** 100³ comprehension steps, far over any limit. */
const NESTED = `${LIST}.all(a, ${LIST}.all(b, ${LIST}.all(c, a + b + c >= 0)))`;

describe('[G-CEL-3] a condition compiles, or its one-line reason says why not', () => {
  it('a valid condition compiles and evaluates', () => {
    expect(test('tool == "Bash" && input.command.contains("push")', vars({ command: 'git push' }))).toEqual({
      kind: 'value',
      value: true,
    });
  });

  it('a syntax error names the line and column, on one line', () => {
    const error = compileError('tool == "Bash" &&\n  input.command.contains(');
    expect(error).toMatch(/^CEL syntax error at \d+:\d+: /);
    expect(error).not.toContain('\n');
  });

  it(`at most ${MAX_WHEN_BYTES} bytes of UTF-8: one byte more is an error`, () => {
    const sized = (bytes: number) => `tool == "${'x'.repeat(bytes - 'tool == ""'.length)}"`;
    expect(Buffer.byteLength(sized(MAX_WHEN_BYTES))).toBe(MAX_WHEN_BYTES);
    expect('condition' in compileWhen(sized(MAX_WHEN_BYTES))).toBe(true);
    expect(compileError(sized(MAX_WHEN_BYTES + 1))).toBe(
      `the condition is ${MAX_WHEN_BYTES + 1} bytes long; a rule's "when" may be at most ${MAX_WHEN_BYTES}`,
    );
    // Bytes, not characters: 2 000 two-byte characters are 4 000 bytes and then some.
    expect(compileError(`tool == "${'é'.repeat(2100)}"`)).toMatch(/bytes long/);
  });

  it('a name that is no variable, a function that does not exist, or takes other arguments', () => {
    expect(compileError('tol == "Bash"')).toMatch(
      /^unknown variable "tol" \(a condition reads event, agent, tool,/,
    );
    expect(compileError('shout(tool)')).toBe('unknown function shout()');
    expect(compileError('tool.contains()')).toBe('x.contains() does not take 0 arguments');
    expect(compileError('glob(tool)')).toBe('glob() does not take 1 argument');
    // A comprehension's own variable exists inside it only.
    expect('condition' in compileWhen('commands.exists(c, c.name == "git")')).toBe(true);
    expect(compileError('commands.exists(c, true) && c.name == "git"')).toMatch(/^unknown variable "c"/);
    // Type names are values in CEL.
    expect(test('type(input) == map && type(tool) == string')).toEqual({ kind: 'value', value: true });
  });

  it('an expression nested deeper than the limit is an error, not a stack overflow', () => {
    expect(compileError(`${'['.repeat(300)}true${']'.repeat(300)}`)).toMatch(/nests too deeply/);
    expect(compileError(`${'('.repeat(2000)}true${')'.repeat(2000)}`)).toMatch(/nests too deeply/);
    expect('condition' in compileWhen(`${'['.repeat(200)}true${']'.repeat(200)} != []`)).toBe(true);
  });
});

describe('[G-CEL-2] evaluating: an error or a spent budget is never a silent false', () => {
  it('a missing key is an error that says how to test for one; has() and `in` test for it', () => {
    expect(test('input.timeout > 5.0')).toEqual({
      kind: 'error',
      message: 'no such key: timeout (test for a key with has() first)',
    });
    expect(test('has(input.timeout) && input.timeout > 5.0')).toEqual({ kind: 'value', value: false });
    expect(test('"timeout" in input', vars({ timeout: 9 }))).toEqual({ kind: 'value', value: true });
    // CEL's && and || are commutative over errors: the side that decides wins.
    expect(test('input.timeout > 5.0 && false')).toEqual({ kind: 'value', value: false });
    expect(test('true || input.timeout > 5.0')).toEqual({ kind: 'value', value: true });
  });

  it('a value that is not a bool is an error; JSON numbers are doubles', () => {
    expect(test('size(tool)')).toEqual({
      kind: 'error',
      message: "the condition's value is of type int, not bool",
    });
    expect(test('input.n == 3 && input.n > 2', vars({ n: 3 }))).toEqual({ kind: 'value', value: true });
    expect(test('input.n + 1 == 4', vars({ n: 3 }))).toMatchObject({ kind: 'error' });
  });

  it('the step limit stops a long comprehension after that many steps, whatever the clock says', () => {
    const bounds: RuleBounds = { budgetMs: 1e9, maxSteps: 1000, now: () => 0 };
    expect(test(NESTED, vars(), bounds)).toEqual({
      kind: 'budget',
      message: 'ran out of its budget (over 1000 comprehension steps)',
      byTime: false,
    });
  });

  it('the wall-clock budget stops it when the clock passes 10 ms (an injected clock: 1 ms a step)', () => {
    const bounds: RuleBounds = { budgetMs: 10, maxSteps: 1e9, now: steppingClock(1) };
    expect(test(NESTED, vars(), bounds)).toEqual({
      kind: 'budget',
      message: 'ran out of its budget (10 ms)',
      byTime: true,
    });
  });

  it('[G-CEL-2] a run out of time is run once more: a blip passes, a slow condition fails twice; steps fail at once', async () => {
    const { runRule } = await import('../src/runners/rule-runner.ts');
    const sequence = (...tests: RuleTest[]) => {
      let calls = 0;
      return {
        condition: { when: 'fake', test: () => tests[Math.min(calls++, tests.length - 1)]! },
        calls: () => calls,
      };
    };
    const time: RuleTest = { kind: 'budget', message: 'ran out of its budget (10 ms)', byTime: true };
    const steps: RuleTest = {
      kind: 'budget',
      message: 'ran out of its budget (over 9 comprehension steps)',
      byTime: false,
    };
    const places = { home: '/h', project: '/p' };
    const blip = sequence(time, { kind: 'value', value: true });
    expect(runRule(blip.condition, vars(), places)).toMatchObject({ reason: 'returned', value: true });
    expect(blip.calls()).toBe(2);
    const slow = sequence(time, time);
    expect(runRule(slow.condition, vars(), places)).toMatchObject({
      reason: 'timeout',
      cause: 'rule_budget',
    });
    expect(slow.calls()).toBe(2);
    const counted = sequence(steps, { kind: 'value', value: true });
    expect(runRule(counted.condition, vars(), places)).toMatchObject({
      reason: 'timeout',
      cause: 'rule_budget',
    });
    expect(counted.calls()).toBe(1);
  });

  it('a spent budget that `||` would swallow still counts: the result is discarded', () => {
    const bounds: RuleBounds = { budgetMs: 1e9, maxSteps: 50, now: () => 0 };
    expect(test(`${NESTED} || true`, vars(), bounds)).toMatchObject({ kind: 'budget' });
    expect(test(`${LIST}.exists(a, ${LIST}.exists(b, false)) || true`, vars(), bounds)).toMatchObject({
      kind: 'budget',
    });
  });

  it('a condition with no loop that took longer than the budget ran out too', () => {
    const bounds: RuleBounds = { budgetMs: 10, maxSteps: 1e9, now: steppingClock(20) };
    expect(test('tool == "Bash"', vars(), bounds)).toMatchObject({ kind: 'budget' });
  });

  it('with the real bounds, a comprehension over a large input list runs out (steps or clock, either)', () => {
    const items = Array.from({ length: 3000 }, (_, i) => `item-${i}`);
    const result = test(
      'input.items.all(a, input.items.all(b, a != b || a == b))',
      vars({ items }),
      RULE_BOUNDS,
    );
    expect(result.kind).toBe('budget');
  });

  it('a budget spent by one evaluation does not leak into the next', () => {
    const bounds: RuleBounds = { budgetMs: 1e9, maxSteps: 20, now: () => 0 };
    expect(test(NESTED, vars(), bounds).kind).toBe('budget');
    expect(test(`${LIST}.exists(a, a == 5)`, vars(), bounds)).toEqual({ kind: 'value', value: true });
  });
});

describe('[G-CEL-1] the variables', () => {
  it('event, agent, tool, input, project, cwd and session from the call', () => {
    const v = vars({ command: 'ls' });
    expect(
      test(
        'event == "PreToolUse" && agent == "codex" && tool == "Bash" && input.command == "ls" && project == "/home/u/proj" && cwd == "/home/u/proj/sub" && session == "sess-1"',
        v,
      ),
    ).toEqual({ kind: 'value', value: true });
  });

  it('a call with no tool: tool is "", input is {}; no view: empty lists, unreadable false, mcp null', () => {
    const v = ruleActivation(
      { prompt: 'hi' },
      { event: 'UserPromptSubmit', agent: undefined, project: '/p' },
    );
    expect(
      test(
        'tool == "" && size(input) == 0 && agent == "" && cwd == "/p" && session == "" && commands.size() == 0 && paths.size() == 0 && hosts.size() == 0 && !unreadable && mcp == null',
        v,
      ),
    ).toEqual({ kind: 'value', value: true });
  });

  it("the action view's variables, from a hand-built view (options given as a set)", () => {
    const view: RuleView = {
      commands: [
        {
          name: 'git',
          argv: ['git', 'push', '-f', 'origin', 'main'],
          options: new Set(['f', 'force']),
          positionals: ['push', 'origin', 'main'],
          redirects: [{ path: '/tmp/out', mode: 'write' }],
          raw: 'git push -f origin main > /tmp/out',
          dynamic: false,
        },
      ],
      unreadable: false,
      paths: [{ path: '/home/u/proj/.env', real: '/home/u/proj/.env', inProject: true, access: 'read' }],
      hosts: ['github.com'],
      mcp: { server: 'github', tool: 'create_issue' },
    };
    const v = vars({ command: 'git push -f origin main' }, view);
    // The SPEC's example [G-CEL-1].
    const forcePush =
      'commands.exists(c, c.name == "git" && c.positionals.size() > 0 && c.positionals[0] == "push" && "force" in c.options)';
    expect(test(forcePush, v)).toEqual({ kind: 'value', value: true });
    expect(
      test(
        'commands[0].redirects[0].mode == "write" && !commands[0].dynamic && paths.exists(p, p.inProject && p.access == "read" && glob(p.path, ".env")) && "github.com" in hosts && mcp.server == "github" && mcp.tool == "create_issue" && !unreadable',
        v,
      ),
    ).toEqual({ kind: 'value', value: true });
    const noForce: RuleView = {
      ...view,
      commands: [{ ...view.commands[0]!, options: [], argv: ['git', 'push', 'origin', 'main'] }],
    };
    expect(test(forcePush, vars({}, noForce))).toEqual({ kind: 'value', value: false });
  });

  it('the input is copied as plain data: a __proto__ key is a key, undefined fields are absent', () => {
    const input = JSON.parse('{"__proto__": {"x": 1}, "command": "ls"}');
    expect(test('has(input.__proto__) && !has(input.x)', vars(input))).toEqual({
      kind: 'value',
      value: true,
    });
    expect(test('has(input.gone)', vars({ gone: undefined }))).toEqual({ kind: 'value', value: false });
  });
});

describe('[G-CEL-1] the helpers glob(path, pattern) and inside(path, folder)', () => {
  it('glob: * within a segment, ** across, ? one character, a bare name matches the file name, ~ the home', () => {
    const g = (text: string, pattern: string) => globMatches(text, pattern, PLACES);
    expect(g('/home/u/proj/src/a.ts', '/home/u/proj/src/*.ts')).toBe(true);
    expect(g('/home/u/proj/src/deep/a.ts', '/home/u/proj/src/*.ts')).toBe(false);
    expect(g('/home/u/proj/src/deep/a.ts', '/home/u/proj/**/*.ts')).toBe(true);
    expect(g('/home/u/proj/a.ts', '/home/u/proj/**/a.ts')).toBe(true);
    expect(g('/a/b/key.pem', '*.pem')).toBe(true);
    expect(g('/a/b/.env', '.env')).toBe(true);
    expect(g('/a/b/.env.example', '.env')).toBe(false);
    expect(g('/home/u/.ssh/id_rsa', '~/.ssh/*')).toBe(true);
    expect(g('/elsewhere/.ssh/id_rsa', '~/.ssh/*')).toBe(false);
    expect(g('/a/b/x1', '/a/b/x?')).toBe(true);
    expect(g('/a/b/x*', '/a/b/x\\*')).toBe(true);
    expect(g('/a/b/xy', '/a/b/x\\*')).toBe(false);
    // Regex characters are literal.
    expect(g('/a/b/(x).txt', '/a/b/(x).txt')).toBe(true);
    expect(g('/a/b/axxtxt', '/a/b/a..txt')).toBe(false);
  });

  it('inside: the folder itself or below it, after ~, relative paths and .. are resolved', () => {
    const i = (text: string, folder: string) => insideFolder(text, folder, PLACES);
    expect(i('/home/u/proj/src/a.ts', '/home/u/proj')).toBe(true);
    expect(i('/home/u/proj', '/home/u/proj/')).toBe(true);
    expect(i('/home/u/project2/a', '/home/u/proj')).toBe(false);
    expect(i('/home/u/proj/../secret', '/home/u/proj')).toBe(false);
    expect(i('src/a.ts', '/home/u/proj')).toBe(true);
    expect(i('~/.ssh/id_rsa', '~')).toBe(true);
    expect(i('/etc/passwd', '/')).toBe(true);
    expect(i('', '/')).toBe(false);
  });

  it("inside and glob from a condition see the call's project and home", () => {
    expect(
      test('inside(cwd, project) && inside("~/x", "/home/u") && glob("/home/u/.npmrc", "~/.npmrc")'),
    ).toEqual({
      kind: 'value',
      value: true,
    });
  });
});

describe('(SPEC §14.4) what a rule answers when its condition holds (as a Claude Code hook would)', () => {
  it('PreToolUse: the permission decision and its reason, with any context', () => {
    expect(ruleOutput('PreToolUse', { decision: 'ask', reason: 'sure?', additionalContext: 'ctx' })).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'ask',
        permissionDecisionReason: 'sure?',
        additionalContext: 'ctx',
      },
    });
  });

  it('PermissionRequest: deny and allow as its behavior; ask is no opinion there', () => {
    expect(ruleOutput('PermissionRequest', { decision: 'deny', reason: 'no' })).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PermissionRequest',
        decision: { behavior: 'deny', message: 'no' },
      },
    });
    expect(ruleOutput('PermissionRequest', { decision: 'allow' })).toEqual({
      hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } },
    });
    expect(ruleOutput('PermissionRequest', { decision: 'ask', reason: 'x' })).toBeUndefined();
  });

  it('other events: deny blocks with its reason, ask and allow say nothing, context is context', () => {
    expect(ruleOutput('UserPromptSubmit', { decision: 'deny', reason: 'no' })).toEqual({
      decision: 'block',
      reason: 'no',
    });
    expect(ruleOutput('Stop', { decision: 'allow' })).toBeUndefined();
    expect(ruleOutput('SessionStart', { additionalContext: 'hello' })).toEqual({
      hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'hello' },
    });
  });
});
