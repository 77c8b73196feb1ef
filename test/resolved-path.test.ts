/**
 * [G-PERF-1] `resolvedPath` answers exactly as `path.resolve` does: every string of up to six
 * characters over `a`, `.` and `/`, alone and under folders normal and not (relative, trailing
 * `/`, `..`, the root).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolvedPath } from '../src/core/resolved-path.ts';

function words(alphabet: readonly string[], max: number): string[] {
  const out = [''];
  let level = [''];
  for (let n = 1; n <= max; n++) {
    level = level.flatMap((w) => alphabet.map((c) => w + c));
    out.push(...level);
  }
  return out;
}

describe('[G-PERF-1] resolvedPath', () => {
  const all = words(['a', '.', '/'], 6);
  const bases = ['/', '/a', '/a/b', '/a/', '/a/../b', '/a//b', '/.', 'rel', 'rel/x', '', '/a/.b', '/a..'];

  it('is path.resolve(p) for every short path', () => {
    for (const p of all) expect([p, resolvedPath(p)]).toEqual([p, path.resolve(p)]);
  });

  it('is path.resolve(base, p) for every short path under every base', () => {
    for (const base of bases)
      for (const p of all) expect([base, p, resolvedPath(p, base)]).toEqual([base, p, path.resolve(base, p)]);
  });
});
