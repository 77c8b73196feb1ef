/**
 * `uninstallAgent`: removes exactly what `installAgent` added [R-INST-1]. When the file is still
 * what install left (its record says so), it gets back the text it had before install, byte for
 * byte, or is removed if install created it. When something else changed it since, our entries
 * come out of the text as it is now (and the lists and `hooks` object install created, if they
 * are left empty); every other edit stays. A file hookwerk created and that holds nothing else
 * any more is removed, with the folders install created for it, when they are empty — unless it
 * is a symbolic link now (a dotfiles setup): a link is never deleted, our entries leave its target.
 */
import { lstatSync } from 'node:fs';
import path from 'node:path';
import { uninstallRequirementsToml } from './codex-requirements.ts';
import { finishUninstall } from './file-commit.ts';
import { parseHooks, readHookFile } from './hook-file.ts';
import { type InstallRecord, readInstallRecord, removeInstallRecord } from './install-record.ts';
import type { UninstallResult } from './install-result.ts';
import { type InstallTarget, type InstallTargetOptions, installTarget } from './install-target.ts';
import {
  containersOf,
  findOurEntries,
  holdsNothingElse,
  KEEP_NOTHING,
  type KeptContainers,
  removeOurEntries,
} from './our-entries.ts';
import { removeEmptyDirs } from './written-folders.ts';

export interface UninstallOptions extends InstallTargetOptions {
  /** Print the change, write nothing. */
  dryRun?: boolean;
}

export function uninstallAgent(opts: UninstallOptions): UninstallResult {
  const target = installTarget(opts);
  const { file, recordsDir, name } = target;
  // [T-MGD-2] Codex's administrator file is TOML: our block of text comes out.
  if (target.scope === 'system' && target.install.systemToml === true)
    return uninstallRequirementsToml(target, opts.dryRun === true);
  const read = readHookFile(file, target.install.events);
  const record = readInstallRecord(recordsDir, file);
  const base = {
    agent: name,
    scope: target.scope,
    file,
    warnings: [],
    dryRun: opts.dryRun === true,
  };
  if (read.original === undefined) {
    if (opts.dryRun !== true && record !== undefined) {
      removeInstallRecord(recordsDir, file);
      removeEmptyDirs(record.createdDirs);
    }
    return { ...base, changed: false, removed: false, restored: false, events: [], diff: '' };
  }
  const value = parseHooks(file, read.text, []).value;
  const found = new Set(findOurEntries(value, name).map((e) => e.event));
  // In the agent's order, then any other event an entry of ours was under.
  const events = [
    ...target.install.events.filter((e) => found.has(e)),
    ...[...found].filter((e) => !target.install.events.includes(e)),
  ];
  const restored = record !== undefined && record.after === read.original;
  const next = restored ? undefined : withoutOurs(target, read.text, value, record);
  let after: string | null = restored
    ? record.before
    : next === undefined
      ? read.original
      : next === null
        ? null
        : read.bom + next;
  // [R-INST-1] A symbolic link is never deleted (install never creates one): the file it points
  // to keeps everything but our entries.
  if (after === null && isSymlink(file))
    after = read.bom + removeOurEntries(read.text, value, name, KEEP_NOTHING).text;
  return finishUninstall(base, { recordsDir, original: read.original, after, record, restored, events });
}

/**
 * The text without our entries; `null`: remove the file (hookwerk made it, nothing else is in it);
 * `undefined`: none of ours is there.
 */
function withoutOurs(
  target: InstallTarget,
  text: string,
  value: Record<string, unknown>,
  record: InstallRecord | undefined,
): string | null | undefined {
  const removed = removeOurEntries(text, value, target.name, keptBy(target, record));
  if (removed.events.length === 0) return undefined;
  // Copilot's `hookwerk.json` is ours by its name, with a record or without.
  const ours = record !== undefined ? record.before === null : path.basename(target.file) === 'hookwerk.json';
  const left = parseHooks(target.file, removed.text, []).value;
  return ours && holdsNothingElse(left, target.install.newFile ?? {}) ? null : removed.text;
}

/** The containers the file had before install, from the record; none without one. */
function keptBy(target: InstallTarget, record: InstallRecord | undefined): KeptContainers {
  if (record?.before == null) return KEEP_NOTHING;
  try {
    return containersOf(parseHooks(target.file, record.before.replace(/^\uFEFF/, ''), []).value);
  } catch {
    return KEEP_NOTHING;
  }
}

function isSymlink(file: string): boolean {
  try {
    return lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}
