/**
 * One `hookwerk hook --agent A` call [R-HOOK-1..3]: the agent's input read and mapped to a Claude
 * Code event (R-MAP-1), the policy run (only when a policy hook may run: the engine is loaded
 * then, not before), every run recorded with the agent, session and tool, and the answer in the
 * agent's own protocol. Never throws: an internal failure is "no objection" on stdout and one
 * line on stderr, unless a closed guard names the event, then a deny with the cause [R-HOOK-2].
 */
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { homeFolder } from '../core/home.ts';
import type { ClaudeCall, HookAgent, HookReply } from '../dialects/agent/hook-agent.ts';
import { HOOK_AGENTS, type HookAgentName } from '../dialects/hook-agents.ts';
import type { AgentDecision } from '../dispatch/agent-answer.ts';
import { MAX_RECORDED_INPUT_BYTES, type RecordedCall } from '../records/journal-entry.ts';
import { runProblemLines } from '../records/run-problem-lines.ts';
import type { RunRecord } from '../records/run-record.ts';
import { CallDeadline } from './call-deadline.ts';
import { decideEachPart, sharedToolName } from './call-parts.ts';
import type { PolicyDecider } from './policy-decider.ts';
import { scanPolicy } from './policy-prefilter.ts';
import { guardProjectEnv } from './project-env.ts';

/** A call as the command line (or the daemon's client) hands it over. */
export interface HookCallRequest {
  agent: HookAgentName;
  /** The agent's input, as read from stdin. */
  stdin: string;
  /** `--event`: for agents whose input names no event (Copilot). */
  event?: string;
  /** `--project`: the project when the input names none. */
  project?: string;
  /** The hook process's working folder (the project when nothing else names one). */
  cwd: string;
  /** The hook process's environment (the agent's, with its `CLAUDE_PROJECT_DIR`…). */
  env: NodeJS.ProcessEnv;
  /** The account's home (default: `homeFolder()` of `env`). */
  home?: string;
  /** [G-FAIL-4] `--timeout`: the agent kills the call after this many seconds. */
  timeoutS?: number;
  /** [G-FAIL-4] When the call started (epoch ms; default: now): the answer is due S − 2 s later. */
  startedAt?: number;
}

/** One run as the journal keeps it [R-HOOK-3]; a call's first run also carries the call [G-TEST-1]. */
export type AgentRunRecord = RunRecord & { agent: string; toolName?: string; call?: RecordedCall };

export interface HookCallDeps {
  decider: PolicyDecider;
  /**
   * Where the runs go [R-HOOK-3]; default: the journal under `<home>/.hookwerk/records/`. A
   * failure to record is one line on stderr, never a changed answer.
   */
  record?: (runs: readonly AgentRunRecord[], home: string) => void | Promise<void>;
  /**
   * [G-TEST-1] The policy files the decider runs instead of the user's and the project's
   * (`hookwerk test --policy`): the fast path's index, which describes those, is not asked (every
   * call goes to the decider), and a failure's closed-guard check reads these files.
   */
  policyFiles?: readonly string[];
  /** [G-TEST-1] Told the call as read from the agent's input (`hookwerk test` reads the reply back with it). */
  onCall?: (call: ClaudeCall) => void;
}

/**
 * Loaded on use: a call without runs (the common one) never loads the journal [R-HOOK-4]. A
 * segment skipped as not a regular file is one line on this process's stderr: the hook call's
 * (the agent's), or the daemon's log [T-SELF-3].
 */
async function journalRuns(runs: readonly AgentRunRecord[], home: string): Promise<void> {
  const [{ appendJournal }, { journalDir }] = await Promise.all([
    import('../records/journal-append.ts'),
    import('../records/journal-segments.ts'),
  ]);
  for (const note of appendJournal(journalDir(home), runs)) process.stderr.write(`hookwerk: ${note}\n`);
}

