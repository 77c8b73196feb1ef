/**
 * [G-TEST-1] Who made a verdict, for a case's `by`: the runs of the call whose own answer is the
 * verdict (else, when the agent's protocol turned one answer into another — Codex denies an ask —
 * the runs that had any opinion), each known by its ids:
 *
 * - its name: a command hook's command (with its args), an HTTP hook's `POST <url>`, an unusable
 *   policy file's path (G-FAIL-1); the permission rules and guards of SPEC §14 name theirs here;
 * - its source: `<file>#/hooks/PreToolUse/0/hooks/1`, the JSON pointer of the handler in its file;
 * - that pointer alone, with or without the `#` (`/hooks/PreToolUse/0/hooks/1`): what stays the
 *   same when the policy file moves.
 */
import type { VerdictName } from '../dialects/agent/hook-agent.ts';
import type { RunRecord } from '../records/run-record.ts';

/** What one run said, as a verdict of its own. */
function runVerdict(run: RunRecord): VerdictName {
  if (run.decision === 'deny' || run.permission === 'deny') return 'deny';
  if (run.permission === 'ask') return 'ask';
  if (run.permission === 'allow') return 'allow';
  return 'none';
}

/** The runs that made `verdict`. */
export function decidingRuns(runs: readonly RunRecord[], verdict: VerdictName): RunRecord[] {
  const same = runs.filter((r) => runVerdict(r) === verdict);
  if (same.length > 0 || verdict === 'none') return same;
  return runs.filter((r) => runVerdict(r) !== 'none');
}

/** Every id a run answers to (see the file comment). */
export function runIds(run: RunRecord): string[] {
  const hash = run.source.indexOf('#');
  const pointer = hash >= 0 ? run.source.slice(hash + 1) : undefined;
  return [run.hook, run.source, ...(pointer !== undefined ? [pointer, `#${pointer}`] : [])];
}

/** The name to show for a run (its name, which is what people write). */
export function runName(run: RunRecord): string {
  return run.hook;
}

/** `by` names one of the runs. */
export function madeBy(runs: readonly RunRecord[], by: string): boolean {
  return runs.some((r) => runIds(r).includes(by));
}
