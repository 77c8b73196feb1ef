/**
 * The last step of `install` and `uninstall` [R-INST-1, T-MGD-2], shared by the JSON hook files
 * and Codex's TOML requirements file: the record and the file written (or removed) in the one
 * order that stays safe when interrupted, and never over an edit made meanwhile.
 */
import { mkdirSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../core/atomic-write.ts';
import { HookFileError } from './hook-file-error.ts';
import { type InstallRecord, removeInstallRecord, writeInstallRecord } from './install-record.ts';
import type { UninstallResult } from './install-result.ts';
import type { InstallTarget } from './install-target.ts';
import { unifiedDiff } from './line-diff.ts';
import { unchangedSince } from './unchanged-since.ts';
import { managedFolder, removeEmptyDirs } from './written-folders.ts';

/** What install decided: the file's text before (`null`: no file) and after, and the folders it creates. */
export interface InstalledText {
  readonly original: string | undefined;
  readonly before: string | null;
  readonly after: string;
  readonly createdDirs: string[];
}

/** The record first (a record the file never matched is harmless), then the file, atomically. */
export function commitInstall(target: InstallTarget, text: InstalledText): void {
  const { file, recordsDir, name } = target;
  const { original, before, after, createdDirs } = text;
  const record: InstallRecord = {
    version: 1,
    file: path.resolve(file),
    agent: name,
    before,
    after,
    createdDirs,
  };
  for (const dir of [...createdDirs].reverse()) mkdirSync(dir, { recursive: true });
  if (target.scope === 'system') managedFolder();
  writeInstallRecord(recordsDir, record);
  const written = writeFileAtomic(file, after, { beforeRename: () => unchangedSince(file, original) });
  if (!written)
    throw new HookFileError(file, '$', 'the file changed while install was writing it; run install again');
}

/** What uninstall decided: the text on disk, what it becomes (`null`: no file), and what it says. */
export interface UninstallChange {
  readonly recordsDir: string;
  readonly original: string;
  readonly after: string | null;
  readonly record: InstallRecord | undefined;
  /** The text is the record's "before" (install's change taken back whole). */
  readonly restored: boolean;
  readonly events: string[];
}

/**
 * Uninstall's result; unless `dryRun`, the file removed (`after` null, with the folders install
 * created for it, when empty) or rewritten when changed, then its record dropped.
 */
export function finishUninstall(
  base: Omit<UninstallResult, 'changed' | 'removed' | 'restored' | 'events' | 'diff'>,
  change: UninstallChange,
): UninstallResult {
  const { file } = base;
  const { recordsDir, original, after, record } = change;
  const changed = after !== original;
  const result: UninstallResult = {
    ...base,
    changed,
    removed: after === null,
    restored: change.restored && after !== null,
    events: change.events,
    diff: unifiedDiff(file, original, after),
  };
  if (base.dryRun) return result;
  if (after === null) {
    unlinkSync(file);
    removeEmptyDirs(record?.createdDirs ?? []);
  } else if (changed) {
    const written = writeFileAtomic(file, after, { beforeRename: () => unchangedSince(file, original) });
    if (!written)
      throw new HookFileError(
        file,
        '$',
        'the file changed while uninstall was writing it; run uninstall again',
      );
  }
  if (record !== undefined) removeInstallRecord(recordsDir, file);
  return result;
}
