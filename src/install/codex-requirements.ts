/**
 * [T-MGD-2] `install --agent codex --system` / `uninstall`: Codex's administrator file is TOML,
 * `/etc/codex/requirements.toml`, whose `[[hooks.<Event>]]` tables are managed hooks (Codex runs
 * them for every user without its trust review; docs/managed.md). hookwerk's entries go in as
 * one block of text between two comment lines (toml-block.ts), so every key, comment and blank
 * line of the administrator's stays as it was; smol-toml parses the file before and after, and
 * the change is written only when the result parses and says exactly what the file said plus
 * our entries. Anything else is refused with file and one-line reason, nothing written: a file
 * that is not TOML (Codex itself would not start), `hooks` written inline (our tables cannot be
 * added to it), an entry calling hookwerk outside our block, or our block edited by hand.
 */
import { lstatSync } from 'node:fs';
import path from 'node:path';
import { parse, TomlError } from 'smol-toml';
import { MAX_SOURCE_BYTES } from '../consent/project-surface.ts';
import { readSourceFile } from '../core/read-source.ts';
import { agentNotes } from './agent-notes.ts';
import { commitInstall, finishUninstall } from './file-commit.ts';
import { HookFileError } from './hook-file-error.ts';
import { readInstallRecord, removeInstallRecord } from './install-record.ts';
import type { InstallResult, UninstallResult } from './install-result.ts';
import type { InstallTarget } from './install-target.ts';
import { unifiedDiff } from './line-diff.ts';
import { findOurEntries } from './our-entries.ts';
import { findBlocks, renderBlock, type TomlBlock, withBlockAppended, withoutBlocks } from './toml-block.ts';
import { isTable, sameToml, withoutOurGroups } from './toml-value.ts';
import { missingDirs, removeEmptyDirs } from './written-folders.ts';

const BOM = '\uFEFF';

/** The file as read: its text, what it says, and hookwerk's blocks in it. */
interface TomlFile {
  /** The exact text on disk; undefined: no file. */
  readonly original: string | undefined;
  readonly bom: string;
  /** The text without a byte-order mark. */
  readonly text: string;
  readonly eol: string;
  readonly value: Record<string, unknown>;
  readonly blocks: readonly TomlBlock[];
  /** The text without our blocks (what uninstall leaves), checked to hold everything else. */
  readonly outside: string;
}

/** What install writes: one entry per event, in the agent's order. */
export interface TomlInstallPlan {
  readonly target: InstallTarget;
  readonly entries: ReadonlyArray<readonly [string, unknown]>;
  readonly command: string;
  readonly timeouts: Readonly<Record<string, number>>;
  readonly warnings: readonly string[];
  readonly dryRun: boolean;
}

export function installRequirementsToml(plan: TomlInstallPlan): InstallResult {
  const { target } = plan;
  const { file, name } = target;
  const read = readTomlFile(file, name, target.install.events);
  const ours: Record<string, unknown[]> = {};
  for (const [event, entry] of plan.entries) ours[event] = [entry];
  const block = renderBlock(
    { hooks: ours },
    read.eol,
    `managed hooks written by "hookwerk install --agent ${name} --system"; "hookwerk uninstall --agent ${name} --system" takes this block out`,
  );
  const first = read.blocks[0];
  const unchangedText = read.blocks.length === 1 && first?.text === block;
  const text = unchangedText
    ? read.text
    : first === undefined
      ? withBlockAppended(read.text, block, read.eol)
      : spliceBlock(read.text, first, block);
  if (!unchangedText) checkInstalled(file, name, read, text, plan.entries);
  const before = blockEntries(read.blocks, name);
  const events: string[] = [];
  const updated: string[] = [];
  const unchanged: string[] = [];
  for (const [event, entry] of plan.entries) {
    const had = before.get(event);
    if (had === undefined) events.push(event);
    else if (had.length === 1 && sameToml(had[0], entry)) unchanged.push(event);
    else updated.push(event);
  }
  const after = read.bom + text;
  const changed = after !== read.original;
  const notes = agentNotes(name, {
    scope: target.scope,
    file,
    value: parseToml(file, text),
    projectDir: undefined,
    home: target.home,
    env: target.env,
  });
  if (changed && !plan.dryRun) writeInstalled(target, read, after);
  return {
    agent: name,
    scope: target.scope,
    file,
    created: read.original === undefined,
    changed,
    events,
    updated,
    unchanged,
    replaced: [],
    command: plan.command,
    timeouts: plan.timeouts,
    warnings: [...plan.warnings, ...notes.warnings],
    notes: notes.notes,
    diff: changed ? unifiedDiff(file, read.original ?? null, after) : '',
    dryRun: plan.dryRun,
  };
}

