/**
 * The bubblewrap backend for PRX shell hooks [P-SEC-7].
 *
 * Two pure-ish pieces: finding the `bwrap` binary (once per config load) and turning one hook
 * run into the argv that runs it inside a sandbox. The process runner then spawns that argv
 * exactly like an unsandboxed hook, so timeouts, output caps and group kills stay the same.
 */
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { realPathOr } from '../core/real-path.ts';

export type WorkspaceAccess = 'rw' | 'ro';

/** How an action runs under bwrap; resolved at load time, carried by the action. */
export interface BwrapSandbox {
  kind: 'bwrap';
  /** Absolute path of the bwrap binary found at load time. */
  bwrap: string;
  /** The workspace folder, bound writable (`rw`) or read-only (`ro`), reachable at its own path. */
  workspace: string;
  workspaceAccess: WorkspaceAccess;
  /**
   * Bound read-only even in a writable workspace, when present: the hooks.json the action came
   * from, so a sandboxed hook cannot rewrite it to switch its own sandbox off.
   */
  readOnly: readonly string[];
  /** Replaced by an empty private tmpfs when present: hookwerk's state (`.hookwerk/`: API token). */
  hidden: readonly string[];
}

/** Overrides the lookup: a path to bwrap (tests point it at a missing file to simulate "not installed"). */
export const BWRAP_ENV_VAR = 'HOOKWERK_BWRAP';
const WELL_KNOWN = ['/usr/bin/bwrap', '/usr/local/bin/bwrap'];

export type BwrapLookup =
  | { ok: true; path: string }
  | {
      ok: false;
      /** One line, ready for a ConfigIssue. */
      message: string;
    };

const BWRAP_MISSING = 'sandbox "bwrap" requested but bwrap is not installed (apt-get install bubblewrap)';

/**
 * Finds bwrap: `$HOOKWERK_BWRAP` when set (and nothing else then), else `/usr/bin/bwrap`,
 * `/usr/local/bin/bwrap`, then each folder of `PATH`.
 */
export function findBwrap(env: NodeJS.ProcessEnv = process.env): BwrapLookup {
  const override = env[BWRAP_ENV_VAR];
  if (override !== undefined && override !== '') {
    if (path.isAbsolute(override) && isExecutableFile(override)) return { ok: true, path: override };
    return { ok: false, message: `${BWRAP_MISSING}; ${BWRAP_ENV_VAR}=${override} is not an executable file` };
  }
  const dirs = (env.PATH ?? '').split(':').filter((d) => path.isAbsolute(d));
  for (const candidate of [...WELL_KNOWN, ...dirs.map((d) => path.join(d, 'bwrap'))]) {
    if (isExecutableFile(candidate)) return { ok: true, path: candidate };
  }
  return { ok: false, message: BWRAP_MISSING };
}

function isExecutableFile(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs the hook command after bwrap has set up the sandbox. bwrap always exports `PWD`
 * (even with `--clearenv`); `env -u PWD` takes it out again so the hook's environment is
 * exactly the sanitized one [P-SEC-1]. A `PWD` the action itself sets is put back.
 */
const ENV_WRAPPER = '/usr/bin/env';

interface BwrapRun {
  sandbox: BwrapSandbox;
  /** The hook's command (absolute path, or a bare name looked up in the sanitized PATH inside). */
  command: string;
  args: readonly string[];
  /** The hook's working directory (also its `--chdir`). */
  cwd: string;
  /** The sanitized environment the hook gets; only `PWD` is looked at here. */
  env: Readonly<Record<string, string>>;
  /** The payload file (under the engine's private temp folder), bound read-only at its own path. */
  payloadFile: string;
}

/** The command and arguments that run one hook under bwrap. Spawn them with the hook's env and cwd. */
export function bwrapArgv(run: BwrapRun): { command: string; args: string[] } {
  const { sandbox } = run;
  // bwrap cannot mount onto a symlink: a path through symlinks is mounted at its real location,
  // which the symlinks in the read-only root lead to. Under /tmp (a fresh tmpfs without those
  // symlinks) the path gets a symlink of its own, unless one made for a folder above covers it.
  const linked: string[] = [];
  const bind = (flag: string, p: string) => {
    const real = realPathOr(p);
    const out = [{ dest: real, args: [flag, p, real] }];
    if (real !== p && isUnder(p, '/tmp') && !linked.some((l) => isUnder(p, l))) {
      linked.push(p);
      out.push({ dest: p, args: ['--symlink', real, p] });
    }
    return out;
  };
  // Mounts apply in order, so a shallower one never hides a deeper one (the workspace and the
  // payload usually live under /tmp, which becomes a private tmpfs).
  const mounts: Array<{ dest: string; args: string[] }> = [
    { dest: '/', args: ['--ro-bind', '/', '/'] },
    { dest: '/dev', args: ['--dev', '/dev'] },
    { dest: '/proc', args: ['--proc', '/proc'] },
    { dest: '/tmp', args: ['--tmpfs', '/tmp'] },
    ...bind(sandbox.workspaceAccess === 'ro' ? '--ro-bind' : '--bind', path.resolve(sandbox.workspace)),
    ...sandbox.readOnly.flatMap((p) => bind('--ro-bind-try', p)),
    // bwrap has no "--tmpfs-try", and a mount point it creates in a writable workspace would
    // appear on the host: hide only what exists (one stat per run).
    ...sandbox.hidden
      .filter((p) => existsSync(p))
      .map((p) => realPathOr(p))
      .map((dest) => ({ dest, args: ['--tmpfs', dest] })),
    // Only this run's payload file, not the whole temp folder: a hook sees no other run's payload.
    ...bind('--ro-bind', run.payloadFile),
  ];
  const ordered = mounts
    .map((m, i) => ({ ...m, i, depth: depthOf(m.dest) }))
    .sort((a, b) => a.depth - b.depth || a.i - b.i);
  const pwd = run.env.PWD;
  return {
    command: sandbox.bwrap,
    args: [
      '--unshare-net',
      '--unshare-pid',
      '--unshare-ipc',
      '--unshare-uts',
      '--die-with-parent',
      // Run as root, bwrap keeps every capability in the sandbox: CAP_SYS_ADMIN could simply
      // remount / read-write. Dropping them all makes the read-only root hold for root too.
      '--cap-drop',
      'ALL',
      ...ordered.flatMap((m) => m.args),
      '--chdir',
      run.cwd,
      '--',
      ENV_WRAPPER,
      '-u',
      'PWD',
      '--',
      ...(pwd !== undefined ? [`PWD=${pwd}`] : []),
      run.command,
      ...run.args,
    ],
  };
}

function isUnder(p: string, dir: string): boolean {
  return p === dir || p.startsWith(`${dir}/`);
}

function depthOf(p: string): number {
  return p.split('/').filter(Boolean).length;
}
