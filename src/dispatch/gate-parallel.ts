/**
 * The gate of the Claude Code and Gemini CLI dialects [C-RUN-2, C-ANS-4, G-RUN-1]: every selected
 * hook runs in parallel (Gemini: one after another when a definition asks for `sequential`),
 * identical handlers once, `async` ones in the background; the answers are merged in
 * configuration order — never finish order — so the same hooks give the same decision every time.
 * [AD-ALL-1] A decide's signal stops its running hooks (and, one after another, the later ones
 * are not started); every record names the input's session and tool; each run is a span of the
 * decide's trace [AD-OTEL-1].
 */
import type { ConsentCheck, HookConsent } from '../consent/project-consent.ts';
import { commandLineOf } from '../consent/project-surface.ts';
import { type ConsentRefusal, refusalAfter, refusalBefore } from '../consent/run-consent.ts';
import { HookwerkError } from '../core/errors.ts';
import type { LazyPrivateTempDir } from '../core/private-temp-dir.ts';
import { isoNow } from '../events/prx-events.ts';
import type { RunRecord } from '../records/run-record.ts';
import { planGate, plannedCallOf } from '../registry/gate-plan.ts';
import type {
  AgentDialectName,
  AgentExternalHook,
  AgentHook,
  AgentRuleHook,
  GateEntry,
  InProcessGateHook,
  UnapprovedHook,
} from '../registry/hook-definition.ts';
import { ABORTED, type Ending } from '../runners/run-result.ts';
import type { Runners } from '../runners/runners.ts';
import type { AgentAnswer, AgentDecision, AgentRun } from './agent-answer.ts';
import type { DecideCall } from './decide-call.ts';
import { runFolderOf } from './run-folder.ts';
import { type RunSubject, runSubject, stampSubject } from './run-subject.ts';

/** What a Claude-style dialect gives the parallel gate: one object per dialect, made once. */
export interface ParallelDialect {
  /** Records name it. */
  readonly name: AgentDialectName;
  /** [G-RUN-1] A definition may ask to run one after another; then the whole event does. */
  readonly sequentialDefinitions: boolean;
  /** Runs one command or HTTP hook; `signal` (the decide's) stops it; it ends by `deadline` [G-FAIL-4]. */
  run(
    hook: AgentExternalHook,
    event: string,
    input: Record<string, unknown>,
    ctx: GateRunContext,
    signal: AbortSignal | undefined,
    deadline?: number,
  ): Promise<AgentRun>;
  /** (SPEC §14.4) Runs one `rule` hook, in this process and synchronously [G-CEL-2]. */
  runRule(
    hook: AgentRuleHook,
    event: string,
    input: Record<string, unknown>,
    facts: { agent: string | undefined; project: string; home: string },
  ): AgentAnswer;
  runInProcess(
    hook: InProcessGateHook,
    input: Record<string, unknown>,
    cwd: string,
    signal: AbortSignal | undefined,
    deadline?: number,
  ): Promise<AgentAnswer>;
  /** Merges answers given in configuration order (`env`: what the answers set, if the agent has such a field). */
  merge(
    event: string,
    answers: readonly AgentAnswer[],
    input: Record<string, unknown>,
  ): Omit<AgentDecision, 'runs'>;
  /** [G-RUN-1] Sequential mode folds each answer into the next hook's input. */
  fold?(event: string, input: Record<string, unknown>, answer: AgentAnswer): Record<string, unknown>;
  /** [A-COP-1] Every event's hooks run one after another, in configuration order (Copilot CLI). */
  readonly inOrder?: boolean;
  /**
   * [A-COP-1] In a sequential run: this answer ends it, later hooks are not run (nor recorded),
   * as Copilot CLI's first preToolUse deny stops the chain.
   */
  stopsAfter?(event: string, answer: AgentAnswer): boolean;
}

/** What one engine lends every decide of its gate: made once, never per decide. */
export interface GateRunContext {
  /** The engine's session, for inputs that name none [C-IN-1]. */
  readonly sessionId: string;
  readonly runners: Runners;
  /** The engine's private folder (`CLAUDE_ENV_FILE`s are made there). */
  readonly tmpDir: LazyPrivateTempDir;
  /** The project folder of the gate sources in force. */
  projectDir(): string;
  /** The home folder of the gate sources in force: reasons show paths under it as `~` [G-FAIL-5]. */
  home(): string;
  readonly record: (record: RunRecord) => void;
  /** An `async` hook's run, which the engine keeps track of until it ends. */
  background(run: Promise<void>): void;
}