export async function answerHookCall(req: HookCallRequest, deps: HookCallDeps): Promise<HookReply> {
  const agent = HOOK_AGENTS[req.agent];
  let given: unknown;
  try {
    given = req.stdin.trim() === '' ? {} : JSON.parse(req.stdin);
  } catch {
    return noObjection(req, `hookwerk: the input on stdin is not JSON; no objection`);
  }
  if (typeof given !== 'object' || given === null || Array.isArray(given))
    return noObjection(req, 'hookwerk: the input on stdin is not a JSON object; no objection');
  const input = Object.fromEntries(Object.entries(given));
  const call = agent.toClaude(input, req.event, req.env);
  if ('problem' in call) return noObjection(req, `hookwerk: ${call.problem}; no objection`);
  deps.onCall?.(call);
  // [T-SELF-4] A home or socket a project file set is not this call's: the account's is.
  const projectDir = path.resolve(req.cwd, call.projectDir ?? req.project ?? req.cwd);
  const guarded = guardProjectEnv(req.agent, [projectDir, req.cwd], req.env);
  const reply = await answerCall({ ...req, env: guarded.env }, deps, call, input, projectDir);
  return guarded.line === undefined ? reply : { ...reply, stderr: `${guarded.line}\n${reply.stderr}` };
}

/** A call read and mapped, with the environment it runs with. */
async function answerCall(
  req: HookCallRequest,
  deps: HookCallDeps,
  call: ClaudeCall,
  input: Record<string, unknown>,
  projectDir: string,
): Promise<HookReply> {
  const agent = HOOK_AGENTS[req.agent];
  let home: string;
  try {
    home = req.home ?? homeFolder(undefined, req.env);
  } catch (e) {
    return { ...agent.reply(call, undefined), stderr: `hookwerk: ${messageOf(e)}\n` };
  }
  const scan =
    deps.policyFiles !== undefined
      ? { mayRun: true, closedGuard: undefined, stale: false }
      : scanPolicy({ projectDir, home, agent: req.agent, event: call.event, tool: sharedToolName(call) });
  if (!scan.mayRun) return agent.reply(call, undefined);
  const deadline = callDeadline(req, call);
  try {
    const record = deps.record ?? journalRuns;
    const question = {
      projectDir,
      home,
      agent: req.agent,
      env: req.env,
      call,
      deadline,
      indexStale: scan.stale,
    };
    const decision = await deadline.within(
      decideEachPart(deps.decider, question),
      (late) => void recordRuns(record, late, req.agent, call, home),
    );
    const answered = agent.reply(call, decision);
    const unrecorded = await recordRuns(record, decision, req.agent, call, home, {
      stdin: req.stdin,
      input,
      reply: answered,
    });
    passEnvBack(decision, req.env);
    const reply = withStderr(answered, unrecorded);
    // [L-TRUST-11, G-FAIL-1, G-FAIL-2] A guard that did not run as written is never silent.
    const told = withStderr(reply, runProblemLines(decision.runs, projectDir, home));
    return withStderr(told, await deadline.staleInstallLines(home));
  } catch (e) {
    const why = `hookwerk could not run the policy: ${messageOf(e)}`;
    const closed =
      scan.closedGuard ??
      (await closedGuardNamed({
        projectDir,
        home,
        agent: req.agent,
        event: call.event,
        tool: sharedToolName(call),
        ...(deps.policyFiles !== undefined ? { files: deps.policyFiles } : {}),
      }));
    if (!closed) return { ...agent.reply(call, undefined), stderr: `${why}; no objection\n` };
    const deny: AgentDecision = { decision: 'deny', blocked: true, reason: why, continue: true, runs: [] };
    return { ...agent.reply(call, deny), stderr: `${why}; a failMode "closed" guard denies\n` };
  }
}

/**
 * [R-HOOK-2] The engine failed before the fast path could say whether a closed guard names the
 * event: the policy files' text is read for one (loaded only now, on this rare path). Reading the
 * current text here can only turn a failure into a deny, never anything into an allow.
 */
async function closedGuardNamed(q: {
  projectDir: string;
  home: string;
  agent: string;
  event: string;
  tool: string | undefined;
  files?: readonly string[];
}) {
  try {
    const { closedGuardInFiles } = await import('./closed-guard-scan.ts');
    return closedGuardInFiles(q);
  } catch {
    return false;
  }
}

