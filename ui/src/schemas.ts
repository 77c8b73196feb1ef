import * as z from 'zod/mini';
import type { GateDialect } from '../../src/dialects/gate-dialects.ts';
import { LURUS_EVENTS, type LurusEventName } from '../../src/events/lurus-events.ts';
import type { PrxEventName } from '../../src/events/prx-events.ts';
import type { JournalEntry } from '../../src/records/journal-entry.ts';
import { RUN_OUTCOMES, type RunOutcome, type RunRecord } from '../../src/records/run-record.ts';
import type { HandlerFacts } from '../../src/registry/handler-facts.ts';
import type { DecisionNote } from '../../src/server/decision-log.ts';
import type { GateHookView, GateSourceView } from '../../src/server/gate-listing.ts';
import type { ChainState } from '../../src/server/journal-chain-state.ts';

// Every answer of the API is checked before the page uses it (house rule: no casts of outside
// JSON). The types come from the server's own sources, so a drift fails `npm run typecheck`.

export type { DecisionNote, GateHookView, JournalEntry, RunRecord };
export { LURUS_EVENTS, RUN_OUTCOMES };

export const PRX_EVENTS = [
  'agent_start',
  'agent_end',
  'llm_request',
  'llm_response',
  'tool_call_start',
  'tool_call',
  'turn_complete',
  'error',
] as const satisfies readonly PrxEventName[];

export const LURUS_EVENT_NAMES = Object.keys(LURUS_EVENTS).filter(
  (e): e is LurusEventName => e in LURUS_EVENTS,
);

/** Every dialect of the server's gate table: one added there and not here fails the type check. */
const ALL_GATE_DIALECTS: Record<GateDialect, true> = {
  lurus: true,
  claude: true,
  gemini: true,
  copilot: true,
  cursor: true,
  codex: true,
  policy: true,
};
export const GATE_DIALECT_NAMES = Object.keys(ALL_GATE_DIALECTS).filter((d): d is GateDialect =>
  Object.hasOwn(ALL_GATE_DIALECTS, d),
);

const outcomeSchema = z.enum(RUN_OUTCOMES as [RunOutcome, ...RunOutcome[]]);

export const runRecordSchema = z.object({
  hook: z.string(),
  source: z.string(),
  event: z.string(),
  dialect: z.optional(z.string()),
  outcome: outcomeSchema,
  durationMs: z.number(),
  at: z.string(),
  sessionId: z.optional(z.string()),
  toolName: z.optional(z.string()),
  agent: z.optional(z.string()),
  depth: z.optional(z.number()),
  exitCode: z.optional(z.number()),
  signal: z.optional(z.string()),
  status: z.optional(z.number()),
  cause: z.optional(z.string()),
  reason: z.optional(z.string()),
  stderrTail: z.optional(z.string()),
  failed: z.optional(z.enum(['open', 'closed'])),
  decision: z.optional(z.enum(['allow', 'deny'])),
  permission: z.optional(z.enum(['allow', 'deny', 'ask', 'defer'])),
  additionalContext: z.optional(z.string()),
  worker: z.optional(z.string()),
  consent: z.optional(z.literal('newer_version_pending')),
  truncated: z.optional(z.record(z.string(), z.number())),
}) satisfies z.ZodMiniType<RunRecord>;

export const runsAnswerSchema = z.object({
  runs: z.array(runRecordSchema),
  omitted: z.optional(z.number()),
});

/** [R-HOOK-3] A run of an agent's hook, from the journal (`/api/agent-runs`). */
export const journalEntrySchema = z.extend(runRecordSchema, {
  agent: z.string(),
}) satisfies z.ZodMiniType<JournalEntry>;

export const agentRunsAnswerSchema = z.object({
  runs: z.array(journalEntrySchema),
  skipped: z.optional(z.number()),
  droppedSegments: z.optional(z.number()),
  omitted: z.optional(z.number()),
});

/** [T-SELF-3] The journal's chain (`/api/journal-chain`). */
export const journalChainSchema = z.object({
  state: z.enum(['whole', 'broken', 'unchained', 'empty']),
  checked: z.enum(['all', 'tail']),
  from: z.optional(z.string()),
  to: z.optional(z.string()),
  records: z.number(),
  unchained: z.number(),
  breaks: z.array(z.object({ segment: z.string(), line: z.number(), kind: z.string() })),
  moreBreaks: z.number(),
  notes: z.array(z.string()),
}) satisfies z.ZodMiniType<ChainState>;

export type JournalChainState = ChainState;

/** One SSE `data:` of `/api/events/stream`; the payload is checked by whoever knows its topic. */
export const streamFrameSchema = z.object({ topic: z.string(), depth: z.number(), payload: z.unknown() });

/**
 * HOOK's action. Loose: fields this page does not edit (sandbox, keep_children…) are kept and
 * sent back on edit, since `PUT` replaces the whole action.
 */