export function uninstallRequirementsToml(target: InstallTarget, dryRun: boolean): UninstallResult {
  const { file, recordsDir, name } = target;
  const read = readTomlFile(file, name, target.install.events);
  const record = readInstallRecord(recordsDir, file);
  const base = { agent: name, scope: target.scope, file, warnings: [], dryRun };
  if (read.original === undefined) {
    if (!dryRun && record !== undefined) {
      removeInstallRecord(recordsDir, file);
      removeEmptyDirs(record.createdDirs);
    }
    return { ...base, changed: false, removed: false, restored: false, events: [], diff: '' };
  }
  const events = [...blockEntries(read.blocks, name).keys()];
  const restored = record !== undefined && record.after === read.original;
  let after: string | null = restored
    ? record.before
    : read.blocks.length === 0
      ? read.original
      : read.outside.trim() === '' && record?.before === null
        ? null
        : read.bom + read.outside;
  // [R-INST-1] A symbolic link is never deleted (install never makes one): its target is emptied.
  if (after === null && isSymlink(file)) after = read.bom + read.outside;
  return finishUninstall(base, { recordsDir, original: read.original, after, record, restored, events });
}

/** Reads, parses and checks `file`; throws HookFileError when install must not change it. */
function readTomlFile(file: string, agent: string, events: readonly string[]): TomlFile {
  const read = readSourceFile(file, MAX_SOURCE_BYTES);
  if (read.kind === 'refused') throw new HookFileError(file, '$', `the file ${read.message}`);
  if (read.kind === 'missing')
    return { original: undefined, bom: '', text: '', eol: '\n', value: {}, blocks: [], outside: '' };
  // U+FFFD is what bytes that are not UTF-8 decode to: writing the text back would change them.
  if (read.text.includes('\uFFFD')) throw new HookFileError(file, '$', 'the file is not UTF-8 text');
  const bom = read.text.startsWith(BOM) ? BOM : '';
  const text = read.text.slice(bom.length);
  const value = parseToml(file, text);
  checkShape(file, value, events);
  const blocks = findBlocks(text);
  if (typeof blocks === 'string')
    throw new HookFileError(file, '$', `${blocks}: mend or remove it by hand, then run this again`);
  const outside = withoutBlocks(text, blocks);
  const left = blocks.length === 0 ? value : parsedOrUndefined(outside);
  // Without our block the file must say all it says but our entries: else the block holds
  // something of the administrator's, or a key after it belongs to its last table.
  if (left === undefined || !sameToml(withoutOurGroups(value, agent), withoutOurGroups(left, agent)))
    throw new HookFileError(
      file,
      '$',
      "hookwerk's block holds more than hookwerk's entries, or what follows it reads as part of it (edited by hand?): move anything of yours out of it, then run this again",
    );
  const stray = findOurEntries(left, agent)[0];
  if (stray !== undefined)
    throw new HookFileError(
      file,
      `hooks.${stray.event}`,
      `an entry calling hookwerk hook --agent ${agent} outside hookwerk's block (written by hand?): take it out, then run this again`,
    );
  return {
    original: read.text,
    bom,
    text,
    eol: text.includes('\r\n') ? '\r\n' : '\n',
    value,
    blocks,
    outside,
  };
}

function parsedOrUndefined(text: string): Record<string, unknown> | undefined {
  try {
    return parse(text, { integersAsBigInt: 'asNeeded' });
  } catch {
    return undefined;
  }
}

