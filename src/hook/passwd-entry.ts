/**
 * [T-MGD-3] Accounts from `/etc/passwd`, read bounded (regular file, at most 4 MiB): the system
 * daemon names a caller by the uid the kernel gave it, never by the request's `USER` or `HOME`;
 * `setup-system` and `daemon --system` find their account by name. Only local accounts (no NSS):
 * the daemon's account is a local system account, and a caller missing from the file is recorded
 * by uid alone.
 */
import { readSourceFile } from '../core/read-source.ts';

export const PASSWD_FILE = '/etc/passwd';
const MAX_PASSWD_BYTES = 4 * 1024 * 1024;
/** The longest name kept: Linux names are at most 32 bytes; anything longer is not one. */
const MAX_NAME = 256;

export interface PasswdEntry {
  name: string;
  uid: number;
  gid: number;
  home: string;
}

/** The entries of the file (lines that do not parse are skipped); empty when it cannot be read. */
export function passwdEntries(file = PASSWD_FILE): PasswdEntry[] {
  const read = readSourceFile(file, MAX_PASSWD_BYTES);
  if (read.kind !== 'text') return [];
  const out: PasswdEntry[] = [];
  for (const line of read.text.split('\n')) {
    const [name, , uid, gid, , home] = line.split(':');
    if (name === undefined || name === '' || name.length > MAX_NAME || home === undefined) continue;
    if (!/^[0-9]{1,10}$/.test(uid ?? '') || !/^[0-9]{1,10}$/.test(gid ?? '')) continue;
    out.push({ name, uid: Number(uid), gid: Number(gid), home });
  }
  return out;
}

/** The first entry with this uid (as getpwuid). */
export function accountByUid(uid: number, file = PASSWD_FILE): PasswdEntry | undefined {
  return passwdEntries(file).find((e) => e.uid === uid);
}

/** The first entry with this name (as getpwnam). */
export function accountByName(name: string, file = PASSWD_FILE): PasswdEntry | undefined {
  return passwdEntries(file).find((e) => e.name === name);
}
