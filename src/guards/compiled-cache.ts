/**
 * [G-LIB-1] What a guard compiles from its options and the context (globs of `paths`, `allow`,
 * the kept files), kept by their text so that a call pays for it once per policy and project, not
 * once per call, whether or not the caller hands over the same objects each time. Bounded: the
 * oldest entry goes past `MAX_ENTRIES` (a daemon serves a few projects, not thousands).
 */

const MAX_ENTRIES = 32;

export class CompiledCache<T> {
  readonly #entries = new Map<string, T>();

  get(key: string, make: () => T): T {
    const kept = this.#entries.get(key);
    if (kept !== undefined) return kept;
    const made = make();
    if (this.#entries.size >= MAX_ENTRIES) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    this.#entries.set(key, made);
    return made;
  }
}

/** The key of a context and a list of option strings. */
export function cacheKey(parts: readonly (string | readonly string[] | undefined)[]): string {
  return parts
    .map((p) => (p === undefined ? '' : typeof p === 'string' ? p : p.join('\u0001')))
    .join('\u0000');
}
