import { type ParseError, parse as parseJsonc, printParseErrorCode, visit } from 'jsonc-parser';
import { errorMessage } from './errno.ts';
import { type ConfigIssue, jsonPath } from './issues.ts';

type JsonTextResult = { ok: true; value: unknown } | { ok: false; issue: ConfigIssue };

/**
 * Deepest nesting that is checked for duplicate keys. jsonc-parser's visitor recurses (its stack
 * runs out near 4000 levels), so a limit far below that gives the same answer every time; no
 * config nests anywhere near it.
 */
export const MAX_JSON_DEPTH = 512;

/**
 * [C-ANS-3] Deepest nesting of the JSON that hooks exchange: what they are given (payload,
 * context, input; checked on objects by events/json-payload-check.ts) and what they answer
 * (stdout, an HTTP body; checked on text here), and the JSON given on the command line. The
 * outermost object or array is level 1. Far below what a recursive walk (JSON.stringify, a
 * schema check) survives.
 */
export const MAX_HOOK_JSON_DEPTH = 64;

/**
 * The offset of the first `{` or `[` in `text` that opens level `limit + 1`, or -1 when the text
 * stays within `limit`. One pass, no recursion and no allocation, so it is safe on any text and
 * meant to run before JSON.parse: V8 parses a million levels without complaint, and the first
 * recursive walk over the value then throws a RangeError. Brackets inside strings do not count;
 * text that is not JSON is scanned all the same (JSON.parse refuses it afterwards).
 */
export function jsonDepthOverflow(text: string, limit: number): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: jump to its closing quote, one not escaped by an odd run of backslashes.
      let end = i;
      for (;;) {
        end = text.indexOf('"', end + 1);
        if (end < 0) return -1;
        let slashes = 0;
        while (text.charCodeAt(end - 1 - slashes) === 0x5c) slashes++;
        if (slashes % 2 === 0) break;
      }
      i = end;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return i;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return -1;
}

/** The reason an answer nested past MAX_HOOK_JSON_DEPTH is refused, for run records and errors. */
export const TOO_DEEP = `nested more than ${MAX_HOOK_JSON_DEPTH} levels deep`;

/** JSON.parse for outside text, refusing nesting past MAX_HOOK_JSON_DEPTH: ok, too deep, or not JSON. */
type BoundedJson = { ok: true; value: unknown } | { ok: false; tooDeep: boolean; why: string };

export function parseBoundedJson(text: string): BoundedJson {
  if (jsonDepthOverflow(text, MAX_HOOK_JSON_DEPTH) >= 0) return { ok: false, tooDeep: true, why: TOO_DEEP };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    return { ok: false, tooDeep: false, why: errorMessage(err) };
  }
}

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

/**
 * [G-FAIL-1] hookwerk's own policy files are JSONC, as editors write them: `//` and block
 * comments, trailing commas and a UTF-8 byte-order mark are accepted; everything else is as strict
 * as `parseJsonText` (a syntax error names its line and column, a duplicate key is refused).
 */
export function parseJsoncText(file: string, text: string): JsonTextResult {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  // jsonc-parser recurses: the nesting is bounded before it parses (brackets in comments count too).
  const deep = jsonDepthOverflow(body, MAX_JSON_DEPTH);
  if (deep >= 0) return { ok: false, issue: { file, ...tooDeep(placeOf(body, deep)) } };
  const errors: ParseError[] = [];
  const value: unknown = parseJsonc(body, errors, {
    disallowComments: false,
    allowTrailingComma: true,
    allowEmptyContent: false,
  });
  const first = errors[0];
  if (first !== undefined)
    return {
      ok: false,
      issue: { file, path: '$', message: `invalid JSON: syntax error (${describeError(body, first)})` },
    };
  const problem = findDuplicateKey(body, true);
  if (problem !== undefined) return { ok: false, issue: { file, ...problem } };
  return { ok: true, value };
}

/**
 * The first syntax error of `text` read as plain JSON (no comments, no trailing commas): where,
 * and what jsonc-parser calls it; undefined when it is valid. Node 20's JSON.parse messages often
 * give no position, and a config error must point at a line and column.
 */
function jsonSyntaxError(text: string): ParseError | undefined {
  const errors: ParseError[] = [];
  parseJsonc(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  return errors[0];
}

/** Offset of the first JSON syntax error in `text`, or -1 if it is valid. */
export function jsonErrorOffset(text: string): number {
  return jsonSyntaxError(text)?.offset ?? -1;
}

function syntaxMessage(text: string, err: unknown): string {
  const message = errorMessage(err);
  const error = jsonSyntaxError(text);
  let where = '';
  if (error !== undefined) {
    where = ` (${describeError(text, error)})`;
  }
  // V8's own message quotes a snippet of the file; the position above says more in less.
  const reason = where ? 'syntax error' : message.split('\n')[0]!;
  return `invalid JSON: ${reason}${where}`;
}

/** `unexpected "," at line 3, column 7`: what jsonc-parser found, and where. */
function describeError(text: string, error: ParseError): string {
  const offset = error.offset;
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const col = offset - before.lastIndexOf('\n');
  const found =
    printParseErrorCode(error.error) === 'UnexpectedEndOfString'
      ? 'unterminated string'
      : offset < text.length
        ? `unexpected ${JSON.stringify(text[offset])}`
        : 'unexpected end of file';
  return `${found} at line ${line}, column ${col}`;
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
 * for JSON.parse. Its visitor recurses, so the depth is checked first, without recursion.
 */
function findDuplicateKey(text: string, comments = false): Problem | undefined {
  const deep = jsonDepthOverflow(text, MAX_JSON_DEPTH);
  if (deep >= 0) return tooDeep(placeOf(text, deep));
  // Keys seen so far in each enclosing object, innermost last.
  const open: Map<string, Place>[] = [];
  let found: Problem | undefined;
  try {
    visit(
      text,
      {
        onObjectBegin: () => {
          open.push(new Map());
        },
        onObjectEnd: () => {
          open.pop();
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
      { disallowComments: !comments, allowTrailingComma: comments },
    );
  } catch (err) {
    // Not expected within MAX_JSON_DEPTH; said rather than thrown all the same.
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

/** The 1-based line and column of an offset, counted as jsonc-parser counts (UTF-16 units). */
function placeOf(text: string, offset: number): Place {
  let line = 1;
  let start = 0;
  for (let nl = text.indexOf('\n'); nl >= 0 && nl < offset; nl = text.indexOf('\n', nl + 1)) {
    line++;
    start = nl + 1;
  }
  return { line, column: offset - start + 1 };
}

/** jsonc-parser counts lines and characters from 0. */
function place(line: number, character: number): Place {
  return { line: line + 1, column: character + 1 };
}

function where(p: Place): string {
  return `line ${p.line}, column ${p.column}`;
}
