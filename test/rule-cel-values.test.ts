/**
 * [G-CEL-1, G-PERF-1] A call's variables are wrapped for CEL once per call (rules/cel-values.ts)
 * and shared by the call's rules: a condition reads through the wrappers exactly what it reads
 * from the plain variables (values, types, missing keys, inputs the implementation refuses), and
 * the next call, with its own variables, is never answered from the previous call's wrappers.
 */
import { describe, expect, it } from 'vitest';
import { celLibrary } from '../src/rules/cel-library.ts';
import { compileWhen } from '../src/rules/cel-program.ts';
import { type CelBindings, celBindings } from '../src/rules/cel-values.ts';
import { type RuleView, ruleActivation } from '../src/rules/rule-activation.ts';
import { RULE_BOUNDS } from '../src/rules/rule-bounds.ts';
import type { RuleVariables } from '../src/rules/rule-condition.ts';

const PLACES = { home: '/home/u', project: '/home/u/proj' };

const GIT_PUSH: RuleView['commands'][number] = {
  name: 'git',
  argv: ['git', 'push', '-f'],
  options: ['f', 'force'],
  positionals: ['push'],
  redirects: [{ op: '>', target: 'out.txt', mode: 'write', dynamic: false }],
  raw: 'git push -f',
  dynamic: false,
};
const VIEW: RuleView = {
  commands: [GIT_PUSH],
  unreadable: false,
  paths: [{ path: '/home/u/proj/out.txt', real: '/home/u/proj/out.txt', inProject: true, access: 'write' }],
  hosts: ['example.com'],
  mcp: null,
};

function vars(toolInput: Record<string, unknown>, view?: RuleView): RuleVariables {
  return ruleActivation(
    { tool_name: 'Bash', tool_input: toolInput, cwd: '/home/u/proj', session_id: 's' },
    { event: 'PreToolUse', agent: 'claude', project: '/home/u/proj' },
    view,
  );
}

function holds(when: string, v: RuleVariables): unknown {
  const c = compileWhen(when);
  if ('error' in c) throw new Error(c.error);
  return c.condition.test(v, RULE_BOUNDS, PLACES);
}

describe('[G-CEL-1, G-PERF-1] variables wrapped once per call', () => {
  it('a condition reads through the wrappers what it reads from the plain variables', () => {
    const inputs: Record<string, unknown>[] = [
      { command: 'git push -f', timeout: 5, nested: { a: [1, { b: 'x' }] } },
      // Keys the implementation does not read as a plain map: it refuses or reads them the same way.
      { constructor: 'x', command: 'ls' },
      { $typeName: 'google.protobuf.Value', command: 'ls' },
      {},
    ];
    const conditions = [
      'input.command.contains("push")',
      'has(input.timeout) && input.timeout > 1.0',
      'input.nested.a[1].b == "x"',
      'type(input) == map && size(input) > 0',
      'commands.exists(c, c.name == "git" && "force" in c.options && c.redirects[0].mode == "write")',
      'paths.all(p, p.inProject) && hosts[0] == "example.com" && mcp == null && !unreadable',
      'input.missing == 1',
    ];
    const { cel } = celLibrary();
    for (const input of inputs) {
      const v = vars(input, VIEW);
      const wrapped = celBindings(v, cel);
      for (const when of conditions) {
        const a = evaluateWith(when, v);
        const b = evaluateWith(when, wrapped);
        expect(b).toEqual(a);
      }
    }
  });

  it('the same call reads the same wrappers; another call is read afresh', () => {
    const { cel } = celLibrary();
    const first = vars({ command: 'git push origin main' });
    const second = vars({ command: 'npm test' });
    expect(celBindings(first, cel)).toBe(celBindings(first, cel));
    expect(holds('input.command.contains("push")', first)).toEqual({ kind: 'value', value: true });
    expect(holds('input.command.contains("push")', second)).toEqual({ kind: 'value', value: false });
    expect(holds('input.command.contains("push")', first)).toEqual({ kind: 'value', value: true });
    // Two calls' rules interleaved (a hook between them runs another decide): each reads its own.
    expect(holds('input.command.contains("push")', second)).toEqual({ kind: 'value', value: false });
  });

  it('[G-PERF-1] the view lists, their elements wrapped on first read, are never read from another call', () => {
    const { cel } = celLibrary();
    const other: RuleView = {
      ...VIEW,
      commands: [{ ...GIT_PUSH, name: 'npm', options: [], positionals: ['test'] }],
      paths: [{ path: '/tmp/x', real: '/tmp/x', inProject: false, access: 'read' }],
    };
    const first = vars({ command: 'git push -f' }, VIEW);
    const second = vars({ command: 'npm test' }, other);
    const force = 'commands.exists(c, c.name == "git" && "force" in c.options)';
    const inside = 'paths.all(p, p.inProject)';
    // Each rule reads the wrapped list of its own call, also when the calls' rules interleave.
    for (let round = 0; round < 2; round++) {
      expect(holds(force, first)).toEqual({ kind: 'value', value: true });
      expect(holds(force, second)).toEqual({ kind: 'value', value: false });
      expect(holds(inside, first)).toEqual({ kind: 'value', value: true });
      expect(holds(inside, second)).toEqual({ kind: 'value', value: false });
    }
    // The same call's rules share the wrapped list; the wrapper reads as the plain list does.
    const bindings = celBindings(first, cel);
    expect(bindings.commands).toBe(bindings.commands);
    expect(evaluateWith(`${force} && commands[0].redirects[0].target == "out.txt"`, bindings)).toBe(true);
    expect(evaluateWith('commands[0] == {"name": "git"}', bindings)).toEqual(
      evaluateWith('commands[0] == {"name": "git"}', first),
    );
  });

  it('variables that lack one (not made by ruleActivation) are handed over as they are', () => {
    const { cel } = celLibrary();
    const partial: RuleVariables = { tool: 'Bash', input: { command: 'ls' } };
    expect(celBindings(partial, cel)).toBe(partial);
    expect(evaluateWith('commands.size() == 0', celBindings(partial, cel))).toEqual(
      evaluateWith('commands.size() == 0', partial),
    );
  });
});

/** `when` planned with the standard environment over `bindings`, as a comparable value. */
function evaluateWith(when: string, bindings: RuleVariables | CelBindings): unknown {
  const { cel } = celLibrary();
  const program = cel.plan(cel.celEnv(), cel.parse(when));
  const result = program(bindings);
  if (cel.isCelError(result)) return { error: result.message };
  return result;
}
