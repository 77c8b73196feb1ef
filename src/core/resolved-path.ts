/**
 * [G-PERF-1] `path.resolve(base, p)` for the paths the action view resolves on every call, without
 * building the string anew when there is nothing to fold: an absolute path already in normal form
 * is itself, and a plain relative name under a normal folder is one join. Anything else (`.`,
 * `..`, `//`, a trailing `/`, a relative base) goes to `path.resolve`, so the answer is always
 * exactly its answer (POSIX paths: hookwerk resolves the agents' POSIX command lines).
 */
import path from 'node:path';

/** No empty, `.` or `..` segment and no trailing `/` (but `/` itself). */
function isNormalAbsolute(p: string): boolean {
  if (p.charCodeAt(0) !== 47) return false;
  if (p.length === 1) return true;
  return !p.endsWith('/') && !p.includes('//') && plainSegments(p);
}

/** A non-empty relative path of plain names only. */
function isPlainRelative(p: string): boolean {
  if (p === '' || p.charCodeAt(0) === 47 || p.endsWith('/') || p.includes('//')) return false;
  return plainSegments(`/${p}`);
}

/** No `/.` or `/..` segment in a `/`-led path. */
function plainSegments(p: string): boolean {
  return !p.includes('/./') && !p.includes('/../') && !p.endsWith('/.') && !p.endsWith('/..');
}

/** Exactly `path.resolve(base, p)`, or `path.resolve(p)` without `base`. */
export function resolvedPath(p: string, base?: string): string {
  if (p.charCodeAt(0) === 47) return isNormalAbsolute(p) ? p : path.resolve(p);
  if (base !== undefined && isNormalAbsolute(base) && isPlainRelative(p))
    return base.length === 1 ? `/${p}` : `${base}/${p}`;
  return base === undefined ? path.resolve(p) : path.resolve(base, p);
}
