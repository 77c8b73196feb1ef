/**
 * [G-LIB-1] The path globs of guard options (`except`, `destructive-delete`'s `allow`, …), read one
 * way for every guard: `~/x` under the home folder, `/x` absolute, `./x` and `x/y` under the
 * project root, a name without a `/` (`*.pem`, `node_modules`) at any depth under the project; a
 * trailing `/` dropped; a glob naming a folder covers everything under it (as gitignore's). Each is
 * compiled against the places as given and as real paths (a symlinked home is still the home).
 * Unlike a permission path (G-PERM-4), `/x` is absolute here: these globs name places on the
 * machine, and a policy file has one meaning for them wherever it lives.
 */
import path from 'node:path';
import { compilePathGlob, type PathGlob, pathGlobMatches, staticPrefix } from '../core/path-glob.ts';
import { realPrefixPath } from '../core/real-path.ts';

/** The places a glob is read against; several forms of each (as given, real) when they differ. */
export interface GlobPlaces {
  readonly projectDirs: readonly string[];
  readonly homes: readonly string[];
}

/** Why `text` is no path glob of a guard option, or undefined. */
export function guardGlobProblem(text: string): string | undefined {
  if (text.trim() === '') return 'a path glob must not be empty';
  if (text.includes('\0')) return 'a path glob must not hold a NUL byte';
  if (/^~[^/]/.test(text)) return `${JSON.stringify(text)}: only ~/ names the home folder`;
  return undefined;
}

function absoluteGlobs(text: string, places: GlobPlaces): string[] {
  let spec = text.trim();
  if (spec.length > 1 && spec.endsWith('/')) spec = spec.replace(/\/+$/, '');
  if (spec === '~' || spec.startsWith('~/')) return places.homes.map((h) => h + spec.slice(1));
  if (spec.startsWith('/')) return [spec];
  if (spec.startsWith('./')) return places.projectDirs.map((p) => `${p}/${spec.slice(2)}`);
  if (spec.includes('/')) return places.projectDirs.map((p) => `${p}/${spec}`);
  return places.projectDirs.map((p) => `${p}/**/${spec}`);
}

/** The glob with its folder part (before any glob character) as that folder's real path. */
function realGlob(glob: string): string {
  const prefix = staticPrefix(glob);
  const real = realPrefixPath(prefix);
  return real === prefix ? glob : real + glob.slice(prefix.length);
}

/** `text` compiled; reads the file system once (the real paths of the globs' folders). */
export function compileGuardGlob(text: string, places: GlobPlaces): readonly PathGlob[] {
  const out = new Set<string>();
  for (const glob of absoluteGlobs(text, places)) {
    const written = path.posix.normalize(glob);
    out.add(written);
    out.add(realGlob(written));
  }
  return [...out].map(compilePathGlob);
}

/** One of `globs` matches `p` or a folder above it. */
export function guardGlobMatches(globs: readonly PathGlob[], p: string): boolean {
  for (const glob of globs) {
    let current = p;
    for (;;) {
      if (pathGlobMatches(glob, current)) return true;
      const parent = path.posix.dirname(current);
      if (parent === current) break;
      current = parent;
    }
  }
  return false;
}
