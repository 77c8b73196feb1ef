/** Which runs and decisions are the gate's, and what each decided: no DOM here (unit-tested in node). */
import { type DecisionNote, GATE_DIALECT_NAMES, type RunRecord } from './schemas.ts';

const SHOWN = 50;

const GATE_DIALECTS: ReadonlySet<string> = new Set(GATE_DIALECT_NAMES);

/** A gate run: one of a gate dialect, or anything that decided or denied. */
export function isGateRecord(r: RunRecord): boolean {
  return (
    GATE_DIALECTS.has(r.dialect ?? '') ||
    r.decision !== undefined ||
    r.permission !== undefined ||
    r.outcome === 'deny'
  );
}

/** What a gate run decided, in one word. */
export function verdictOf(r: RunRecord): string {
  if (r.outcome === 'skipped_untrusted') return 'skipped';
  return r.permission ?? r.decision ?? (r.outcome === 'deny' || r.failed === 'closed' ? 'deny' : 'allow');
}

type GateItem = { kind: 'run'; r: RunRecord } | { kind: 'none'; d: DecisionNote };

/**
 * The newest gate runs and, in their place by time, the decides that ran no hook (issue 23: a
 * decide with zero runs is still a decision; its runs would show it otherwise).
 */
export function gateItems(records: readonly RunRecord[], decisions: readonly DecisionNote[]): GateItem[] {
  const runs = records.filter(isGateRecord).slice(0, SHOWN);
  const none = decisions.filter((d) => d.runs === 0).slice(0, SHOWN);
  const items: GateItem[] = [];
  let i = 0;
  let j = 0;
  // Both lists are newest first: merged by time.
  while (items.length < SHOWN && (i < runs.length || j < none.length)) {
    const r = runs[i];
    const d = none[j];
    if (d === undefined || (r !== undefined && Date.parse(r.at) >= Date.parse(d.at))) {
      if (r !== undefined) items.push({ kind: 'run', r });
      i++;
    } else {
      items.push({ kind: 'none', d });
      j++;
    }
  }
  return items;
}

/**
 * (issue 31) Who and what a decision was about, in one line: the tool (or "no tool" for events
 * that name none) and the session, as the run records and decision notes carry them.
 */
export function subjectOf(d: { toolName?: string | undefined; sessionId?: string | undefined }): string {
  return `${d.toolName ?? 'no tool'} · session ${d.sessionId ?? 'unknown'}`;
}
