/**
 * [G-LIB-1, G-LIB-3] Where a path is, as the guards judge it — one answer for every guard: the
 * root folder, the home folder or a folder above it, the project root or a folder above it, a
 * `.git` folder or something in one, inside the project, a sub-path of the system temp folder, or
 * elsewhere outside the project. Paths are absolute and normalised; the places are real paths.
 */
import type { GuardContext } from './guard-types.ts';

export type PlaceKind =
  | 'root'
  | 'home'
  | 'above-home'
  | 'project'
  | 'above-project'
  | 'git'
  | 'inside'
  | 'temp'
  | 'outside';

/** `p` is `dir` or below it. */
export function within(dir: string, p: string): boolean {
  return p === dir || p.startsWith(dir === '/' ? '/' : `${dir}/`);
}

/** `p` is strictly below `dir`. */
export function below(dir: string, p: string): boolean {
  return p !== dir && within(dir, p);
}

/**
 * The temp folder exempts its sub-paths only when it is a folder of its own: never when it is
 * `/`, the home folder or above it (a `TMPDIR` of `~` must not exempt the home).
 */
function tempFolder(ctx: GuardContext): string | undefined {
  const t = ctx.tmpDir;
  return t === '/' || t === '' || within(t, ctx.home) ? undefined : t;
}

/** The place of `p` (checked in this order: what is above the project never counts as temp). */
export function placeOf(p: string, ctx: GuardContext): PlaceKind {
  if (p === '/') return 'root';
  if (p === ctx.home) return 'home';
  if (p === ctx.projectDir) return 'project';
  if (below(p, ctx.projectDir)) return 'above-project';
  if (below(p, ctx.home)) return 'above-home';
  if (p.split('/').includes('.git')) return 'git';
  if (within(ctx.projectDir, p)) return 'inside';
  const temp = tempFolder(ctx);
  if (temp !== undefined && below(temp, p)) return 'temp';
  return 'outside';
}
