/**
 * `hookwerk daemon --system [--user NAME]` [T-MGD-3]: the managed layer's daemon, for every user
 * (docs/managed.md). Started by root: it checks what `hookwerk setup-system` made (the account,
 * `/run/hookwerk` root's and not group/other-writable, the managed journal the account's), starts
 * its door (native/hookwerk-accept.c: binds `/run/hookwerk/daemon.sock` as root, drops to the
 * account, listens, hands each connection over with the caller's uid, gid and pid from the
 * kernel), then drops to the account itself and refuses to go on if it could get root back. Each
 * hook call is answered by the managed layer alone (`managed-answer.ts`), its engines kept warm
 * as the user daemon's are [R-HOOK-4]; `status` is for everyone (each user sees its own engines;
 * root and the account see all), `stop` only for root and the daemon's account
 * (the kernel's uid, not the request's).
 * Without the door (no C compiler at install) it does not start: managed answers need callers
 * the kernel named.
 */
import { lstatSync } from 'node:fs';
import type { Socket } from 'node:net';
import { errorMessage } from '../core/errno.ts';
import { doorBuilt, openDoor } from '../hook/accept-door.ts';
import { connectionHandler, type Peer } from '../hook/daemon-server.ts';
import type { ControlCommand, WireReply } from '../hook/daemon-wire.ts';
import { accountByName, accountByUid, type PasswdEntry } from '../hook/passwd-entry.ts';
import {
  DEFAULT_SYSTEM_ACCOUNT,
  SYSTEM_RECORDS_DIR,
  SYSTEM_SOCKET,
  SYSTEM_STATE_DIR,
} from '../hook/system-paths.ts';
import { systemFolderProblem } from '../hook/system-socket.ts';
import type { WarmEngineInfo } from '../hook/warm-decider.ts';
import { CliError } from './cli-error.ts';
import { engineStatus } from './daemon-status.ts';
import { answerManaged, managedWarmDecider } from './managed-answer.ts';
import { requireRoot } from './setup-system.ts';
import { firstSignal, graceOption } from './shutdown.ts';

const DEFAULT_GRACE_MS = 5000;

interface SystemDaemonOptions {
  user?: string;
  shutdownGraceMs?: string;
  fleet?: string;
}

/** The account to run as: it must exist and not be root. */
function daemonAccount(user: string | undefined): PasswdEntry {
  const name = user ?? DEFAULT_SYSTEM_ACCOUNT;
  const found = accountByName(name);
  if (found === undefined)
    throw new CliError(`the account ${name} does not exist: run \`hookwerk setup-system\` first`);
  if (found.uid === 0)
    throw new CliError(`the account ${name} is root: the daemon needs an account of its own`);
  return found;
}

/** Why the managed journal's folders are not as setup-system makes them, else undefined. */
function recordsProblem(acct: PasswdEntry): string | undefined {
  const state = lstatSync(SYSTEM_STATE_DIR, { throwIfNoEntry: false });
  if (state === undefined || !state.isDirectory() || state.uid !== 0 || (state.mode & 0o022) !== 0)
    return `${SYSTEM_STATE_DIR} must be a folder owned by root and not writable by group or others`;
  const records = lstatSync(SYSTEM_RECORDS_DIR, { throwIfNoEntry: false });
  if (
    records === undefined ||
    !records.isDirectory() ||
    records.uid !== acct.uid ||
    (records.mode & 0o077) !== 0
  )
    return `${SYSTEM_RECORDS_DIR} must be a folder owned by ${acct.name} with mode 0700`;
  return undefined;
}

/** Drops this process to the account for good; throws when root could be had back. */
function dropTo(acct: PasswdEntry): void {
  process.setgroups?.([]);
  process.setgid?.(acct.gid);
  process.setuid?.(acct.uid);
  let regained = false;
  try {
    process.setuid?.(0);
    regained = true;
  } catch {
    // EPERM: as it must be.
  }
  if (
    regained ||
    process.getuid?.() !== acct.uid ||
    process.geteuid?.() !== acct.uid ||
    process.getgid?.() !== acct.gid ||
    process.getegid?.() !== acct.gid
  )
    throw new CliError(`could not drop to the account ${acct.name} for good: not running as root's stand-in`);
}

