/**
 * [G-LIB-1, G-FAIL-1] A policy file's `guards: {NAME: true | false | {decision?, except?, …options}}`
 * read strictly: a guard name hookwerk does not ship, a value of another type, a `decision` other
 * than `deny`/`ask`, an `except` entry that does not read, or an option the guard does not know
 * (or of the wrong type) is an error of the file, at its JSON path — a guard that silently lost an
 * option would guard something else than what was written. `strict.ts` reports the problems;
 * `guards.ts` builds the layer from the settings of the files in force.
 */
import { z } from 'zod';
import { type ConfigIssue, fromZodIssues, jsonPath } from '../../core/issues.ts';
import { looksLike } from '../../core/looks-like.ts';
import { isPlainObject } from '../../core/plain-object.ts';
import { GUARD_TABLE, type ShippedGuard } from '../../guards/guard-table.ts';
import type { HookScope } from '../../registry/hook-definition.ts';
import { exceptProblem } from './guard-except.ts';

/**
 * [T-SELF-1] Whether a policy file of `scope` may turn off (or loosen: `ask`, `except`)
 * a guard that is on by default (`self-protect`): only the managed policy
 * (`/etc/hookwerk/policy.json`, loaded with scope `managed`) may; a user or project file's `false`
 * is ignored with a warning, and its `ask` or `except` only shapes an extra instance of its own.
 */
export function mayTurnOffDefaultGuards(scope: HookScope | undefined): boolean {
  return scope === 'managed';
}

export type GuardDecision = 'deny' | 'ask';

/** What one file says about one guard. */
export interface GuardSetting {
  readonly guard: ShippedGuard;
  /** `false` in the file: it does not turn the guard on (it never turns off another file's). */
  readonly on: boolean;
  readonly decision: GuardDecision;
  readonly except: readonly string[];
  /** The guard's own options, parsed by its schema (defaults filled in). */
  readonly options: unknown;
}

const COMMON = z.strictObject({
  decision: z.enum(['deny', 'ask'], 'decision must be "deny" or "ask"').optional(),
  except: z.array(z.string()).optional(),
});

const unknownOption = (guard: string) => (_at: ReadonlyArray<PropertyKey>, key: string) =>
  `unknown option "${key}" of guard "${guard}" (a policy file is strict: check its spelling)`;

/** The guard's options schema, strict whatever it was written as (an unknown option is an error). */
function strictOptions(guard: ShippedGuard): z.ZodType {
  return guard.options instanceof z.ZodObject ? guard.options.strict() : guard.options;
}

/** A likely typo of a shipped guard's name (`force_push`, `forcepush`, `destructive-delet`). */
function near(name: string, table: readonly ShippedGuard[]): string | undefined {
  const bare = (n: string) => n.toLowerCase().replace(/[-_ ]/g, '');
  return table.find((g) => bare(g.name) === bare(name) || looksLike(g.name, name))?.name;
}

/**
 * The settings of a file's `guards` value, in the table's order (the order they run, G-LIB-2), and
 * every problem of it (errors and warnings) as issues of `file`.
 */
export function readGuardSettings(
  file: string,
  value: unknown,
  table: readonly ShippedGuard[] = GUARD_TABLE,
  /** [T-MGD-1] Whose file: only the managed policy's `false` turns a guard on by default off. */
  scope?: HookScope,
): { settings: GuardSetting[]; problems: ConfigIssue[] } {
  const problems: ConfigIssue[] = [];
  if (value === undefined) return { settings: [], problems };
  if (!isPlainObject(value))
    return { settings: [], problems: [{ file, path: '$.guards', message: 'guards must be an object' }] };
  const byName = new Map<string, GuardSetting>();
  for (const [name, given] of Object.entries(value)) {
    const at = ['guards', name];
    const guard = table.find((g) => g.name === name);
    if (guard === undefined) {
      const guess = near(name, table);
      problems.push({
        file,
        path: jsonPath(at),
        message:
          guess !== undefined
            ? `unknown guard "${name}": did you mean "${guess}"?`
            : `unknown guard "${name}" (the guards are ${table.map((g) => g.name).join(', ')})`,
      });
      continue;
    }
    const setting = readOne(file, guard, given, at, problems, mayTurnOffDefaultGuards(scope));
    if (setting !== undefined) byName.set(name, setting);
  }
  const settings = table.flatMap((g) => {
    const s = byName.get(g.name);
    return s === undefined ? [] : [s];
  });
  return { settings, problems };
}

function readOne(
  file: string,
  guard: ShippedGuard,
  given: unknown,
  at: PropertyKey[],
  problems: ConfigIssue[],
  managed: boolean,
): GuardSetting | undefined {
  const base = { guard, decision: guard.defaultDecision, except: [] as string[] };
  if (given === false) {
    if (guard.onByDefault === true && !managed)
      problems.push({
        file,
        path: jsonPath(at),
        message: `"${guard.name}": false is ignored: only a managed policy turns this guard off`,
        level: 'warning',
      });
    return { ...base, on: false, options: undefined };
  }
  const object = given === true ? {} : given;
  if (!isPlainObject(object)) {
    problems.push({
      file,
      path: jsonPath(at),
      message: `a guard is true, false or an object of its options (got ${given === null ? 'null' : typeof given})`,
    });
    return undefined;
  }
  const { decision, except, ...own } = object;
  const common = COMMON.safeParse({ decision, except });
  const options = strictOptions(guard).safeParse(own);
  const before = problems.length;
  if (!common.success)
    problems.push(...fromZodIssues(file, common.error.issues, unknownOption(guard.name), at));
  if (!options.success)
    problems.push(...fromZodIssues(file, options.error.issues, unknownOption(guard.name), at));
  (common.data?.except ?? []).forEach((entry, i) => {
    const problem = exceptProblem(entry);
    if (problem !== undefined)
      problems.push({ file, path: jsonPath([...at, 'except', i]), message: problem });
  });
  if (problems.length > before || !common.success || !options.success) return undefined;
  const loosens = common.data.decision === 'ask' || (common.data.except ?? []).length > 0;
  if (guard.onByDefault === true && !managed && loosens)
    problems.push({
      file,
      path: jsonPath(at),
      message: `"${guard.name}" stays on as shipped (deny, no except): this file's ask or except applies only to its own extra check; only a managed policy changes it`,
      level: 'warning',
    });
  return {
    ...base,
    on: true,
    decision: common.data.decision ?? guard.defaultDecision,
    except: common.data.except ?? [],
    options: options.data,
  };
}
