/** Real paths and containment: one answer to "where is this really, and is it inside that?". */
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';

/** The real path (symlinks resolved), or the resolved path when it does not exist. */
export function realPathOr(p: string): string {
  const resolved = path.resolve(p);
  try {
    return realpathSync(resolved);
  } catch {
    return resolved;
  }
}

/**
 * The real path of the longest existing prefix, joined with the rest: a not-yet-created folder is
 * still checked for symlink escapes through its existing parents. The system's realpath (one call
 * per try): the action view asks this for every path of every tool call [G-ACT-2].
 */
export function realPrefixPath(p: string): string {
  let current = path.resolve(p);
  const rest: string[] = [];
  for (;;) {
    try {
      return path.join(realpathSync.native(current), ...rest.reverse());
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return path.resolve(p);
      rest.push(path.basename(current));
      current = parent;
    }
  }
}

/** True when `candidate` is `root` or below it (lexically: resolve real paths first where it matters). */
export function isInside(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/** True when `p` is a folder (symlinks followed); false when it is anything else or cannot be reached. */
export function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}
