/**
 * [G-PERM-1] A layer of verdicts that runs before a gate's hooks: the policy's
 * permission rules now, its guards next. Each layer reads the call (and its action view, made
 * once and only when a layer asks) and returns the same small verdict — deny, ask or allow with
 * a reason and who gave it — or none. A deny stops the rest: no later layer, no hook runs. Asks
 * and allows are handed to the dialect's merge as answers that come before every hook's, so the
 * Claude-shaped merge decides: deny over ask over allow, and an allow is explicit only when
 * nothing objects. Each verdict is one run record (`cause` names the layer) and one span of a
 * traced decide.
 */
import type { ActionView } from '../action/view-types.ts';
import { isoNow } from '../events/prx-events.ts';
import type { RunRecord } from '../records/run-record.ts';
import type { LayerLine } from '../registry/explain.ts';
import type { AgentAnswer } from './agent-answer.ts';

export type { LayerLine };

import { type RunSubject, stampSubject } from './run-subject.ts';

export interface LayerVerdict {
  readonly decision: 'deny' | 'ask' | 'allow';
  /** What the agent reads: `<file>: permissions.deny: <rule>`. */
  readonly reason: string;
  /** Who decided, as run records and `explain` name it: `permissions.deny: Bash(rm -rf *)`. */
  readonly who: string;
  /** Where it is written: `<file>#/permissions/deny/0`. */
  readonly source: string;
}

export interface GateLayer {
  /** `permission` or `guard`: the records' `cause`, the explanations' `kind`. */
  readonly kind: 'permission' | 'guard';
  /** The events it may decide on. */
  readonly events: readonly string[];
  /**
   * [R-HOOK-4] The tool names it may decide for on `event` (the fast path indexes them): `null`
   * when it never decides on that event, `undefined` for any tool.
   */
  tools(event: string): readonly string[] | null | undefined;
  /** It has a rule that denies or asks on `event` (a failure of the engine then denies, R-HOOK-2). */
  closes(event: string): boolean;
  /** Its verdict on a call; `view` is the call's action view, made on first ask. */
  decide(
    event: string,
    input: Readonly<Record<string, unknown>>,
    view: () => ActionView,
  ): LayerVerdict | undefined;
  /** Its rules for `explain`, in the order they are checked; `input` is the call, when given. */
  explain(
    event: string,
    input: Readonly<Record<string, unknown>> | undefined,
    view: () => ActionView,
  ): LayerLine[];
}

/** The layers' verdicts in order, up to and including the first deny. */
export function layerVerdicts(
  layers: readonly GateLayer[],
  event: string,
  input: Readonly<Record<string, unknown>>,
  view: () => ActionView,
): { layer: GateLayer; verdict: LayerVerdict }[] {
  const out: { layer: GateLayer; verdict: LayerVerdict }[] = [];
  for (const layer of layers) {
    if (layer.tools(event) === null) continue;
    const verdict = layer.decide(event, input, view);
    if (verdict === undefined) continue;
    out.push({ layer, verdict });
    if (verdict.decision === 'deny') break;
  }
  return out;
}

/** A verdict as the answer the dialect merges, and its run record. */
export function layerStep(
  layer: GateLayer,
  verdict: LayerVerdict,
  ctx: { event: string; dialect: string; subject: RunSubject },
): { answer: AgentAnswer; record: RunRecord } {
  const deny = verdict.decision === 'deny';
  const answer: AgentAnswer = {
    ending: { outcome: deny ? 'deny' : 'ok', durationMs: 0, cause: layer.kind, reason: verdict.reason },
    permission: verdict.decision,
    permissionReason: verdict.reason,
    reason: verdict.reason,
  };
  if (deny) answer.block = true;
  const record: RunRecord = {
    hook: verdict.who,
    source: verdict.source,
    event: ctx.event,
    dialect: ctx.dialect,
    outcome: deny ? 'deny' : 'ok',
    durationMs: 0,
    at: isoNow(),
    cause: layer.kind,
    reason: verdict.reason,
    decision: deny ? 'deny' : 'allow',
    permission: verdict.decision,
  };
  return { answer, record: stampSubject(record, ctx.subject) };
}