/** One decide of the parallel gate. */
interface AgentGate {
  dialect: ParallelDialect;
  event: string;
  /** The input object, filled in [C-IN-1]. */
  input: Record<string, unknown>;
  /** Selected entries (matchers passed), in run order: in-process first, then configuration order. */
  entries: readonly GateEntry[];
  ctx: GateRunContext;
  /** The session, tool and agent every record names. */
  subject: RunSubject;
  /** The decide's signal and trace, when it has either. */
  call: DecideCall | undefined;
}

type Step =
  | { kind: 'skip'; record: RunRecord }
  | { kind: 'answer'; answer: AgentAnswer; record: RunRecord; env?: Record<string, string> };

/**
 * Runs the gate for one event; resolves with the merged decision and one record per entry.
 * `before`: the verdicts of the layers that ran before the hooks (permissions, guards: none of
 * them a deny), merged as answers that come before every hook's [G-PERM-1].
 */
export async function runAgentGate(
  dialect: ParallelDialect,
  event: string,
  input: Record<string, unknown>,
  entries: readonly GateEntry[],
  ctx: GateRunContext,
  call?: DecideCall,
  before: readonly { answer: AgentAnswer; record: RunRecord }[] = [],
): Promise<AgentDecision> {
  const subject = runSubject(input, ctx.sessionId, call);
  const gate: AgentGate = { dialect, event, input, entries, ctx, subject, call };
  // One consent check per project for hooks that start together (in parallel, and the `async`
  // ones) [L-TRUST-8]; one after another, each hook gets its own.
  const checks: ConsentChecks = new Map();
  const planned = plan(gate, checks);
  const sequential =
    dialect.inOrder === true ||
    (dialect.sequentialDefinitions && planned.some((e) => e.kind !== 'unapproved' && isSequential(e)));
  const steps: Step[] = [];
  if (sequential) {
    let next = input;
    for (const entry of planned) {
      // [AD-ALL-1] Aborted: no later hook starts.
      if (call?.signal?.aborted === true) break;
      // [L-TRUST-8] Each hook is checked when it starts and watched from then on: what an earlier
      // hook of the chain wrote (its log, its state) is no change during this one's run.
      const step = await tracedStep(gate, entry, next, new Map());
      steps.push(step);
      if (step.kind !== 'answer') continue;
      if (dialect.stopsAfter?.(event, step.answer) === true) break;
      if (dialect.fold !== undefined) next = dialect.fold(event, next, step.answer);
    }
  } else {
    steps.push(...(await Promise.all(planned.map((entry) => tracedStep(gate, entry, gate.input, checks)))));
  }
  return gathered(gate, steps, before);
}

/**
 * [G-PERF-1] The same gate, decided at once, when every selected entry is a `rule` (or an
 * unapproved entry, only recorded): rules run in this process and synchronously [G-CEL-2], so
 * they need no promise per hook. Everything else is exactly `runAgentGate`'s — the plan (`if`,
 * duplicates), the consent check of a project's rules before and after each runs [L-TRUST-6,
 * L-TRUST-8], the records in configuration order, the dialect's merge — with one `at` for the
 * decide (its rules start within the same microseconds). Undefined when some entry needs the
 * asynchronous gate: a command, HTTP or in-process hook, a traced decide (each run is a span,
 * AD-OTEL-1), or a sequential one (G-RUN-1, A-COP-1).
 */
export function decideRulesNow(
  dialect: ParallelDialect,
  event: string,
  input: Record<string, unknown>,
  entries: readonly GateEntry[],
  ctx: GateRunContext,
  call: DecideCall | undefined,
  before: readonly { answer: AgentAnswer; record: RunRecord }[],
): AgentDecision | undefined {
  if (call?.trace !== undefined || dialect.inOrder === true) return undefined;
  for (const entry of entries) {
    if (entry.kind === 'unapproved') continue;
    if (entry.kind !== 'rule' || (dialect.sequentialDefinitions && entry.sequential === true))
      return undefined;
  }
  const subject = runSubject(input, ctx.sessionId, call);
  const gate: AgentGate = { dialect, event, input, entries, ctx, subject, call };
  const checks: ConsentChecks = new Map();
  // Rules are never `async`: the plan hands nothing to the background here.
  const planned = plan(gate, checks);
  const at = isoNow();
  const steps: Step[] = [];
  for (const entry of planned) {
    if (entry.kind === 'unapproved') steps.push(unapprovedStep(gate, entry, at));
    else if (entry.kind === 'rule') steps.push(ruleStep(gate, entry, input, checks, at));
  }
  return gathered(gate, steps, before);
}

