/**
 * An agent's hook file as `install` / `uninstall` read it [R-INST-1]: JSON or JSONC (comments and
 * trailing commas are kept, never required), an object whose `hooks` is an object of event
 * arrays. Anything else is refused with file, JSON path and reason (HookFileError) before a
 * byte is written. A missing file, or one holding only white space, reads as `{}`.
 */
import {
  findNodeAtLocation,
  getNodeValue,
  type Node,
  type ParseError,
  parseTree,
  printParseErrorCode,
} from 'jsonc-parser';
import { MAX_SOURCE_BYTES } from '../consent/project-surface.ts';
import { jsonPath } from '../core/issues.ts';
import { isPlainObject } from '../core/plain-object.ts';
import { readSourceFile } from '../core/read-source.ts';
import { HookFileError } from './hook-file-error.ts';
import { detectStyle, type TextStyle } from './json-edits.ts';

const BOM = '\uFEFF';

/** The file as read, and the text the edits start from. */
export interface HookFileText {
  readonly file: string;
  /** The exact text on disk; undefined: no file. */
  readonly original: string | undefined;
  /** What edits apply to: the JSON text without a byte-order mark (`{}` for a missing or blank file). */
  readonly text: string;
  /** A byte-order mark the file starts with, put back in front of the result. */
  readonly bom: string;
  readonly style: TextStyle;
  /** Plain JSON; JSON with comments (which Gemini CLI reads); or trailing commas too (no agent reads those). */
  readonly syntax: 'json' | 'comments' | 'trailing-commas';
  /** No file, or one holding only white space: install writes it as a new file. */
  readonly blank: boolean;
}

/** The parsed text: its syntax tree (for edits) and value (for reading). */
export interface ParsedHooks {
  readonly root: Node;
  readonly value: Record<string, unknown>;
}

/** Reads and checks `file` for edits of `events`; throws HookFileError when it must not be changed. */
export function readHookFile(file: string, events: readonly string[]): HookFileText {
  const read = readSourceFile(file, MAX_SOURCE_BYTES);
  if (read.kind === 'refused') throw new HookFileError(file, '$', `the file ${read.message}`);
  if (read.kind === 'missing') return blank(file, undefined, '');
  // U+FFFD is what bytes that are not UTF-8 decode to: writing the text back would change them.
  if (read.text.includes('\uFFFD')) throw new HookFileError(file, '$', 'the file is not UTF-8 text');
  const bom = read.text.startsWith(BOM) ? BOM : '';
  const text = read.text.slice(bom.length);
  if (text.trim() === '') return blank(file, read.text, bom);
  const parsed = parseHooks(file, text, events);
  return {
    file,
    original: read.text,
    text,
    bom,
    style: detectStyle(text, parsed.root),
    syntax: syntaxOf(text),
    blank: false,
  };
}

function blank(file: string, original: string | undefined, bom: string): HookFileText {
  const eol = original?.includes('\r\n') ? '\r\n' : '\n';
  return {
    file,
    original,
    text: `{}${eol}`,
    bom,
    style: { indent: '  ', eol, compact: false },
    syntax: 'json',
    blank: true,
  };
}

/**
 * Parses `text` and checks the shape edits rely on: an object; `hooks`, when present, an object;
 * each of `events` under it, when present, an array; no key of those two levels given twice
 * (JSON readers keep only the last one, edits would change the first).
 */
export function parseHooks(file: string, text: string, events: readonly string[]): ParsedHooks {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  const first = errors[0];
  if (first !== undefined || root === undefined) {
    const where =
      first !== undefined ? ` (${printParseErrorCode(first.error)} at ${place(text, first.offset)})` : '';
    throw new HookFileError(file, '$', `not JSON${where}`);
  }
  const value: unknown = getNodeValue(root);
  if (!isPlainObject(value) || root.type !== 'object')
    throw new HookFileError(file, '$', `must be a JSON object, not ${kindOf(value)}`);
  duplicateKey(file, root, []);
  const hooks = findNodeAtLocation(root, ['hooks']);
  if (hooks !== undefined) {
    if (hooks.type !== 'object')
      throw new HookFileError(
        file,
        '$.hooks',
        `must be an object of events, not ${kindOf(getNodeValue(hooks))}`,
      );
    duplicateKey(file, hooks, ['hooks']);
    for (const event of events) {
      const list = findNodeAtLocation(hooks, [event]);
      if (list !== undefined && list.type !== 'array')
        throw new HookFileError(
          file,
          jsonPath(['hooks', event]),
          `must be an array of hook entries, not ${kindOf(getNodeValue(list))}`,
        );
    }
  }
  return { root, value };
}

function duplicateKey(file: string, object: Node, at: string[]): void {
  const seen = new Set<string>();
  for (const property of object.children ?? []) {
    const key: unknown = property.children?.[0]?.value;
    if (typeof key !== 'string') continue;
    if (seen.has(key))
      throw new HookFileError(
        file,
        jsonPath([...at, key]),
        'this key is given twice (JSON keeps only the last one)',
      );
    seen.add(key);
  }
}

function syntaxOf(text: string): HookFileText['syntax'] {
  try {
    JSON.parse(text);
    return 'json';
  } catch {
    const errors: ParseError[] = [];
    parseTree(text, errors, { allowTrailingComma: false, disallowComments: false });
    return errors.length === 0 ? 'comments' : 'trailing-commas';
  }
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

/** `line L, column C` (1-based) of an offset. */
function place(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return `line ${line}, column ${offset - before.lastIndexOf('\n')}`;
}
