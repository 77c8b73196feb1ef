import type { GateTrust } from '../dialects/lurus-gate.ts';
import type { LurusEventName } from '../events/lurus-events.ts';
import { formatIssue } from '../sources/issues.ts';
import type { LurusConfig } from '../sources/lurus-source.ts';
import type { PrxLoadResult } from '../sources/prx-source.ts';

/** One configured hook and whether it would run for a given event, and if not, why. */
export interface Explanation {
  hook: string;
  source: string;
  /** `runs`, or the first reason it would not. */
  verdict: 'runs' | 'matcher' | 'disabled' | 'untrusted' | 'invalid';
  detail: string;
}

/** "Why didn't my hook fire?" for a gate event: every configured hook, in the order they would run. */
export function explainGate(
  config: LurusConfig,
  trust: GateTrust,
  event: LurusEventName,
  target: string | undefined,
): Explanation[] {
  const out: Explanation[] = [];
  for (const hook of config.byEvent.get(event) ?? []) {
    const base = { hook: hook.name, source: hook.source };
    const shown = hook.matcher.source === undefined ? '(no matcher)' : JSON.stringify(hook.matcher.source);
    if (!hook.matcher.test(target)) {
      out.push({
        ...base,
        verdict: 'matcher',
        detail: `matcher ${shown} does not match ${JSON.stringify(target)}`,
      });
    } else if (hook.scope === 'project' && !trust.trusted) {
      out.push({
        ...base,
        verdict: 'untrusted',
        detail: `project hooks ${trust.reason}: run \`hookwerk trust\``,
      });
    } else {
      const why =
        target === undefined
          ? 'no toolName or trigger, so every matcher matches'
          : `matcher ${shown} matches ${JSON.stringify(target)}`;
      const note = hook.matcher.error !== undefined ? ` (${hook.matcher.error})` : '';
      out.push({
        ...base,
        verdict: 'runs',
        detail: `${why}${note}; ${hook.scope} hook, timeout ${hook.timeoutMs} ms, fail ${hook.failMode}`,
      });
    }
  }
  // Sources skipped whole: their hooks for this event (or any) never run.
  for (const issue of config.issues) {
    out.push({
      hook: '(source skipped)',
      source: issue.file,
      verdict: 'invalid',
      detail: formatIssue(issue),
    });
  }
  return out;
}

/** The same for an observe (PRX) event. */
export function explainPrx(loaded: PrxLoadResult, event: string): Explanation[] {
  if (!loaded.ok) {
    return loaded.issues.map((issue) => ({
      hook: '(hooks.json rejected)',
      source: issue.file,
      verdict: 'invalid' as const,
      detail: `${formatIssue(issue)} — no shell hooks run until the file is valid`,
    }));
  }
  return loaded.actions
    .filter((a) => a.event === event)
    .map((a) => ({
      hook: a.name,
      source: a.source,
      verdict: a.enabled ? ('runs' as const) : ('disabled' as const),
      detail: a.enabled
        ? `${a.command} ${a.args.join(' ')}`.trim() + `, timeout ${a.timeoutMs} ms`
        : '"enabled": false (kept in the file, never run)',
    }));
}
