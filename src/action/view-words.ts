/**
 * [G-ACT-1] The words of a command line as the action view reads them, from the one shell lexer
 * (core/shell-lexer.ts): quotes removed, the expansions whose value is known here replaced by it
 * (`~` and `$HOME` the home, `$PWD` the folder the word stands in, `$CLAUDE_PROJECT_DIR` and
 * `$GEMINI_PROJECT_DIR` the project), every other expansion kept as written and the word marked
 * `dynamic`; and the command lists each word holds (`$(…)`, backticks, `<(…)`, `>(…)`, also inside
 * `${…}` and `$((…))`), which run too.
 */
import {
  lexHereDocumentBody,
  lexShell,
  type Part,
  type Span,
  type Token,
  type Word,
} from '../core/shell-lexer.ts';
import type { ArgWord } from './command-options.ts';

/** What a word's known expansions are worth where it stands. */
export interface WordEnv {
  readonly home: string;
  readonly projectDir: string;
  /** The folder the word is expanded in; undefined after a `cd` to a folder not known here. */
  readonly cwd: string | undefined;
}

/** A command list some word holds, read in `source` (its own text for a backtick body). */
export interface NestedList {
  readonly source: string;
  readonly tokens: readonly Token[];
}

export interface ViewWord extends ArgWord {
  /** The text the word was read from, and where in it. */
  readonly source: string;
  readonly start: number;
  readonly end: number;
  /** Every part is unquoted literal text: it may be a reserved word (`{`, `if`, `!`). */
  readonly plain: boolean;
  /** `NAME=…` with the name and `=` unquoted: the name. */
  readonly assigns?: string;
  readonly nested: readonly NestedList[];
}

function known(name: string, env: WordEnv): string | undefined {
  if (name === 'HOME') return env.home;
  if (name === 'PWD') return env.cwd;
  if (name === 'CLAUDE_PROJECT_DIR' || name === 'GEMINI_PROJECT_DIR') return env.projectDir;
  return undefined;
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  n: '\n',
  t: '\t',
  r: '\r',
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/** `$'…'` as bash decodes it (`\n`, `\xHH`, `\NNN`, `\uHHHH`…): `$'r\x6d'` is `rm`. */
export function decodeAnsi(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    const n = text[i + 1];
    if (c !== '\\' || n === undefined) {
      out += c;
      continue;
    }
    const simple = SIMPLE_ESCAPES[n];
    if (simple !== undefined) {
      out += simple;
      i++;
      continue;
    }
    const radix = n === 'x' ? 16 : n === 'u' ? 16 : n === 'U' ? 16 : n >= '0' && n <= '7' ? 8 : 0;
    if (radix === 0) {
      out += c + n;
      i++;
      continue;
    }
    const max = n === 'x' ? 2 : n === 'u' ? 4 : n === 'U' ? 8 : 3;
    const from = radix === 8 ? i + 1 : i + 2;
    let j = from;
    const digits = radix === 8 ? '01234567' : '0123456789abcdefABCDEF';
    while (j < text.length && j - from < max && digits.includes(text[j]!)) j++;
    if (j === from) {
      out += c + n;
      i++;
      continue;
    }
    const code = Number.parseInt(text.slice(from, j), radix);
    out += code <= 0x10ffff ? String.fromCodePoint(code) : '';
    i = j - 1;
  }
  return out;
}

/** A backtick body as the shell runs it: `\$`, `` \` ``, `\\` unescaped. */
function unescapeBackticks(body: string): string {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const next = body[i + 1];
    if (body[i] === '\\' && next !== undefined && '`\\$'.includes(next)) {
      out += next;
      i++;
    } else out += body[i];
  }
  return out;
}

/** Collects the command lists in `parts` (and in the parts of `${…}` and `$((…))` inside them). */
export function nestedLists(source: string, parts: readonly Part[], into: NestedList[], depth = 0): void {
  for (const part of parts) {
    if (part.kind === 'command') {
      const body = source.slice(part.inner.start, part.inner.end);
      if (part.form === '`' && body.includes('\\')) {
        const text = unescapeBackticks(body);
        into.push({ source: text, tokens: lexShell(text, { depth: depth + 1 }).tokens });
      } else into.push({ source, tokens: part.tokens });
    } else if (part.kind === 'parameter' || part.kind === 'arithmetic')
      nestedLists(source, part.parts, into, depth + 1);
  }
}

/** The command lists an expanded here-document body runs (`$(…)`, backticks in its text). */
export function hereDocumentLists(source: string, body: Span): NestedList[] {
  const out: NestedList[] = [];
  nestedLists(source, lexHereDocumentBody(source, body), out);
  return out;
}

/** One lexer word as the view reads it, its known expansions replaced as `env` says. */
export function viewWord(source: string, word: Word, env: WordEnv): ViewWord {
  const first = word.parts[0];
  // The common word: one piece of unquoted text (`rm`, `-rf`, `src/a.ts`).
  if (word.parts.length === 1 && first?.kind === 'text' && first.quoting === 'unquoted') {
    const raw = first.text;
    const text = raw === '~' || raw.startsWith('~/') ? env.home + raw.slice(1) : raw;
    const assigns = assignedName(raw);
    return assigns === undefined
      ? { text, dynamic: false, plain: true, source, start: word.start, end: word.end, nested: NONE }
      : {
          text,
          dynamic: false,
          plain: true,
          source,
          start: word.start,
          end: word.end,
          nested: NONE,
          assigns,
        };
  }
  let text = '';
  let dynamic = false;
  let plain = true;
  let holdsLists = false;
  word.parts.forEach((part, i) => {
    if (part.kind === 'text') {
      if (part.quoting !== 'unquoted') plain = false;
      // [G-ACT-1] An unquoted `~` or `~/…` starting the word is the home folder.
      if (i === 0 && part.quoting === 'unquoted' && (part.text === '~' || part.text.startsWith('~/')))
        text += env.home + part.text.slice(1);
      else text += part.quoting === 'ansi' ? decodeAnsi(part.text) : part.text;
      return;
    }
    plain = false;
    if (part.kind === 'command' || part.kind === 'parameter' || part.kind === 'arithmetic') holdsLists = true;
    const value = part.kind === 'variable' ? known(part.name, env) : undefined;
    if (value !== undefined) {
      text += value;
      return;
    }
    dynamic = true;
    text += source.slice(part.start, part.end);
  });
  const nested: NestedList[] = [];
  if (holdsLists) nestedLists(source, word.parts, nested);
  const assigns =
    first?.kind === 'text' && first.quoting === 'unquoted' ? assignedName(first.text) : undefined;
  return assigns === undefined
    ? { text, dynamic, plain, source, start: word.start, end: word.end, nested }
    : { text, dynamic, plain, source, start: word.start, end: word.end, nested, assigns };
}

const NONE: readonly NestedList[] = [];

/** `NAME=…` (the name and `=` unquoted, at the word's start): the name it assigns. */
function assignedName(text: string): string | undefined {
  const c = text.charCodeAt(0);
  if (!((c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95)) return undefined;
  let i = 1;
  for (; i < text.length; i++) {
    const d = text.charCodeAt(i);
    if (!((d >= 65 && d <= 90) || (d >= 97 && d <= 122) || (d >= 48 && d <= 57) || d === 95)) break;
  }
  return text.charCodeAt(i) === 61 ? text.slice(0, i) : undefined;
}
