/**
 * `installAgent`: adds to an agent's own hook file one entry per event that calls
 * `hookwerk hook --agent A` [R-INST-1]. Everything else in the file stays as it was (entries,
 * comments, formatting); our entries already there are kept, or updated in place when the
 * command line changed (twice = once); the write is atomic and keeps the file's mode. A file
 * that cannot be changed safely is refused (HookFileError) before anything is written.
 */
import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { applyEdits, findNodeAtLocation, modify, type Node } from 'jsonc-parser';
import { writeFileAtomic } from '../core/atomic-write.ts';
import { agentNotes } from './agent-notes.ts';
import { hookCommandLine } from './hook-command.ts';
import { type HookFileText, parseHooks, readHookFile } from './hook-file.ts';
import { HookFileError } from './hook-file-error.ts';
import { type InstallRecord, readInstallRecord, writeInstallRecord } from './install-record.ts';
import { type InstallTarget, type InstallTargetOptions, installTarget } from './install-target.ts';
import { addMember, appendElement, type TextStyle } from './json-edits.ts';
import { unifiedDiff } from './line-diff.ts';
import { findOurEntries, holdsNothingElse, KEEP_NOTHING, removeOurEntries } from './our-entries.ts';
import { policiesIncluding, policyFiles } from './policy-include.ts';
import { unchangedSince } from './unchanged-since.ts';

export interface InstallOptions extends InstallTargetOptions {
  /** Print the change, write nothing. */
  dryRun?: boolean;
  /** The command line of an entry (default `hookCommandLine`); `event` is set for agents that need `--event`. */
  command?: (agent: string, event: string | undefined) => string;
}

export interface InstallResult {
  readonly agent: string;
  readonly scope: 'project' | 'user';
  readonly file: string;
  /** The file did not exist (and was created, unless `dryRun`). */
  readonly created: boolean;
  /** The file's text changed (or would have, with `dryRun`). */
  readonly changed: boolean;
  /** Events that got our entry. */
  readonly events: string[];
  /** Events whose entry of ours had another command line, now updated. */
  readonly updated: string[];
  /** Events that had our entry already, as it is. */
  readonly unchanged: string[];
  /** The entries' command line (for agents that need it, each adds `--event <its event>`). */
  readonly command: string;
  /** Why the entries might not run as meant (hooks that run twice, switches that turn them off). */
  readonly warnings: string[];
  /** What the user must still do before the agent runs them. */
  readonly notes: string[];
  /** A unified diff of the change (`''`: none). */
  readonly diff: string;
  readonly dryRun: boolean;
}

export function installAgent(opts: InstallOptions): InstallResult {
  const target = installTarget(opts);
  const { install, name, file } = target;
  const read = readHookFile(file, install.events);
  const commandOf = (event: string) =>
    (opts.command ?? hookCommandLine)(name, install.needsEventFlag ? event : undefined);
  let text = read.text;
  if (read.blank)
    for (const [key, value] of Object.entries(install.newFile ?? {}))
      text = addMember(text, parseHooks(file, text, []).root, key, value, read.style);
  const events: string[] = [];
  const updated: string[] = [];
  const unchanged: string[] = [];
  for (const event of install.events) {
    const parsed = parseHooks(file, text, install.events);
    const ours = findOurEntries(parsed.value, name).find((e) => e.event === event);
    const command = commandOf(event);
    if (ours === undefined) {
      text = addEntry(text, parsed.root, event, install.entry(event, command), read.style);
      events.push(event);
    } else if (ours.command !== command) {
      text = applyEdits(text, modify(text, ours.commandAt, command, {}));
      updated.push(event);
    } else unchanged.push(event);
  }
  const after = read.bom + text;
  const changed = after !== read.original;
  const value = parseHooks(file, text, install.events).value;
  const notes = agentNotes(name, {
    scope: target.scope,
    file,
    value,
    projectDir: target.projectDir,
    home: target.home,
    env: target.env,
  });
  const result: InstallResult = {
    agent: name,
    scope: target.scope,
    file,
    created: read.original === undefined,
    changed,
    events,
    updated,
    unchanged,
    command: (opts.command ?? hookCommandLine)(name, undefined),
    warnings: [...warningsFor(target, read), ...notes.warnings],
    notes: notes.notes,
    diff: changed ? unifiedDiff(file, read.original ?? null, after) : '',
    dryRun: opts.dryRun === true,
  };
  if (changed && opts.dryRun !== true) write(target, read, after);
  return result;
}

