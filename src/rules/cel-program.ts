/**
 * [G-CEL-1..3] A `rule` handler's `when`, compiled once (at load, and cached by its text) and
 * evaluated on each call within its bounds:
 * - Compiling parses the CEL text, then walks the tree once: it refuses a text over 4 KiB, a tree
 *   deeper than MAX_WHEN_DEPTH, a name that is no variable (a typo `tol == "Bash"` would otherwise
 *   be an error on every call, a guard that silently never speaks), a function that does not
 *   exist or takes other arguments; and it puts a step meter around the loop condition of every
 *   comprehension (`all`, `exists`, `exists_one`, `map`, `filter`), since the implementation has
 *   no cost limit of its own. Errors are one line: `CEL syntax error at 1:16: …`.
 * - Evaluating runs the plan over the call's variables with the meter set: past the step limit or
 *   the wall-clock budget the meter errors, which ends the loop it is in at once, and every loop
 *   around it at its next step; the result is then discarded, whatever `||` made of the error. A
 *   result that is not a bool is an error. Nothing is ever thrown to the caller.
 * Evaluation is synchronous, so the meter and the places `glob`/`inside` resolve against are one
 * per process, set afresh at the start of each evaluation.
 */
import type * as Cel from '@bufbuild/cel';
import { errorMessage } from '../core/errno.ts';
import { type CelLibrary, celLibrary } from './cel-library.ts';
import { celBindings } from './cel-values.ts';
import { globMatches, insideFolder } from './path-functions.ts';
import { RULE_VARIABLES } from './rule-activation.ts';
import { MAX_WHEN_BYTES, MAX_WHEN_DEPTH } from './rule-bounds.ts';
import type { RuleBounds, RuleCondition, RulePlaces, RuleTest, RuleVariables } from './rule-condition.ts';

type ParsedExpr = ReturnType<typeof Cel.parse>;
type Expr = ParsedExpr['expr'];
type Comprehension = Extract<Expr['exprKind'], { case: 'comprehensionExpr' }>['value'];
type Program = ReturnType<typeof Cel.plan>;

/** The meter's function: named so that no CEL text can call it (`@` starts no identifier). */
const TICK = '@hookwerk_step';
/** Type names CEL lets an expression name as values (`type(x) == string`). */
const TYPE_NAMES = new Set([
  'bool',
  'bytes',
  'double',
  'dyn',
  'int',
  'list',
  'map',
  'null_type',
  'string',
  'type',
  'uint',
]);
const VARIABLES: ReadonlySet<string> = new Set(RULE_VARIABLES);

export type Compiled = { readonly condition: RuleCondition } | { readonly error: string };

// ---------------------------------------------------------------------------------------------
// The one evaluation in progress (evaluation is synchronous).

class Meter {
  steps = 0;
  exhausted: string | undefined;
  #bounds: RuleBounds | undefined;
  #deadline = 0;
  places: RulePlaces = { home: '/', project: '/' };

  start(bounds: RuleBounds, places: RulePlaces): void {
    this.steps = 0;
    this.exhausted = undefined;
    this.#bounds = bounds;
    this.#deadline = bounds.now() + bounds.budgetMs;
    this.places = places;
  }