/**
 * The decision of a gate's steps: records and answers in configuration order, whatever the
 * order they finished in, after the layers' (`before`); each record kept, the answers merged.
 */
function gathered(
  gate: AgentGate,
  steps: readonly Step[],
  before: readonly { answer: AgentAnswer; record: RunRecord }[],
): AgentDecision {
  const runs: RunRecord[] = before.map((b) => b.record);
  const answers: AgentAnswer[] = before.map((b) => b.answer);
  let env: Record<string, string> | undefined;
  for (const step of steps) {
    runs.push(step.record);
    gate.ctx.record(step.record);
    if (step.kind !== 'answer') continue;
    answers.push(step.answer);
    if (step.env !== undefined) env = Object.assign(env ?? {}, step.env);
  }
  const decision: AgentDecision = Object.assign(gate.dialect.merge(gate.event, answers, gate.input), {
    runs,
  });
  if (env !== undefined) decision.env = Object.assign(decision.env ?? {}, env);
  return decision;
}

/**
 * What runs, as `explain` shows it (gate-plan.ts): entries whose `if` rule admits the input;
 * identical handlers once (the first in configuration order) [C-RUN-2]; `async` hooks handed to
 * the background.
 */
function plan(gate: AgentGate, checks: ConsentChecks): GateEntry[] {
  const out: GateEntry[] = [];
  for (const step of planGate(gate.entries, plannedCallOf(gate.input))) {
    if (step.kind === 'runs') out.push(step.entry);
    else if (step.kind === 'background') gate.ctx.background(runInBackground(gate, step.entry, checks));
  }
  return out;
}

function isSequential(entry: GateEntry): boolean {
  return entry.kind !== 'unapproved' && entry.dialect !== 'lurus' && entry.sequential === true;
}

/**
 * [C-RUN-1] `async: true`: runs, is recorded, never decides. Consent is checked right before it
 * runs, as for every other hook [L-TRUST-6, L-TRUST-9]: if it cannot run as approved it does not
 * run (it has no decision to close, so `failMode` does not matter).
 */
async function runInBackground(gate: AgentGate, hook: AgentHook, checks: ConsentChecks): Promise<void> {
  const trace = gate.call?.trace;
  const span = trace?.startRun(hook.name);
  const at = isoNow();
  const consent = consentBefore(hook, gate.input, checks, gate.ctx.home());
  let record: RunRecord;
  if (consent.refusal !== undefined) {
    record = refusedRecord(gate, hook, at, consent.refusal, consent.pending);
  } else {
    // Not stopped by the decide's signal: it outlives the decide by design.
    const running = () => runHook(gate, hook, gate.input, undefined);
    const { answer } = await (span !== undefined && trace !== undefined
      ? trace.within(span, running)
      : running());
    record = recordOf(gate, hook, at, answer);
    record.cause ??= 'async';
    if (consent.pending) record.consent = 'newer_version_pending';
  }
  gate.ctx.record(record);
  if (span !== undefined) trace?.endRun(span, record);
}

/** The consent check of each project in one decide, shared by its hooks. */
type ConsentChecks = Map<HookConsent, ConsentCheck>;

interface ConsentBefore {
  check?: ConsentCheck;
  pending: boolean;
  refusal?: ConsentRefusal;
}

/** [L-TRUST-6, L-TRUST-9] Right before a hook runs: can it run as approved? */
function consentBefore(
  hook: AgentHook,
  input: Record<string, unknown>,
  checks: ConsentChecks,
  home: string,
): ConsentBefore {
  const consent = hook.consent;
  if (consent === undefined) return { pending: false };
  const target =
    hook.kind === 'process'
      ? {
          command: commandLineOf(hook.command, hook.args),
          cwd: runFolderOf(hook, input),
          ...(hook.pluginRoot !== undefined ? { pluginRoot: hook.pluginRoot } : {}),
        }
      : undefined;
  const check = consent.check(target, checks.get(consent));
  if (check.watch !== undefined) checks.set(consent, check);
  const out: ConsentBefore = { check, pending: check.pending.length > 0 };
  const refusal = refusalBefore(consent, check, home);
  if (refusal !== undefined) out.refusal = refusal;
  return out;
}

