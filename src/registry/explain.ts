/**
 * "Why didn't my hook fire?": every entry configured for an event, in run order, with the
 * registry's own admission (the very rule `select()` applies), the gate's own plan (`if` rules,
 * identical handlers, `async`: registry/gate-plan.ts, which `decide` follows) and the reason in
 * words [G-FAIL-5].
 */
import type { ConsentCheck, HookConsent } from '../consent/project-consent.ts';
import { trustHint } from '../consent/run-consent.ts';
import type { ConfigIssue } from '../core/issues.ts';
import { shownIssue, tildePath } from '../core/tilde-path.ts';
import { type PlannedCall, type PlanStep, planGate } from './gate-plan.ts';
import { type HandlerFacts, handlerFactsOf } from './handler-facts.ts';
import type { RegistryEntry } from './hook-definition.ts';
import { type Admission, admit, type Registry } from './registry.ts';

/** One line `explain` shows for a rule of a layer that runs before the hooks [G-FAIL-5]. */
export interface LayerLine {
  readonly kind: 'permission' | 'guard';
  /** `permissions.deny: Bash(rm -rf *)`. */
  readonly who: string;
  /** `file#/permissions/deny/0`. */
  readonly source: string;
  /** The rule applies to this call (or no call was given to test it against). */
  readonly applies: boolean;
  readonly detail: string;
}

export interface Explanation {
  /**
   * What the line is. The policy's permission rules (SPEC §14.2) and guards (SPEC §14.3) run
   * before any hook: they are listed first, in the order they are checked, as lines of kind
   * `permission` and `guard` (verdict `runs` when the rule applies to the call given, `matcher`
   * when it does not) [G-FAIL-5].
   */
  kind: 'hook' | 'permission' | 'guard';
  hook: string;
  /** `file#/json/pointer` (absolute: an identifier, as in run records). */
  source: string;
  /**
   * `runs`, or the first reason it would not: a project hook whose pinned files changed does not
   * run as approved (`changed_since_approval`) [L-TRUST-11]; `newer_version_pending` for a source
   * whose edit waits for consent (its approved text runs); `invalid` for a source skipped whole;
   * `if` for a handler whose `if` rule does not admit the call [C-RUN-1]; `duplicate` for a
   * handler identical to an earlier one (same type, command and arguments or URL, `if` and
   * matcher: registry/handler-identity.ts), which runs once for both [C-RUN-2, A-ALL-1].
   */
  verdict: Admission | 'if' | 'changed_since_approval' | 'newer_version_pending' | 'invalid' | 'duplicate';
  /** The reason in words, for people (the home folder shown as `~`). */
  detail: string;
  /** The handler as it runs [G-FAIL-5]; absent for an unapproved entry (nothing of it was read) and a skipped source. */
  handler?: HandlerFacts;
  /** `duplicate`: the source of the handler that runs for both. */
  duplicateOf?: string;
}

interface ExplainContext {
  /** Problems that made a source (or hooks.json) be skipped: their hooks never run. */
  issues: readonly ConfigIssue[];
  /** Set when a project source has a newer version waiting for consent [L-TRUST-6]. */
  pending?: readonly string[];
  /** The home folder, shown as `~` in details [G-FAIL-5]. */
  home?: string;
  /**
   * A gate event: the plan `decide` makes for this call. `call` undefined: `if` rules are not
   * asked (no tool call given), and said so.
   */
  gate?: { call: PlannedCall | undefined };
  /** The layers' rules, listed before the hooks in the order they are checked. */
  layers?: readonly LayerLine[];
}

