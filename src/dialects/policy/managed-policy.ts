/**
 * [T-MGD-1] The managed policy is the operating system's boundary only while the agent (running as
 * the user) cannot change it: `/etc/hookwerk` and `/etc/hookwerk/policy.json` must be owned by
 * root and writable by no group and no one else. Anything else makes it a broken policy file
 * (G-FAIL-1: the gate denies with this reason), never one that is silently skipped — so a user
 * who could rename the file away (a folder they may write) gets a deny, not an open gate.
 *
 * Symlinks are refused for both (lstat): a link's target sits in folders this check does not see.
 */
import { lstatSync, type Stats } from 'node:fs';
import { errorCode } from '../../core/errno.ts';
import { MANAGED_POLICY_DIR, MANAGED_POLICY_FILE } from '../surfaces/policy-files.ts';

/** Group- or world-writable. */
const WRITABLE_BY_OTHERS = 0o022;

function lstatOf(file: string): Stats | undefined | { error: string } {
  try {
    return lstatSync(file, { throwIfNoEntry: false });
  } catch (e) {
    return { error: errorCode(e) ?? 'unreadable' };
  }
}

function mode(s: Stats): string {
  return `0${(s.mode & 0o7777).toString(8)}`;
}

/** Why `s` (of `what`) cannot be trusted as root's, or undefined when it can. */
function ownershipProblem(what: string, s: Stats, kind: 'folder' | 'file'): string | undefined {
  if (s.isSymbolicLink())
    return `${what} is a symlink: the managed policy must be a real ${kind} owned by root`;
  if (kind === 'folder' ? !s.isDirectory() : !s.isFile()) return `${what} is not a ${kind}`;
  if (s.uid !== 0 || (s.mode & WRITABLE_BY_OTHERS) !== 0)
    return (
      `${what} must be owned by root and not writable by group or others (owner uid ${s.uid}, mode ${mode(s)}): ` +
      'the managed policy is not used, and hookwerk denies until an administrator fixes it'
    );
  return undefined;
}

/**
 * The managed policy as found on disk: `absent` (no folder, or a sound folder without the file),
 * `present`, or `refused` with the one-line reason.
 */
export function managedPolicyState(
  dir = MANAGED_POLICY_DIR,
  file = MANAGED_POLICY_FILE,
): { kind: 'absent' } | { kind: 'present' } | { kind: 'refused'; message: string } {
  const d = lstatOf(dir);
  if (d === undefined) return { kind: 'absent' };
  if ('error' in d) return { kind: 'refused', message: `${dir} cannot be read (${d.error})` };
  const dirProblem = ownershipProblem(dir, d, 'folder');
  if (dirProblem !== undefined) return { kind: 'refused', message: dirProblem };
  const f = lstatOf(file);
  if (f === undefined) return { kind: 'absent' };
  if ('error' in f) return { kind: 'refused', message: `${file} cannot be read (${f.error})` };
  const fileProblem = ownershipProblem(file, f, 'file');
  return fileProblem === undefined ? { kind: 'present' } : { kind: 'refused', message: fileProblem };
}

/** [T-MGD-1] For the loader: why the managed policy must not be read, or undefined. */
export function managedPolicyRefusal(): string | undefined {
  const state = managedPolicyState();
  return state.kind === 'refused' ? state.message : undefined;
}
