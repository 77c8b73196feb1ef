/**
 * [T-MGD-3] What the system daemon answers to one hook call: the managed layer only —
 * `/etc/hookwerk/policy.json` with its managed semantics (its guards and default guards run, its
 * `managedOnly` holds), never the user's or the project's files, nor an `include` of them: those
 * run as the user, on the user's path. The caller is who the kernel says (SO_PEERCRED): its uid,
 * its account's name and home from /etc/passwd, its pid — never the request's USER or HOME.
 * The runs go to the managed journal, chained like the user's (T-SELF-3), with `uid`, `user`,
 * `pid`. The reply is FINAL when it is a deny: the client answers with it; otherwise the call goes
 * on to the user's path (which applies the managed policy again, T-MGD-1).
 */

import type { HookReply } from '../dialects/agent/hook-agent.ts';
import { HOOK_AGENTS, type HookAgentName, isHookAgentName } from '../dialects/hook-agents.ts';
import { managedPolicyState } from '../dialects/policy/managed-policy.ts';
import { MANAGED_POLICY_FILE } from '../dialects/surfaces/policy-files.ts';
import { policyEngine } from '../hook/cold-decider.ts';
import type { Peer } from '../hook/daemon-server.ts';
import type { WireRequest } from '../hook/daemon-wire.ts';
import { type AgentRunRecord, answerHookCall } from '../hook/hook-call.ts';
import { accountByUid } from '../hook/passwd-entry.ts';
import type { PolicyDecider } from '../hook/policy-decider.ts';
import { WarmDecider } from '../hook/warm-decider.ts';
import { appendJournal } from '../records/journal-append.ts';
import type { JournalEntry } from '../records/journal-entry.ts';
import { parseHookArgs } from './hook.ts';

/** The variables that name the caller: the kernel's answer replaces them. */
const IDENTITY_VARS = ['HOME', 'USER', 'LOGNAME'] as const;
/**
 * Variables whose value the daemon would act on as its own account: a file it would append to
 * (`CLAUDE_ENV_FILE`, C-RUN-3). Dropped; the user's path does that part as the user.
 */
const ACTING_VARS = ['CLAUDE_ENV_FILE'] as const;
/** A home for a caller without one in /etc/passwd: nothing of it exists to protect or read. */
const NO_HOME = '/nonexistent';

export interface ManagedAnswerDeps {
  /** The managed journal's folder. */
  recordsDir: string;
  /** Where each line to say goes (the daemon's stderr). */
  note(line: string): void;
  /** The managed layer's decider (`managedWarmDecider`). */
  decider: PolicyDecider;
}

/** Bounded for every user together: beyond it, the least recently used engine is closed. */
export const MANAGED_MAX_ENGINES = 16;

/**
 * [R-HOOK-4, G-WARM-1] The system daemon's decider: the user daemon's warm engines over the
 * managed policy alone. Keyed as the user's (project, home, Claude Code or not, environment):
 * the managed layer's guards, rules and hooks read the caller's project, home and environment,
 * so one engine per dialect would answer other callers differently. A changed stamp of the file
 * or its folder reloads it, and so does a change of the policy's state (absent, present, refused:
 * a refused policy denies, T-MGD-1, G-FAIL-1) — only root can make either.
 */
export function managedWarmDecider(): WarmDecider {
  return new WarmDecider({
    maxEngines: MANAGED_MAX_ENGINES,
    makeEngine: (q, sessionId) => policyEngine(q, sessionId, undefined, true),
    loadState: () => JSON.stringify(managedPolicyState()),
  });
}

export async function answerManaged(
  request: WireRequest,
  peer: Peer,
  deps: ManagedAnswerDeps,
): Promise<HookReply & { final: boolean }> {
  const pass = { exitCode: 0, stdout: '', stderr: '', final: false };
  const parsed = parseHookArgs(request.args);
  // A call the daemon cannot read goes on to the user's path, which says what is wrong.
  if ('help' in parsed || 'error' in parsed || !isHookAgentName(parsed.agent)) return pass;
  if (request.stdin === undefined) return pass;
  const agent = parsed.agent;
  const account = accountByUid(peer.uid);
  const env: NodeJS.ProcessEnv = { ...request.env };
  for (const name of [...IDENTITY_VARS, ...ACTING_VARS]) delete env[name];
  if (account !== undefined) {
    env.HOME = account.home;
    env.USER = account.name;
    env.LOGNAME = account.name;
  }
  const stdin = request.stdin.toString('utf8');
  const reply = await answerHookCall(
    {
      agent,
      stdin,
      ...(parsed.event !== undefined ? { event: parsed.event } : {}),
      ...(parsed.project !== undefined ? { project: parsed.project } : {}),
      cwd: request.cwd,
      env,
      home: account?.home && account.home !== '/' ? account.home : NO_HOME,
      ...(parsed.timeoutS !== undefined ? { timeoutS: parsed.timeoutS } : {}),
      startedAt: Date.now(),
    },
    {
      decider: deps.decider,
      policyFiles: [MANAGED_POLICY_FILE],
      record: (runs) => record(runs, peer, account?.name, deps),
    },
  );
  return { ...reply, final: await isDeny(agent, stdin, parsed.event, env, reply) };
}

/**
 * Whether the agent reads `reply` as a deny (a block included): the one managed answer no later
 * layer can change, since answers merge most restrictive first (C-ANS-4). An ask, an allow, a
 * changed input are not final: the user's path runs the managed policy again in-process
 * (T-MGD-1) and merges it with the user's and the project's, so a user's deny still beats them.
 */
async function isDeny(
  agentName: HookAgentName,
  stdin: string,
  event: string | undefined,
  env: NodeJS.ProcessEnv,
  reply: HookReply,
): Promise<boolean> {
  const agent = HOOK_AGENTS[agentName];
  let input: unknown;
  try {
    input = stdin.trim() === '' ? {} : JSON.parse(stdin);
  } catch {
    return false;
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return false;
  const call = agent.toClaude(Object.fromEntries(Object.entries(input)), event, env);
  if ('problem' in call) return false;
  const read = await agent.readReply(call, reply).catch(() => undefined);
  return read?.verdict === 'deny';
}

/** The runs into the managed journal, each with the caller the kernel named. */
function record(
  runs: readonly AgentRunRecord[],
  peer: Peer,
  user: string | undefined,
  deps: ManagedAnswerDeps,
): void {
  const entries: JournalEntry[] = runs.map((run) => ({
    ...run,
    uid: peer.uid,
    ...(user !== undefined ? { user } : {}),
    pid: peer.pid,
  }));
  for (const line of appendJournal(deps.recordsDir, entries)) deps.note(`hookwerk daemon: ${line}`);
}
