/**
 * [T-MGD-1, T-MGD-2] Managed mode under test without touching the machine's /etc: each hookwerk
 * process runs in a private mount namespace (bubblewrap, as root) where /etc is a tmpfs holding
 * the real /etc's entries again, plus temp folders standing in for /etc/hookwerk and the agents'
 * administrator folders. No variable moves a managed path (an agent could set it): the test
 * moves the file system instead. A process may then drop to an unprivileged account standing in
 * for the agent (`setpriv`), so "owned by root, not writable by the user" is the kernel's answer.
 * bwrap's arguments are differential/namespace.js's: the differential's install suite runs the
 * real Codex CLI in the same namespace.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, mkdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import {
  ACCOUNT_FILES,
  etcEntries,
  INSTALLED,
  INSTALLED_BIN,
  namespaceArgs,
} from '../differential/namespace.js';
import { type CliResult, cleanEnv, REPO, runProgram } from './cli-runner.ts';
import { tempDir } from './helpers.ts';

export const AGENT_ACCOUNT = 'hookwerk-agent';

export { INSTALLED, INSTALLED_BIN };

export interface Account {
  readonly name: string;
  readonly uid: number;
  readonly gid: number;
}

function lookUp(name: string): Account | undefined {
  for (const line of readFileSync('/etc/passwd', 'utf8').split('\n')) {
    const [user, , uid, gid] = line.split(':');
    if (user === name && uid !== undefined && gid !== undefined)
      return { name, uid: Number(uid), gid: Number(gid) };
  }
  return undefined;
}

/** The account standing in for the agent, made once (idempotent; another test file may race us). */
export function agentAccount(): Account {
  const found = lookUp(AGENT_ACCOUNT);
  if (found !== undefined) return found;
  spawnSync(
    'useradd',
    [
      '--system',
      '--no-create-home',
      '--home-dir',
      '/nonexistent',
      '--shell',
      '/usr/sbin/nologin',
      AGENT_ACCOUNT,
    ],
    {
      stdio: 'ignore',
    },
  );
  const made = lookUp(AGENT_ACCOUNT);
  if (made === undefined) throw new Error(`could not create the account ${AGENT_ACCOUNT} (useradd)`);
  return made;
}

/** A world-readable temp folder (mkdtemp makes 0700: the agent account could not enter it). */
export function openTempDir(prefix: string): string {
  const dir = tempDir(prefix);
  chmodSync(dir, 0o755);
  return dir;
}

/** A folder owned by `account`, mode `mode`. */
export function ownedDir(dir: string, account: Account, mode = 0o755): string {
  mkdirSync(dir, { recursive: true });
  chownSync(dir, account.uid, account.gid);
  chmodSync(dir, mode);
  return dir;
}

/**
 * [T-MGD-3] An /etc of the test's own (root's, 0755) holding copies of the account files, for
 * `setup-system` to run `useradd` in: bound at /etc in every namespace of the test, so each sees
 * the accounts another made; the other entries are bound back from the real /etc.
 */
export function accountsEtc(base: string): string {
  const dir = path.join(base, 'etc');
  mkdirSync(dir, { mode: 0o755 });
  chmodSync(dir, 0o755);
  for (const name of ACCOUNT_FILES) {
    const real = path.join('/etc', name);
    try {
      copyFileSync(real, path.join(dir, name));
      chmodSync(path.join(dir, name), statSync(real).mode & 0o7777);
    } catch {
      // A system without gshadow: useradd does without it too.
    }
  }
  // Its links made once here (bwrap refuses to make a link that exists, and the folder is shared).
  for (const { name, link } of etcEntries())
    if (!ACCOUNT_FILES.includes(name) && link !== undefined) symlinkSync(link, path.join(dir, name));
  return dir;
}

export interface NamespaceRun {
  /** Target (under /etc, or a whole folder) → the temp folder bound there. */
  binds: Readonly<Record<string, string>>;
  /** [T-MGD-3] An /etc of the test's own (`accountsEtc`) instead of a tmpfs. */
  etc?: string;
  /** Run as this account (else as root). */
  as?: Account;
  env: NodeJS.ProcessEnv;
  cwd: string;
  stdin?: { text: string };
}

/** The argv that runs `command` in the namespace (as the account, when given). */
export function namespaceArgv(
  command: readonly string[],
  run: Pick<NamespaceRun, 'binds' | 'as' | 'etc'>,
): string[] {
  const drop =
    run.as === undefined
      ? []
      : // `keep`: bwrap's parent-death signal survives the change of account.
        [
          'setpriv',
          `--reuid=${run.as.uid}`,
          `--regid=${run.as.gid}`,
          '--clear-groups',
          '--pdeathsig',
          'keep',
          '--',
        ];
  return [...namespaceArgs(run.binds, REPO, run.etc), ...drop, ...command];
}

/** `node bin/hookwerk.js …args` in the namespace, to completion. */
export function hookwerkIn(args: readonly string[], run: NamespaceRun): Promise<CliResult> {
  const argv = namespaceArgv([process.execPath, INSTALLED_BIN, ...args], run);
  return runProgram('bwrap', argv, {
    env: run.env,
    cwd: run.cwd,
    ...(run.stdin !== undefined ? { stdin: run.stdin } : {}),
  });
}

/** [T-MGD-3] `node bin/hookwerk.js …args` in the namespace, left running (a daemon); stdout and stderr piped. */
export function startHookwerkIn(args: readonly string[], run: Omit<NamespaceRun, 'stdin'>): ChildProcess {
  const argv = namespaceArgv([process.execPath, INSTALLED_BIN, ...args], run);
  return spawn('bwrap', argv, { env: run.env, cwd: run.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** The environment of an agent's hook call: a clean one with the agent's home. */
export function agentEnv(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return cleanEnv({ HOME: home, ...extra });
}
