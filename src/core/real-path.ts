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
  readonly #folders = new Map<string, string>();
  /**
   * Real paths the system's realpath gave back unchanged: each holds no symlink, so every prefix
   * of one (up to a `/`) is its own real path — asked here, not written into `#known` one by one.
   */
  readonly #clean: string[] = [];
  /** Of the last `of`: what it read, and the real path of the folder its last name stands in (undefined: not reached). */
  #lastWritten: string | undefined;
  #lastCwd: string | undefined;
  #lastFolder: string | undefined;

  /** The real path of `written` (absolute, or relative to the absolute `cwd`). */
  of(written: string, cwd = '/'): string {
    const start = written.charCodeAt(0) === 47 ? '/' : this.folder(cwd);
    this.#lastFolder = undefined;
    const real = this.#walk(start, written, true, 0);
    this.#lastWritten = written;
    this.#lastCwd = cwd;
    return real;
  }

  /**
   * [G-LIB-3] The directory entry `written` names: its folder's real path joined with its last
   * name — unless that name is empty (a trailing `/`), `.` or `..`, which mean the target itself
   * (`real`, its real path). The folder is the one the last `of` of the same path passed through
   * on its way (no second walk), else walked anew.
   */
  entry(written: string, cwd: string, real: string): string {
    const cut = written.lastIndexOf('/');
    const last = written.slice(cut + 1);
    if (last === '' || last === '.' || last === '..') return real;
    let folder: string;
    if (this.#lastWritten === written && this.#lastCwd === cwd) {
      // The walk stopped at a missing part before the last name: the rest was appended as
      // written, and the last name (a plain one) is appended the same way to its folder.
      if (this.#lastFolder === undefined) return real;
      folder = this.#lastFolder;
    } else folder = cut < 0 ? this.folder(cwd) : this.of(cut === 0 ? '/' : written.slice(0, cut), cwd);
    return folder === '/' ? `/${last}` : `${folder}/${last}`;
  }

  /**
   * The real path of a folder (the project, a call's cwd). A folder whose parent this instance
   * knows is walked from it (one `lstat`); else the system's realpath answers in one call, which
   * costs less than an `lstat` per component [G-ACT-2, G-PERF-1]. Both read the same moment's file
   * system the same way: realpath answers only when every component exists and resolves, and the
   * walk is the fallback for everything else (a missing, dangling or unsearchable part).
   */
  folder(dir: string): string {
    let real = this.#folders.get(dir);
    if (real === undefined) {
      const resolved = resolvedPath(dir);
      const cut = resolved.lastIndexOf('/');
      const parent = cut <= 0 ? '/' : resolved.slice(0, cut);
      const knownParent = parent === '/' ? undefined : this.#lookup(parent);
      if (knownParent !== undefined) real = this.#walk(knownParent, resolved.slice(cut + 1), false, 0);
      else
        real = (parent === '/' ? undefined : this.#system(resolved)) ?? this.#walk('/', resolved, false, 0);
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
    if (real === resolved) this.#clean.push(real);
    else this.#known.set(resolved, real);
    return real;
  }

  /** The real path of the absolute, normal `p` when this instance knows it. */
  #lookup(p: string): string | undefined {
    const known = this.#known.get(p);
    if (known !== undefined) return known;
    const n = p.length;
    for (const clean of this.#clean)
      if (clean.startsWith(p) && (clean.length === n || clean.charCodeAt(n) === 47)) return p;
    return undefined;
  }

  /**
   * `text`'s `/`-separated names applied one by one from the real folder `from`. `top`: the walk
   * `of` asked for, whose last name's folder is kept for `entry`.
   */
  #walk(from: string, text: string, top: boolean, hops: number): string {
    let real = from;
    const n = text.length;
    for (let start = 0; start <= n; ) {
      let stop = text.indexOf('/', start);
      if (stop < 0) stop = n;
      const size = stop - start;
      const next = stop + 1;
      if (size === 0 || (size === 1 && text.charCodeAt(start) === 46)) {
        start = next;
        continue;
      }
      if (size === 2 && text.charCodeAt(start) === 46 && text.charCodeAt(start + 1) === 46) {
        real = path.dirname(real);
        start = next;
        continue;
      }
      if (top && stop === n) this.#lastFolder = real;
      const segment = start === 0 && stop === n ? text : text.slice(start, stop);
      const candidate = real === '/' ? `/${segment}` : `${real}/${segment}`;
      const known = this.#lookup(candidate);
      if (known !== undefined) {
        real = known;
        start = next;
        continue;
      }
      const stat = lstatOrUndefined(candidate);
      if (stat === undefined) {
        // Missing (or not searchable): the rest is appended as written, `..` folded.
        return stop === n ? resolvedPath(candidate) : path.resolve(`${candidate}/${text.slice(next)}`);
      }
      let target = candidate;
      if (stat.isSymbolicLink()) {
        const link = readlinkOrUndefined(candidate);
        if (link !== undefined && hops < 40)
          target = this.#walk(link.charCodeAt(0) === 47 ? '/' : real, link, false, hops + 1);
      }
      this.#known.set(candidate, target);
      real = target;
      start = next;
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