/** The call as answered: the agent's input (`stdin` its text) and our reply. */
interface Answered {
  stdin: string;
  input: Record<string, unknown>;
  reply: HookReply;
}

/** The runs into the journal; the line to say on stderr when that failed. */
async function recordRuns(
  record: NonNullable<HookCallDeps['record']>,
  decision: AgentDecision,
  agent: HookAgentName,
  call: ClaudeCall,
  home: string,
  answered?: Answered,
): Promise<string[]> {
  if (decision.runs.length === 0) return [];
  try {
    const runs = decision.runs.map((run) => agentRun(run, agent, call));
    const head = runs[0];
    if (head !== undefined && answered !== undefined) {
      const recorded = await recordedCall(HOOK_AGENTS[agent], call, answered, runs.length);
      if (recorded !== undefined) head.call = recorded;
    }
    await record(runs, home);
    return [];
  } catch (e) {
    return [`hookwerk: the runs were not recorded: ${messageOf(e)}`];
  }
}

/**
 * [G-TEST-1] The call as `hookwerk test --record` replays it: the agent's event, its input (when
 * small: MAX_RECORDED_INPUT_BYTES), and what the agent read in our reply, with its own reader.
 * Undefined when the reply could not be read back (the runs are recorded all the same).
 */
async function recordedCall(
  agent: HookAgent,
  call: ClaudeCall,
  answered: Answered,
  runs: number,
): Promise<RecordedCall | undefined> {
  // No agent names an event this long: such a call is not one to replay.
  if (call.agentEvent.length > 256) return undefined;
  const read = await agent.readReply(call, answered.reply).catch(() => undefined);
  if (read === undefined) return undefined;
  const bytes = Buffer.byteLength(answered.stdin, 'utf8');
  const kept = bytes <= MAX_RECORDED_INPUT_BYTES;
  return {
    event: call.agentEvent,
    ...(kept ? { input: answered.input } : { inputBytes: bytes }),
    answer: read.verdict,
    runs,
  };
}

function withStderr(reply: HookReply, lines: readonly string[]): HookReply {
  return lines.length === 0 ? reply : { ...reply, stderr: `${reply.stderr}${lines.join('\n')}\n` };
}

/**
 * [C-RUN-3] What the policy's SessionStart hooks wrote to their `CLAUDE_ENV_FILE` goes on to the
 * agent's own one (Claude Code's), which it sources before each Bash command.
 */
function passEnvBack(decision: AgentDecision, env: NodeJS.ProcessEnv): void {
  const file = env.CLAUDE_ENV_FILE;
  if (decision.env === undefined || file === undefined || !path.isAbsolute(file)) return;
  const lines = Object.entries(decision.env).map(([k, v]) => `export ${k}='${v.replaceAll("'", "'\\''")}'\n`);
  try {
    if (lines.length > 0) appendFileSync(file, lines.join(''));
  } catch {
    // The agent's file is its own business: the decision stands without it.
  }
}

function agentRun(run: RunRecord, agent: string, call: ClaudeCall): AgentRunRecord {
  const out: AgentRunRecord = Object.assign({}, run, { agent });
  if (call.sessionId !== undefined) out.sessionId = call.sessionId;
  if (call.toolName !== undefined) out.toolName = call.toolName;
  return out;
}

/** [G-FAIL-4] The call's deadline: `--timeout` (else the agent's default for the event) from its start. */
function callDeadline(req: HookCallRequest, call: ClaudeCall): CallDeadline {
  return new CallDeadline(req.agent, call.agentEvent, req.timeoutS, req.startedAt ?? Date.now());
}

/** No objection before the call could even be read: the agent's own, with the reason on stderr. */
function noObjection(req: HookCallRequest, why: string): HookReply {
  const agent = HOOK_AGENTS[req.agent];
  const event = req.event ?? 'unknown';
  const reply = agent.reply({ agentEvent: event, event, input: {} }, undefined);
  return { ...reply, stderr: `${why}\n` };
}

function messageOf(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).split('\n')[0] ?? 'unknown error';
}