export const hookActionSchema = z.looseObject({
  command: z.string(),
  args: z.array(z.string()),
  env: z.record(z.string(), z.string()),
  cwd: z.optional(z.string()),
  timeout_ms: z.number(),
  stdin_json: z.boolean(),
  sandbox: z.optional(z.string()),
});

export const hookSchema = z.object({
  id: z.string(),
  event: z.string(),
  action: hookActionSchema,
  enabled: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Hook = z.infer<typeof hookSchema>;

export const hooksAnswerSchema = z.object({ hooks: z.array(hookSchema) });
export const toggleAnswerSchema = z.object({ id: z.string(), enabled: z.boolean() });

export const fieldIssueSchema = z.object({ path: z.string(), message: z.string() });
export type FieldIssue = z.infer<typeof fieldIssueSchema>;
export const errorAnswerSchema = z.object({
  error: z.string(),
  issues: z.optional(z.array(fieldIssueSchema)),
});

/** [G-FAIL-5] A handler as it runs (`/api/gate` and `/api/explain`). */
const handlerFactsSchema = z.object({
  type: z.enum(['command', 'http', 'in-process', 'wasm', 'rule']),
  if: z.optional(z.string()),
  when: z.optional(z.string()),
  failMode: z.enum(['open', 'closed']),
  timeoutMs: z.number(),
  async: z.optional(z.literal(true)),
}) satisfies z.ZodMiniType<HandlerFacts>;

export const VERDICTS = [
  'runs',
  'matcher',
  'disabled',
  'untrusted',
  'changed_since_approval',
  'newer_version_pending',
  'invalid',
  'duplicate',
  'if',
] as const;
export const explainAnswerSchema = z.object({
  event: z.string(),
  explanations: z.array(
    z.object({
      hook: z.string(),
      source: z.string(),
      verdict: z.enum(VERDICTS),
      detail: z.string(),
      handler: z.optional(handlerFactsSchema),
      duplicateOf: z.optional(z.string()),
    }),
  ),
});

// ---- (issue 23) the gate in every dialect ----

const decisionWord = z.enum(['allow', 'deny', 'ask', 'defer']);

/** One answered decide (`/api/decisions`, and `hookwerk.decision` on the stream). */
export const decisionNoteSchema = z.object({
  at: z.string(),
  dialect: z.string(),
  event: z.string(),
  toolName: z.optional(z.string()),
  sessionId: z.string(),
  decision: decisionWord,
  blocked: z.boolean(),
  reason: z.optional(z.string()),
  runs: z.number(),
  durationMs: z.number(),
}) satisfies z.ZodMiniType<DecisionNote>;

export const decisionsAnswerSchema = z.object({ decisions: z.array(decisionNoteSchema) });

/** What the try-it form shows of a decision: loose, every dialect adds fields of its own. */
export const decideAnswerSchema = z.looseObject({
  decision: decisionWord,
  blocked: z.boolean(),
  reason: z.optional(z.string()),
  runs: z.array(runRecordSchema),
});

const gateSourceSchema = z.object({
  file: z.string(),
  label: z.string(),
  scope: z.string(),
  exists: z.boolean(),
  state: z.enum(['ok', 'invalid', 'unapproved', 'absent']),
  hookCount: z.number(),
  newerVersionPending: z.boolean(),
}) satisfies z.ZodMiniType<GateSourceView>;

export const CONSENT_STATES = ['approved', 'pending', 'changed', 'not needed'] as const;

const gateHookSchema = z.object({
  name: z.string(),
  event: z.string(),
  matcher: z.optional(z.string()),
  source: z.string(),
  file: z.optional(z.string()),
  path: z.optional(z.string()),
  scope: z.string(),
  kind: z.optional(z.string()),
  handler: z.optional(handlerFactsSchema),
  enabled: z.boolean(),
  disabledReason: z.optional(z.string()),
  newer: z.optional(z.literal(true)),
  readBy: z.array(z.enum(GATE_DIALECT_NAMES as [GateDialect, ...GateDialect[]])),
  consent: z.enum(CONSENT_STATES),
  consentDetail: z.string(),
}) satisfies z.ZodMiniType<GateHookView>;

const gateDialectSchema = z.object({
  dialect: z.string(),
  label: z.string(),
  default: z.boolean(),
  sources: z.array(gateSourceSchema),
  hooks: z.array(gateHookSchema),
  issues: z.array(z.string()),
});

export const gateAnswerSchema = z.object({
  project: z.object({
    dir: z.string(),
    home: z.string(),
    approved: z.boolean(),
    approvedAt: z.optional(z.string()),
    reason: z.string(),
    pending: z.array(z.string()),
    changed: z.array(z.string()),
    problem: z.optional(z.string()),
    review: z.string(),
  }),
  defaultDialect: z.string(),
  known: z.array(z.string()),
  dialects: z.array(gateDialectSchema),
});
export type GateAnswer = z.infer<typeof gateAnswerSchema>;
