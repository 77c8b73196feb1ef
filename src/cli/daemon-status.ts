/**
 * `hookwerk daemon status [--json]` and `hookwerk daemon stop` [G-WARM-1]: a control message on
 * the daemon's own socket (`daemon-wire.ts`). Only the socket's owner can connect (0600 in a 0700
 * folder), so only they can ask or stop. `status` exits 0 when a daemon runs, 1 when none does;
 * `stop` asks it to stop (running calls finish first, the socket goes at once) and waits until its
 * process is gone; with none running it says so and exits 0.
 */
import type { Socket } from 'node:net';
import { z } from 'zod';
import { pidAlive } from '../core/pid-alive.ts';
import { askControl } from '../hook/daemon-client.ts';
import { checkPeer, checkSystemPeer, type PeerCheck } from '../hook/daemon-peer.ts';
import { privateFolder, socketAt } from '../hook/daemon-socket.ts';
import { SYSTEM_SOCKET } from '../hook/system-paths.ts';
import { checkSystemSocket } from '../hook/system-socket.ts';
import type { WarmEngineInfo } from '../hook/warm-decider.ts';
import { CliError } from './cli-error.ts';
import { socketOf } from './daemon-socket-option.ts';

/** One warm engine of a running daemon. */
const engineSchema = z.object({
  project: z.string(),
  home: z.string(),
  agent: z.enum(['claude', 'other']),
  busy: z.number().int().nonnegative(),
  idleSeconds: z.number().nonnegative(),
  // Optional: a daemon of an earlier version does not count them.
  calls: z.number().int().nonnegative().optional(),
  loads: z.number().int().nonnegative().optional(),
});
type EngineStatus = z.infer<typeof engineSchema>;

/** [G-WARM-1] One warm engine as both daemons' `status` shows it (user's, and system's T-MGD-3). */
export function engineStatus(e: WarmEngineInfo): EngineStatus {
  return {
    project: e.project,
    home: e.home,
    agent: e.agent,
    busy: e.busy,
    idleSeconds: Math.floor(e.idleMs / 1000),
    calls: e.calls,
    loads: e.loads,
  };
}

/** [F-BUN-2] A fleet daemon's bundle: the version in force and the last one refused, with why. */
const fleetSchema = z.object({
  url: z.string(),
  group: z.string(),
  version: z.number().int().positive().nullable(),
  connected: z.boolean(),
  lastRefusal: z
    .object({ version: z.number().int().nullable(), reason: z.string(), at: z.string() })
    .nullable(),
  /** [F-AUD-1] The audit forwarder: what the stream acknowledged, and where it reads next. */
  audit: z
    .object({
      sent: z.number().int().nonnegative(),
      duplicates: z.number().int().nonnegative(),
      gaps: z.number().int().nonnegative(),
      failed: z.number().int().nonnegative(),
      skipped: z.number().int().nonnegative(),
      cursor: z.object({ seq: z.number().int(), offset: z.number().int() }).nullable(),
      lastError: z.string().nullable(),
    })
    .optional(),
});

/** What a running daemon answers to `status`; loose: a later daemon may add keys. */
export const daemonStatusSchema = z.looseObject({
  running: z.literal(true),
  pid: z.number().int().positive(),
  socket: z.string(),
  since: z.string(),
  calls: z.number().int().nonnegative(),
  idleExitMinutes: z.number().positive().nullable(),
  engines: z.array(engineSchema),
  fleet: fleetSchema.optional(),
});
export type DaemonStatus = z.infer<typeof daemonStatusSchema>;

const stoppingSchema = z.object({ stopping: z.literal(true), pid: z.number().int().positive() });

/** How long `stop` waits for the daemon's process to end (its grace is 5 s by default). */
const STOP_WAIT_MS = 60_000;

interface ControlOptions {
  socket?: string;
  json?: boolean;
  /** [T-MGD-3] The system daemon's socket. */
  system?: boolean;
}

/** [T-MGD-3] The system daemon's answer to a `stop` it refuses (the caller is not root or its account). */
const refusedSchema = z.object({ refused: z.string() });

type Asked<T> =
  | { kind: 'none'; socket: string }
  | { kind: 'refused'; socket: string; why: string }
  | { kind: 'reply'; socket: string; value: T; unchecked?: string };

/**
 * Asks the daemon of `opts`/`env`; none running is `none`, a listener that is not this
 * installation's daemon `refused` (nothing sent to it: the peer check of hook calls, T-SELF-4),
 * anything unexpected a CliError.
 */
