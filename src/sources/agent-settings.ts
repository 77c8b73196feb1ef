/**
 * The lenient reading that Claude Code and Gemini CLI settings files need [C-SRC-3, G-SRC-1]:
 * any event name, unknown fields ignored (validate warns), a bad handler skipped with a warning —
 * never the whole file. Only a file that is not JSON (or not readable) is skipped whole.
 */
import type { z } from 'zod';
import { type ConfigIssue, jsonPath } from '../core/issues.ts';
import { isPlainObject } from '../core/plain-object.ts';

/** One handler as found in a file, before its dialect validates it. */
export interface RawHandler {
  event: string;
  /** Index of the definition (matcher group) in the event's list, and of the handler in it. */
  group: number;
  index: number;
  /** JSON path segments of the handler inside its file. */
  at: PropertyKey[];
  matcher: string | undefined;
  /** [G-RUN-1] The definition asked for `sequential: true`. */
  sequential: boolean;
  handler: object;
  /** What names it before it is validated (an unapproved file's listing); default its `command`. */
  name?: string;
}

/** How a `hooks` map is shaped beyond Claude's. */
interface WalkOptions {
  /**
   * [A-COP-1] An entry of an event's list may be a handler itself (no `hooks` list), or one
   * `{matcher?, hooks: [...]}` group of handlers; a handler with its own `hooks` is nested too deep.
   */
  flat?: boolean;
}

/**
 * Every handler of a `hooks` map `{EVENT: [{matcher?, hooks: [HANDLER…]}]}` at `base` in `file`.
 * Shapes that cannot be read are reported in `warnings` and skipped, one level at a time.
 * `settingKeys` are keys of the map that are settings, not events (Gemini's `enabled`, `disabled`).
 */
export function walkAgentHooks(
  file: string,
  map: unknown,
  base: PropertyKey[],
  warnings: ConfigIssue[],
  settingKeys: ReadonlySet<string> = new Set(),
  options: WalkOptions = {},
): RawHandler[] {
  const out: RawHandler[] = [];
  const warn = (at: PropertyKey[], message: string) => warnings.push({ file, path: jsonPath(at), message });
  eachEventList(file, map, base, warnings, 'matcher groups', settingKeys, (event, defs, eventAt) => {
    defs.forEach((def: unknown, g) => {
      const groupAt = [...eventAt, g];
      if (!isPlainObject(def)) {
        warn(groupAt, 'must be an object {matcher?, hooks: [...]}; skipped');
        return;
      }
      if (options.flat === true && !Object.hasOwn(def, 'hooks')) {
        out.push({
          event,
          group: g,
          index: 0,
          at: groupAt,
          matcher: undefined,
          sequential: false,
          handler: def,
        });
        return;
      }
      const rawMatcher: unknown = Reflect.get(def, 'matcher');
      let matcher: string | undefined;
      if (typeof rawMatcher === 'string') matcher = rawMatcher;
      else if (rawMatcher !== undefined) {
        warn([...groupAt, 'matcher'], 'must be a string; this group is skipped');
        return;
      }
      const hooks: unknown = Reflect.get(def, 'hooks');
      if (!Array.isArray(hooks)) {
        warn([...groupAt, 'hooks'], 'must be a list of handlers; this group is skipped');
        return;
      }
      const sequential = Reflect.get(def, 'sequential') === true;
      hooks.forEach((handler: unknown, h) => {
        const at = [...groupAt, 'hooks', h];
        if (!isPlainObject(handler)) {
          warn(at, 'must be an object; this handler is skipped');
          return;
        }
        if (options.flat === true && Object.hasOwn(handler, 'hooks')) {
          warn(at, 'nested hooks deeper than one level are not supported; this handler is skipped');
          return;
        }
        out.push({ event, group: g, index: h, at, matcher, sequential, handler });
      });
    });
  });
  return out;
}

/**
 * Each event's list of a `hooks` map at `base` (`{EVENT: [...]}`), for the walkers of every
 * dialect's shape: a map that is not an object, or an event whose value is not a list (of
 * `what`), is reported in `warnings` and skipped; `settingKeys` are not events.
 */
export function eachEventList(
  file: string,
  map: unknown,
  base: PropertyKey[],
  warnings: ConfigIssue[],
  what: string,
  settingKeys: ReadonlySet<string>,
  visit: (event: string, list: unknown[], eventAt: PropertyKey[]) => void,
): void {
  if (map === undefined) return;
  if (!isPlainObject(map)) {
    warnings.push({ file, path: jsonPath(base), message: 'hooks must be an object of events; skipped' });
    return;
  }
  for (const [event, list] of Object.entries(map)) {
    if (settingKeys.has(event)) continue;
    const eventAt = [...base, event];
    if (!Array.isArray(list))
      warnings.push({
        file,
        path: jsonPath(eventAt),
        message: `must be a list of ${what}; this event is skipped`,
      });
    else visit(event, list, eventAt);
  }
}

/**
 * Validates one handler against its schema; a problem skips this handler (with a warning naming
 * the field), and every key outside `known` is a warning only.
 */
export function readHandler<S extends z.ZodType>(
  file: string,
  raw: RawHandler,
  schema: S,
  known: ReadonlySet<string>,
  warnings: ConfigIssue[],
): z.output<S> | undefined {
  for (const key of Object.keys(raw.handler)) {
    if (!known.has(key))
      warnings.push({
        file,
        path: jsonPath([...raw.at, key]),
        message: `unknown field "${key}" (ignored)`,
        level: 'warning',
      });
  }
  const parsed = schema.safeParse(raw.handler);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue !== undefined ? [...raw.at, ...issue.path] : raw.at;
  const why = (issue?.message ?? 'invalid').replace(/\s*\n\s*/g, ' ');
  warnings.push({ file, path: jsonPath(where), message: `${why}; this handler is skipped` });
  return undefined;
}
