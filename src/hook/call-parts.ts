/**
 * One agent call that stands for several Claude Code calls — a Codex patch that touches N files is
 * N `Edit`/`Write` calls [R-MAP-1] — is decided part by part, and the decisions are merged
 * most restrictive first: any deny denies (naming its part), an ask asks, so the gate sees every
 * file and no file rides through on another's answer. Nothing here knows which agent runs: the
 * parts come from the agent's `toClaude` (`ClaudeCall.also`). The choices (docs/policy.md):
 *
 * - The parts run one after the other, each with its own input; the first deny stops the rest.
 * - A rewrite (`updatedInput`) is for the whole call: it is kept only when it changes every part's
 *   own input the same way (a hook that replaces the patch text does so for each file's call,
 *   whatever its `file_path`); a rewrite of some parts only cannot be applied to part of one
 *   call, and dropping it could run what a hook wanted changed: the call is denied, saying why.
 *   The same holds for the `updatedInput` of a PermissionRequest allow.
 * - A PermissionRequest is allowed only when every part was allowed; a part without an answer
 *   leaves the whole to the agent.
 * - Context and system messages: each distinct one, in part order.
 * - More than `MAX_CALL_PARTS` parts are not judged one by one: denied, saying so (a patch that
 *   names thousands of files must not outlast the agent's hook timeout, which lets the tool run).
 * - The explicit allow of `policyVerdict` is read from the runs: an agent whose parts could be
 *   allowed one by one would need more. Codex, the only agent with parts, passes an allow on only
 *   with a rewrite or a PermissionRequest answer, both merged as above.
 */
import { isDeepStrictEqual } from 'node:util';
import type { ClaudeCall } from '../dialects/agent/hook-agent.ts';
import type { AgentDecision, Permission, PermissionRequestAnswer } from '../dispatch/agent-answer.ts';
import type { PolicyDecider, PolicyQuestion } from './policy-decider.ts';

export const MAX_CALL_PARTS = 256;

/** The call and each further part it stands for. */
export function callParts(call: ClaudeCall): readonly ClaudeCall[] {
  return call.also === undefined || call.also.length === 0 ? [call] : [call, ...call.also];
}

/** The tool name all parts share, for the pre-scan; undefined when they differ (it then rules nothing out). */
export function sharedToolName(call: ClaudeCall): string | undefined {
  return callParts(call).every((part) => part.toolName === call.toolName) ? call.toolName : undefined;
}

/** The decision of the call: of its one part, or of every part, merged. */
export async function decideEachPart(
  decider: PolicyDecider,
  question: PolicyQuestion,
): Promise<AgentDecision> {
  const parts = callParts(question.call);
  if (parts.length === 1) return decider.decide(question);
  if (parts.length > MAX_CALL_PARTS)
    return refused(
      `hookwerk: this call stands for ${parts.length} files; more than ${MAX_CALL_PARTS} are not judged one by one — split it`,
      [],
    );
  const decided: Decided[] = [];
  for (const part of parts) {
    const decision = await decider.decide({ ...question, call: part });
    decided.push({ part, decision });
    if (decision.blocked) break;
  }
  return mergeParts(decided);
}

/** One part and what the policy said about it. */
export interface Decided {
  readonly part: ClaudeCall;
  readonly decision: AgentDecision;
}

const RANK: Readonly<Record<Permission, number>> = { allow: 0, ask: 1, defer: 2, deny: 3 };
const rank = (d: AgentDecision) => (d.blocked ? 4 : RANK[d.decision]);

function nameOf(part: ClaudeCall): string {
  return part.subject ?? part.toolName ?? 'one part of the call';
}

function refused(reason: string, runs: AgentDecision['runs']): AgentDecision {
  return { decision: 'deny', blocked: true, reason, continue: true, runs };
}

function distinct(values: readonly (string | undefined)[]): string | undefined {
  const kept = [...new Set(values.filter((v): v is string => v !== undefined && v !== ''))];
  return kept.length === 0 ? undefined : kept.join('\n');
}

/** What a rewrite changes in a part's own input: each changed or removed field. */
function changes(part: ClaudeCall, rewrite: Record<string, unknown> | undefined): [string, unknown][] {
  if (rewrite === undefined) return [];
  const given: unknown = part.input.tool_input;
  const own = typeof given === 'object' && given !== null ? Object.fromEntries(Object.entries(given)) : {};
  return Object.keys({ ...own, ...rewrite })
    .sort()
    .filter((k) => !Object.hasOwn(rewrite, k) || !isDeepStrictEqual(rewrite[k], own[k]))
    .map((k) => [k, Object.hasOwn(rewrite, k) ? rewrite[k] : { removed: true }]);
}

