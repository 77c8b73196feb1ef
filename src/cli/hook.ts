/**
 * `hookwerk hook --agent A [--event E] [--project DIR]` [R-HOOK-1]: the command an agent's own
 * hook file calls. Its own small entry (`bin/hookwerk.js` comes here before loading the rest of
 * the CLI) so that a call with no policy hook pays for reading stdin and the policy files, not for
 * the engine [R-HOOK-4]. Whatever goes wrong, stdout carries only the agent's protocol.
 */
import { lstatSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { errorCode } from '../core/errno.ts';
import { homeFolder } from '../core/home.ts';
import { readStdinBytes } from '../core/stdin-bytes.ts';
import type { HookReply } from '../dialects/agent/hook-agent.ts';
import {
  HOOK_AGENT_NAMES,
  HOOK_AGENTS,
  type HookAgentName,
  isHookAgentName,
} from '../dialects/hook-agents.ts';
import { callStart, STARTED_ENV } from '../hook/call-deadline.ts';
import type { SocketNote } from '../hook/daemon-refusal.ts';
import { autostartOff, COLD_ENV, privateFolder, REFUSED_ENV, socketState } from '../hook/daemon-socket.ts';
import { answerHookCall, type HookCallDeps } from '../hook/hook-call.ts';
import type { PolicyDecider } from '../hook/policy-decider.ts';
import { guardProjectEnv } from '../hook/project-env.ts';
import { SYSTEM_ASKED_ENV, SYSTEM_SOCKET } from '../hook/system-paths.ts';

/**
 * [R-HOOK-4] The cold decider, loaded only once a policy hook may run: it (and the engine behind
 * it) pulls in node:crypto, some 8 ms of a call that has no hook to run. [G-PERF-1] It comes from
 * the cold bundle with its code cache (hook/cold-load.ts).
 */
const coldDecider: PolicyDecider = {
  async decide(q) {
    const { loadColdDecider } = await import('../hook/cold-load.ts');
    return (await loadColdDecider(q.home, q.env)).decide(q);
  },
};

/** The input object is at most this big on stdin. */
const MAX_INPUT_BYTES = 8 * 1024 * 1024;

export const HOOK_USAGE = `usage: hookwerk hook --agent ${HOOK_AGENT_NAMES.join('|')} [--event EVENT] [--project DIR] [--timeout SECONDS]
  Reads the agent's hook input on stdin, runs the policy (.hookwerk/policy.json, ~/.hookwerk/policy.json)
  and answers in that agent's own protocol, 2 s before --timeout (the agent's own timeout for the entry).
  Written into the agents' hook files by \`hookwerk install\`.`;

interface HookArgs {
  agent: string;
  event?: string;
  project?: string;
  /** [G-FAIL-4] The agent's timeout for this entry, in seconds. */
  timeoutS?: number;
}

/** The flags, or the one-line reason they are wrong; `help` for --help. */
export function parseHookArgs(args: readonly string[]): HookArgs | { help: true } | { error: string } {
  let parsed: ReturnType<
    typeof parseArgs<{ options: typeof OPTIONS; strict: true; allowPositionals: false }>
  >;
  try {
    parsed = parseArgs({ args: [...args], options: OPTIONS, strict: true, allowPositionals: false });
  } catch (e) {
    return { error: (e instanceof Error ? e.message : String(e)).split('\n')[0] ?? 'bad arguments' };
  }
  const v = parsed.values;
  if (v.help === true) return { help: true };
  if (v.agent === undefined) return { error: `--agent is required (${HOOK_AGENT_NAMES.join(', ')})` };
  const timeoutS = v.timeout === undefined ? undefined : Number(v.timeout);
  if (timeoutS !== undefined && !(Number.isFinite(timeoutS) && timeoutS > 0 && timeoutS <= 86_400))
    return { error: `--timeout must be a number of seconds above 0 (at most 86400), not "${v.timeout}"` };
  return {
    agent: v.agent,
    ...(timeoutS !== undefined ? { timeoutS } : {}),
    ...(v.event !== undefined ? { event: v.event } : {}),
    ...(v.project !== undefined ? { project: v.project } : {}),
  };
}

const OPTIONS = {
  agent: { type: 'string' },
  event: { type: 'string' },
  project: { type: 'string' },
  timeout: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** One call's input: stdin (`undefined`: over the limit), the working folder, the environment. */
export interface HookInput {
  stdin: Buffer | undefined;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** [G-FAIL-4] When the call started (epoch ms); default: when it is answered (the daemon's receipt). */
  startedAt?: number;
}

/** Runs one call in this process; resolves with the reply (never rejects). */
export async function hookCommand(
  args: readonly string[],
  deps: Partial<HookCallDeps> = {},
  opts: {
    daemon?: boolean;
    startedAt?: number;
    refused?: string;
    snapshot?: boolean;
    systemAsked?: boolean;
  } = {},
): Promise<HookReply> {
  const checked = checkArgs(args);
  if ('reply' in checked) return checked.reply;
  const stdin = await readStdinBytes(MAX_INPUT_BYTES).catch(() => undefined);
  const cwd = process.cwd();
  // [T-SELF-4] Before the socket is chosen: a home or socket a project file set is not used.
  const peek = peekCall(checked.call, stdin, cwd, process.env);
  const guarded = guardProjectEnv(checked.call.agent, peek.dirs, process.env);
  const input = { stdin, cwd, env: guarded.env, startedAt: opts.startedAt ?? Date.now() };
  const notes: SocketNote[] = [];
  // The C client's fallback tells why it did not use the daemon: said here (once a day).
  if (opts.refused !== undefined) notes.push(refusedBy(opts.refused));
  let reply: HookReply | undefined;
  // [T-MGD-3] The system daemon first, when its socket exists (one lstat when it does not): its
  // deny is the answer; anything else goes on as before. In the C client's fallback too (it does
  // not ask the system daemon itself).
  if (stdin !== undefined && opts.systemAsked !== true && systemSocketThere()) {
    const { askSystemDaemon } = await import('../hook/system-call.ts');
    const system = await askSystemDaemon({
      args: [...args],
      cwd: input.cwd,
      env: envRecord(input.env),
      stdin,
    });
    if (system.kind === 'final') reply = system.reply;
    else if (system.note !== undefined) notes.push(system.note);
  }
  if (reply === undefined && opts.daemon === true && stdin !== undefined) {
    // [R-HOOK-4] A running daemon answers warm; no socket costs this one stat.
    const found = socketState(input.env);
    let absent = found?.state === 'none';
    if (found?.state === 'foreign') notes.push({ socket: found.socket, kind: 'refused', why: found.why });
    if (found?.state === 'ours') {
      const [{ askDaemon }, { checkPeer }] = await Promise.all([
        import('../hook/daemon-client.ts'),
        import('../hook/daemon-peer.ts'),
      ]);
      const asked = await askDaemon(
        found.socket,
        { args: [...args], cwd: input.cwd, env: envRecord(input.env), stdin },
        async (conn) => {
          const folder = privateFolder(found.socket);
          if (folder !== undefined) return folder;
          const peer = await checkPeer(conn, found.socket);
          if (peer.kind === 'refused') return peer.why;
          if (peer.kind === 'gone') return { gone: true };
          if (peer.kind === 'unchecked')
            notes.push({ socket: found.socket, kind: 'unchecked', why: peer.why });
          return undefined;
        },
      );
      if (asked.kind === 'reply') reply = asked.reply;
      else if (asked.kind === 'refused')
        notes.push({ socket: found.socket, kind: 'refused', why: asked.why });
      absent =
        asked.kind === 'absent' ||
        (asked.kind === 'dropped' && (await import('../hook/daemon-lock.ts')).lockOwnerExited(found.socket));
    }
    // [G-WARM-1] Nothing listens, or what did was a daemon dying: start a daemon for the next
    // calls, and decide this one here.
    if (reply === undefined && found !== undefined && absent && !autostartOff(input.env)) {
      const { autostartDaemon } = await import('../hook/daemon-autostart.ts');
      autostartDaemon(found.socket, input.env);
    }
  }
  reply ??= await answerHookArgs(args, input, deps);
  // [G-PERF-1] The C client's fallback through bin/hookwerk.js: the next one may start from a
  // startup snapshot, built in the background once this call has ended (hook/snapshot-blob.ts),
  // in the home of the guarded environment [T-SELF-4].
  if (opts.snapshot === true) await startSnapshotBuildFor(input.env);
  const lines = [
    ...(guarded.line !== undefined ? [guarded.line] : []),
    ...(await sayNotes(notes, input.env, checked.call.agent, peek.event)),
  ];
  return lines.length === 0 ? reply : { ...reply, stderr: `${lines.join('\n')}\n${reply.stderr}` };
}

/** [T-MGD-3] Something is at the system socket's path (one that cannot be looked at counts: it is refused with a note). */
function systemSocketThere(): boolean {
  try {
    return lstatSync(SYSTEM_SOCKET, { throwIfNoEntry: false }) !== undefined;
  } catch (e) {
    return errorCode(e) !== 'ENOTDIR';
  }
}

/** The C client's note (`<socket>: <why>`). */
function refusedBy(text: string): SocketNote {
  const at = text.indexOf(': ');
  return at < 0
    ? { socket: 'the daemon socket', kind: 'refused', why: text }
    : { socket: text.slice(0, at), kind: 'refused', why: text.slice(at + 2) };
}

/** [T-SELF-4] The socket notes not given today, each recorded once (loaded only when there are some). */
async function sayNotes(
  notes: readonly SocketNote[],
  env: NodeJS.ProcessEnv,
  agent: string,
  event: string,
): Promise<string[]> {
  if (notes.length === 0) return [];
  try {
    const home = homeFolder(undefined, env);
    const { notesToSay } = await import('../hook/daemon-refusal.ts');
    return notesToSay(home, agent, event, notes);
  } catch {
    return [];
  }
}

/** The folders whose project files may set the call's environment, and the call's event, read ahead. */
function peekCall(
  call: HookArgs & { agent: HookAgentName },
  stdin: Buffer | undefined,
  cwd: string,
  env: NodeJS.ProcessEnv,
): { dirs: string[]; event: string } {
  const fallback = { dirs: [path.resolve(cwd, call.project ?? cwd), cwd], event: call.event ?? 'unknown' };
  let given: unknown;
  try {
    given = stdin === undefined || stdin.length === 0 ? {} : JSON.parse(stdin.toString('utf8'));
  } catch {
    return fallback;
  }
  if (typeof given !== 'object' || given === null || Array.isArray(given)) return fallback;
  const mapped = HOOK_AGENTS[call.agent].toClaude(Object.fromEntries(Object.entries(given)), call.event, env);
  if ('problem' in mapped) return fallback;
  return { dirs: [path.resolve(cwd, mapped.projectDir ?? call.project ?? cwd), cwd], event: mapped.event };
}

/** The flags of a call, or the reply for bad ones (or --help), given before stdin is read. */
function checkArgs(
  args: readonly string[],
): { reply: HookReply } | { call: HookArgs & { agent: HookAgentName } } {
  const parsed = parseHookArgs(args);
  if ('help' in parsed) return { reply: { stdout: '', stderr: `${HOOK_USAGE}\n`, exitCode: 0 } };
  if ('error' in parsed)
    return { reply: { stdout: '', stderr: `hookwerk hook: ${parsed.error}\n${HOOK_USAGE}\n`, exitCode: 1 } };
  const agent = parsed.agent;
  if (!isHookAgentName(agent))
    return {
      reply: {
        stdout: '',
        stderr: `hookwerk hook: unknown agent "${agent}"; expected one of ${HOOK_AGENT_NAMES.join(', ')}\n`,
        exitCode: 1,
      },
    };
  return { call: { ...parsed, agent } };
}

/** One call with its input already read: what this process and the daemon both run. */
export async function answerHookArgs(
  args: readonly string[],
  input: HookInput,
  deps: Partial<HookCallDeps> = {},
): Promise<HookReply> {
  const checked = checkArgs(args);
  if ('reply' in checked) return checked.reply;
  const { agent, event, project, timeoutS } = checked.call;
  const reply = await answerHookCall(
    {
      agent,
      stdin: input.stdin === undefined ? '' : input.stdin.toString('utf8'),
      ...(event !== undefined ? { event } : {}),
      ...(project !== undefined ? { project } : {}),
      cwd: input.cwd,
      env: input.env,
      ...(timeoutS !== undefined ? { timeoutS } : {}),
      startedAt: input.startedAt ?? Date.now(),
    },
    { decider: deps.decider ?? coldDecider, ...(deps.record !== undefined ? { record: deps.record } : {}) },
  );
  if (input.stdin === undefined)
    return {
      ...reply,
      stderr: `hookwerk: the input on stdin is larger than ${MAX_INPUT_BYTES} bytes\n${reply.stderr}`,
    };
  return reply;
}

function envRecord(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined) out[name] = value;
  return out;
}

async function startSnapshotBuildFor(env: NodeJS.ProcessEnv): Promise<void> {
  if (env.HOOKWERK_SNAPSHOT?.toLowerCase() === 'off') return;
  try {
    const { startSnapshotBuild } = await import('../hook/snapshot-blob.ts');
    startSnapshotBuild(homeFolder(undefined, env), env);
  } catch {
    // No home, no folder: the fallback stays the way it is.
  }
}

/**
 * The process entry: prints the reply, exits with its code. `deps`: the startup snapshot's
 * program passes the decider it holds already loaded ([G-PERF-1], cli/snapshot-entry.ts).
 */
export async function hookMain(args: readonly string[], deps: Partial<HookCallDeps> = {}): Promise<number> {
  // The C client's fallback: decide here, and leave the environment as the agent gave it.
  const cold = process.env[COLD_ENV] !== undefined;
  // [T-SELF-4] Why the C client did not use the daemon (it tells only in its fallback).
  const refused = cold ? process.env[REFUSED_ENV] : undefined;
  delete process.env[REFUSED_ENV];
  // [T-MGD-3] The C client asked the system daemon already (no FINAL answer): not again.
  const systemAsked = cold && process.env[SYSTEM_ASKED_ENV] === '1';
  delete process.env[SYSTEM_ASKED_ENV];
  // [G-FAIL-4] The C client's call started before this process: its answer is due from then.
  const startedAt = cold ? callStart(process.env) : performance.timeOrigin;
  delete process.env[COLD_ENV];
  delete process.env[STARTED_ENV];
  const reply = await hookCommand(args, deps, {
    daemon: !cold,
    startedAt,
    systemAsked,
    ...(refused !== undefined ? { refused } : {}),
    snapshot: cold && deps.decider === undefined,
  });
  if (reply.stderr !== '') process.stderr.write(reply.stderr);
  if (reply.stdout !== '')
    await new Promise<void>((resolve) => process.stdout.write(reply.stdout, () => resolve()));
  return reply.exitCode;
}
