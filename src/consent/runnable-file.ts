/**
 * [L-TRUST-8] (amended) Whether a file that is not pinned, found in a folder pinned whole, could
 * run as code. Only such a file voids an approval (before a run) or a run's answer (after it): a
 * hook's own log or state file made beside the pinned code does not.
 */
import { lstatSync, statSync } from 'node:fs';
import path from 'node:path';
import { errorCode } from '../core/errno.ts';

/** Extensions an interpreter loads (a shell sources, Python, Node, Ruby, Perl, PHP, Lua, PowerShell import). */
const CODE_EXTENSIONS: ReadonlySet<string> = new Set([
  '.sh',
  '.bash',
  '.zsh',
  '.py',
  '.pyc',
  '.js',
  '.mjs',
  '.cjs',
  '.ts',
  '.mts',
  '.rb',
  '.pl',
  '.php',
  '.lua',
  '.ps1',
]);

const hasCodeExtension = (file: string) => CODE_EXTENSIONS.has(path.extname(file).toLowerCase());

/**
 * True for a file with an executable bit or one of the extensions above — and for a symlink, whose
 * target can change without the link changing (`notes -> evil.sh` is sourced by `. notes`): a hook
 * writes its log and state as plain files. Unknown (unreadable) counts as code.
 */
export function couldRunAsCode(file: string): boolean {
  if (hasCodeExtension(file)) return true;
  try {
    if (lstatSync(file).isSymbolicLink()) return true;
    const stat = statSync(file);
    return stat.isFile() && (stat.mode & 0o111) !== 0;
  } catch (err) {
    // Gone since it was listed: nothing there runs.
    const code = errorCode(err);
    return code !== 'ENOENT' && code !== 'ENOTDIR';
  }
}