async function ask<T>(
  command: 'status' | 'stop',
  schema: z.ZodType<T>,
  opts: ControlOptions,
  env: NodeJS.ProcessEnv,
): Promise<Asked<T>> {
  const socket = opts.system === true ? SYSTEM_SOCKET : socketOf(opts, env).socket;
  // [T-SELF-4] / [T-MGD-3] The peer is checked as for hook calls, before anything is sent.
  let peerCheck: (conn: Socket) => Promise<PeerCheck>;
  if (opts.system === true) {
    const found = checkSystemSocket();
    if (found.state === 'none') return { kind: 'none', socket };
    if (found.state === 'foreign') throw new CliError(`${socket}: ${found.why}: not asked`);
    peerCheck = (conn) => checkSystemPeer(conn, found.owner);
  } else {
    const state = socketAt(socket);
    if (state === 'none') return { kind: 'none', socket };
    if (state !== 'ours') throw new CliError(`${socket} is not a socket of this account: not asked`);
    peerCheck = async (conn) => {
      const folder = privateFolder(socket);
      return folder !== undefined ? { kind: 'refused', why: folder } : checkPeer(conn, socket);
    };
  }
  let unchecked: string | undefined;
  const answer = await askControl(socket, command, async (conn) => {
    const peer = await peerCheck(conn);
    if (peer.kind === 'refused') return peer.why;
    if (peer.kind === 'gone') return { gone: true };
    if (peer.kind === 'unchecked') unchecked = peer.why;
    return undefined;
  });
  if (answer.kind === 'absent') return { kind: 'none', socket };
  if (answer.kind === 'refused') return { kind: 'refused', socket, why: answer.why };
  if (answer.kind === 'failed' || answer.kind === 'dropped')
    throw new CliError(`something listens on ${socket} but did not answer "${command}" (another version?)`);
  let json: unknown;
  try {
    json = JSON.parse(answer.json);
  } catch {
    throw new CliError(`the daemon on ${socket} answered "${command}" with something other than JSON`);
  }
  const refused = refusedSchema.safeParse(json);
  if (refused.success)
    throw new CliError(`the daemon on ${socket} refused "${command}": ${refused.data.refused}`);
  const parsed = schema.safeParse(json);
  if (!parsed.success)
    throw new CliError(`the daemon on ${socket} answered "${command}" in an unknown shape`);
  return { kind: 'reply', socket, value: parsed.data, ...(unchecked !== undefined ? { unchecked } : {}) };
}

export async function daemonStatusCommand(
  opts: ControlOptions,
  out: (line: string) => void,
  env: NodeJS.ProcessEnv = process.env,
  now = Date.now(),
): Promise<number> {
  const asked = await ask('status', daemonStatusSchema, opts, env);
  if (asked.kind === 'none') {
    if (opts.json === true)
      out(JSON.stringify({ running: false, pid: null, socket: asked.socket, since: null, engines: [] }));
    else out(`hookwerk daemon: not running (socket ${asked.socket})`);
    return 1;
  }
  if (asked.kind === 'refused') {
    if (opts.json === true)
      out(
        JSON.stringify({
          running: false,
          pid: null,
          socket: asked.socket,
          since: null,
          engines: [],
          refused: asked.why,
        }),
      );
    else out(`hookwerk daemon: ${refusal(asked.socket, asked.why)}; not asked`);
    return 1;
  }
  const s = asked.value;
  if (opts.json === true) {
    out(JSON.stringify(s));
    return 0;
  }
  const up = Math.max(0, Math.floor((now - Date.parse(s.since)) / 1000));
  out(
    `hookwerk daemon: running, pid ${s.pid}, since ${s.since} (${duration(up)}), ${s.calls} call${s.calls === 1 ? '' : 's'} answered`,
  );
  out(`socket: ${s.socket}`);
  if (asked.unchecked !== undefined) out(`peer: not checked (${asked.unchecked})`);
  out(
    s.idleExitMinutes === null
      ? 'idle exit: never'
      : `idle exit: after ${s.idleExitMinutes} minutes without a call`,
  );
  if (s.fleet !== undefined) {
    const f = s.fleet;
    out(
      `fleet: ${f.url} group ${f.group} (${f.connected ? 'connected' : 'not connected'}), version in force: ${f.version ?? 'none yet'}`,
    );
    if (f.lastRefusal !== null)
      out(
        `last refusal: ${f.lastRefusal.version === null ? 'a bundle' : `version ${f.lastRefusal.version}`} at ${f.lastRefusal.at}: ${f.lastRefusal.reason}`,
      );
    const a = f.audit;
    if (a !== undefined)
      out(
        `audit: ${a.sent} sent, ${a.duplicates} already held, ${a.gaps} gap${a.gaps === 1 ? '' : 's'}, ${a.failed} failed${a.lastError !== null ? ` (last: ${a.lastError})` : ''}`,
      );
  }
  out(`engines: ${s.engines.length}`);
  for (const e of s.engines)
    out(
      `  ${e.project} (${e.agent === 'claude' ? 'Claude Code' : 'other agents'}): ${
        e.busy > 0 ? `${e.busy} running` : `idle ${duration(e.idleSeconds)}`
      }${e.calls !== undefined ? `, ${e.calls} call${e.calls === 1 ? '' : 's'}` : ''}${
        e.loads !== undefined ? `, policy read ${e.loads}×` : ''
      }`,
    );
  return 0;
}

export async function daemonStopCommand(
  opts: ControlOptions,
  out: (line: string) => void,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const asked = await ask('stop', stoppingSchema, opts, env);
  if (asked.kind === 'none') {
    out(`hookwerk daemon: not running (socket ${asked.socket})`);
    return 0;
  }
  if (asked.kind === 'refused') throw new CliError(`${refusal(asked.socket, asked.why)}; "stop" not sent`);
  const { pid } = asked.value;
  const deadline = Date.now() + STOP_WAIT_MS;
  while (pidAlive(pid)) {
    if (Date.now() > deadline) throw new CliError(`the daemon (pid ${pid}) is still stopping`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  out(`hookwerk daemon: stopped (pid ${pid})`);
  return 0;
}

/** [T-SELF-4] What listens on the socket is not believed. */
function refusal(socket: string, why: string): string {
  return `whatever listens on ${socket} is not this installation's daemon of this account (${why})`;
}

function duration(seconds: number): string {
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 7200) return `${Math.floor(seconds / 60)} min`;
  return `${Math.floor(seconds / 3600)} h`;
}
