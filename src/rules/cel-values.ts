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
  if (typeof value !== 'object' || value === null || value instanceof Uint8Array) return value;
  if (Array.isArray(value)) return cel.celList(value);
  if (typeof Reflect.get(value, '$typeName') === 'string') return value;
  if (constructorName(value) !== 'Object') return value;
  return cel.celMap(new Map(Object.entries(value)));
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
  // Every name is there (checked by the caller): `null` is never read.
  const at = (name: RuleVariable) => celTopLevel(vars[name] ?? null, cel);
  // Wrapping a top level costs one small object (a list keeps its array), less than a getter.
  return {
    event: at('event'),
    agent: at('agent'),
    tool: at('tool'),
    input: at('input'),
    project: at('project'),
    cwd: at('cwd'),
    session: at('session'),
    commands: at('commands'),
    unreadable: at('unreadable'),
    paths: at('paths'),
    hosts: at('hosts'),
    mcp: at('mcp'),
  };
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