  /** One comprehension step; throws (an error value to CEL) once a bound is passed. */
  step(): void {
    const bounds = this.#bounds;
    if (bounds === undefined) return;
    if (this.exhausted === undefined) {
      if (++this.steps > bounds.maxSteps)
        this.exhausted = `ran out of its budget (over ${bounds.maxSteps} comprehension steps)`;
      else if (bounds.now() > this.#deadline)
        this.exhausted = `ran out of its budget (${bounds.budgetMs} ms)`;
    }
    if (this.exhausted !== undefined) throw new Error(this.exhausted);
  }

  /** After the evaluation: the budget, spent or not (a slow run without loops counts too). */
  finish(): string | undefined {
    const bounds = this.#bounds;
    this.#bounds = undefined;
    if (this.exhausted === undefined && bounds !== undefined && bounds.now() > this.#deadline)
      this.exhausted = `ran out of its budget (${bounds.budgetMs} ms)`;
    return this.exhausted;
  }
}

const meter = new Meter();

// ---------------------------------------------------------------------------------------------
// The environment: CEL's standard functions, the strings extension, the helpers and the meter.

let environment: { lib: CelLibrary; env: ReturnType<typeof Cel.celEnv> } | undefined;

function celEnvironment() {
  if (environment !== undefined) return environment;
  const lib = celLibrary();
  const { celEnv, celFunc, CelScalar } = lib.cel;
  const { BOOL, STRING } = CelScalar;
  const funcs = [
    ...lib.ext.strings,
    celFunc('glob', [STRING, STRING], BOOL, (text, pattern) => globMatches(text, pattern, meter.places)),
    celFunc('inside', [STRING, STRING], BOOL, (text, folder) => insideFolder(text, folder, meter.places)),
    celFunc(TICK, [BOOL], BOOL, (b) => {
      meter.step();
      return b;
    }),
  ];
  environment = { lib, env: celEnv({ funcs }) };
  warmUp(lib, environment.env);
  return environment;
}

/**
 * The implementation sets parts of itself up on first use (the first `in` over a list costs ~10 ms
 * here): that happens once, now, while rules are compiled, never inside a rule's 10 ms budget. So
 * a cold `hookwerk hook` process does not spend its rules' budgets on start-up work.
 */
const WARM_UP = [
  '"a" in ["a"] && "a" in {"a": 1.0} && m.a == 1.0 && has(m.a) && !has(m.b) && size(m) == 1',
  '[1, 2].exists(x, x == 2) && [1].all(x, x > 0) && [1].exists_one(x, x == 1)',
  '[1].map(x, x * 2).size() == 1 && [1].filter(x, x > 0).size() == 1 && [1, 2][1] == 2',
  '"ab".contains("a") && "ab".startsWith("a") && "ab".endsWith("b") && "ab".matches("^a.$")',
  '"a,b".split(",").size() == 2 && "A".lowerAscii() == "a" && size("x") == 1 && int("1") == 1',
  'glob("/a/b", "/a/*") && inside("/a/b", "/a") && type(m) == map && string(1) == "1"',
].join(' && ');

function warmUp(lib: CelLibrary, env: ReturnType<typeof Cel.celEnv>): void {
  try {
    lib.cel.plan(env, lib.cel.parse(WARM_UP))({ m: { a: 1 } });
  } catch {
    // Only a warm-up: a rule that fails for the same reason says so itself.
  }
}

// ---------------------------------------------------------------------------------------------
// Compiling

const cache = new Map<string, Compiled>();
const MAX_CACHED = 512;

/** Compiles `when` (cached by its text); `error` is one line, for `<file>: <JSON path>: …`. */
export function compileWhen(when: string): Compiled {
  const known = cache.get(when);
  if (known !== undefined) return known;
  const compiled = compileNew(when);
  if (cache.size >= MAX_CACHED) cache.clear();
  cache.set(when, compiled);
  return compiled;
}

function compileNew(when: string): Compiled {
  const bytes = Buffer.byteLength(when, 'utf8');
  if (bytes > MAX_WHEN_BYTES)
    return {
      error: `the condition is ${bytes} bytes long; a rule's "when" may be at most ${MAX_WHEN_BYTES}`,
    };
  if (when.trim() === '') return { error: 'the condition is empty' };
  const { lib, env } = celEnvironment();
  let parsed: ParsedExpr;
  try {
    parsed = lib.cel.parse(when);
  } catch (err) {
    return { error: syntaxError(err) };
  }
  const walk = new Walk(env);
  const problem = walk.visit(parsed.expr, VARIABLES, 0);
  if (problem !== undefined) return { error: problem };
  let program: Program;
  try {
    program = lib.cel.plan(env, parsed);
  } catch (err) {
    return { error: `the condition cannot be planned: ${oneLine(errorMessage(err))}` };
  }
  return { condition: new CelCondition(when, program, lib) };
}

function syntaxError(err: unknown): string {
  if (err instanceof RangeError) return `the condition nests too deeply (over ${MAX_WHEN_DEPTH} levels)`;
  const text = oneLine(errorMessage(err));
  const at = /^<input>:(\d+):(\d+): (.*)$/.exec(text);
  return at === null ? `CEL syntax error: ${text}` : `CEL syntax error at ${at[1]}:${at[2]}: ${at[3]}`;
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}

/** One pass over the tree: checks names and depth, meters comprehensions, numbers new nodes. */
class Walk {
  #nextId = 1n << 40n;
  readonly #env: ReturnType<typeof Cel.celEnv>;

  constructor(env: ReturnType<typeof Cel.celEnv>) {
    this.#env = env;
  }

  visit(expr: Expr | undefined, scope: ReadonlySet<string>, depth: number): string | undefined {
    if (expr === undefined) return undefined;
    if (depth > MAX_WHEN_DEPTH) return `the condition nests too deeply (over ${MAX_WHEN_DEPTH} levels)`;
    const kind = expr.exprKind;
    const next = depth + 1;
    switch (kind.case) {
      case 'identExpr':
        return scope.has(kind.value.name) || TYPE_NAMES.has(kind.value.name)
          ? undefined
          : `unknown variable "${kind.value.name}" (a condition reads ${RULE_VARIABLES.join(', ')})`;
      case 'selectExpr':
        return this.visit(kind.value.operand, scope, next);
      case 'callExpr': {
        const call = kind.value;
        const problem = this.#callProblem(call.function, call.target !== undefined, call.args.length);
        if (problem !== undefined) return problem;
        return this.#visitAll([call.target, ...call.args], scope, next);
      }
      case 'listExpr':
        return this.#visitAll(kind.value.elements, scope, next);
      case 'structExpr':
        return this.#visitAll(
          kind.value.entries.flatMap((e) => [
            e.keyKind.case === 'mapKey' ? e.keyKind.value : undefined,
            e.value,
          ]),
          scope,
          next,
        );
      case 'comprehensionExpr':
        return this.#comprehension(kind.value, scope, next);
      default:
        return undefined;
    }
  }

  #visitAll(exprs: ReadonlyArray<Expr | undefined>, scope: ReadonlySet<string>, depth: number) {
    for (const e of exprs) {
      const problem = this.visit(e, scope, depth);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }

  /** [G-CEL-2] The loop's variables in scope for its body; its condition metered on every step. */
  #comprehension(c: Comprehension, scope: ReadonlySet<string>, depth: number): string | undefined {
    const outer = this.#visitAll([c.iterRange, c.accuInit], scope, depth);
    if (outer !== undefined) return outer;
    const inner = new Set([...scope, c.accuVar, c.iterVar, ...(c.iterVar2 === '' ? [] : [c.iterVar2])]);
    const body = this.#visitAll([c.loopCondition, c.loopStep], inner, depth);
    if (body !== undefined) return body;
    const result = this.visit(c.result, new Set([...scope, c.accuVar]), depth);
    if (result !== undefined) return result;
    if (c.loopCondition !== undefined) c.loopCondition = this.#metered(c.loopCondition);
    return undefined;
  }

