/**
 * `hookwerk setup-system [--user NAME]` [T-MGD-3]: what `hookwerk daemon --system` needs, made by
 * root once (docs/managed.md): the daemon's account (`hookwerk`, a system account without a home
 * or a shell, unless `--user` names an existing one), `/run/hookwerk` (root's, 0755: only root can
 * put or replace a socket there), `/var/lib/hookwerk` (root's, 0755) and its `records/` (the
 * account's, 0700: the managed journal no user can read or write). Idempotent: each line says
 * what it made, fixed or found.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, lstatSync, mkdirSync } from 'node:fs';
import { errorMessage } from '../core/errno.ts';
import { accountByName, type PasswdEntry } from '../hook/passwd-entry.ts';
import {
  DEFAULT_SYSTEM_ACCOUNT,
  SYSTEM_RECORDS_DIR,
  SYSTEM_RUN_DIR,
  SYSTEM_STATE_DIR,
} from '../hook/system-paths.ts';
import { CliError } from './cli-error.ts';

/** A name useradd takes and no option could hide in: lower case, digits, `_`, `-`. */
const ACCOUNT_NAME = /^[a-z_][a-z0-9_-]{0,31}$/;

/** Refuses anyone but root (one line, exit 1). */
export function requireRoot(command: string): void {
  if (process.geteuid?.() !== 0) throw new CliError(`${command} must run as root`);
}

/** The account `--user` names (it must exist), else the default one (made when missing). */
function account(user: string | undefined, out: (line: string) => void): PasswdEntry {
  const name = user ?? DEFAULT_SYSTEM_ACCOUNT;
  if (!ACCOUNT_NAME.test(name)) throw new CliError(`--user ${JSON.stringify(name)} is not an account name`);
  let found = accountByName(name);
  if (found === undefined && user !== undefined)
    throw new CliError(`the account ${name} does not exist (create it, or leave out --user for "hookwerk")`);
  if (found === undefined) {
    const made = spawnSync(
      'useradd',
      ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', name],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
    found = accountByName(name);
    if (found === undefined) {
      const why = made.error?.message ?? made.stderr.trim().split('\n')[0] ?? `exit ${made.status}`;
      throw new CliError(`could not create the account ${name} with useradd: ${why}`);
    }
    out(`created the account ${name} (uid ${found.uid})`);
  } else out(`found the account ${name} (uid ${found.uid})`);
  if (found.uid === 0)
    throw new CliError(`the account ${name} is root: the daemon needs an account of its own`);
  return found;
}

/** `dir` as a real folder with this owner and mode: made, fixed, or found so. */
function folder(dir: string, uid: number, gid: number, mode: number, out: (line: string) => void): void {
  const want = `owner ${uid}:${gid}, mode 0${mode.toString(8)}`;
  const s = lstatSync(dir, { throwIfNoEntry: false });
  if (s !== undefined && !s.isDirectory())
    throw new CliError(`${dir} exists and is not a folder (a link or a file): remove it first`);
  try {
    if (s === undefined) {
      mkdirSync(dir, { mode: 0o700 });
      chownSync(dir, uid, gid);
      chmodSync(dir, mode);
      out(`created ${dir} (${want})`);
      return;
    }
    if (s.uid === uid && s.gid === gid && (s.mode & 0o7777) === mode) {
      out(`found ${dir} (${want})`);
      return;
    }
    chownSync(dir, uid, gid);
    chmodSync(dir, mode);
  } catch (e) {
    throw new CliError(`cannot prepare ${dir}: ${errorMessage(e)}`);
  }
  out(`fixed ${dir} (${want})`);
}

export function setupSystemCommand(opts: { user?: string }, out: (line: string) => void): number {
  requireRoot('hookwerk setup-system');
  const acct = account(opts.user, out);
  folder(SYSTEM_RUN_DIR, 0, 0, 0o755, out);
  folder(SYSTEM_STATE_DIR, 0, 0, 0o755, out);
  folder(SYSTEM_RECORDS_DIR, acct.uid, acct.gid, 0o700, out);
  out(
    `ready: start the daemon with \`hookwerk daemon --system${opts.user !== undefined ? ` --user ${acct.name}` : ''}\``,
  );
  return 0;
}
