/**
 * [G-ACT-1] The paths of the view resolved: absolute (relative to the folder each was named in,
 * `..` folded), real (every symlink of the existing prefix resolved, so a link to `.env` is
 * `.env`), and whether that real path is the project's real path or inside it. Each `(path,
 * access)` once, in the order first named. The file system is only asked for real paths, once per
 * path per call.
 */
import path from 'node:path';
import { isInside, realPathOr, realPrefixPath } from '../core/real-path.ts';
import type { PathRef } from './command-paths.ts';
import type { ViewPath } from './view-types.ts';

/** Paths one call may name; more make the view unreadable (the first ones are kept). */
export const MAX_PATHS = 256;

const GLOB = /[*?[]/;

export function resolvePaths(refs: readonly PathRef[], projectDir: string): ViewPath[] {
  if (refs.length === 0) return [];
  const realProject = realPathOr(projectDir);
  const reals = new Map<string, string>();
  const seen = new Set<string>();
  const out: ViewPath[] = [];
  for (const ref of refs) {
    if (ref.written.includes('\0')) continue;
    const absolute = path.resolve(ref.cwd, ref.written);
    const key = `${ref.access}\0${absolute}`;
    if (seen.has(key)) continue;
    seen.add(key);
    let real = reals.get(absolute);
    if (real === undefined) {
      real = realPrefixPath(absolute);
      reals.set(absolute, real);
    }
    const p: ViewPath = {
      path: absolute,
      real,
      inProject: isInside(realProject, real),
      access: ref.access,
      written: ref.written,
      from: ref.from,
      glob: GLOB.test(ref.written),
    };
    out.push(ref.command === undefined ? p : { ...p, command: ref.command });
  }
  return out;
}
