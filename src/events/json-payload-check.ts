/**
 * Payloads that cannot become JSON are refused at the door (issue 11). Hooks get the envelope as
 * JSON, built lazily after `emit()` returned; a payload that `JSON.stringify` chokes on (a cycle, a
 * BigInt, thousands of levels that overflow the stack) used to be accepted and then fail every hook
 * as `spawn_error`. Now `emit()` throws a TypeError naming the problem and where it is.
 *
 * One walk, no bookkeeping on the way down: a cycle never ends, so it always runs past the depth
 * limit; only then are the containers on that path compared, to say "cycle" rather than "too deep".
 *
 * What passes, as JSON.stringify treats it: functions, symbols and `undefined` (left out), NaN and
 * Infinity (null), objects with `toJSON` (Date, Buffer: not looked into), Map/Set (`{}`), shared
 * but acyclic references. A BigInt passes when the embedder gave `BigInt.prototype` a `toJSON`.
 */

import { errorMessage } from '../core/errno.ts';
import { HookInputError } from '../core/errors.ts';
import { jsonPath } from '../core/issues.ts';
import { MAX_HOOK_JSON_DEPTH } from '../core/json-text.ts';

/** Deepest nesting a payload may have; the payload object itself is level 1 (the answers' bound too). */
export const MAX_PAYLOAD_DEPTH = MAX_HOOK_JSON_DEPTH;

/** Path segments shown for a too-deep payload before `…`. */
const SHOWN_SEGMENTS = 8;

type Key = string | number;

/** What the walk found; the path is filled in while the recursion unwinds, innermost first. */
interface Failure {
  kind: 'depth' | 'bigint';
  keys: Key[];
  /** The containers along `keys`, innermost first; for `depth`, the one too deep comes first. */
  chain: object[];
}

/**
 * The problem with `value` as a JSON payload, or `undefined`; `root` names it (`payload`,
 * `context`). The top level is walked here and only objects found in it go through `walk`: a
 * flat payload, the usual one, costs one for…in (emit() is a hot path). The top level's own
 * `toJSON` is not asked: its keys are checked either way, which can only be stricter.
 */
export function jsonPayloadProblem(value: object, root: string): HookInputError | undefined {
  try {
    if (!isRecord(value)) return described(walk(value, 1), root);
    for (const key in value) {
      const item = value[key];
      if (typeof item === 'object' ? item !== null : typeof item === 'bigint') {
        const failure = check(item, 2);
        if (failure !== undefined && Object.hasOwn(value, key)) {
          return describe(unwind(failure, key, value), root);
        }
      }
    }
    return undefined;
  } catch (err) {
    // A getter or proxy trap threw: JSON.stringify would throw the same later, in every hook.
    return new HookInputError(root, `${root} could not be read: ${errorMessage(err)}`);
  }
}

/** Throws the problem found by `jsonPayloadProblem`. */
export function assertJsonPayload(value: object, root: string): void {
  const problem = jsonPayloadProblem(value, root);
  if (problem !== undefined) throw problem;
}

function isRecord(value: object): value is Record<string, unknown> {
  return !Array.isArray(value);
}

/** A value found at `depth`: objects are walked, a BigInt fails, anything else passes. */
function check(item: unknown, depth: number): Failure | undefined {
  if (typeof item === 'bigint') return bigintFailure();
  return typeof item === 'object' && item !== null ? walk(item, depth) : undefined;
}

/**
 * for…in and no hasOwn test per key (that doubled the cost of a flat payload): JSON only sees own
 * keys, so an inherited key counts only when it is the one that failed. Typed arrays need no case
 * of their own: their items are numbers, or BigInts, which fail as such.
 */
function walk(value: object, depth: number): Failure | undefined {
  if (depth > MAX_PAYLOAD_DEPTH) return { kind: 'depth', keys: [], chain: [value] };
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (typeof item === 'object' ? item !== null : typeof item === 'bigint') {
        const failure = check(item, depth + 1);
        if (failure !== undefined) return unwind(failure, i, value);
      }
    }
    return undefined;
  }
  if (!isRecord(value)) return undefined; // (arrays were handled above; this narrows the type)
  // JSON.stringify calls toJSON and never looks inside (Date, Buffer, Decimal…).
  if (typeof value.toJSON === 'function') return undefined;
  for (const key in value) {
    const item = value[key];
    if (typeof item === 'object' ? item !== null : typeof item === 'bigint') {
      const failure = check(item, depth + 1);
      if (failure !== undefined && Object.hasOwn(value, key)) return unwind(failure, key, value);
    }
  }
  return undefined;
}

function described(failure: Failure | undefined, root: string): HookInputError | undefined {
  return failure === undefined ? undefined : describe(failure, root);
}

function unwind(failure: Failure, key: Key, container: object): Failure {
  failure.keys.push(key);
  failure.chain.push(container);
  return failure;
}

/** A BigInt throws in JSON.stringify unless the embedder taught it `toJSON`. */
function bigintFailure(): Failure | undefined {
  if (typeof Reflect.get(BigInt.prototype, 'toJSON') === 'function') return undefined;
  return { kind: 'bigint', keys: [], chain: [] };
}

function pathOf(root: string, keys: readonly Key[]): string {
  return jsonPath([root, ...keys]).slice(2);
}

function describe(failure: Failure, root: string): HookInputError {
  const keys = failure.keys.reverse();
  if (failure.kind === 'bigint') {
    const at = pathOf(root, keys);
    return new HookInputError(
      at,
      `${at} is a BigInt, which JSON cannot carry (send it as a string or a number)`,
    );
  }
  // chain, root first: chain[i] is the container reached by keys[0..i).
  const chain = failure.chain.reverse();
  const firstSeen = new Map<object, number>();
  for (let j = 0; j < chain.length; j++) {
    const container = chain[j]!;
    const i = firstSeen.get(container);
    if (i !== undefined) {
      const at = pathOf(root, keys.slice(0, j));
      return new HookInputError(
        at,
        `${at} refers back to ${pathOf(root, keys.slice(0, i))}: a cyclic ${root} cannot be sent as JSON`,
      );
    }
    firstSeen.set(container, j);
  }
  const shown = pathOf(root, keys.slice(0, SHOWN_SEGMENTS));
  return new HookInputError(
    root,
    `${root} is nested more than ${MAX_PAYLOAD_DEPTH} levels deep (at ${shown}…); hooks get it as JSON, which hookwerk bounds at ${MAX_PAYLOAD_DEPTH} levels`,
  );
}
