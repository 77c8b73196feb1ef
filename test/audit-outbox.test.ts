/**
 * [F-AUD-1] The journal read as the audit outbox (real journal files, no NATS): records after a
 * cursor in write order, in bounded batches; the records of a segment rotated out unsent
 * reported as a gap, and no gap when everything in the dropped segments had been sent.
 */
import { appendFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readOutbox } from '../src/fleet/audit-outbox.ts';
import type { JournalEntry } from '../src/records/journal-entry.ts';
import { listSegments, segmentFile } from '../src/records/journal-segments.ts';
import { RunJournal } from '../src/records/run-journal.ts';
import { tempDir } from './helpers.ts';

function entry(i: number, pad = 0): JournalEntry {
  return {
    hook: `h${i}`,
    source: 'test',
    event: 'PreToolUse',
    outcome: 'ok',
    durationMs: 1,
    at: new Date().toISOString(),
    agent: 'claude',
    ...(pad > 0 ? { reason: 'x'.repeat(pad) } : {}),
  };
}

describe('the audit outbox [F-AUD-1]', () => {
  it('[F-AUD-1] reads the records after the cursor in write order, at most a batch at a time, and skips torn lines', () => {
    const dir = tempDir('hw-outbox-');
    const journal = new RunJournal(dir);
    journal.append([entry(1), entry(2), entry(3)]);
    const first = readOutbox(dir, undefined, 2);
    expect(first.records.map((r) => JSON.parse(r.line).hook)).toEqual(['h1', 'h2']);
    expect(first.gap).toBeUndefined();
    const second = readOutbox(dir, first.end, 2);
    expect(second.records.map((r) => JSON.parse(r.line).hook)).toEqual(['h3']);
    // A line being written (no newline yet) is left for later; nothing more now.
    appendFileSync(segmentFile(dir, 1), '{"torn":');
    const third = readOutbox(dir, second.end, 2);
    expect(third.records).toEqual([]);
    expect(third.end).toEqual(second.end);
    // The next append ends the torn line: it is passed over, the record after it is read.
    journal.append([entry(4)]);
    const fourth = readOutbox(dir, third.end, 10);
    expect(fourth.records.map((r) => JSON.parse(r.line).hook)).toEqual(['h4']);
    // The torn line, and the chain's `foreign` marker the writer left for it: neither is a run.
    expect(fourth.skipped).toBe(2);
  });

  it('[F-AUD-1] a segment rotated out before its records were sent is a gap; one whose records were all sent is not', () => {
    const small = { maxBytes: 4096, segmentBytes: 1024 };
    const dir = tempDir('hw-outbox-gap-');
    const journal = new RunJournal(dir, small);
    journal.append([entry(1)]);
    const sent = readOutbox(dir, undefined, 10);
    journal.append([entry(2)]);
    for (let i = 0; i < 6; i++) journal.append([entry(10 + i, 1500)]);
    expect(listSegments(dir)[0]).toBeGreaterThan(1);
    const after = readOutbox(dir, sent.end, 100);
    expect(after.gap).toMatchObject({ fromSegment: 1, afterHash: sent.records[0]?.hash });
    expect(after.records.map((r) => JSON.parse(r.line).hook)).not.toContain('h2');

    // Only segment 1 dropped, and all of it had been sent: no gap.
    const only = tempDir('hw-outbox-only-');
    const j3 = new RunJournal(only, { maxBytes: 2048, segmentBytes: 1024 });
    j3.append([entry(1, 1500)]);
    const sentAll = readOutbox(only, undefined, 10);
    j3.append([entry(2, 1500)]);
    expect(listSegments(only)).toEqual([2]);
    const none = readOutbox(only, sentAll.end, 10);
    expect(none.gap).toBeUndefined();
    expect(none.records.map((r) => JSON.parse(r.line).hook)).toEqual(['h2']);
  });
});
