/**
 * [G-FAIL-2] A policy hook whose command cannot run — its script or interpreter missing or not
 * executable — is named on stderr every time it happens, with the file the shell could not find,
 * so a guard that never ran does not pass for one that said nothing. Read from the run's record:
 * `spawn_error`, exit 126/127, or the "cannot open" / "not found" messages shells and interpreters
 * give with exit 2 (dash, python) or 1 (node).
 */
import type { RunRecord } from './run-record.ts';

/** What the shells and interpreters say, and where the file is in it. */
const MISSING: readonly RegExp[] = [
  /cannot open ([^:\n]+): /, // dash: sh: 0: cannot open /x/guard.sh: No such file
  /^[^:\n]+: \d+: ([^:\n]+): (?:not found|Permission denied)/m, // dash: sh: 1: /x/guard.sh: not found
  /^[^:\n]+: (?:line \d+: )?([^:\n]+): (?:No such file or directory|Permission denied|command not found)/m, // bash
  /can't open file '([^'\n]+)'/, // python
  /Cannot find module '([^'\n]+)'/, // node
];

/** The one stderr line for a run whose command could not run, or undefined. */
export function cannotRunLine(run: RunRecord): string | undefined {
  const text = `${run.stderrTail ?? ''}\n${run.reason ?? ''}`;
  const missing = missingFile(text);
  const code = run.exitCode;
  const failedToStart =
    run.outcome === 'spawn_error' ||
    code === 126 ||
    code === 127 ||
    ((code === 1 || code === 2) && missing !== undefined);
  if (!failedToStart) return undefined;
  const what =
    missing ?? (run.outcome === 'spawn_error' ? (run.reason ?? 'it could not start') : `exit ${code}`);
  const effect =
    run.decision === 'deny' || run.outcome === 'deny'
      ? 'its exit blocks the call'
      : run.failed === 'closed'
        ? 'failMode "closed" denies'
        : 'no opinion';
  return `hookwerk: policy hook cannot run: ${what} (hook ${JSON.stringify(run.hook)}, ${run.source}): ${effect}`;
}

function missingFile(text: string): string | undefined {
  for (const pattern of MISSING) {
    const m = pattern.exec(text);
    if (m?.[1] !== undefined) return m[1].trim();
  }
  return undefined;
}
