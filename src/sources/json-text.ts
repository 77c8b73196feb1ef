import { visit } from 'jsonc-parser';
import { errorMessage } from '../files/errno.ts';
import { type ConfigIssue, jsonPath } from './issues.ts';
import { jsonErrorOffset } from './json-error-offset.ts';

export type JsonTextResult = { ok: true; value: unknown } | { ok: false; issue: ConfigIssue };

/**
 * Deepest nesting that is checked for duplicate keys. jsonc-parser's visitor recurses (its stack
 * runs out near 4000 levels), so a limit far below that gives the same answer every time; no
 * config nests anywhere near it.
 */
export const MAX_JSON_DEPTH = 512;

/**
 * [L-TRUST-4] JSON.parse with errors that name a line and column, and duplicate keys refused:
 * JSON.parse keeps the last of two equal keys silently, so what a reader sees first in the file
 * would not be what runs.
 */
export function parseJsonText(file: string, text: string): JsonTextResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, issue: { file, path: '$', message: syntaxMessage(text, err) } };
  }
  const problem = findDuplicateKey(text);
  if (problem !== undefined) return { ok: false, issue: { file, ...problem } };
  return { ok: true, value };
}

function syntaxMessage(text: string, err: unknown): string {
  const message = errorMessage(err);
  const offset = jsonErrorOffset(text);
  let where = '';
  if (offset >= 0) {
    const before = text.slice(0, offset);
    const line = before.split('\n').length;
    const col = offset - before.lastIndexOf('\n');
    const found =
      offset < text.length ? `unexpected ${JSON.stringify(text[offset])}` : 'unexpected end of file';
    where = ` (${found} at line ${line}, column ${col})`;
  }
  // V8's own message quotes a snippet of the file; the position above says more in less.
  const reason = where ? 'syntax error' : message.split('\n')[0]!;
  return `invalid JSON: ${reason}${where}`;
}

/** 1-based, like the syntax errors above. */
interface Place {
  line: number;
  column: number;
}

type Problem = { path: string; message: string };

/**
 * The first duplicate key in document order, or too deep a nesting, in text JSON.parse accepted.
 * jsonc-parser decodes escapes in keys, so `"a"` and `"\u0061"` count as the same key, as they do
 * for JSON.parse.
 */
function findDuplicateKey(text: string): Problem | undefined {
  // Keys seen so far in each enclosing object, innermost last.
  const open: Map<string, Place>[] = [];
  let depth = 0;
  let found: Problem | undefined;
  const enter = (line: number, character: number) => {
    depth++;
    if (depth > MAX_JSON_DEPTH) found ??= tooDeep(place(line, character));
  };
  try {
    visit(
      text,
      {
        onObjectBegin: (_offset, _length, line, character) => {
          enter(line, character);
          open.push(new Map());
        },
        onObjectEnd: () => {
          depth--;
          open.pop();
        },
        onArrayBegin: (_offset, _length, line, character) => enter(line, character),
        onArrayEnd: () => {
          depth--;
        },
        onObjectProperty: (key, _offset, _length, line, character, pathOf) => {
          const seen = open.at(-1);
          if (found !== undefined || seen === undefined) return;
          const here = place(line, character);
          const first = seen.get(key);
          if (first === undefined) seen.set(key, here);
          else found = duplicate(key, [...pathOf(), key], first, here);
        },
      },
      { disallowComments: true },
    );
  } catch (err) {
    // Only a stack overflow is expected here, and only past MAX_JSON_DEPTH, already reported.
    found ??= { path: '$', message: `cannot be checked for duplicate keys: ${String(err).split('\n')[0]}` };
  }
  return found;
}

function duplicate(key: string, at: ReadonlyArray<PropertyKey>, first: Place, second: Place): Problem {
  return {
    path: jsonPath(at),
    message: `duplicate key ${JSON.stringify(key)} at ${where(second)} (also at ${where(first)}): JSON keeps only the last one`,
  };
}

function tooDeep(at: Place): Problem {
  return { path: '$', message: `nested too deep at ${where(at)}: the limit is ${MAX_JSON_DEPTH} levels` };
}

/** jsonc-parser counts lines and characters from 0. */
function place(line: number, character: number): Place {
  return { line: line + 1, column: character + 1 };
}

function where(p: Place): string {
  return `line ${p.line}, column ${p.column}`;
}
