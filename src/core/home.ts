/**
 * [L-TRUST-12] The home folder, the account's: it holds the trust store (`~/.lurus/trust.json`)
 * and the user sources every dialect trusts (`~/.lurus`, `~/.claude`, `~/.gemini`).
 *
 * `HOME` when it is set and not empty; otherwise what the password database gives for this
 * account (`os.userInfo().homedir`: a service started without `HOME` still has one there).
 * `/` is never a home, whichever of the two says so: with it, `/.lurus/trust.json` would be a
 * trust store and `/.claude/settings.json` a trusted user source, in a folder that is nobody's
 * own. When neither gives a usable folder there is none, and whatever needs one stops and says
 * so (`NoHomeError`, one line) rather than pick a folder.
 */
import { userInfo } from 'node:os';
import path from 'node:path';
import { HookwerkError } from './errors.ts';

/** No home folder could be found; its message says why in one line. */
export class NoHomeError extends HookwerkError {
  constructor(message: string) {
    super('NO_HOME', message);
  }
}

/** What the password database says for this account: its home, or why there is none. */
export type PasswdHome = { home: string } | { missing: string };

export function passwdHome(): PasswdHome {
  try {
    const home = userInfo().homedir;
    return home === '' ? { missing: 'gives an empty home for this account' } : { home };
  } catch {
    // A uid without an entry (containers often run as one): userInfo() throws ENOENT.
    const uid = process.getuid?.();
    return { missing: `has no entry for ${uid === undefined ? 'this account' : `uid ${uid}`}` };
  }
}

/**
 * The home folder (absolute), or a NoHomeError. `given` (an engine's or a command's `home`
 * option) wins when set; `/` is refused there too. `passwd` is for tests.
 */
export function homeFolder(
  given?: string,
  env: NodeJS.ProcessEnv = process.env,
  passwd: () => PasswdHome = passwdHome,
): string {
  if (given !== undefined) {
    const home = path.resolve(given);
    if (isRoot(home)) throw new NoHomeError(`no home folder: ${given} is / (never used as home)`);
    return home;
  }
  const fromEnv = env.HOME;
  if (fromEnv !== undefined && fromEnv !== '' && !isRoot(path.resolve(fromEnv))) return path.resolve(fromEnv);
  const said = fromEnv === undefined ? 'HOME is unset' : fromEnv === '' ? 'HOME is empty' : 'HOME is /';
  const db = passwd();
  if ('missing' in db)
    throw new NoHomeError(`no home folder: ${said} and the password database ${db.missing}; set HOME`);
  const home = path.resolve(db.home);
  if (isRoot(home))
    throw new NoHomeError(
      `no home folder: ${said} and the password database gives / (never used as home); set HOME`,
    );
  return home;
}

function isRoot(dir: string): boolean {
  return path.dirname(dir) === dir;
}
