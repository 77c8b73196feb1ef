import type { RunRecord, TruncatableField } from './run-record.ts';

/**
 * (issue 11) Largest stored size of one text field of a run record, in bytes of UTF-8. The run log
 * keeps 1000 records: without a cap, hooks answering 1 MiB of `additionalContext` held ~1 GB.
 */
export const MAX_RECORD_FIELD_BYTES = 8192;

const FIELDS: readonly TruncatableField[] = [
  'hook',
  'sessionId',
  'toolName',
  'agent',
  'reason',
  'stderrTail',
  'additionalContext',
];
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * The record as stored (run log, metrics, bus): a text field over `maxBytes` is cut at a
 * character boundary and its original size kept in `truncated`. Returns the record itself when
 * nothing is cut (the usual case: no copy on the hot path), so the caller's record (a decision's
 * `runs`) stays whole either way.
 */
export function truncateRecord(record: RunRecord, maxBytes = MAX_RECORD_FIELD_BYTES): RunRecord {
  // The usual record, every field short, by named reads (a loop over field names costs a keyed
  // read each, on every run): the fields of FIELDS, all of them. UTF-8 takes at most 3 bytes per
  // UTF-16 unit.
  const units = maxBytes / 3;
  if (
    fits(record.hook, units) &&
    fits(record.sessionId, units) &&
    fits(record.reason, units) &&
    fits(record.stderrTail, units) &&
    fits(record.additionalContext, units) &&
    fits(record.toolName, units) &&
    fits(record.agent, units)
  )
    return record;
  let out: RunRecord | undefined;
  let sizes: Partial<Record<TruncatableField, number>> | undefined;
  for (const field of FIELDS) {
    const value = record[field];
    // UTF-8 takes at most 3 bytes per UTF-16 unit: shorter strings fit without being measured.
    if (value === undefined || value.length * 3 <= maxBytes) continue;
    const bytes = Buffer.byteLength(value, 'utf8');
    if (bytes <= maxBytes) continue;
    sizes ??= { ...record.truncated };
    out ??= { ...record, truncated: sizes };
    out[field] = cut(value, maxBytes);
    sizes[field] = bytes;
  }
  return out ?? record;
}

function fits(value: string | undefined, units: number): boolean {
  return value === undefined || value.length <= units;
}

/** The longest prefix of `text` within `maxBytes` of UTF-8, as a new string. */
export function cut(text: string, maxBytes: number): string {
  const buf = new Uint8Array(maxBytes);
  // encodeInto writes whole characters only; decoding makes a fresh string (a slice() of the
  // original could keep the whole original alive).
  const { written } = encoder.encodeInto(text, buf);
  return decoder.decode(buf.subarray(0, written));
}