/** Appends one entry to `hooks.<event>`, creating the list and `hooks` when missing. */
function addEntry(text: string, root: Node, event: string, entry: unknown, style: TextStyle): string {
  const hooks = findNodeAtLocation(root, ['hooks']);
  if (hooks === undefined) return addMember(text, root, 'hooks', { [event]: [entry] }, style);
  const list = findNodeAtLocation(hooks, [event]);
  if (list === undefined) return addMember(text, hooks, event, [entry], style);
  return appendElement(text, list, entry, style);
}

/** The record first (a record the file never matched is harmless), then the file, atomically. */
function write(target: InstallTarget, read: HookFileText, after: string): void {
  const { file, home, name } = target;
  const previous = readInstallRecord(home, file);
  let before: string | null = read.original ?? null;
  let createdDirs: string[] = [];
  if (previous !== undefined && previous.after === read.original) {
    // Ours again on top of ours (a new command line): "before" is still the file before the first install.
    before = previous.before;
    createdDirs = previous.createdDirs;
  } else if (read.original !== undefined) {
    // Our entries already there (written by hand, or a record that is gone or stale): "before" is
    // the file without them, so that uninstall never puts one back.
    const value = parseHooks(file, read.text, []).value;
    if (findOurEntries(value, name).length > 0) {
      const without = read.bom + removeOurEntries(read.text, value, name, KEEP_NOTHING).text;
      const empty = holdsNothingElse(
        parseHooks(file, without.slice(read.bom.length), []).value,
        target.install.newFile ?? {},
      );
      before = empty && previous?.before === null ? null : without;
    }
  } else createdDirs = missingDirs(path.dirname(file));
  const record: InstallRecord = {
    version: 1,
    file: path.resolve(file),
    agent: name,
    before,
    after,
    createdDirs,
  };
  for (const dir of [...createdDirs].reverse()) mkdirSync(dir, { recursive: true });
  writeInstallRecord(home, record);
  const written = writeFileAtomic(file, after, { beforeRename: () => unchangedSince(file, read.original) });
  if (!written)
    throw new HookFileError(file, '$', 'the file changed while install was writing it; run install again');
}

/** `dir` and each missing folder above it, deepest first: what install creates (and uninstall may remove). */
function missingDirs(dir: string): string[] {
  const out: string[] = [];
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    try {
      statSync(d);
      return out;
    } catch {
      out.push(d);
    }
    if (path.dirname(d) === d) return out;
  }
}

/** Hooks that would run twice [A-ALL-1], and a JSONC file for an agent that reads JSON. */
function warningsFor(target: InstallTarget, read: HookFileText): string[] {
  const out: string[] = [];
  if (target.install.runsClaudeFiles) {
    const files = policyFiles(target.home, target.projectDir);
    for (const policy of policiesIncluding('claude', files))
      out.push(
        `${policy} says "include": ["claude"], and ${target.label} runs the Claude Code hook files itself: those hooks would run twice (A-ALL-1); take "claude" out of include`,
      );
  }
  // Gemini CLI strips comments before JSON.parse (strip-json-comments); the others read JSON.
  const unread = target.name === 'gemini' ? read.syntax === 'trailing-commas' : read.syntax !== 'json';
  if (unread)
    out.push(
      `${target.file} has ${target.name === 'gemini' ? 'trailing commas' : 'comments or trailing commas'} (kept): ${target.label} expects ${target.name === 'gemini' ? 'JSON with comments at most' : 'plain JSON'}, and hookwerk's own loader skips such a file`,
    );
  return out;
}
