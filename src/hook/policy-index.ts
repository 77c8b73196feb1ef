/**
 * [R-HOOK-4, G-FAIL-1] The fast path's only knowledge of the policy: an index the real loader
 * wrote (`policy-index-write.ts`) from exactly what it loaded — approved project text, strict
 * checks and all — with one stamp per path that load read. `hookwerk hook` answers "no hook may
 * run" without loading the engine only when the index is there and every stamp still holds; any
 * doubt (no index, a stamp moved, an unreadable index, a broken policy) sends the call to the
 * engine, which decides from the approved text. So the fast path never reads a project file
 * itself: an edited, deleted or planted file can only make it do more work, never less.
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { isPlainObject } from '../core/plain-object.ts';
import { readSourceFile } from '../core/read-source.ts';
import { sourcesChanged } from './path-stamps.ts';

/** 2: the fleet policy is among the stamped files (F-BUN-2); an index of 1 never stamped it. */
export const INDEX_VERSION = 2;
/** An index larger than this is not read (it would be a policy of many thousand hooks). */
const MAX_INDEX_BYTES = 512 * 1024;

/** What one configured hook tells the fast path: its matcher as written, and whether it fails closed. */
export interface IndexedHook {
  readonly matcher?: string;
  readonly closed: boolean;
}

export interface PolicyIndex {
  readonly version: number;
  readonly key: string;
  /** The project's real path when the load ran: a project folder moved elsewhere is another policy. */
  readonly realProject: string;
  readonly stamps: ReadonlyArray<readonly [string, string]>;
  /** Some policy file cannot be used: every call goes to the engine, which denies [G-FAIL-1]. */
  readonly unusable: boolean;
  /** Per event, every entry the gate would select from (unapproved ones too: they are reported). */
  readonly events: ReadonlyMap<string, readonly IndexedHook[]>;
}

/** What makes two calls read different policies: the project, the home, and Claude Code asking or not. */
export function indexKey(q: { projectDir: string; home: string; agent: string }): string {
  return JSON.stringify([q.projectDir, q.home, q.agent === 'claude']);
}

/** `<home>/.hookwerk/cache/policy-index/<hash of key>.json` (the key itself is inside, and checked). */
export function indexFile(home: string, key: string): string {
  return path.join(home, '.hookwerk', 'cache', 'policy-index', `${fnv1a(key)}.json`);
}

/** The index as a file holds it: maps as lists of pairs (an event may be named `__proto__`). */
export function indexText(index: PolicyIndex): string {
  return `${JSON.stringify({ ...index, events: [...index.events] })}\n`;
}

/** The index for `key` if it is there, well-formed and every stamp still holds; else undefined. */
export function freshIndex(home: string, key: string, projectDir: string): PolicyIndex | undefined {
  const read = readSourceFile(indexFile(home, key), MAX_INDEX_BYTES);
  if (read.kind !== 'text') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(read.text);
  } catch {
    return undefined;
  }
  const index = asIndex(value);
  if (index === undefined || index.version !== INDEX_VERSION || index.key !== key) return undefined;
  if (realPath(projectDir) !== index.realProject) return undefined;
  if (sourcesChanged({ stamps: new Map(index.stamps), unsure: false })) return undefined;
  return index;
}

export function realPath(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return path.resolve(dir);
  }
}

/** 32-bit FNV-1a, hex: a file name, not a secret (the key is compared after reading). */
export function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

/** The index as written, checked field by field (it is a file on disk like any other). */
function asIndex(value: unknown): PolicyIndex | undefined {
  if (!isPlainObject(value)) return undefined;
  const { version, key, realProject, stamps, unusable, events } = value;
  if (typeof version !== 'number' || typeof key !== 'string' || typeof realProject !== 'string')
    return undefined;
  if (typeof unusable !== 'boolean' || !Array.isArray(stamps) || !Array.isArray(events)) return undefined;
  const pairs: Array<readonly [string, string]> = [];
  for (const pair of stamps) {
    if (!Array.isArray(pair) || pair.length !== 2) return undefined;
    const [file, stamp] = pair;
    if (typeof file !== 'string' || typeof stamp !== 'string') return undefined;
    pairs.push([file, stamp]);
  }
  const byEvent = new Map<string, IndexedHook[]>();
  for (const pair of events) {
    if (!Array.isArray(pair) || pair.length !== 2) return undefined;
    const [event, list] = pair;
    if (typeof event !== 'string' || !Array.isArray(list)) return undefined;
    const hooks: IndexedHook[] = [];
    for (const item of list) {
      if (!isPlainObject(item)) return undefined;
      const { matcher, closed } = item;
      if (typeof closed !== 'boolean' || (matcher !== undefined && typeof matcher !== 'string'))
        return undefined;
      hooks.push(matcher === undefined ? { closed } : { matcher, closed });
    }
    byEvent.set(event, hooks);
  }
  return { version, key, realProject, stamps: pairs, unusable, events: byEvent };
}
