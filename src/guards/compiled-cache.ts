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

/**
 * [G-PERF-1] A cache in front of a `CompiledCache` by the identity of the two objects a value is
 * made from (a guard's parsed options and its context, both made once per load and never changed),
 * so that a call whose objects were seen before builds no key text. A new load brings new objects,
 * which go to the keyed cache again.
 */
export class CompiledByObjects<T> {
  readonly #keyed = new CompiledCache<T>();
  readonly #seen = new WeakMap<object, WeakMap<object, T>>();

  getFor(a: object, b: object, key: () => string, make: () => T): T {
    let byB = this.#seen.get(a);
    const kept = byB?.get(b);
    if (kept !== undefined) return kept;
    const made = this.#keyed.get(key(), make);
    if (byB === undefined) {
      byB = new WeakMap();
      this.#seen.set(a, byB);
    }
    byB.set(b, made);
    return made;
  }
}

/** The key of a context and a list of option strings. */
export function cacheKey(parts: readonly (string | readonly string[] | undefined)[]): string {
  return parts
    .map((p) => (p === undefined ? '' : typeof p === 'string' ? p : p.join('\u0001')))
    .join('\u0000');
}
