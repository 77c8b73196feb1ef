/**
 * [G-PERF-1] `path.resolve(base, p)` for the paths the action view resolves on every call, without
 * building the string anew when there is nothing to fold: an absolute path already in normal form
 * is itself, and a plain relative name under a normal folder is one join. Anything else (`.`,
 * `..`, `//`, a trailing `/`, a relative base) goes to `path.resolve`, so the answer is always
 * exactly its answer (POSIX paths: hookwerk resolves the agents' POSIX command lines).
 */
import path from 'node:path';

/**
 * Whether the names of `p` from `from` on (each after a `/`) are all plain: no empty, `.` or
 * `..` one, and no trailing `/` — one pass over the text [G-PERF-1].
 */
function plainFrom(p: string, from: number): boolean {
  const n = p.length;
  for (let i = p.indexOf('/', from); i >= 0; i = p.indexOf('/', i + 1)) {
    const c = i + 1 < n ? p.charCodeAt(i + 1) : 47;
    if (c === 47) return false;
    if (c !== 46) continue;
    const d = i + 2 < n ? p.charCodeAt(i + 2) : 47;
    if (d === 47) return false;
    if (d === 46 && (i + 3 >= n || p.charCodeAt(i + 3) === 47)) return false;
  }
  return true;
}

/** No empty, `.` or `..` segment and no trailing `/` (but `/` itself). */
function isNormalAbsolute(p: string): boolean {
  if (p.charCodeAt(0) !== 47) return false;
  return p.length === 1 || plainFrom(p, 0);
}

/** A non-empty relative path of plain names only. */
function isPlainRelative(p: string): boolean {
  if (p === '' || p.charCodeAt(0) === 47) return false;
  // The first name, before any `/`, is checked as if a `/` led it.
  const c = p.charCodeAt(0);
  if (c === 46) {
    const d = p.length > 1 ? p.charCodeAt(1) : 47;
    if (d === 47) return false;
    if (d === 46 && (p.length === 2 || p.charCodeAt(2) === 47)) return false;
  }
  return plainFrom(p, 0);
}

/** Exactly `path.resolve(base, p)`, or `path.resolve(p)` without `base`. */
export function resolvedPath(p: string, base?: string): string {
  if (p.charCodeAt(0) === 47) return isNormalAbsolute(p) ? p : path.resolve(p);
  if (base !== undefined && isNormalAbsolute(base)) {
    if (isPlainRelative(p)) return base.length === 1 ? `/${p}` : `${base}/${p}`;
    // `.` (what `grep -r … .` and `find .` name): the folder itself, without path.resolve.
    if (p === '.' || p === './') return base;
  }
  return base === undefined ? path.resolve(p) : path.resolve(base, p);
}
