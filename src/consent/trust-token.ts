/**
 * [T-SELF-2] The user's trust token, `<home>/.hookwerk/trust-token`: 32 random bytes (hex), mode
 * 0600, made by the first `hookwerk trust` run of any kind. With `"trust": {"requireHuman": true}`
 * a `trust` run whose `HOOKWERK_TRUST_TOKEN` equals it approves without a terminal: the user's own
 * scripts and CI can approve, an agent cannot — `self-protect` keeps it from reading the file.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { lstatSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../core/atomic-write.ts';
import { isErrno } from '../core/errno.ts';
import { readSourceFile } from '../core/read-source.ts';

export const TRUST_TOKEN_ENV = 'HOOKWERK_TRUST_TOKEN';

/** A token is 64 hex characters; a file larger than this is not one. */
const MAX_TOKEN_BYTES = 1024;

export function trustTokenPath(home: string): string {
  return path.join(home, '.hookwerk', 'trust-token');
}

function absent(file: string): boolean {
  try {
    lstatSync(file);
    return false;
  } catch (e) {
    return isErrno(e, 'ENOENT');
  }
}

/**
 * Makes the token when there is none: written whole or not at all (atomic rename), 0600, never
 * over a file that appeared meanwhile. True when this call made it. Throws on I/O errors.
 */
export function ensureTrustToken(home: string): boolean {
  const file = trustTokenPath(home);
  if (!absent(file)) return false;
  return writeFileAtomic(file, `${randomBytes(32).toString('hex')}\n`, {
    mode: 0o600,
    privateDir: true,
    followSymlink: false,
    beforeRename: () => absent(file),
  });
}

/**
 * Whether `given` is the token: the file must be a regular file of this account that no one else
 * may read (else it proves nothing: `problem` says why); compared in constant time.
 */
export function trustTokenMatches(home: string, given: string): { ok: boolean; problem?: string } {
  const file = trustTokenPath(home);
  let mode: number;
  let uid: number;
  try {
    ({ mode, uid } = lstatSync(file));
  } catch {
    return { ok: false, problem: `${file} does not exist` };
  }
  if ((mode & 0o077) !== 0 || (process.getuid !== undefined && uid !== process.getuid()))
    return { ok: false, problem: `${file} is not private to this account (chmod 600 it)` };
  const read = readSourceFile(file, MAX_TOKEN_BYTES);
  if (read.kind !== 'text') return { ok: false, problem: `${file} cannot be read` };
  const want = Buffer.from(read.text.trim(), 'utf8');
  const got = Buffer.from(given.trim(), 'utf8');
  if (want.length === 0) return { ok: false, problem: `${file} is empty` };
  return { ok: want.length === got.length && timingSafeEqual(want, got) };
}