/** The parsed text; not TOML: HookFileError with the parser's reason and place. */
function parseToml(file: string, text: string): Record<string, unknown> {
  try {
    return parse(text, { integersAsBigInt: 'asNeeded' });
  } catch (e) {
    if (!(e instanceof TomlError)) throw e;
    const reason = (e.message.split('\n')[0] ?? '').replace(/^Invalid TOML document: /, '');
    throw new HookFileError(file, '$', `not TOML (${reason}, at line ${e.line}, column ${e.column})`);
  }
}

/** `hooks` a table, and each of `events` under it an array of tables, as Codex reads them. */
function checkShape(file: string, value: Record<string, unknown>, events: readonly string[]): void {
  const hooks = value.hooks;
  if (hooks === undefined) return;
  if (!isTable(hooks)) throw new HookFileError(file, 'hooks', 'must be a table of hook events');
  for (const event of events) {
    const list = hooks[event];
    if (list !== undefined && (!Array.isArray(list) || !list.every(isTable)))
      throw new HookFileError(file, `hooks.${event}`, `must be [[hooks.${event}]] tables`);
  }
}

/**
 * The new text must parse, say what the file said (our entries aside), and hold exactly one
 * entry of ours per event, the one planned; else the edit is refused (nothing written).
 */
function checkInstalled(
  file: string,
  agent: string,
  read: TomlFile,
  text: string,
  entries: ReadonlyArray<readonly [string, unknown]>,
): void {
  const refuse = () =>
    new HookFileError(
      file,
      'hooks',
      'install\'s [[hooks.<event>]] tables cannot be added to it as it is written (a "hooks" or event list written inline?): write them as [hooks] and [[hooks.<event>]] tables, then run install again',
    );
  const after = parsedOrUndefined(text);
  if (after === undefined) throw refuse();
  if (!sameToml(withoutOurGroups(after, agent), withoutOurGroups(read.value, agent))) throw refuse();
  const found = findOurEntries(after, agent);
  const hooks = isTable(after.hooks) ? after.hooks : {};
  for (const [event, entry] of entries) {
    const list = hooks[event];
    const mine = found.filter((f) => f.event === event);
    const index = mine[0]?.at[2];
    if (
      mine.length !== 1 ||
      !Array.isArray(list) ||
      typeof index !== 'number' ||
      !sameToml(list[index], entry)
    )
      throw refuse();
  }
}

/** `text` with `block` where `first` was, and any later block of ours taken out. */
function spliceBlock(text: string, first: TomlBlock, block: string): string {
  const rest = text.slice(first.end);
  const later = findBlocks(rest);
  return text.slice(0, first.start) + block + (typeof later === 'string' ? rest : withoutBlocks(rest, later));
}

/** Our entries in the blocks, by event. */
function blockEntries(blocks: readonly TomlBlock[], agent: string): Map<string, unknown[]> {
  const out = new Map<string, unknown[]>();
  for (const b of blocks) {
    const value = parsedOrUndefined(b.text);
    if (value === undefined) continue;
    const hooks = isTable(value.hooks) ? value.hooks : {};
    for (const e of findOurEntries(value, agent)) {
      const list = hooks[e.event];
      const index = e.at[2];
      if (Array.isArray(list) && typeof index === 'number')
        out.set(e.event, [...(out.get(e.event) ?? []), list[index]]);
    }
  }
  return out;
}

/** What "before" is for the record (file-commit.ts writes it and the file). */
function writeInstalled(target: InstallTarget, read: TomlFile, after: string): void {
  const { file, recordsDir } = target;
  const previous = readInstallRecord(recordsDir, file);
  let before: string | null = read.original ?? null;
  let createdDirs: string[] = [];
  if (previous !== undefined && previous.after === read.original) {
    // Ours again on top of ours: "before" is still the file before the first install.
    before = previous.before;
    createdDirs = previous.createdDirs;
  } else if (read.original !== undefined) {
    // A block of ours without a record that matches: "before" is the file without it.
    if (read.blocks.length > 0)
      before = read.outside.trim() === '' && previous?.before === null ? null : read.bom + read.outside;
  } else createdDirs = missingDirs(path.dirname(file));
  commitInstall(target, { original: read.original, before, after, createdDirs });
}

function isSymlink(file: string): boolean {
  try {
    return lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}
