/**
 * [G-TEST-1] `hookwerk test --record N`: the last N journal entries written out as cases, the
 * expectation being what the agent was answered then — to pin today's behaviour before a change.
 *
 * The journal keeps one entry per hook run; `hookwerk hook` puts the call on the first run of each
 * call (`RecordedCall`: the agent's event, its own input when at most MAX_RECORDED_INPUT_BYTES,
 * and the verdict read from the reply with the agent's reader). Only such calls can be replayed
 * honestly; everything else in the window is counted and named, never guessed: the further runs
 * of a call (one case stands for them), runs without a call (the MCP proxy's, runs recorded before
 * hookwerk kept calls, the runs of a call that answered after its deadline) and calls whose input
 * was too large to keep. Calls that ran no hook are not in the journal at all.
 */

import { tildePath } from '../core/tilde-path.ts';
import type { VerdictName } from '../dialects/agent/hook-agent.ts';
import { isHookAgentName } from '../dialects/hook-agents.ts';
import { MAX_RECORDED_INPUT_BYTES } from '../records/journal-entry.ts';
import { journalDir } from '../records/journal-segments.ts';
import { RunJournal } from '../records/run-journal.ts';

/** One case as a test file holds it. */
export interface RecordedCase {
  name: string;
  agent: string;
  event: string;
  input: Record<string, unknown>;
  expect: VerdictName;
}

export interface RecordedCases {
  /** The test file's value: `{"cases": [...]}`, oldest call first. */
  readonly file: { cases: RecordedCase[] };
  /** Journal entries read (at most N). */
  readonly entries: number;
  /** What was read and not written as a case, one line each. */
  readonly notes: readonly string[];
}

export function recordedCases(home: string, n: number): RecordedCases {
  const journal = tildePath(journalDir(home), home);
  const read = new RunJournal(journalDir(home)).read({ limit: n });
  const entries = [...read.entries].reverse();
  const cases: RecordedCase[] = [];
  const names = new Set<string>();
  let further = 0;
  let bare = 0;
  let large = 0;
  let foreign = 0;
  for (let i = 0; i < entries.length; ) {
    const entry = entries[i]!;
    const call = entry.call;
    if (call === undefined) {
      bare++;
      i++;
      continue;
    }
    const span = Math.min(call.runs, entries.length - i);
    further += span - 1;
    i += span;
    if (!isHookAgentName(entry.agent)) foreign++;
    else if (call.input === undefined) large++;
    else {
      const base = [entry.agent, call.event, entry.toolName, entry.at]
        .filter((p) => p !== undefined)
        .join(' ');
      let name = base;
      for (let k = 2; names.has(name); k++) name = `${base} #${k}`;
      names.add(name);
      cases.push({ name, agent: entry.agent, event: call.event, input: call.input, expect: call.answer });
    }
  }
  const notes: string[] = [
    `${cases.length} case${cases.length === 1 ? '' : 's'} from the last ${entries.length} journal entr${entries.length === 1 ? 'y' : 'ies'} (${journal})`,
  ];
  if (further > 0) notes.push(`${further} entries are further runs of those calls: each call is one case`);
  if (bare > 0)
    notes.push(
      `${bare} entries carry no call to replay (runs of the MCP proxy, runs recorded before hookwerk kept calls, further runs of an older call): not written`,
    );
  if (large > 0)
    notes.push(
      `${large} calls had an input larger than ${MAX_RECORDED_INPUT_BYTES} bytes, which the journal does not keep: not written`,
    );
  if (foreign > 0) notes.push(`${foreign} calls came from agents hookwerk test does not run: not written`);
  if (read.skipped > 0) notes.push(`${read.skipped} journal lines were not entries: skipped`);
  notes.push(...read.refused);
  return { file: { cases }, entries: entries.length, notes };
}
