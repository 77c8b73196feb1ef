/**
 * [G-LIB-1] The guards' compiled options are kept by their text: the same text is compiled once,
 * another text is compiled anew, and at most 32 are kept. [G-PERF-1] In front of that, by the
 * identity of the options and context objects: the same objects build no key, other objects (a
 * reload) are looked up by their text again, so that a changed option is never served stale.
 */
import { describe, expect, it } from 'vitest';
import { CompiledByObjects, CompiledCache, cacheKey } from '../src/guards/compiled-cache.ts';

describe('[G-LIB-1] CompiledCache', () => {
  it('compiles a key once, another key anew, and drops the oldest past 32', () => {
    const cache = new CompiledCache<number>();
    let made = 0;
    const get = (key: string) => cache.get(key, () => ++made);
    expect(get(cacheKey(['/h', '/p', ['a']]))).toBe(1);
    expect(get(cacheKey(['/h', '/p', ['a']]))).toBe(1);
    expect(get(cacheKey(['/h', '/p', ['a', 'b']]))).toBe(2);
    for (let i = 0; i < 32; i++) get(`k${i}`);
    expect(get(cacheKey(['/h', '/p', ['a']]))).toBe(made);
  });

  it('keys tell lists and strings apart', () => {
    expect(cacheKey(['a', ['b', 'c']])).not.toBe(cacheKey(['a', ['b\u0000c']]));
    expect(cacheKey(['a', undefined])).toBe(cacheKey(['a', []]));
  });
});

describe('[G-PERF-1] CompiledByObjects', () => {
  it('answers the same objects without a key, and other objects by their text, never stale', () => {
    const cache = new CompiledByObjects<string>();
    let keys = 0;
    const get = (options: { paths: string[] }, ctx: { home: string }) =>
      cache.getFor(
        options,
        ctx,
        () => {
          keys++;
          return cacheKey([ctx.home, options.paths]);
        },
        () => `${ctx.home}:${options.paths.join(',')}`,
      );
    const options = { paths: ['a'] };
    const ctx = { home: '/h' };
    expect(get(options, ctx)).toBe('/h:a');
    expect(get(options, ctx)).toBe('/h:a');
    expect(keys).toBe(1);
    // A reload: new objects, another option or another home, each compiled from what they hold.
    expect(get({ paths: ['b'] }, ctx)).toBe('/h:b');
    expect(get(options, { home: '/other' })).toBe('/other:a');
    expect(get({ paths: ['a'] }, { home: '/h' })).toBe('/h:a');
    expect(keys).toBe(4);
  });
});
