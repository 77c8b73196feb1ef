/**
 * [G-CEL-1, G-PERF-1] One call's variables as the CEL implementation reads them, wrapped once per
 * call for all its rules. Handed plain data, the implementation wraps a variable that is an object
 * or a list (`input`, `commands`, `paths`…) anew on every read, in every rule; wrapped here once,
 * each read passes the wrapper through. Only the top level is wrapped, as the implementation does
 * it (a map of the object's own entries, a list over the array itself): what lies below is still
 * wrapped by the implementation where a rule reads it, so a rule that reads one field of one
 * command pays for no other. An object the implementation does not take for a map (one whose
 * `constructor` is not `Object`: an input key named `constructor`; one with a `$typeName`) is left
 * as it is, to be read, or refused, as before.
 */
import type * as Cel from '@bufbuild/cel';
import type { RuleValue, RuleVariables } from './rule-condition.ts';

type CelLib = Pick<typeof Cel, 'celList' | 'celMap'>;

/** What a program is handed: a variable's value by name. */
export type CelBindings = Readonly<Record<string, Cel.CelInput>>;

/** A variable's value, its top level wrapped as the implementation would wrap it on each read. */
export function celTopLevel(value: RuleValue, cel: CelLib): Cel.CelInput {
  if (typeof value !== 'object' || value === null || value instanceof Uint8Array) return value;
  if (Array.isArray(value)) return cel.celList(value);
  // The implementation reads a `$typeName` string as a protobuf message, and only an object made
  // by `Object` as a map: anything else stays as it is, for it to read (or refuse) as before.
  if (typeof Reflect.get(value, '$typeName') === 'string') return value;
  if (constructorName(value) !== 'Object') return value;
  return cel.celMap(new Map(Object.entries(value)));
}

/** `value.constructor.name`, read as JavaScript reads it (a primitive boxed); none when it has no constructor. */
function constructorName(value: object): unknown {
  const made: unknown = Reflect.get(value, 'constructor');
  return made === null || made === undefined ? undefined : Reflect.get(Object(made), 'name');
}

const kept = new WeakMap<RuleVariables, CelBindings>();

/**
 * The bindings of one call's variables: the same object for the same `vars` (rule-run.ts makes
 * `vars` once per call), so that every rule of the call reads the same wrappers.
 */
export function celBindings(vars: RuleVariables, cel: CelLib): CelBindings {
  let bindings = kept.get(vars);
  if (bindings === undefined) {
    bindings = Object.fromEntries(
      Object.entries(vars).map(([name, value]) => [name, celTopLevel(value, cel)] as const),
    );
    kept.set(vars, bindings);
  }
  return bindings;
}
