/**
 * [G-PERM-4] The gitignore-style path globs of permission rules: `*` within a segment (dotfiles
 * too), `?`, classes, `**` across segments, escapes; and the static prefix a glob stands under.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compilePathGlob, pathGlobMatches, staticPrefix } from '../src/core/path-glob.ts';

const matches = (glob: string, p: string) => pathGlobMatches(compilePathGlob(glob), p);

describe('[G-PERM-4] path globs', () => {
  it.each([
    ['/p/**/.env', '/p/.env', true],
    ['/p/**/.env', '/p/a/b/.env', true],
    ['/p/**/.env', '/p/.env.example', false],
    ['/p/*.pem', '/p/key.pem', true],
    ['/p/*.pem', '/p/sub/key.pem', false],
    ['/p/*', '/p/.env', true],
    ['/p/**', '/p', true],
    ['/p/**', '/p/a/b', true],
    ['/p/id_rsa?', '/p/id_rsa2', true],
    ['/p/[ab].txt', '/p/b.txt', true],
    ['/p/[!ab].txt', '/p/b.txt', false],
    ['/p/\\*', '/p/*', true],
    ['/p/\\*', '/p/x', false],
    ['/p/a/**/b/**/c', '/p/a/x/b/y/z/c', true],
    ['/p/a/**/b/**/c', '/p/a/x/c', false],
  ])('%s ~ %s: %s', (glob, p, expected) => {
    expect(matches(glob, p)).toBe(expected);
  });

  it('the static prefix is the folder before the first glob character', () => {
    expect(staticPrefix('/home/me/**/.env')).toBe('/home/me');
    expect(staticPrefix('/p/x.txt')).toBe('/p/x.txt');
    expect(staticPrefix('/*')).toBe('/');
  });

  it('never throws; a long hostile glob is answered (O(pattern × path), no backtracking blow-up)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), fc.string({ maxLength: 40 }), (g, p) => {
        matches(`/${g}`, `/${p}`);
      }),
    );
    const glob = `/${'*a'.repeat(200)}b`;
    expect(matches(glob, `/${'a'.repeat(5000)}`)).toBe(false);
  });
});