/**
 * A hook that may not run as approved, or whose answer was discarded: a closed guard denies, others
 * are skipped — but a discarded answer that denied still denies (`denied`): dropping it would turn
 * a guard's deny into an allow, and no change during a run may ever open what the run closed
 * [L-TRUST-8]. Its own words are dropped with it: the refusal's reason is what the agent reads.
 */
function refusedStep(
  gate: AgentGate,
  entry: AgentHook,
  at: string,
  refusal: ConsentRefusal,
  pending: boolean,
  durationMs = 0,
  denied = false,
): Step {
  if (entry.failMode !== 'closed' && !denied) {
    const record = refusedRecord(gate, entry, at, refusal, pending);
    record.durationMs = durationMs;
    return { kind: 'skip', record };
  }
  const answer: AgentAnswer = {
    ending: { outcome: 'deny', durationMs, cause: refusal.cause, reason: refusal.reason },
    block: true,
    permission: 'deny',
    reason: refusal.reason,
  };
  if (entry.failMode === 'closed') answer.failed = 'closed';
  const record = recordOf(gate, entry, at, answer);
  if (pending) record.consent = 'newer_version_pending';
  return { kind: 'answer', answer, record };
}

function refusedRecord(
  gate: AgentGate,
  entry: AgentHook,
  at: string,
  refusal: ConsentRefusal,
  pending: boolean,
): RunRecord {
  const record = skipped(gate, entry, at, refusal.reason);
  record.cause = refusal.cause;
  if (pending) record.consent = 'newer_version_pending';
  return record;
}

/** One entry's step, as a span of the decide's trace when it has one [AD-OTEL-1]. */
async function tracedStep(
  gate: AgentGate,
  entry: GateEntry,
  input: Record<string, unknown>,
  checks: ConsentChecks,
): Promise<Step> {
  const trace = gate.call?.trace;
  if (trace === undefined) return stepOf(gate, entry, input, checks);
  const span = trace.startRun(entry.name);
  const step = await trace.within(span, () => stepOf(gate, entry, input, checks));
  trace.endRun(span, step.record);
  return step;
}

async function stepOf(
  gate: AgentGate,
  entry: GateEntry,
  input: Record<string, unknown>,
  checks: ConsentChecks,
): Promise<Step> {
  const at = isoNow();
  if (entry.kind === 'unapproved') return unapprovedStep(gate, entry, at);
  if (entry.dialect === 'lurus') {
    // Lurus file hooks never reach an agent gate (the registry holds one gate dialect's files).
    if (entry.kind !== 'in-process')
      throw new HookwerkError(
        'INTERNAL',
        `${entry.origin.source}: a Lurus hook in a ${gate.dialect.name} gate`,
      );
    const answer = await gate.dialect.runInProcess(
      entry,
      input,
      gate.ctx.projectDir(),
      gate.call?.signal,
      gate.call?.deadline,
    );
    if (answer.ending.cause === ABORTED) return abortedStep(gate, entry, at, answer.ending);
    return { kind: 'answer', answer, record: recordOf(gate, entry, at, answer) };
  }
  // [G-CEL-1] A rule runs at once, in this process (no promise of its own).
  if (entry.kind === 'rule') return ruleStep(gate, entry, input, checks, at);
  // [L-TRUST-6, L-TRUST-9] Right before it runs: a changed or unpinned file means it cannot run as approved.
  const consent = consentBefore(entry, input, checks, gate.ctx.home());
  if (consent.refusal !== undefined) return refusedStep(gate, entry, at, consent.refusal, consent.pending);
  const run = await runHook(gate, entry, input, gate.call?.signal, gate.call?.deadline);
  if (run.answer.ending.cause === ABORTED) return abortedStep(gate, entry, at, run.answer.ending);
  return ranStep(gate, entry, at, consent, run);
}

