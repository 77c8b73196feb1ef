/**
 * [T-MGD-2] An entry in an administrator-owned file is only as strong as what it runs: if a user
 * could replace the hookwerk it calls (or the node running it), the agent could too, and every
 * user's guard would be theirs to change. `install --system` therefore points only at an
 * installation whose files and folders, up to `/`, are owned by root and writable by no group and
 * no one else (a global install by root: `npm install -g` under /usr or /usr/local).
 */
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { hookCommandLine, packageRoot } from './hook-command.ts';

const WRITABLE_BY_OTHERS = 0o022;

/** `file` and every folder above it, deepest first. */
function chain(file: string): string[] {
  const out: string[] = [];
  for (let p = file; ; p = path.dirname(p)) {
    out.push(p);
    if (path.dirname(p) === p) return out;
  }
}

/** Why `file` (after symlinks) could be changed by someone else than root, or undefined. */
function notRootsAlone(file: string): string | undefined {
  let real: string;
  try {
    real = realpathSync(file);
  } catch {
    return `${file} does not exist`;
  }
  for (const p of chain(real)) {
    const s = statSync(p);
    if (s.uid !== 0 || (s.mode & WRITABLE_BY_OTHERS) !== 0)
      return `${p} is owned by uid ${s.uid}, mode 0${(s.mode & 0o7777).toString(8)}`;
  }
  return undefined;
}

/**
 * The one line that refuses a system install, or undefined when the command it writes runs only
 * what root alone can change: the package root and the folders and files a hook call runs from.
 */
export function systemClientProblem(root: string = packageRoot()): string | undefined {
  const native = path.join(root, 'dist', 'native', 'hookwerk-hook');
  const usesNative = hookCommandLine('claude', {}, root).includes(native);
  const checked = [
    root,
    path.join(root, 'bin', 'hookwerk.js'),
    path.join(root, 'dist'),
    ...(usesNative ? [native] : [process.execPath]),
  ];
  for (const file of checked) {
    const why = notRootsAlone(file);
    if (why !== undefined)
      return `the hookwerk installation at ${root} is not root's alone (${why}): an entry every user's agent runs must call a hookwerk no user can replace; install hookwerk as root under a root-owned path (npm install -g), then run install --system from there`;
  }
  return undefined;
}