/**
 * The rewrite every part agrees on: each part's rewrite changes its own input the same way (a
 * hook that replaces the patch text gives each file's call the same new text, whatever its
 * `file_path`). The first part's rewrite then stands for the call; `mixed` when they differ.
 */
function agreed(
  decided: readonly Decided[],
  pick: (d: AgentDecision) => Record<string, unknown> | undefined,
): Record<string, unknown> | 'mixed' | undefined {
  const first = changes(decided[0]!.part, pick(decided[0]!.decision));
  const same = decided.every((d) => isDeepStrictEqual(changes(d.part, pick(d.decision)), first));
  return same ? pick(decided[0]!.decision) : 'mixed';
}

/** The refusal of rewrites that differ, naming the first part whose rewrite stands apart. */
function partial(
  decided: readonly Decided[],
  pick: (d: AgentDecision) => Record<string, unknown> | undefined,
): string {
  const first = changes(decided[0]!.part, pick(decided[0]!.decision));
  const odd =
    decided.find((d) => !isDeepStrictEqual(changes(d.part, pick(d.decision)), first)) ?? decided[0]!;
  return `${nameOf(odd.part)}: a policy hook rewrote the parts of this call differently; a call that stands for ${decided.length} files cannot be rewritten in part — denied`;
}

function mergePermission(decided: readonly Decided[]): PermissionRequestAnswer | 'mixed' | undefined {
  const given = decided.map((d) => d.decision.permission);
  const deny = decided.find((d) => d.decision.permission?.behavior === 'deny');
  if (deny !== undefined) {
    const p = deny.decision.permission!;
    return { ...p, message: `${nameOf(deny.part)}: ${p.message ?? 'denied by a hookwerk policy hook'}` };
  }
  if (!given.every((p) => p?.behavior === 'allow')) return undefined;
  return agreed(decided, (d) => d.permission?.updatedInput) === 'mixed' ? 'mixed' : given[0];
}

/** [C-ANS-4 across parts] The parts' decisions as one: most restrictive first. */
export function mergeParts(decided: readonly Decided[]): AgentDecision {
  const runs = decided.flatMap((d) => d.decision.runs);
  let top = decided[0]!;
  for (const d of decided) if (rank(d.decision) > rank(top.decision)) top = d;
  const stopReason = decided.find((d) => !d.decision.continue)?.decision.stopReason;
  const systemMessage = distinct(decided.map((d) => d.decision.systemMessage));
  const shared = {
    continue: decided.every((d) => d.decision.continue),
    ...(stopReason !== undefined ? { stopReason } : {}),
    ...(systemMessage !== undefined ? { systemMessage } : {}),
  };
  if (top.decision.blocked)
    return {
      ...refused(`${nameOf(top.part)}: ${top.decision.reason ?? 'denied by a hookwerk policy hook'}`, runs),
      ...shared,
    };
  const rewrite = agreed(decided, (d) => d.updatedInput);
  if (rewrite === 'mixed')
    return {
      ...refused(
        partial(decided, (d) => d.updatedInput),
        runs,
      ),
      ...shared,
    };
  const permission = mergePermission(decided);
  if (permission === 'mixed') {
    const why = partial(decided, (d) => d.permission?.updatedInput);
    return {
      ...refused(why, runs),
      ...shared,
      blocked: false,
      permission: { behavior: 'deny', message: why },
    };
  }
  const decision = permission?.behavior === 'deny' ? 'deny' : top.decision.decision;
  const reason =
    decision === 'allow'
      ? distinct(decided.map((d) => d.decision.reason))
      : top.decision.reason !== undefined
        ? `${nameOf(top.part)}: ${top.decision.reason}`
        : (permission?.message ?? `${nameOf(top.part)}: the policy says ${decision}`);
  const additionalContext = distinct(decided.map((d) => d.decision.additionalContext));
  const specific = decided.find((d) => d.decision.hookSpecificOutput !== undefined)?.decision
    .hookSpecificOutput;
  const envs = decided.flatMap((d) => (d.decision.env !== undefined ? [d.decision.env] : []));
  return {
    decision,
    blocked: false,
    runs,
    ...shared,
    ...(reason !== undefined ? { reason } : {}),
    ...(additionalContext !== undefined ? { additionalContext } : {}),
    ...(rewrite !== undefined ? { updatedInput: rewrite } : {}),
    ...(permission !== undefined ? { permission } : {}),
    ...(specific !== undefined ? { hookSpecificOutput: specific } : {}),
    ...(envs.length > 0 ? { env: Object.assign({}, ...envs) } : {}),
  };
}
