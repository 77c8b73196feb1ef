/** Which plugins an event goes to [P-WASM-2]: exact names, `*`, and topic patterns on `prx.lifecycle.<event>`. */
import { topicMatches } from '../bus/topic-trie.ts';
import { PRX_EVENT_NAMES } from '../events/prx-events.ts';

/** True when one of `patterns` (the union of a plugin's capabilities) selects `event`. */
export function patternsMatch(patterns: readonly string[], event: string): boolean {
  const topic = `prx.lifecycle.${event}`;
  for (const p of patterns) {
    if (p === '*' || p === event) return true;
    // Exact names never contain a dot; anything with one is a topic pattern (validated at load).
    if (p.includes('.') && topicMatches(p, topic)) return true;
  }
  return false;
}

/**
 * The per-event lists `emit()` reads: built once per plugin set, so dispatch is one map lookup.
 * Events outside the PRX table get no plugins (emit() rejects them anyway).
 */
export function indexByEvent<T extends { patterns: readonly string[] }>(
  items: readonly T[],
): Map<string, readonly T[]> {
  const index = new Map<string, readonly T[]>();
  for (const event of PRX_EVENT_NAMES) {
    const list = items.filter((it) => patternsMatch(it.patterns, event));
    if (list.length > 0) index.set(event, list);
  }
  return index;
}