  #metered(condition: Expr): Expr {
    return {
      $typeName: 'cel.expr.Expr',
      id: this.#nextId++,
      exprKind: {
        case: 'callExpr',
        value: { $typeName: 'cel.expr.Expr.Call', function: TICK, args: [condition] },
      },
    };
  }

  /** A named function (operators are `_x_`, `@x`, `!_`…) must exist with this many arguments. */
  #callProblem(name: string, method: boolean, count: number): string | undefined {
    if (!/^[A-Za-z]/.test(name)) return undefined;
    const group = this.#env.funcs.find(name);
    if (group === undefined) return `unknown function ${name}()`;
    for (const f of group)
      if (f.arguments.length === count && (f.target !== undefined) === method) return undefined;
    const form = method ? `x.${name}()` : `${name}()`;
    return `${form} does not take ${count} argument${count === 1 ? '' : 's'}`;
  }
}

// ---------------------------------------------------------------------------------------------
// Evaluating

class CelCondition implements RuleCondition {
  readonly when: string;
  readonly #program: Program;
  readonly #lib: CelLibrary;

  constructor(when: string, program: Program, lib: CelLibrary) {
    this.when = when;
    this.#program = program;
    this.#lib = lib;
  }

  test(vars: RuleVariables, bounds: RuleBounds, places: RulePlaces): RuleTest {
    meter.start(bounds, places);
    let result: Cel.CelResult | undefined;
    let thrown: string | undefined;
    try {
      // Converted once per call, on first read, for all its rules [G-PERF-1].
      result = this.#program(celBindings(vars, this.#lib.cel));
    } catch (err) {
      // The implementation returns errors as values; a stack overflow still throws.
      thrown = oneLine(errorMessage(err));
    }
    const exhausted = meter.finish();
    if (exhausted !== undefined)
      return { kind: 'budget', message: exhausted, byTime: !exhausted.includes('comprehension steps') };
    if (thrown !== undefined || result === undefined)
      return { kind: 'error', message: thrown ?? 'no result' };
    const { isCelError, celType } = this.#lib.cel;
    if (isCelError(result)) return { kind: 'error', message: runtimeError(result.message) };
    if (typeof result === 'boolean') return { kind: 'value', value: result };
    return { kind: 'error', message: `the condition's value is of type ${celType(result).name}, not bool` };
  }
}

/** [G-CEL-2] A missing key is an error, never a silent false: the message says how to test for one. */
function runtimeError(message: string): string {
  const text = oneLine(message);
  const missing = /^field not found: (.+)$/.exec(text);
  return missing === null ? text : `no such key: ${missing[1]} (test for a key with has() first)`;
}
