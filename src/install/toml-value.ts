/**
 * [T-MGD-2] Comparing what a TOML file says before and after install changed its text: equality
 * of parsed values (tables in any key order, arrays in order, dates by their TOML text, big
 * integers as bigint), and a value with hookwerk's whole entry groups taken out of `hooks`.
 */
import { TomlDate } from 'smol-toml';
import { isPlainObject } from '../core/plain-object.ts';
import { findOurEntries } from './our-entries.ts';

/** A TOML table as smol-toml returns it (a date is an object too, but no table). */
export function isTable(value: unknown): value is Record<string, unknown> {
  return isPlainObject(value) && !(value instanceof Date);
}

/** Deep equality of two parsed TOML values. */
export function sameToml(a: unknown, b: unknown): boolean {
  if (a instanceof Date || b instanceof Date)
    return a instanceof TomlDate && b instanceof TomlDate && a.toISOString() === b.toISOString();
  if (Array.isArray(a) || Array.isArray(b))
    return (
      Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameToml(x, b[i]))
    );
  if (isTable(a) && isTable(b)) {
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && sameToml(a[k], b[k]))
    );
  }
  return Object.is(a, b);
}

/**
 * `value` without the groups of `hooks.<event>` that hold nothing but our handler, and without
 * the event arrays and the `hooks` table left empty (on both sides of a comparison alike).
 */
export function withoutOurGroups(value: Record<string, unknown>, agent: string): Record<string, unknown> {
  const hooks = value.hooks;
  if (!isTable(hooks)) return value;
  const drop = new Map<string, Set<number>>();
  for (const e of findOurEntries(value, agent)) {
    const index = e.at[2];
    if (e.at.length !== 3 || typeof index !== 'number') continue;
    drop.set(e.event, (drop.get(e.event) ?? new Set()).add(index));
  }
  const left: Record<string, unknown> = {};
  for (const [event, list] of Object.entries(hooks)) {
    if (!Array.isArray(list)) {
      left[event] = list;
      continue;
    }
    const kept = list.filter((_, i) => !drop.get(event)?.has(i));
    if (kept.length > 0) left[event] = kept;
  }
  const out: Record<string, unknown> = { ...value };
  if (Object.keys(left).length > 0) out.hooks = left;
  else delete out.hooks;
  return out;
}
