/**
 * [F-AUD-1] How far the audit stream has acknowledged this home's journal: the segment and byte
 * offset just past the last acknowledged record, and that record's hash. Kept in
 * `<home>/.hookwerk/fleet/audit-cursor.json`, replaced atomically after each acknowledged batch,
 * so a restarted daemon sends on from there (nothing twice, nothing skipped).
 */
import path from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../core/atomic-write.ts';
import { readSourceFile } from '../core/read-source.ts';
import { fleetStoreOf } from './fleet-store.ts';

export interface AuditCursor {
  /** The journal segment the next record is read from. */
  seq: number;
  /** Bytes of that segment already sent (always at a line's end). */
  offset: number;
  /** The hash of the last record acknowledged; null before the first. */
  hash: string | null;
}

const cursorSchema = z.object({
  seq: z.number().int().positive(),
  offset: z.number().int().nonnegative(),
  hash: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .nullable(),
});

export function auditCursorFile(home: string): string {
  return path.join(fleetStoreOf(home).dir, 'audit-cursor.json');
}

/**
 * The cursor kept in `file`; undefined when there is none yet. One that is unreadable or not in
 * this shape is reported through `say` and ignored: the forwarder starts at the journal's oldest
 * record again, and the stream drops what it already holds (same `Nats-Msg-Id`).
 */
export function readAuditCursor(file: string, say: (line: string) => void): AuditCursor | undefined {
  const read = readSourceFile(file, 4096);
  if (read.kind === 'missing') return undefined;
  if (read.kind !== 'text') {
    say(`audit cursor ${file} ${read.message}: starting from the oldest record in the journal`);
    return undefined;
  }
  let value: unknown;
  try {
    value = JSON.parse(read.text);
  } catch {
    value = undefined;
  }
  const parsed = cursorSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  say(`audit cursor ${file} is not a cursor: starting from the oldest record in the journal`);
  return undefined;
}

export function writeAuditCursor(file: string, cursor: AuditCursor): void {
  writeFileAtomic(file, `${JSON.stringify(cursor)}\n`, {
    privateDir: true,
    followSymlink: false,
    mode: 0o600,
  });
}
