import type { JournalEntry, JournalField } from './journal-entry.ts';
import { cut, MAX_RECORD_FIELD_BYTES, truncateRecord } from './truncate-record.ts';

/**
 * The entry as the journal stores it: the run record's text fields cut as the run log cuts them
 * (`truncateRecord`), and so are `agent`, `toolName` and `event`, which come from the agent's
 * input. Returns the entry itself when nothing is cut (the usual case).
 */
export function truncateEntry(entry: JournalEntry, maxBytes = MAX_RECORD_FIELD_BYTES): JournalEntry {
  const { agent, toolName, ...run } = entry;
  const record = truncateRecord(run, maxBytes);
  let sizes: Partial<Record<JournalField, number>> | undefined;
  const name = (field: 'agent' | 'toolName' | 'event', value: string): string => {
    // UTF-8 takes at most 3 bytes per UTF-16 unit: shorter strings fit without being measured.
    if (value.length * 3 <= maxBytes) return value;
    const bytes = Buffer.byteLength(value, 'utf8');
    if (bytes <= maxBytes) return value;
    sizes ??= { ...record.truncated };
    sizes[field] = bytes;
    return cut(value, maxBytes);
  };
  const kept = {
    ...record,
    event: name('event', record.event),
    agent: name('agent', agent),
    ...(toolName !== undefined ? { toolName: name('toolName', toolName) } : {}),
  };
  if (sizes !== undefined) return { ...kept, truncated: sizes };
  return record === run ? entry : kept;
}
