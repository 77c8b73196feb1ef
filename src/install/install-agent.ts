/**
 * `installAgent`: adds to an agent's own hook file one entry per event that calls
 * `hookwerk hook --agent A --timeout S` [R-INST-1, G-FAIL-4]. Everything else in the file stays as
 * it was (entries, comments, formatting); an entry of ours already there is kept when it is
 * exactly what install writes (twice = once), else replaced by install's own (a planted entry with
 * a matcher, `async` or a short timeout must not leave the gate blind); the write is atomic and
 * keeps the file's mode. A file that cannot be changed safely is refused (HookFileError) before
 * anything is written.
 */
import { existsSync, lstatSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { findNodeAtLocation, getNodeValue, type JSONPath, type Node } from 'jsonc-parser';
import { jsonPath } from '../core/issues.ts';
import { isPlainObject } from '../core/plain-object.ts';
import { agentNotes } from './agent-notes.ts';
import { installRequirementsToml } from './codex-requirements.ts';
import { type PlannedTimeouts, plannedTimeouts } from './entry-timeouts.ts';
import { commitInstall } from './file-commit.ts';
import { type HookCommandFlags, hookCommandLine } from './hook-command.ts';
import { type HookFileText, parseHooks, readHookFile } from './hook-file.ts';
import { HookFileError } from './hook-file-error.ts';
import { readInstallRecord } from './install-record.ts';
import type { InstallResult } from './install-result.ts';
import { type InstallTarget, type InstallTargetOptions, installTarget } from './install-target.ts';
import { addMember, appendElement, replaceValue, type TextStyle } from './json-edits.ts';
import { unifiedDiff } from './line-diff.ts';
import {
  findOurEntries,
  holdsNothingElse,
  KEEP_NOTHING,
  type OurEntry,
  removeEntries,
  removeOurEntries,
} from './our-entries.ts';
import { policiesIncluding, policyFiles } from './policy-include.ts';
import { missingDirs } from './written-folders.ts';

export interface InstallOptions extends InstallTargetOptions {
  /** Print the change, write nothing. */
  dryRun?: boolean;
  /**
   * The command line of an entry (default `hookCommandLine`): `flags.event` is set for agents that
   * need `--event`, `flags.timeoutS` is the entry's timeout [G-FAIL-4].
   */
  command?: (agent: string, flags: HookCommandFlags) => string;
}

export function installAgent(opts: InstallOptions): InstallResult {
  const target = installTarget(opts);
  const { install, name, file } = target;
  refuseDanglingLink(file);
  if (target.scope === 'system' && install.systemToml === true) {
    // [T-MGD-2] Codex's administrator file is TOML: the same entries, written as a block of text.
    const planned = plannedTimeouts(target);
    const plan = entryPlan(target, planned, opts.command ?? hookCommandLine);
    return installRequirementsToml({
      target,
      entries: install.events.map((event) => [event, plan.entryOf(event)] as const),
      command: (opts.command ?? hookCommandLine)(name, {}),
      timeouts: Object.fromEntries(planned.seconds),
      warnings: planned.warnings,
      dryRun: opts.dryRun === true,
    });
  }
  const read = readHookFile(file, install.events);
  const planned = plannedTimeouts(target);
  const plan = entryPlan(target, planned, opts.command ?? hookCommandLine);
  let text = read.text;
  if (read.blank)
    for (const [key, value] of Object.entries(install.newFile ?? {}))
      text = addMember(text, parseHooks(file, text, []).root, key, value, read.style);
  const events: string[] = [];
  const updated: string[] = [];
  const unchanged: string[] = [];
  const replaced: string[] = [];
  // The file as install left it last time: its entries are install's own, updated without a word.
  const ownResult =
    read.original !== undefined && readInstallRecord(target.recordsDir, file)?.after === read.original;
  for (const event of install.events) {
    const parsed = parseHooks(file, text, install.events);
    const ours = findOurEntries(parsed.value, name).filter((e) => e.event === event);
    const entry = plan.entryOf(event);
    const first = ours[0];
    if (first === undefined) {
      text = addEntry(text, parsed.root, event, entry, read.style);
      events.push(event);
    } else if (ours.length === 1 && isExactly(parsed.root, first, entry)) {
      unchanged.push(event);
    } else {
      // [G-FAIL-4] A matcher, `async`, a short timeout — planted or older: install's own replaces it.
      if (!ownResult)
        for (const o of ours)
          replaced.push(`${file}: ${jsonPath(o.at)}: ${describeReplaced(parsed.root, o)}`);
      text = replaceOurs(text, parsed.root, ours, event, entry, read.style);
      updated.push(event);
    }
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
    replaced,
    command: (opts.command ?? hookCommandLine)(name, {}),
    timeouts: Object.fromEntries(planned.seconds),
    warnings: [...warningsFor(target, read), ...planned.warnings, ...notes.warnings],
    notes: notes.notes,
    diff: changed ? unifiedDiff(file, read.original ?? null, after) : '',
    dryRun: opts.dryRun === true,
  };
  if (changed && opts.dryRun !== true) write(target, read, after, plan);
  return result;
}

/** What install writes for each event: the entry, with its command and timeout [G-FAIL-4]. */
interface EntryPlan {
  entryOf(event: string): unknown;
}

function entryPlan(
  target: InstallTarget,
  planned: PlannedTimeouts,
  command: NonNullable<InstallOptions['command']>,
): EntryPlan {
  const { install, name } = target;
  return {
    entryOf(event) {
      const timeoutS = planned.seconds.get(event) ?? install.timeouts.defaultS(event);
      const line = command(name, { ...(install.needsEventFlag ? { event } : {}), timeoutS });
      return install.entry(event, line, timeoutS);
    },
  };
}

/** The entry at `ours.at` is a whole item of the event's list holding exactly `entry`. */
function isExactly(root: Node, ours: OurEntry, entry: unknown): boolean {
  if (ours.at.length !== 3) return false;
  const node = findNodeAtLocation(root, ours.at);
  return node !== undefined && sameJson(getNodeValue(node), entry);
}

/** Deep equality of two JSON values, whatever the order of object keys. */
function sameJson(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b))
    return (
      Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameJson(x, b[i]))
    );
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && sameJson(a[k], b[k]))
    );
  }
  return a === b;
}

