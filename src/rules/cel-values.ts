/**
 * [G-CEL-1, G-PERF-1] One call's variables as the CEL implementation reads them, wrapped once
 * per call for all its rules. Handed plain data, the implementation wraps a variable that is an
 * object or a list (`input`, `commands`, `paths`…) anew on every read, in every rule; wrapped
 * here once, each read passes the wrapper through. Only the top level
 * is wrapped, as the implementation does it (a map of the object's own entries, a list over the
 * array itself): what lies below is still wrapped where a rule reads it, so a rule that reads one
 * field of one command pays for no other. An object the implementation does not take for a map
 * (a `$typeName` string: a protobuf message to it; a `constructor` that is not `Object`: an input
 * key named `constructor`) is handed over as it is, to be read, or refused, as before.
 * The view's lists (`commands`, `paths`) are wrapped one level deeper, their elements too, and
 * only when a rule of the call first reads them: the implementation turns a plain object into a
 * map through a long chain of type tests, ~0.7 µs an element on every read — `commands.exists(…)`
 * over five commands spent 3.5 of its 12.5 µs there [G-PERF-1].
 */
import type * as Cel from '@bufbuild/cel';
import { RULE_VARIABLES } from './rule-activation.ts';
import type { RuleValue, RuleVariables } from './rule-condition.ts';

type RuleVariable = (typeof RULE_VARIABLES)[number];

type CelLib = Pick<typeof Cel, 'celList' | 'celMap'>;

/** What a program is handed: a variable's value by name. */
export type CelBindings = Readonly<Record<string, Cel.CelInput>>;

/** A variable's value, its top level wrapped as the implementation would wrap it on each read. */
export function celTopLevel(value: RuleValue, cel: CelLib): Cel.CelInput {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return cel.celList(value);
  // The common case first, without the lookups below that miss along the prototype chain
  // (each costs more than the wrapping): an object literal's own keys, no `$typeName` nor
  // `constructor` among them, so its constructor is `Object` — a map [G-PERF-1].
  if (plainLiteral(value)) return cel.celMap(new Map(Object.entries(value)));
  if (value instanceof Uint8Array) return value;
  if (typeof Reflect.get(value, '$typeName') === 'string') return value;
  if (constructorName(value) !== 'Object') return value;
  return cel.celMap(new Map(Object.entries(value)));
}

/** Made as `{…}` (or `Object.fromEntries`): read as a map by the checks of `celTopLevel`, in fewer steps. */
function plainLiteral(value: object): boolean {
  return (
    Object.getPrototypeOf(value) === Object.prototype &&
    !Object.hasOwn(value, '$typeName') &&
    !Object.hasOwn(value, 'constructor') &&
    !Object.hasOwn(Object.prototype, '$typeName') &&
    Object.prototype.constructor === Object
  );
}

/** `value.constructor.name`, read as JavaScript reads it (a primitive boxed); none without a constructor. */
function constructorName(value: object): unknown {
  const made: unknown = Reflect.get(value, 'constructor');
  return made === null || made === undefined ? undefined : Reflect.get(Object(made), 'name');
}

/**
 * The bindings of `vars`: the names a condition may read (RULE_VARIABLES; any other is refused
 * when it is compiled, G-CEL-3), each with its top level wrapped.
 */
function bindingsOf(vars: RuleVariables, cel: CelLib): CelBindings {
  return new CallBindings(vars, cel);
}

/**
 * One call's bindings. Wrapping a top level costs one small object (a list keeps its array), less
 * than a getter; a list of the view's elements costs more, so it is wrapped on its first read, once
 * — by a getter of this class (an object literal's own getters made on every call cost more than
 * they save).
 */
class CallBindings {
  readonly [name: string]: Cel.CelInput;
  readonly event: Cel.CelInput;
  readonly agent: Cel.CelInput;
  readonly tool: Cel.CelInput;
  readonly input: Cel.CelInput;
  readonly project: Cel.CelInput;
  readonly cwd: Cel.CelInput;
  readonly session: Cel.CelInput;
  readonly unreadable: Cel.CelInput;
  readonly hosts: Cel.CelInput;
  readonly mcp: Cel.CelInput;
  readonly #vars: RuleVariables;
  readonly #cel: CelLib;
  #commands: Cel.CelInput | undefined;
  #paths: Cel.CelInput | undefined;

  constructor(vars: RuleVariables, cel: CelLib) {
    // Every name is there (checked by the caller): `null` is never read.
    const at = (name: RuleVariable) => celTopLevel(vars[name] ?? null, cel);
    this.event = at('event');
    this.agent = at('agent');
    this.tool = at('tool');
    this.input = at('input');
    this.project = at('project');
    this.cwd = at('cwd');
    this.session = at('session');
    this.unreadable = at('unreadable');
    this.hosts = at('hosts');
    this.mcp = at('mcp');
    this.#vars = vars;
    this.#cel = cel;
  }

  get commands(): Cel.CelInput {
    this.#commands ??= celElements(this.#vars.commands ?? null, this.#cel);
    return this.#commands;
  }

  get paths(): Cel.CelInput {
    this.#paths ??= celElements(this.#vars.paths ?? null, this.#cel);
    return this.#paths;
  }
}

/**
 * A list with each element's top level wrapped as the implementation would wrap it on each read
 * (a list of wrapped values is read as they are); anything else as `celTopLevel` wraps it.
 */
export function celElements(value: RuleValue, cel: CelLib): Cel.CelInput {
  if (!Array.isArray(value)) return celTopLevel(value, cel);
  return cel.celList(value.map((element: RuleValue) => celTopLevel(element, cel)));
}

/**
 * The last call's bindings: its rules run one after another, synchronously, over the same `vars`
 * object (rule-run.ts makes it once per call and never changes it), so one entry serves them all,
 * and a new `vars` (the next call) is always bound afresh.
 */
let last: { vars: RuleVariables; bindings: CelBindings } | undefined;

/**
 * The bindings of one call's variables; `vars` itself when it lacks a variable (not made by
 * `ruleActivation`: a unit test's), so that a missing name stays missing, as it was.
 */
export function celBindings(vars: RuleVariables, cel: CelLib): CelBindings {
  if (last?.vars === vars) return last.bindings;
  const whole = RULE_VARIABLES.every((name) => vars[name] !== undefined);
  last = { vars, bindings: whole ? bindingsOf(vars, cel) : vars };
  return last.bindings;
}
