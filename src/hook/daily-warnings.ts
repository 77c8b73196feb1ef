/**
 * [G-FAIL-4] Warnings `hookwerk hook` gives once a day, not on every call: which were given today
 * is kept in `<home>/.hookwerk/warned-today.json` (`{"day": "YYYY-MM-DD", "keys": [...]}`, at
 * most 64 keys, reset each day; read bounded, written atomically, mode 0600). A stamp that cannot
 * be read counts as none (the warning is given); one that cannot be written costs a repeat.
 */
import path from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../core/atomic-write.ts';
import { parseBoundedJson } from '../core/json-text.ts';
import { readSourceFile } from '../core/read-source.ts';

const MAX_KEYS = 64;
const MAX_STAMP_BYTES = 64 * 1024;

const stampSchema = z.object({ day: z.string(), keys: z.array(z.string()).max(MAX_KEYS) });

export function dailyStampFile(home: string): string {
  return path.join(home, '.hookwerk', 'warned-today.json');
}

/** True the first time `key` is asked about on the day of `now` (and it is stamped); false after. */
export function firstTimeToday(home: string, key: string, now: Date = new Date()): boolean {
  const file = dailyStampFile(home);
  const day = now.toISOString().slice(0, 10);
  const keys = keysOf(file, day);
  if (keys.includes(key)) return false;
  const next = [...keys, key].slice(-MAX_KEYS);
  try {
    writeFileAtomic(file, `${JSON.stringify({ day, keys: next })}\n`, { mode: 0o600, privateDir: true });
  } catch {
    // Not stamped: the warning comes again on the next call, which is better than never.
  }
  return true;
}

function keysOf(file: string, day: string): string[] {
  const read = readSourceFile(file, MAX_STAMP_BYTES);
  if (read.kind !== 'text') return [];
  const parsed = parseBoundedJson(read.text);
  if (!parsed.ok) return [];
  const stamp = stampSchema.safeParse(parsed.value);
  return stamp.success && stamp.data.day === day ? stamp.data.keys : [];
}
