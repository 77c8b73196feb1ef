import { createHash } from 'node:crypto';

/**
 * Ids for hand-written hooks that have none (issue 11: reads never write). A read must not write
 * the file just to name them, yet the id a client sees must still work in a later write. So the
 * id is derived from what the person wrote, and the first API write stores that same id.
 *
 * `hand_` + 12 hex digits of SHA-256 over (event, salt, the action as canonical JSON): the same
 * action keeps its id across reads, restarts, reformatting and moves within its event's list;
 * editing it by hand (before an API write stored the id) makes it a new hook. The salt counts up
 * past ids already taken, so two identical actions, or an id a person chose, never collide.
 * It never looks like `hook_NN`, so it never moves the API's id counter.
 */
export function derivedHookId(
  event: string,
  action: Readonly<Record<string, unknown>>,
  taken: ReadonlySet<string>,
): string {
  const content = canonicalJson(action);
  for (let salt = 0; ; salt++) {
    const digest = createHash('sha256').update(`${event}\n${salt}\n${content}`).digest('hex');
    const id = `hand_${digest.slice(0, 12)}`;
    if (!taken.has(id)) return id;
  }
}

/** JSON with every object's keys sorted: key order and whitespace do not change an id. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([k, v]) => [k, sortKeys(v)]));
}
