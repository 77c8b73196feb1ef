import { CONSENT_CAUSES, trustHint } from '../consent/run-consent.ts';
import { tildePath } from '../core/tilde-path.ts';
import { cannotRunLine } from './cannot-run.ts';
import type { RunRecord } from './run-record.ts';

/**
 * What `hookwerk hook` says on stderr about the runs of one call: the guards skipped as not
 * approved [L-TRUST-11], the policy files that cannot be used [G-FAIL-1], the commands that
 * could not run [G-FAIL-2] and the rules that failed [G-CEL-2], each once.
 */
export function runProblemLines(runs: readonly RunRecord[], projectDir: string, home?: string): string[] {
  const lines = new Set<string>();
  for (const run of runs) {
    if (run.outcome === 'policy_error' && run.reason !== undefined) lines.add(run.reason);
    const cannot = cannotRunLine(run);
    if (cannot !== undefined) lines.add(cannot);
    const rule = ruleFailedLine(run);
    if (rule !== undefined) lines.add(rule);
  }
  return [...skippedGuardLines(runs, projectDir, home), ...lines];
}

/**
 * [L-TRUST-11] A guard that did not run as approved is never silent: one line per source file
 * and cause, naming the file and the command that reviews the project (paths under `home` shown
 * as `~` [G-FAIL-5]).
 */
function skippedGuardLines(runs: readonly RunRecord[], projectDir: string, home?: string): string[] {
  const lines = new Map<string, string>();
  for (const run of runs) {
    if (run.cause === undefined || !CONSENT_CAUSES.has(run.cause)) continue;
    const file = run.source.replace(/#.*$/, '');
    const key = `${file}\0${run.cause}`;
    if (lines.has(key)) continue;
    const effect = run.outcome === 'skipped_untrusted' ? 'skipped' : 'denied (failMode "closed")';
    const why = run.reason ?? run.cause;
    const line = why.includes('hookwerk trust --project')
      ? why
      : `${why.replace(/:? \(?run `hookwerk trust`\)?$/, '')}: ${trustHint(tildePath(projectDir, home))}`;
    lines.set(key, `hookwerk: project hook ${effect}, ${run.cause}: ${tildePath(file, home)}: ${line}`);
  }
  return [...lines.values()];
}

/**
 * [G-CEL-2] A rule that errs or runs out of its budget is a failed guard, said every time, like a
 * command that cannot run: an open one gives no opinion, and nobody would otherwise know.
 */
function ruleFailedLine(run: RunRecord): string | undefined {
  if (run.cause !== 'rule_error' && run.cause !== 'rule_budget') return undefined;
  const effect = run.failed === 'closed' ? 'failMode "closed" denies' : 'no opinion';
  return `hookwerk: policy rule failed: ${run.reason ?? run.cause} (hook ${JSON.stringify(run.hook)}, ${run.source}): ${effect}`;
}
