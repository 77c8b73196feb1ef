/**
 * "Why didn't my hook fire?": every entry configured for an event, in run order, with the
 * registry's own admission (the very rule `select()` applies) and the reason in words.
 */
import type { ConsentCheck, HookConsent } from '../consent/project-consent.ts';
import { trustHint } from '../consent/run-consent.ts';
import { type ConfigIssue, formatIssue } from '../core/issues.ts';
import type { RegistryEntry } from './hook-definition.ts';
import { type Admission, admit, type Registry } from './registry.ts';

export interface Explanation {
  hook: string;
  source: string;
  /**
   * `runs`, or the first reason it would not: a project hook whose pinned files changed does not
   * run as approved (`changed_since_approval`) [L-TRUST-11]; `newer_version_pending` for a source
   * whose edit waits for consent (its approved text runs); `invalid` for a source skipped whole;
   * `duplicate` for a handler another file names too (the same command and arguments), which runs
   * once, as the first in configuration order [C-RUN-2, A-ALL-1].
   */
  verdict: Admission | 'changed_since_approval' | 'newer_version_pending' | 'invalid' | 'duplicate';
  detail: string;
}

interface ExplainContext {
  /** Problems that made a source (or hooks.json) be skipped: their hooks never run. */
  issues: readonly ConfigIssue[];
  /** Set when a project source has a newer version waiting for consent [L-TRUST-6]. */
  pending?: readonly string[];
}

export function explainEvent(
  registry: Registry,
  event: string,
  target: string | undefined,
  ctx: ExplainContext,
): Explanation[] {
  const checks = new Map<HookConsent, ConsentCheck>();
  /** dedupeKey → the source of the handler that runs for it. */
  const winners = new Map<string, string>();
  const out: Explanation[] = registry.entries(event).map((entry) => {
    const verdict = admit(entry, target);
    const explanation: Explanation = {
      hook: entry.name,
      source: entry.origin.source,
      verdict,
      detail: detailOf(entry, verdict, target),
    };
    const key = verdict === 'runs' && 'dedupeKey' in entry ? entry.dedupeKey : undefined;
    const winner = key === undefined ? undefined : winners.get(key);
    if (key !== undefined && winner === undefined) winners.set(key, entry.origin.source);
    if (winner !== undefined) {
      explanation.verdict = 'duplicate';
      explanation.detail = `the same handler as ${winner}, which wins: it runs once [C-RUN-2, A-ALL-1]`;
      return explanation;
    }
    // [L-TRUST-11] The check decide() makes right before the run: never RUNS for a hook that would not run.
    const consent = verdict === 'runs' && 'consent' in entry ? entry.consent : undefined;
    if (consent !== undefined && entry.kind !== 'unapproved') {
      const check = checks.get(consent) ?? consent.check();
      checks.set(consent, check);
      const changed = check.changed[0];
      if (changed !== undefined) {
        explanation.verdict = 'changed_since_approval';
        const effect = entry.failMode === 'closed' ? 'denies (failMode "closed")' : 'is skipped';
        explanation.detail = `${changed} changed since approval, so this hook ${effect}: ${trustHint(consent.key)}`;
      }
    }
    return explanation;
  });
  for (const file of ctx.pending ?? []) {
    out.push({
      hook: '(newer version pending)',
      source: file,
      verdict: 'newer_version_pending',
      detail: 'changed since approval: the approved version runs until you run `hookwerk trust`',
    });
  }
  for (const issue of ctx.issues) {
    out.push({
      hook: '(source skipped)',
      source: issue.file,
      verdict: 'invalid',
      detail: formatIssue(issue),
    });
  }
  return out;
}

function detailOf(entry: RegistryEntry, verdict: Admission, target: string | undefined): string {
  if (entry.kind === 'unapproved') return entry.reason;
  if (verdict === 'disabled') return entry.disabledReason ?? '"enabled": false (kept in the file, never run)';
  const shown = entry.matcher.source === undefined ? '(no matcher)' : JSON.stringify(entry.matcher.source);
  if (verdict === 'matcher') return `matcher ${shown} does not match ${JSON.stringify(target)}`;
  switch (entry.dialect) {
    case 'prx':
      if (entry.kind === 'process')
        return `${entry.command} ${entry.args.join(' ')}`.trim() + `, timeout ${entry.timeoutMs} ms`;
      if (entry.kind === 'wasm') return `WASM plugin ${entry.name}, timeout ${entry.timeoutMs} ms`;
      return `in-process function, timeout ${entry.timeoutMs} ms`;
    default: {
      const why =
        target === undefined
          ? 'no toolName or trigger, so every matcher matches'
          : `matcher ${shown} matches ${JSON.stringify(target)}`;
      const note = entry.matcher.error !== undefined ? ` (${entry.matcher.error})` : '';
      return `${why}${note}; ${entry.origin.scope} hook, timeout ${entry.timeoutMs} ms, fail ${entry.failMode}`;
    }
  }
}