export function explainEvent(
  registry: Registry,
  event: string,
  target: string | undefined,
  ctx: ExplainContext,
): Explanation[] {
  const checks = new Map<HookConsent, ConsentCheck>();
  const plan = new Map<RegistryEntry, PlanStep>();
  if (ctx.gate !== undefined)
    for (const step of planGate(registry.select(event, target), ctx.gate.call)) plan.set(step.entry, step);
  const shown = (p: string) => tildePath(p, ctx.home);
  const layers: Explanation[] = (ctx.layers ?? []).map((line) => ({
    kind: line.kind,
    hook: line.who,
    source: line.source,
    verdict: line.applies ? 'runs' : 'matcher',
    detail: line.detail,
  }));
  const out: Explanation[] = registry.entries(event).map((entry) => {
    const admission = admit(entry, target);
    const step = admission === 'runs' ? plan.get(entry) : undefined;
    const explanation: Explanation = {
      kind: 'hook',
      hook: entry.name,
      source: entry.origin.source,
      verdict: admission,
      detail: detailOf(entry, admission, target, step, ctx),
    };
    const facts = handlerFactsOf(entry);
    if (facts !== undefined) explanation.handler = facts;
    if (step?.kind === 'if') explanation.verdict = 'if';
    if (step?.kind === 'duplicate') {
      explanation.verdict = 'duplicate';
      explanation.duplicateOf = step.of.origin.source;
      return explanation;
    }
    // [L-TRUST-11] The check decide() makes right before the run: never RUNS for a hook that would not run.
    const consent = admission === 'runs' && 'consent' in entry ? entry.consent : undefined;
    if (consent !== undefined && entry.kind !== 'unapproved' && step?.kind !== 'if') {
      const check = checks.get(consent) ?? consent.check();
      checks.set(consent, check);
      const changed = check.changed[0];
      if (changed !== undefined) {
        explanation.verdict = 'changed_since_approval';
        const effect = entry.failMode === 'closed' ? 'denies (failMode "closed")' : 'is skipped';
        explanation.detail = `${shown(changed)} changed since approval, so this hook ${effect}: ${trustHint(shown(consent.key))}`;
      }
    }
    return explanation;
  });
  for (const file of ctx.pending ?? []) {
    out.push({
      kind: 'hook',
      hook: '(newer version pending)',
      source: file,
      verdict: 'newer_version_pending',
      detail: 'changed since approval: the approved version runs until you run `hookwerk trust`',
    });
  }
  for (const issue of ctx.issues) {
    out.push({
      kind: 'hook',
      hook: '(source skipped)',
      source: issue.file,
      verdict: 'invalid',
      detail: shownIssue(issue, ctx.home),
    });
  }
  return [...layers, ...out];
}

function detailOf(
  entry: RegistryEntry,
  admission: Admission,
  target: string | undefined,
  step: PlanStep | undefined,
  ctx: ExplainContext,
): string {
  if (entry.kind === 'unapproved') return entry.reason;
  if (admission === 'disabled')
    return entry.disabledReason ?? '"enabled": false (kept in the file, never run)';
  const shown = entry.matcher.source === undefined ? '(no matcher)' : JSON.stringify(entry.matcher.source);
  if (admission === 'matcher') return `matcher ${shown} does not match ${JSON.stringify(target)}`;
  if (entry.dialect === 'prx') {
    if (entry.kind === 'process')
      return `${entry.command} ${entry.args.join(' ')}`.trim() + `, timeout ${entry.timeoutMs} ms`;
    if (entry.kind === 'wasm') return `WASM plugin ${entry.name}, timeout ${entry.timeoutMs} ms`;
    return `in-process function, timeout ${entry.timeoutMs} ms`;
  }
  const why =
    target === undefined
      ? 'no toolName or trigger, so every matcher matches'
      : `matcher ${shown} matches ${JSON.stringify(target)}`;
  const note = entry.matcher.error !== undefined ? ` (${entry.matcher.error})` : '';
  const parts = [`${why}${note}`];
  const rule = 'ifRule' in entry ? entry.ifRule?.rule : undefined;
  if (rule !== undefined) {
    const quoted = JSON.stringify(rule);
    if (step?.kind === 'if') {
      const why = ctx.gate?.call?.toolName === undefined ? ' (the call names no tool)' : '';
      return `${parts[0]}; if ${quoted} does not admit this call${why}, so it does not run`;
    }
    parts.push(
      ctx.gate?.call === undefined
        ? `if ${quoted} not tested (no tool call given)`
        : `if ${quoted} admits this call`,
    );
  }
  if (step?.kind === 'duplicate')
    return `the same handler as ${tildePath(step.of.origin.source, ctx.home)}, which wins: it runs once [C-RUN-2, A-ALL-1]`;
  if (step?.kind === 'background') parts.push('async: runs in the background, never decides');
  parts.push(`${entry.origin.scope} hook`);
  return parts.join('; ');
}
