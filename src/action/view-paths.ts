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
  // The first path's folder, when it is in the project, is asked first: one realpath of it
  // names its prefixes too (the project among them), for one system call less [G-PERF-1].
  const first = refs[0]!.cwd;
  const project = resolvedPath(projectDir);
  if (first.length > project.length && first.startsWith(project) && first.charCodeAt(project.length) === 47)
    reals.folder(first);
  const realProject = reals.folder(projectDir);
  // Both sides are normalised absolute paths: inside is a prefix up to a `/`.
  const below = realProject === '/' ? '/' : `${realProject}/`;
  // Each (path, access) once: a few paths are looked up among those kept, many in a set.
  const seen = refs.length > 16 ? new Set<string>() : undefined;
  const out: ViewPath[] = [];
  for (const ref of refs) {
    const written = ref.written;
    if (written.includes('\0')) continue;
    const absolute = resolvedPath(written, ref.cwd);
    if (
      seen === undefined
        ? keptAlready(out, absolute, ref.access)
        : !addNew(seen, `${ref.access}\0${absolute}`)
    )
      continue;
    // The kernel's reading of what was written (`link/../x` next to the link's target), not of `absolute`.
    const real = reals.of(written, ref.cwd);
    const entry = reals.entry(written, ref.cwd, real);
    const inProject = real === realProject || real.startsWith(below);
    const glob = GLOB.test(written);
    out.push(
      ref.command === undefined
        ? { path: absolute, real, entry, inProject, access: ref.access, written, from: ref.from, glob }
        : {
            path: absolute,
            real,
            entry,
            inProject,
            access: ref.access,
            written,
            from: ref.from,
            command: ref.command,
            glob,
          },
    );
  }
  return out;
}

function keptAlready(out: readonly ViewPath[], absolute: string, access: ViewPath['access']): boolean {
  for (const p of out) if (p.path === absolute && p.access === access) return true;
  return false;
}

function addNew(seen: Set<string>, key: string): boolean {
  if (seen.has(key)) return false;
  seen.add(key);
  return true;
}
