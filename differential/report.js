// The report: one line per case as it finishes, a summary line per tool, the JSON file.
import { writeFileSync } from 'node:fs';
import { describe } from './compare.js';

/** `agree name`, `DIFFER name: what`, or `deliberate name: what (why)`. */
export function caseLine(r) {
  if (r.error) return `ERROR      ${r.name}: ${r.error}`;
  if (r.agree) return `agree      ${r.name}`;
  const what = r.aspects
    .filter((a) => !a.agree)
    .map(describe)
    .join(' | ');
  return r.deliberate ? `deliberate ${r.name}: ${what} (${r.deliberate})` : `DIFFER     ${r.name}: ${what}`;
}

/**
 * Deliberate differences are printed but not counted: T is every case but those, N the agreeing.
 * A deliberate case that agrees (the race went hookwerk's way) counts as an agreement.
 */
export function tally(results) {
  const agree = results.filter((r) => r.agree).length;
  const deliberate = results.filter((r) => !r.agree && r.deliberate && !r.error).length;
  return { agree, total: results.length - deliberate, deliberate, cases: results.length };
}

export function writeReport(file, report) {
  writeFileSync(file, `${JSON.stringify(report, null, 1)}\n`);
}
