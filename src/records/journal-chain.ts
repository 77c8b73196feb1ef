/**
 * [T-SELF-3] The journal's hash chain, line by line: every record ends in `"prev"` (the hash of
 * the record before it) and `"hash"` (SHA-256 of the line's own text up to and with `prev`). The
 * hash covers the exact bytes written, so nothing is re-serialized to check it. No zod: the hook
 * path appends through this [R-HOOK-4].
 */
import { createHash } from 'node:crypto';

/** The `prev` of the first record of a chain: nothing came before it. */
export const GENESIS = '0'.repeat(64);

const HASH_TAIL = /,"hash":"([0-9a-f]{64})"\}$/;
const PREV_TAIL = /,"prev":"([0-9a-f]{64})"\}$/;
const UNLOCKED = '"unlocked":true,';

/** One line of a segment as the chain sees it. */
export type ChainLine =
  | { kind: 'blank' }
  /** Not a chained record: an entry written before the chain, or bytes hookwerk did not write. */
  | { kind: 'plain' }
  /** A chained record whose hash matches its text; `unlocked`: appended without the lock. */
  | { kind: 'record'; prev: string; hash: string; unlocked: boolean }
  /** Looks chained, but its text does not hash to its `hash`: changed after it was written. */
  | { kind: 'edited'; prev: string | undefined; hash: string | undefined };

export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * The line (without its newline) for `json` chained to `prev`, and its hash. `json` is the
 * `JSON.stringify` of an object without `prev` or `hash` of its own (they are set here, last). `unlocked`: the
 * writer could not take the lock in time, so this record may fork the chain (said, not a break).
 */
export function chainedJson(json: string, prev: string, unlocked = false): { line: string; hash: string } {
  const mark = unlocked ? UNLOCKED : '';
  const body = `${json.length > 2 ? `${json.slice(0, -1)},` : '{'}${mark}"prev":"${prev}"}`;
  const hash = sha256(body);
  return { line: `${body.slice(0, -1)},"hash":"${hash}"}`, hash };
}

/** What `text` (one line, no newline) is to the chain. */
export function readChainLine(text: string): ChainLine {
  if (text.trim() === '') return { kind: 'blank' };
  const tail = HASH_TAIL.exec(text);
  if (tail !== null) {
    const body = `${text.slice(0, tail.index)}}`;
    const prev = PREV_TAIL.exec(body)?.[1];
    const hash = tail[1] ?? '';
    if (prev !== undefined && sha256(body) === hash) {
      const unlocked = body.endsWith(`${UNLOCKED}"prev":"${prev}"}`);
      return { kind: 'record', prev, hash, unlocked };
    }
    return { kind: 'edited', prev, hash };
  }
  // Not in the shape the writer makes, yet it names a hash: a record re-serialized by hand.
  if (!text.includes('"hash"')) return { kind: 'plain' };
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && 'hash' in value) {
      const hash = typeof value.hash === 'string' ? value.hash : undefined;
      const prev = 'prev' in value && typeof value.prev === 'string' ? value.prev : undefined;
      return { kind: 'edited', prev, hash };
    }
  } catch {
    // Not JSON: not ours.
  }
  return { kind: 'plain' };
}