export async function systemDaemonCommand(
  opts: SystemDaemonOptions,
  out: (line: string) => void,
  err: (line: string) => void,
  stopSignal?: Promise<string>,
): Promise<number> {
  // [F-BUN-2] Not yet: the managed layer is read only from root's /etc/hookwerk (T-MGD-1), which
  // the daemon's account cannot write. Refused, never silently ignored (docs/team.md).
  if (opts.fleet !== undefined)
    throw new CliError(
      '--fleet with --system is not supported yet: run a user daemon with --fleet (docs/team.md)',
    );
  requireRoot('hookwerk daemon --system');
  const acct = daemonAccount(opts.user);
  const grace = graceOption(opts.shutdownGraceMs).shutdownGraceMs ?? DEFAULT_GRACE_MS;
  const folder = systemFolderProblem();
  if (folder !== undefined) throw new CliError(`${folder}: run \`hookwerk setup-system\``);
  const records = recordsProblem(acct);
  if (records !== undefined) throw new CliError(`${records}: run \`hookwerk setup-system\``);
  if (!doorBuilt())
    throw new CliError(
      'cannot learn its callers from the kernel: dist/native/hookwerk-accept was not built (no C compiler at install); managed mode does not run on unchecked callers',
    );
  const signal = stopSignal ?? firstSignal(err);
  let stopFor: (why: string) => void = () => {};
  const stopped = new Promise<string>((resolve) => {
    stopFor = resolve;
  });
  const since = new Date();
  let calls = 0;
  const note = (line: string) => err(line);
  const warm = managedWarmDecider();

  // [G-WARM-1] Another user's projects are theirs: a caller but root and the account sees its own engines.
  const ownEngine = (peer: Peer | undefined) => {
    const caller = accountByUid(peer?.uid ?? -1);
    return (e: WarmEngineInfo) =>
      seesAll(peer, acct) || (caller !== undefined && e.user === caller.name && e.home === caller.home);
  };
  const status = (peer: Peer | undefined) => ({
    running: true,
    pid: process.pid,
    socket: SYSTEM_SOCKET,
    since: since.toISOString(),
    calls,
    idleExitMinutes: null,
    engines: warm.engines().filter(ownEngine(peer)).map(engineStatus),
    system: true,
    user: acct.name,
  });
  const json = (value: unknown): WireReply => ({
    exitCode: 0,
    stdout: Buffer.from(`${JSON.stringify(value)}\n`),
    stderr: Buffer.alloc(0),
  });
  const control = (command: ControlCommand, peer: Peer | undefined): WireReply => {
    if (command === 'status') return json(status(peer));
    // [T-MGD-3] Only root and the daemon's own account stop it, by the kernel's word.
    if (!seesAll(peer, acct))
      return json({
        refused: `only root or ${acct.name} may stop the system daemon (you are uid ${peer?.uid})`,
      });
    stopFor(`asked to stop by uid ${peer?.uid} (hookwerk daemon stop --system)`);
    return json({ stopping: true, pid: process.pid });
  };
  const connections = connectionHandler({
    handle: async (request, peer) => {
      // Every connection comes from the door, with its peer; one without cannot be answered.
      if (peer === undefined) throw new Error("a call without the kernel's credentials");
      calls++;
      return answerManaged(request, peer, { recordsDir: SYSTEM_RECORDS_DIR, note, decider: warm });
    },
    control,
    onMalformed: (why) => err(`hookwerk daemon: closed a request without a reply: ${why}`),
  });

  const door = openDoor(
    SYSTEM_SOCKET,
    acct.uid,
    acct.gid,
    (conn: Socket, peer: Peer) => {
      // The client half-closes after its request and waits for the reply on the same connection.
      conn.allowHalfOpen = true;
      connections.accept(conn, peer);
    },
    (line) => err(line),
  );
  // Right after the door started as root: nothing of the daemon runs as root from here on.
  try {
    dropTo(acct);
  } catch (e) {
    door.close();
    door.child.kill();
    throw e;
  }
  try {
    await door.ready;
  } catch (e) {
    throw new CliError(`the system daemon's door did not open: ${errorMessage(e)}`);
  }
  door.child.on('exit', () => stopFor('its door (hookwerk-accept) exited'));
  out('ready');
  err(
    `hookwerk daemon: listening on ${SYSTEM_SOCKET} as ${acct.name} (uid ${acct.uid}; pid ${process.pid}; managed layer)`,
  );
  const why = await Promise.race([signal, stopped]);
  err(`hookwerk daemon: ${why}, shutting down (running calls finish first)`);
  door.close();
  await connections.drain(grace);
  await warm.close();
  err(`hookwerk daemon: stopped after ${calls} call${calls === 1 ? '' : 's'}`);
  return 0;
}

/** [T-MGD-3] Root and the daemon's own account, by the kernel's uid: they may stop it and see every engine. */
function seesAll(peer: Peer | undefined, acct: PasswdEntry): boolean {
  return peer !== undefined && (peer.uid === 0 || peer.uid === acct.uid);
}
