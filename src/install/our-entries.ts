/**
 * hookwerk's own entries in an agent's hook file [R-INST-1]: those whose command calls
 * `hookwerk hook --agent A` (the native client, our bin script, or `hookwerk` on the PATH), how
 * ever they got there. Install updates them in place instead of adding another (twice = once);
 * uninstall removes them, and the lists and `hooks` object that only they filled.
 */
import { findNodeAtLocation, type JSONPath, type Node, parseTree } from 'jsonc-parser';
import { isPlainObject } from '../core/plain-object.ts';
import { removeNode } from './json-edits.ts';

export interface OurEntry {
  readonly event: string;
  /** What uninstall removes: the entry, or its group when the group holds nothing but ours. */
  readonly at: JSONPath;
  /** The command string, updated in place when the command line changed. */
  readonly commandAt: JSONPath;
  readonly command: string;
}

/** A command that runs `hookwerk hook --agent AGENT` (or the native client with `--agent AGENT`). */
export function isOurCommand(command: string, agent: string): boolean {
  const program =
    /(?:hookwerk-hook|hookwerk(?:\.js)?['"]?\s+hook)['"]?\s+--agent[\s=]+['"]?([A-Za-z0-9_-]+)['"]?(?=\s|$)/g;
  for (const m of command.matchAll(program)) if (m[1] === agent) return true;
  return false;
}

/** Keys of a group that holds only our handler (Claude's shape): it goes as a whole. */
const GROUP_KEYS: ReadonlySet<string> = new Set(['hooks', 'matcher']);

/** Every entry of ours in the file's `hooks`, in file order. */
export function findOurEntries(value: Record<string, unknown>, agent: string): OurEntry[] {
  const hooks = value.hooks;
  if (!isPlainObject(hooks)) return [];
  const out: OurEntry[] = [];
  for (const [event, list] of Object.entries(hooks)) {
    if (!Array.isArray(list)) continue;
    list.forEach((item: unknown, i) => {
      if (!isPlainObject(item)) return;
      const at = ['hooks', event, i];
      // Flat entries (Copilot's `bash`, Cursor's `command`).
      for (const key of ['bash', 'command']) {
        const command = item[key];
        if (typeof command === 'string' && isOurCommand(command, agent)) {
          out.push({ event, at, commandAt: [...at, key], command });
          return;
        }
      }
      const handlers = item.hooks;
      if (!Array.isArray(handlers)) return;
      const ours = handlers.map((h: unknown) =>
        isPlainObject(h) && typeof h.command === 'string' && isOurCommand(h.command, agent)
          ? h.command
          : undefined,
      );
      const whole =
        ours.every((c) => c !== undefined) &&
        Object.keys(item).every((k) => GROUP_KEYS.has(k)) &&
        matchesAll(item.matcher);
      ours.forEach((command, j) => {
        if (command === undefined) return;
        const handlerAt = [...at, 'hooks', j];
        out.push({ event, at: whole ? at : handlerAt, commandAt: [...handlerAt, 'command'], command });
      });
    });
  }
  return out;
}

function matchesAll(matcher: unknown): boolean {
  return matcher === undefined || matcher === '' || matcher === '*';
}

/** What the file had before install: those lists and that `hooks` object stay, even emptied. */
export interface KeptContainers {
  readonly hooks: boolean;
  readonly events: ReadonlySet<string>;
}

export const KEEP_NOTHING: KeptContainers = { hooks: false, events: new Set() };

/** The containers a file's text had before install (`hooks`, and its event lists). */
export function containersOf(value: Record<string, unknown> | undefined): KeptContainers {
  const hooks = value?.hooks;
  return {
    hooks: hooks !== undefined,
    events: new Set(isPlainObject(hooks) ? Object.keys(hooks) : []),
  };
}

/**
 * `text` without our entries; an event list or `hooks` object they leave empty goes too, unless
 * `keep` says the file had it before install. `events`: the events that lost an entry.
 */
export function removeOurEntries(
  text: string,
  value: Record<string, unknown>,
  agent: string,
  keep: KeptContainers,
  which: (entry: OurEntry) => boolean = () => true,
): { text: string; events: string[] } {
  const ours = findOurEntries(value, agent).filter(which);
  const paths = unique(ours.map((o) => o.at)).sort(laterFirst);
  let out = text;
  for (const at of paths) out = removeAt(out, at);
  const events = unique(ours.map((o) => o.event));
  for (const event of events) {
    const list = nodeAt(out, ['hooks', event]);
    if (list?.type === 'array' && (list.children?.length ?? 0) === 0 && !keep.events.has(event))
      out = removeAt(out, ['hooks', event], true);
  }
  const hooks = nodeAt(out, ['hooks']);
  if (events.length > 0 && hooks?.type === 'object' && (hooks.children?.length ?? 0) === 0 && !keep.hooks)
    out = removeAt(out, ['hooks'], true);
  return { text: out, events };
}

/** Only `newFile`'s fields (as install wrote them) and no hook left: a file install made, now empty again. */
export function holdsNothingElse(
  value: Record<string, unknown>,
  newFile: Readonly<Record<string, unknown>>,
): boolean {
  return Object.entries(value).every(([key, v]) => {
    if (key === 'hooks') return isPlainObject(v) && Object.keys(v).length === 0;
    return Object.hasOwn(newFile, key) && JSON.stringify(newFile[key]) === JSON.stringify(v);
  });
}

function nodeAt(text: string, at: JSONPath): Node | undefined {
  const root = parseTree(text, [], { allowTrailingComma: true });
  return root === undefined ? undefined : findNodeAtLocation(root, at);
}

/**
 * `text` without the given entries of ours (found in it), later ones first; a group whose `hooks`
 * they leave empty goes too (install then appends its own entry in their place).
 */
export function removeEntries(text: string, entries: readonly OurEntry[]): string {
  let out = text;
  for (const at of unique(entries.map((o) => o.at)).sort(laterFirst)) {
    out = removeAt(out, at);
    // A handler inside a group: the group goes when nothing is left in it.
    if (at.length === 5) {
      const group = at.slice(0, 3);
      const handlers = nodeAt(out, [...group, 'hooks']);
      if (handlers?.type === 'array' && (handlers.children?.length ?? 0) === 0) out = removeAt(out, group);
    }
  }
  return out;
}

/** Removes the array element at `at`, or (`member`) the object member whose value is at `at`. */
function removeAt(text: string, at: JSONPath, member = false): string {
  const node = nodeAt(text, at);
  const target = member || typeof at.at(-1) === 'string' ? node?.parent : node;
  return target === undefined ? text : removeNode(text, target);
}

function unique<T>(items: readonly T[]): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = JSON.stringify(item);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Later document positions first, so removing one never shifts the index of one still to go. */
function laterFirst(a: JSONPath, b: JSONPath): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return y - x;
    return String(y) < String(x) ? -1 : 1;
  }
  return b.length - a.length;
}
