/**
 * [G-LIB-1] The guards' compiled options are kept by their text: the same text is compiled once,
 * another text is compiled anew, and at most 32 are kept.
 */
import { describe, expect, it } from 'vitest';
import { CompiledCache, cacheKey } from '../src/guards/compiled-cache.ts';

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
