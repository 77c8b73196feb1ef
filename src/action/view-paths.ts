/**
 * [G-ACT-1] The paths of the view resolved: absolute (relative to the folder each was named in,
 * `..` folded), real (every symlink of the existing prefix resolved, as the kernel would — so a
 * link to `.env` is `.env`, and `link/../x` is beside the link's target), and whether that real
 * path is the project's real path or inside it. Each `(path,
 * access)` once, in the order first named. The file system is only asked for real paths, once per
 * path per call.
 */
import { RealPaths } from '../core/real-path.ts';
import { resolvedPath } from '../core/resolved-path.ts';
import type { PathRef } from './command-paths.ts';
import type { ViewPath } from './view-types.ts';

/** Paths one call may name; more make the view unreadable (the first ones are kept). */
export const MAX_PATHS = 256;

const GLOB = /[*?[]/;

export function resolvePaths(refs: readonly PathRef[], projectDir: string): ViewPath[] {
  if (refs.length === 0) return [];
  const reals = new RealPaths();
  const realProject = reals.folder(projectDir);
  // Both sides are normalised absolute paths: inside is a prefix up to a `/`.
  const below = realProject === '/' ? '/' : `${realProject}/`;
  const inside = (p: string) => p === realProject || p.startsWith(below);
  const seen = new Set<string>();
  const out: ViewPath[] = [];
  for (const ref of refs) {
    if (ref.written.includes('\0')) continue;
    const absolute = resolvedPath(ref.written, ref.cwd);
    const key = `${ref.access}\0${absolute}`;
    if (seen.has(key)) continue;
    seen.add(key);
    // The kernel's reading of what was written (`link/../x` next to the link's target), not of `absolute`.
    const real = reals.of(ref.written, ref.cwd);
    const entry = entryOf(reals, ref.written, ref.cwd, real);
    const glob = GLOB.test(ref.written);
    out.push(
      ref.command === undefined
        ? {
            path: absolute,
            real,
            entry,
            inProject: inside(real),
            access: ref.access,
            written: ref.written,
            from: ref.from,
            glob,
          }
        : {
            path: absolute,
            real,
            entry,
            inProject: inside(real),
            access: ref.access,
            written: ref.written,
            from: ref.from,
            command: ref.command,
            glob,
          },
    );
  }
  return out;
}

/**
 * [G-LIB-3] Where the entry `written` names really is: its folder resolved (as the kernel would),
 * its last name kept — unless that name is empty (a trailing `/`), `.` or `..`, which mean the
 * target itself.
 */
function entryOf(reals: RealPaths, written: string, cwd: string, real: string): string {
  const cut = written.lastIndexOf('/');
  const last = written.slice(cut + 1);
  if (last === '' || last === '.' || last === '..') return real;
  const folder = cut < 0 ? reals.folder(cwd) : reals.of(cut === 0 ? '/' : written.slice(0, cut), cwd);
  return folder === '/' ? `/${last}` : `${folder}/${last}`;
}
