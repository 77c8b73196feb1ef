/** Real paths and containment: one answer to "where is this really, and is it inside that?". */
import { lstatSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { resolvedPath } from './resolved-path.ts';

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
    // A missing path is asked with lstat, which answers without an exception (an exception costs
    // more than the system call); a broken link is there (lstat) but cannot be resolved: its parent is.
    if (lstatSync(current, { throwIfNoEntry: false }) !== undefined) {
      try {
        return path.join(realpathSync.native(current), ...rest.reverse());
      } catch {
        // a broken link, or a folder we may not search: go on with the parent
      }
    }
    const parent = path.dirname(current);
    if (parent === current) return path.resolve(p);
    rest.push(path.basename(current));
    current = parent;
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

/**
 * Real paths as the kernel resolves them, for many paths of one moment (one tool call): each
 * `..` applied after the symlinks before it (`link/../x` is beside the link's target, not beside
 * the link), a missing rest appended as written, a dangling link followed to where it points
 * (a write through it lands there). One `lstat` per path component not asked before in this
 * instance, no exceptions on the common paths; make one per call, never keep it: the file system
 * moves.
 */
export class RealPaths {
  readonly #known = new Map<string, string>();

  /** The real path of `written` (absolute, or relative to the absolute `cwd`). */
  of(written: string, cwd = '/'): string {
    const start = path.isAbsolute(written) ? '/' : this.folder(cwd);
    return this.#walk(start, written.split('/'), 0);
  }

  /**
   * The real path of a folder (the project, a call's cwd). A folder whose parent this instance
   * knows is walked (one `lstat`); else the system's realpath answers in one call, which costs
   * less than an `lstat` per component [G-ACT-2, G-PERF-1]. Both read the same moment's file
   * system the same way: realpath answers only when every component exists and resolves, and the
   * walk is the fallback for everything else (a missing, dangling or unsearchable part).
   */
  folder(dir: string): string {
    let real = this.#folders.get(dir);
    if (real === undefined) {
      const resolved = resolvedPath(dir);
      const parent = path.dirname(resolved);
      real =
        (parent === '/' || this.#known.has(parent) ? undefined : this.#system(resolved)) ??
        this.#walk('/', resolved.split('/'), 0);
      this.#folders.set(dir, real);
    }
    return real;
  }

  /**
   * The system's realpath of `resolved` (absolute, `..` folded), its components then known: a
   * real path holds no symlink, so when it is `resolved` itself each prefix is its own real path;
   * otherwise only `resolved` is known. Undefined when the system cannot resolve it.
   */
  #system(resolved: string): string | undefined {
    let real: string;
    try {
      real = realpathSync.native(resolved);
    } catch {
      return undefined;
    }
    this.#known.set(resolved, real);
    if (real === resolved)
      for (let cut = resolved.lastIndexOf('/'); cut > 0; cut = resolved.lastIndexOf('/', cut - 1)) {
        const prefix = resolved.slice(0, cut);
        this.#known.set(prefix, prefix);
      }
    return real;
  }

  readonly #folders = new Map<string, string>();

  #walk(from: string, segments: readonly string[], hops: number): string {
    let real = from;
    for (let i = 0; i < segments.length; i++) {
      const segment = segments[i]!;
      if (segment === '' || segment === '.') continue;
      if (segment === '..') {
        real = path.dirname(real);
        continue;
      }
      const candidate = real === '/' ? `/${segment}` : `${real}/${segment}`;
      const known = this.#known.get(candidate);
      if (known !== undefined) {
        real = known;
        continue;
      }
      const stat = lstatOrUndefined(candidate);
      if (stat === undefined) {
        // Missing (or not searchable): the rest is appended as written, `..` folded.
        return i + 1 === segments.length
          ? resolvedPath(candidate)
          : path.resolve(candidate, ...segments.slice(i + 1).filter((s) => s !== ''));
      }
      let next = candidate;
      if (stat.isSymbolicLink()) {
        const target = readlinkOrUndefined(candidate);
        if (target !== undefined && hops < 40)
          next = this.#walk(target.startsWith('/') ? '/' : real, target.split('/'), hops + 1);
      }
      this.#known.set(candidate, next);
      real = next;
    }
    return real;
  }
}

function lstatOrUndefined(p: string): ReturnType<typeof lstatSync> {
  try {
    return lstatSync(p, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

function readlinkOrUndefined(p: string): string | undefined {
  try {
    return readlinkSync(p);
  } catch {
    return undefined;
  }
}
