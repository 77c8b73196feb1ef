// [T-MGD-1, T-MGD-2] Managed mode run without touching the machine's /etc, shared by the tests
// (test/managed-namespace.ts) and the differential's install suite (install-managed.js): a private
// mount namespace (bubblewrap, as root) where /etc is a tmpfs holding the real /etc's entries
// again, plus temp folders standing in for /etc/hookwerk and the agents' administrator folders.
// No variable moves a managed path (an agent could set it): the file system is moved instead.
// Plain JS so that `node differential/run.js` loads it as it is; its types are namespace.d.ts.
import { spawnSync } from 'node:child_process';
import { lstatSync, readdirSync, readlinkSync } from 'node:fs';
import path from 'node:path';

/** Where the namespace shows the hookwerk checkout: a tmpfs root owns, so it is root's alone [T-MGD-2]. */
export const INSTALLED = '/mnt/hookwerk';
/** bin/hookwerk.js of that view. */
export const INSTALLED_BIN = path.join(INSTALLED, 'bin', 'hookwerk.js');

/** [T-MGD-3] The account files `useradd` rewrites (by rename: they cannot be bind mounts). */
export const ACCOUNT_FILES = ['passwd', 'group', 'shadow', 'gshadow'];

/**
 * bwrap's arguments (before the command): `/` as it is, `/etc` a tmpfs (or `etc`, an /etc of the
 * caller's own holding the account files) with every real entry bound (or linked) back, then each
 * `binds` target bound to its temp folder (under /etc, or a whole folder such as /run or
 * /var/lib), and `repo` seen at INSTALLED; a target inside INSTALLED hides that part of the
 * checkout. Nothing is created on the host.
 * @param {Readonly<Record<string, string>>} binds target → the temp folder bound there
 * @param {string} repo the hookwerk checkout
 * @param {string} [etc] an /etc to bind instead of a tmpfs
 * @returns {string[]}
 */
/**
 * The real /etc's entries worth binding back, each with its link target when it is a symlink.
 * Another process may be running `useradd` on the real /etc meanwhile (a test making an account):
 * its lock and temp files (`passwd.lock`, `shadow.12345`, `group+`, `.pwd.lock`) come and go, so
 * they are left out, and an entry that vanishes between the listing and its lstat is skipped.
 * @returns {{ name: string, link: string | undefined }[]}
 */
export function etcEntries() {
  /** @type {{ name: string, link: string | undefined }[]} */
  const out = [];
  for (const name of readdirSync('/etc')) {
    if (TRANSIENT.test(name)) continue;
    const real = path.join('/etc', name);
    try {
      out.push({ name, link: lstatSync(real).isSymbolicLink() ? readlinkSync(real) : undefined });
    } catch {
      // Gone since the listing.
    }
  }
  return out;
}

/** shadow-utils' lock and temp files. */
const TRANSIENT = /^(\.pwd\.lock|(passwd|group|shadow|gshadow|subuid|subgid)(\.lock|\+|\.[0-9]+))$/;

export function namespaceArgs(binds, repo, etc) {
  const args = [
    '--dev-bind',
    '/',
    '/',
    ...(etc === undefined ? ['--tmpfs', '/etc'] : ['--bind', etc, '/etc']),
  ];
  const taken = new Set(
    Object.keys(binds)
      .filter((t) => t.startsWith('/etc/'))
      .map((t) => path.relative('/etc', t).split(path.sep)[0]),
  );
  for (const { name, link } of etcEntries()) {
    if (taken.has(name)) continue;
    if (etc !== undefined && ACCOUNT_FILES.some((f) => name === f || name === `${f}-`)) continue;
    const real = path.join('/etc', name);
    if (link !== undefined) {
      if (etc === undefined) args.push('--symlink', link, real);
    } else args.push('--bind', real, real);
  }
  /** @param {string} t */
  const inCheckout = (t) => t.startsWith(`${INSTALLED}/`);
  for (const [target, source] of Object.entries(binds))
    if (!inCheckout(target)) args.push('--bind', source, target);
  // The checkout, seen at a root-owned path whatever folder it was cloned into (install --system
  // refuses a hookwerk under a folder others can write, /tmp included).
  args.push('--tmpfs', path.dirname(INSTALLED), '--bind', repo, INSTALLED);
  // A part of the checkout hidden from a run (its native programs, as without a C compiler).
  for (const [target, source] of Object.entries(binds))
    if (inCheckout(target)) args.push('--bind', source, target);
  // Root inside keeps its capabilities, so that `setpriv` can drop to another account; what runs
  // inside dies with bwrap (no process outlives its run).
  args.push('--cap-add', 'ALL', '--die-with-parent');
  return args;
}

/**
 * Why namespaces cannot be used here, or `undefined` when they can: not root, no bwrap, or a
 * sandbox that refuses mount namespaces (bwrap's own message). Asked once per process.
 * @returns {string | undefined}
 */
export function namespaceProblem() {
  problem ??= { why: findProblem() };
  return problem.why;
}

/** @type {{why: string | undefined} | undefined} */
let problem;

function findProblem() {
  if (process.getuid?.() !== 0) return 'needs root (bwrap binds temp folders over /etc)';
  const r = spawnSync('bwrap', [...namespaceArgs({}, process.cwd()), '--', 'true'], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (r.error !== undefined) return `bwrap cannot run: ${r.error.message}`;
  if (r.status !== 0)
    return `bwrap cannot make a mount namespace here: ${r.stderr.trim().split('\n')[0] ?? ''}`;
  return undefined;
}
