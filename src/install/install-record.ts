/**
 * What `install` remembers of a file it changed [R-INST-1], so `uninstall` can put it back byte
 * for byte: `<home>/.hookwerk/installs/<sha-256 of the file's path>.json` (for `--system`,
 * `/etc/hookwerk/installs/`, root's alone [T-MGD-2]) holding the file's text
 * before install (`null`: install created it), the text install left, and the folders it made.
 * A record is only ever a shortcut: when the file is no longer what install left, uninstall
 * removes our entries instead, and a record that cannot be read counts as none.
 */
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../core/atomic-write.ts';
import { parseBoundedJson } from '../core/json-text.ts';
import { readSourceFile } from '../core/read-source.ts';

const recordSchema = z.object({
  version: z.literal(1),
  file: z.string(),
  agent: z.string(),
  before: z.string().nullable(),
  after: z.string(),
  createdDirs: z.array(z.string()),
});

export type InstallRecord = z.infer<typeof recordSchema>;

/** Two copies of a settings file, with room to spare; a bigger record is not ours. */
const MAX_RECORD_BYTES = 8 * 1024 * 1024;

/** The records of a user's and a project's installs: `<home>/.hookwerk/installs`. */
export function userInstallsDir(home: string): string {
  return path.join(home, '.hookwerk', 'installs');
}

/** [T-MGD-2] The records of `install --system`, in the managed policy's root-owned folder. */
export const SYSTEM_INSTALLS_DIR = '/etc/hookwerk/installs';

/** The record of `file` in `dir` (`userInstallsDir` or `SYSTEM_INSTALLS_DIR`). */
export function recordFileIn(dir: string, file: string): string {
  const key = createHash('sha256').update(path.resolve(file)).digest('hex');
  return path.join(dir, `${key}.json`);
}

/** The record of a user's or project's install of `file`. */
export function installRecordFile(home: string, file: string): string {
  return recordFileIn(userInstallsDir(home), file);
}

export function readInstallRecord(dir: string, file: string): InstallRecord | undefined {
  const read = readSourceFile(recordFileIn(dir, file), MAX_RECORD_BYTES);
  if (read.kind !== 'text') return undefined;
  const parsed = parseBoundedJson(read.text);
  if (!parsed.ok) return undefined;
  const record = recordSchema.safeParse(parsed.value);
  return record.success && record.data.file === path.resolve(file) ? record.data : undefined;
}

export function writeInstallRecord(dir: string, record: InstallRecord): void {
  writeFileAtomic(recordFileIn(dir, record.file), `${JSON.stringify(record, null, 1)}\n`, {
    mode: 0o600,
    privateDir: true,
  });
}

export function removeInstallRecord(dir: string, file: string): void {
  rmSync(recordFileIn(dir, file), { force: true });
}