/** [L-TRUST-3] An entry of a source that is not approved: recorded as skipped, never run. */
function unapprovedStep(gate: AgentGate, entry: UnapprovedHook, at: string): Step {
  const record = skipped(gate, entry, at, entry.reason);
  record.cause = 'untrusted';
  return { kind: 'skip', record };
}

/**
 * [G-CEL-1, G-CEL-2] One `rule` hook, synchronously: its project's consent checked right before
 * (a rule of a project policy runs only as approved, L-TRUST-6) and right after, as any hook's.
 */
function ruleStep(
  gate: AgentGate,
  entry: AgentRuleHook,
  input: Record<string, unknown>,
  checks: ConsentChecks,
  at: string,
): Step {
  const consent = consentBefore(entry, input, checks, gate.ctx.home());
  if (consent.refusal !== undefined) return refusedStep(gate, entry, at, consent.refusal, consent.pending);
  const facts = { agent: gate.subject.agent, project: gate.ctx.projectDir(), home: gate.ctx.home() };
  const answer = gate.dialect.runRule(entry, gate.event, input, facts);
  return ranStep(gate, entry, at, consent, { answer });
}

/** A hook that ran: its answer and record, unless its approved code moved while it ran. */
function ranStep(gate: AgentGate, entry: AgentHook, at: string, consent: ConsentBefore, run: AgentRun): Step {
  // [L-TRUST-8] And right after: an answer from a run during which its code moved is not the approved code's.
  const after =
    entry.consent !== undefined && consent.check !== undefined
      ? refusalAfter(entry.consent, consent.check, gate.ctx.home())
      : undefined;
  if (after !== undefined) {
    const denied = run.answer.block === true || run.answer.permission === 'deny';
    return refusedStep(gate, entry, at, after, consent.pending, run.answer.ending.durationMs, denied);
  }
  const record = recordOf(gate, entry, at, run.answer);
  if (consent.pending) record.consent = 'newer_version_pending';
  return run.env !== undefined
    ? { kind: 'answer', answer: run.answer, record, env: run.env }
    : { kind: 'answer', answer: run.answer, record };
}

/** One hook's run: a rule in this process [G-CEL-1], a command or HTTP hook through the dialect's runners. */
function runHook(
  gate: AgentGate,
  hook: AgentHook,
  input: Record<string, unknown>,
  signal: AbortSignal | undefined,
  deadline?: number,
): Promise<AgentRun> {
  if (hook.kind === 'rule') {
    const facts = { agent: gate.subject.agent, project: gate.ctx.projectDir(), home: gate.ctx.home() };
    return Promise.resolve({ answer: gate.dialect.runRule(hook, gate.event, input, facts) });
  }
  return gate.dialect.run(hook, gate.event, input, gate.ctx, signal, deadline);
}

/**
 * [AD-ALL-1] A run the decide's signal stopped: outcome `error`, cause `aborted`, and no decision
 * (whatever the dialect read into it: the decide rejects). Not merged.
 */
function abortedStep(
  gate: AgentGate,
  entry: AgentHook | InProcessGateHook,
  at: string,
  ending: Ending,
): Step {
  const record: RunRecord = Object.assign(
    { hook: entry.name, source: entry.origin.source, event: gate.event, dialect: gate.dialect.name, at },
    ending,
  );
  record.outcome = 'error';
  return { kind: 'skip', record: stampSubject(record, gate.subject) };
}

function skipped(gate: AgentGate, entry: GateEntry, at: string, reason: string): RunRecord {
  const record: RunRecord = {
    hook: entry.name,
    source: entry.origin.source,
    event: gate.event,
    dialect: gate.dialect.name,
    outcome: 'skipped_untrusted',
    durationMs: 0,
    at,
    reason,
  };
  return stampSubject(record, gate.subject);
}

function recordOf(
  gate: AgentGate,
  entry: AgentHook | InProcessGateHook,
  at: string,
  answer: AgentAnswer,
): RunRecord {
  const record: RunRecord = Object.assign(
    { hook: entry.name, source: entry.origin.source, event: gate.event, dialect: gate.dialect.name, at },
    answer.ending,
  );
  stampSubject(record, gate.subject);
  record.decision = answer.block === true ? 'deny' : 'allow';
  if (answer.permission !== undefined) record.permission = answer.permission;
  if (answer.failed !== undefined) record.failed = answer.failed;
  if (answer.additionalContext !== undefined) record.additionalContext = answer.additionalContext;
  return record;
}
