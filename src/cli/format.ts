import type { RunRecord } from '../records/run-record.ts';

/** One human-readable line per run record: outcome, event, hook, duration, and why. */
export function formatRecord(r: RunRecord): string {
  const parts = [r.outcome.padEnd(11), r.event.padEnd(15), r.hook, `${r.durationMs.toFixed(1)}ms`];
  if (r.exitCode !== undefined) parts.push(`exit=${r.exitCode}`);
  if (r.signal !== undefined) parts.push(`signal=${r.signal}`);
  if (r.status !== undefined) parts.push(`status=${r.status}`);
  if (r.outcome !== 'ok' && r.reason !== undefined) parts.push(`(${r.cause ?? r.outcome}: ${r.reason})`);
  if (r.outcome !== 'ok' && r.stderrTail !== undefined) parts.push(`stderr: ${lastLine(r.stderrTail)}`);
  return parts.join('  ');
}

function lastLine(text: string): string {
  const lines = text.trimEnd().split('\n');
  return (lines[lines.length - 1] ?? '').slice(0, 200);
}