/** `was {...}`: the entry (or the group holding the handler) as it was, on one bounded line. */
function describeReplaced(root: Node, ours: OurEntry): string {
  const node = findNodeAtLocation(root, ours.at.slice(0, 3));
  const was = JSON.stringify(node === undefined ? null : getNodeValue(node));
  const shown = was.length > 300 ? `${was.slice(0, 300)}…` : was;
  return `it was ${shown}`;
}

/**
 * Our entries of `event` replaced by `entry`: in place when the first is a whole item of the
 * list, else (a handler in a group of other handlers, or under a matcher) appended once they are out.
 */
function replaceOurs(
  text: string,
  root: Node,
  ours: readonly OurEntry[],
  event: string,
  entry: unknown,
  style: TextStyle,
): string {
  const [first, ...rest] = ours;
  if (first !== undefined && first.at.length === 3) {
    // The others first: removing them never moves the first (they come later in the file).
    const node = findNodeAtLocation(root, first.at);
    const others = rest.filter((o) => !samePath(o.at, first.at));
    if (node !== undefined && others.every((o) => later(o.at, first.at))) {
      const without = removeEntries(text, others);
      const at = findNodeAtLocation(parseHooks('', without, []).root, first.at);
      if (at !== undefined) return replaceValue(without, at, entry, style);
    }
  }
  const without = removeEntries(text, ours);
  return addEntry(without, parseHooks('', without, []).root, event, entry, style);
}

function samePath(a: JSONPath, b: JSONPath): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** `a` comes after `b` in the same event list (a later item, or a handler of a later item). */
function later(a: JSONPath, b: JSONPath): boolean {
  const ai = a[2];
  const bi = b[2];
  return typeof ai === 'number' && typeof bi === 'number' && ai > bi;
}

/**
 * [R-INST-1] A settings file that is a symbolic link to nothing: writing over it would replace
 * the user's link (a dotfiles setup) and uninstall would then delete it; writing through it would
 * create a file wherever it points. Neither: install refuses, nothing written.
 */
function refuseDanglingLink(file: string): void {
  let link: string;
  try {
    if (!lstatSync(file).isSymbolicLink()) return;
    link = readlinkSync(file);
  } catch {
    return;
  }
  if (existsSync(file)) return;
  throw new HookFileError(
    file,
    '$',
    `is a symbolic link to ${link}, which does not exist; create that file (even as {}) or remove the link, then run install again`,
  );
}

/** Appends one entry to `hooks.<event>`, creating the list and `hooks` when missing. */
function addEntry(text: string, root: Node, event: string, entry: unknown, style: TextStyle): string {
  const hooks = findNodeAtLocation(root, ['hooks']);
  if (hooks === undefined) return addMember(text, root, 'hooks', { [event]: [entry] }, style);
  const list = findNodeAtLocation(hooks, [event]);
  if (list === undefined) return addMember(text, hooks, event, [entry], style);
  return appendElement(text, list, entry, style);
}

/** What "before" is for the record (file-commit.ts writes it and the file). */
function write(target: InstallTarget, read: HookFileText, after: string, plan: EntryPlan): void {
  const { file, recordsDir, name } = target;
  const previous = readInstallRecord(recordsDir, file);
  let before: string | null = read.original ?? null;
  let createdDirs: string[] = [];
  if (previous !== undefined && previous.after === read.original) {
    // Ours again on top of ours (a new command line): "before" is still the file before the first install.
    before = previous.before;
    createdDirs = previous.createdDirs;
  } else if (read.original !== undefined) {
    // Entries exactly as install writes them already there (a record that is gone or stale): they
    // are install's, and "before" is the file without them, so that uninstall takes them out.
    // Any other entry calling hookwerk (planted, written by hand) was replaced: "before" keeps it,
    // and uninstall gives the file back byte for byte [R-INST-1].
    const parsed = parseHooks(file, read.text, []);
    const exact = (o: OurEntry) => isExactly(parsed.root, o, plan.entryOf(o.event));
    if (findOurEntries(parsed.value, name).some(exact)) {
      const without = read.bom + removeOurEntries(read.text, parsed.value, name, KEEP_NOTHING, exact).text;
      const empty = holdsNothingElse(
        parseHooks(file, without.slice(read.bom.length), []).value,
        target.install.newFile ?? {},
      );
      before = empty && previous?.before === null ? null : without;
    }
  } else createdDirs = missingDirs(path.dirname(file));
  commitInstall(target, { original: read.original, before, after, createdDirs });
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
