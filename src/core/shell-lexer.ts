/**
 * The one reader of shell command lines. Three places must know what a command line says without
 * running it — consent pins the files a hook command names (command-words), Claude `if` rules
 * test each subcommand of a Bash call, Gemini's variables are rewritten by where they stand — and
 * one reader keeps them agreeing on quotes, substitutions and here-documents.
 *
 * It reads POSIX sh plus the bash forms such lines use (`$'…'`, `<(…)`, `>(…)`, `&>`, `|&`, `<<<`);
 * what a form means to a given shell is the caller's call. It only reads: every token and part
 * keeps its offsets in the source, so a caller can slice the text as written or rewrite one piece
 * of it. A substitution holds what it contains, read at the same absolute offsets; a backtick body
 * is read in place (`\$`, `` \` ``, `\\` stay escapes, as the shell would first unescape them).
 * A here-document body is one token, its text read no further: data to some programs, a script to
 * others.
 *
 * Unbalanced text — an unclosed quote, `$(`, `${`, `$((`, backtick or parenthesis, a stray `)`, or
 * nesting deeper than 32 — is still read to its end (whatever is open closes there) and flagged.
 * One pass, linear in the text: no regular expression, and what is nested too deep is not read.
 */

export interface Span {
  readonly start: number;
  readonly end: number;
}

/** How a part is quoted where it stands; inside `$(…)`, `${…}` and `$((…))` quoting starts afresh. */
export type Quoting = 'unquoted' | 'single' | 'double' | 'escaped' | 'ansi';

interface PartBase extends Span {
  readonly quoting: Quoting;
}

/**
 * Literal text. `text` is its value: the characters as written, for `'…'` and `$'…'` those
 * between the quotes (escapes not decoded), for `\x` the `x`.
 */
export interface TextPart extends PartBase {
  readonly kind: 'text';
  readonly text: string;
}

/** `$NAME` or `${NAME}`. */
export interface VariablePart extends PartBase {
  readonly kind: 'variable';
  readonly name: string;
}

/** `$1`, `$?`, `$@`, `$$` … */
export interface SpecialPart extends PartBase {
  readonly kind: 'special';
}

/** Any other `${…}` (`inner` between the braces), or `$((…))` (`inner` between `$((` and `))`). */
export interface ExpansionPart extends PartBase {
  readonly kind: 'parameter' | 'arithmetic';
  readonly inner: Span;
  readonly parts: readonly Part[];
}

/** `$(…)`, `` `…` ``, `<(…)` or `>(…)`: the command list `inner`, read into `tokens`. */
export interface CommandPart extends PartBase {
  readonly kind: 'command';
  readonly form: '$(' | '`' | '<(' | '>(';
  readonly inner: Span;
  readonly tokens: readonly Token[];
}

export type Part = TextPart | VariablePart | SpecialPart | ExpansionPart | CommandPart;

export interface Word extends Span {
  readonly kind: 'word';
  readonly parts: readonly Part[];
}

/** A control operator (`;`, `&`, `|`, `&&`, `||`, `;;`, `|&`, `(`, `)`), or `\n`. */
export interface Operator extends Span {
  readonly kind: 'operator';
  readonly op: string;
}

/**
 * `>`, `2>&1`, `<<EOF` …: `fd` the digits right before the operator, `target` the word after it
 * (none when an operator, a comment or the end comes first).
 */
export interface Redirection extends Span {
  readonly kind: 'redirection';
  readonly op: string;
  readonly fd: string | undefined;
  readonly target: Word | undefined;
}

export interface Comment extends Span {
  readonly kind: 'comment';
}

/**
 * A `<<` or `<<-` here-document's body: the lines after the next unquoted newline, up to the
 * delimiter line (`body`), or to the end. The token ends with the delimiter line.
 */
export interface HereDocument extends Span {
  readonly kind: 'heredoc';
  /** The delimiter word with quotes removed. */
  readonly delimiter: string;
  /** Any part of the delimiter quoted: the body is not expanded. */
  readonly quoted: boolean;
  /** `<<-`: leading tabs are stripped. */
  readonly stripTabs: boolean;
  readonly body: Span;
}

export type Token = Word | Operator | Redirection | Comment | HereDocument;

export interface Lexed {
  readonly tokens: readonly Token[];
  readonly unbalanced: boolean;
}

/** Where to read: `source` from `start` to `end`, standing `depth` constructs deep. */
export interface LexRange {
  readonly start?: number;
  readonly end?: number;
  readonly depth?: number;
}

const MAX_NESTING = 32;

/**
 * Reads `source` (or the range of it) as a command list. Offsets are always into `source`; a
 * caller reading a nested text again (a here-document body) passes its range and depth.
 */
export function lexShell(source: string, range: LexRange = {}): Lexed {
  const depth = range.depth ?? 0;
  if (depth > MAX_NESTING) return { tokens: [], unbalanced: true };
  const reader = new Reader(source, range.start ?? 0, range.end ?? source.length);
  const tokens = reader.list(depth, false);
  return { tokens, unbalanced: reader.unbalanced };
}

/**
 * The parts of a here-document body as the shell expands it (its delimiter unquoted): read like the
 * inside of `"…"`, except that quotes are plain characters and nothing ends it but its end. So a
 * caller finds the `$(…)` and backticks a body runs without reading its text as commands.
 */
export function lexHereDocumentBody(source: string, body: Span, depth = 0): readonly Part[] {
  if (depth > MAX_NESTING) return [];
  const reader = new Reader(source, body.start, body.end);
  return reader.hereDocumentParts(depth);
}

// ---------------------------------------------------------------------------------------------

// Character codes the reader compares (one pass over `charCodeAt`, no one-character strings).
const TAB = 9;
const NEWLINE = 10;
const CR = 13;
const SPACE = 32;
const QUOTE = 34;
const DOLLAR = 36;
const AMPERSAND = 38;
const APOSTROPHE = 39;
const OPEN = 40;
const CLOSE = 41;
const MINUS = 45;
const SEMICOLON = 59;
const LESS = 60;
const GREATER = 62;
const BACKSLASH = 92;
const BACKTICK = 96;
const BRACE = 123;
const BAR = 124;
const CLOSE_BRACE = 125;

/** Per ASCII code: 1 a blank, 2 a metacharacter (what ends an unquoted word; `<(`, `>(` excepted), 4 a special parameter after `$`, 8 literal in an unquoted word whatever follows. */
const CLASS = new Uint8Array(128);
for (const c of ' \t\r') CLASS[c.charCodeAt(0)]! |= 1;
for (const c of ' \t\r\n;&|()<>') CLASS[c.charCodeAt(0)]! |= 2;
for (const c of '0123456789@*#?$!-') CLASS[c.charCodeAt(0)]! |= 4;
for (let c = 0; c < 128; c++)
  if ((CLASS[c]! & 2) === 0 && !'\\\'"$`'.includes(String.fromCharCode(c))) CLASS[c]! |= 8;

function isBlank(c: number): boolean {
  return c === SPACE || c === TAB || c === CR;
}

function isMeta(c: number): boolean {
  return c < 128 && (CLASS[c]! & 2) !== 0;
}

/** A character of an unquoted word that is literal text whatever follows it (all but ASCII's specials). */
function isPlainWordChar(c: number): boolean {
  return c >= 128 || (CLASS[c]! & 8) !== 0;
}

const REDIRECTIONS = new Set(['&>>', '&>', '<<<', '<<-', '<<', '>>', '<&', '>&', '<>', '>|', '<', '>']);
/** What a backslash escapes inside double quotes; before anything else it is a literal `\`. */
function escapesInDouble(c: number): boolean {
  return c === DOLLAR || c === BACKTICK || c === QUOTE || c === BACKSLASH;
}

/** Where parts are read: an unquoted word, `"…"`, `${…}`, `$((…))`, or a here-document body. */
type Mode = 'word' | 'double' | 'parameter' | 'arithmetic' | 'heredoc';

function isNameStartCode(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

function isNameCode(c: number): boolean {
  return isNameStartCode(c) || (c >= 48 && c <= 57);
}

function isName(text: string): boolean {
  if (text === '' || !isNameStartCode(text.charCodeAt(0))) return false;
  for (let i = 1; i < text.length; i++) if (!isNameCode(text.charCodeAt(i))) return false;
  return true;
}

/** A word that is only unquoted digits: before a redirection, the file descriptor it applies to. */
function digitsOf(word: Word): string | undefined {
  const only = word.parts.length === 1 ? word.parts[0] : undefined;
  if (only?.kind !== 'text' || only.quoting !== 'unquoted') return undefined;
  for (const c of only.text) if (c < '0' || c > '9') return undefined;
  return only.text;
}

/** Whether `c` ends what `mode` reads (left unread). */
function endsMode(mode: Mode, c: number, parens: number): boolean {
  if (mode === 'word') return isMeta(c);
  if (mode === 'double') return c === QUOTE;
  if (mode === 'heredoc') return false;
  if (mode === 'parameter') return c === CLOSE_BRACE;
  return c === CLOSE && parens === 0;
}

/** Whether `c` (then `next`, -1 at the end) starts something other than literal text. */
function startsPart(quoted: boolean, c: number, next: number): boolean {
  if (c === BACKTICK) return true;
  if (c === APOSTROPHE || c === QUOTE) return !quoted;
  if (next < 0) return false;
  if (c === BACKSLASH) return !quoted || escapesInDouble(next);
  if (c !== DOLLAR) return false;
  if (next === APOSTROPHE) return !quoted;
  return next === OPEN || next === BRACE || isNameStartCode(next) || (next < 128 && (CLASS[next]! & 4) !== 0);
}

/**
 * The parts of the words being read, before each word's are copied out at their size: a list grown
 * by `push` from empty holds room for 17, and most words are one part [G-PERF-1]. A reader of a
 * word (or `${…}`, `$((…))`) pushes from where the list stands and cuts it back when done, so the
 * words read inside a substitution of a word, meanwhile, leave it as they found it.
 */
const PARTS: Part[] = [];

/** The parts pushed since `from`, copied out; the list cut back to `from`. */
function partsSince(from: number): Part[] {
  const parts = PARTS.slice(from);
  // `pop` is cheaper than setting `length` (a call into the runtime), and few are left.
  while (PARTS.length > from) PARTS.pop();
  return parts;
}

class Reader {
  readonly #s: string;
  #i: number;
  /** Where the text being read ends: the source's end, or a backtick body's. */
  #end: number;
  #unbalanced = false;

  constructor(s: string, start: number, end: number) {
    this.#s = s;
    this.#i = start;
    this.#end = end;
  }

  get unbalanced(): boolean {
    return this.#unbalanced;
  }

  /** The whole range read as an expanded here-document body. */
  hereDocumentParts(depth: number): Part[] {
    const from = PARTS.length;
    this.#parts('heredoc', depth, PARTS);
    return partsSince(from);
  }

  /**
   * A command list up to the end, or (`closedByParen`: inside `$(…)`, `<(…)`, `>(…)`) up to its
   * unmatched `)`, which is left to the caller. `depth`: the constructs the list stands in.
   */
  list(depth: number, closedByParen: boolean): Token[] {
    const s = this.#s;
    const tokens: Token[] = [];
    let heredocs: Redirection[] | undefined;
    let parens = 0;
    while (this.#i < this.#end) {
      const i = this.#i;
      const c = s.charCodeAt(i);
      if (isBlank(c)) this.#i++;
      else if (this.#isLineJoin(i)) this.#i += 2;
      else if (c === 35) tokens.push(this.#comment());
      else if (c === NEWLINE) {
        tokens.push(this.#operator('\n'));
        if (heredocs !== undefined && heredocs.length > 0) {
          const docs = heredocs;
          heredocs = undefined;
          for (let k = 0; k < docs.length; k++) {
            // The next body starts on the line after the last one's delimiter.
            if (k > 0 && this.#i < this.#end) this.#i++;
            tokens.push(this.#hereDocument(docs[k]!));
          }
        }
      } else if (c === OPEN) {
        parens++;
        if (depth + parens > MAX_NESTING) this.#unbalanced = true;
        tokens.push(this.#operator('('));
      } else if (c === CLOSE) {
        if (parens === 0 && closedByParen) return tokens;
        if (parens === 0) this.#unbalanced = true;
        else parens--;
        tokens.push(this.#operator(')'));
      } else {
        heredocs ??= [];
        if (this.#startsWord(i)) tokens.push(this.#wordOrRedirection(depth + parens, heredocs));
        else tokens.push(this.#operatorAt(depth + parens, heredocs));
      }
    }
    if (parens > 0 || closedByParen) this.#unbalanced = true;
    return tokens;
  }

  #isLineJoin(i: number): boolean {
    return this.#s.charCodeAt(i) === BACKSLASH && this.#next(i) === NEWLINE;
  }

  /** The code after `i`, or -1 at the end. */
  #next(i: number): number {
    return i + 1 < this.#end ? this.#s.charCodeAt(i + 1) : -1;
  }

  #startsWord(i: number): boolean {
    if (i >= this.#end || i >= this.#s.length) return false;
    const c = this.#s.charCodeAt(i);
    return !isMeta(c) || ((c === LESS || c === GREATER) && this.#next(i) === OPEN);
  }

  /** Index of the next `c` from `from`, or the end. */
  #find(c: string, from: number): number {
    if (from >= this.#end) return from;
    const j = this.#s.indexOf(c, from);
    return j < 0 || j > this.#end ? this.#end : j;
  }

  #operator(op: string): Operator {
    const start = this.#i;
    this.#i += op.length;
    return { kind: 'operator', op, start, end: this.#i };
  }

  /** The operator at `i`, longest first (`&&` is not two `&`), within the text read. */
  #operatorMatching(i: number): string | undefined {
    if (i >= this.#end) return undefined;
    const c = this.#s.charCodeAt(i);
    const n1 = this.#next(i);
    const n2 = n1 < 0 ? -1 : this.#next(i + 1);
    switch (c) {
      case AMPERSAND:
        if (n1 === AMPERSAND) return '&&';
        if (n1 === GREATER) return n2 === GREATER ? '&>>' : '&>';
        return '&';
      case BAR:
        if (n1 === BAR) return '||';
        return n1 === AMPERSAND ? '|&' : '|';
      case SEMICOLON:
        return n1 === SEMICOLON ? ';;' : ';';
      case LESS:
        if (n1 === LESS) return n2 === LESS ? '<<<' : n2 === MINUS ? '<<-' : '<<';
        if (n1 === AMPERSAND) return '<&';
        return n1 === GREATER ? '<>' : '<';
      case GREATER:
        if (n1 === GREATER) return '>>';
        if (n1 === AMPERSAND) return '>&';
        return n1 === BAR ? '>|' : '>';
      default:
        return undefined;
    }
  }

  #comment(): Comment {
    const start = this.#i;
    this.#i = this.#find('\n', start);
    return { kind: 'comment', start, end: this.#i };
  }

  #operatorAt(nesting: number, heredocs: Redirection[]): Token {
    const op = this.#operatorMatching(this.#i) ?? this.#s[this.#i]!;
    if (!REDIRECTIONS.has(op)) return this.#operator(op);
    return this.#redirection(op, this.#i, undefined, nesting, heredocs);
  }

  #wordOrRedirection(nesting: number, heredocs: Redirection[]): Word | Redirection {
    const word = this.#word(nesting);
    const fd = digitsOf(word);
    const op = fd === undefined ? undefined : this.#operatorMatching(this.#i);
    // `2>x`: digits right before `<` or `>` name a file descriptor (`2&>x` is a word and `&>`).
    if (op === undefined || !REDIRECTIONS.has(op) || op.charCodeAt(0) === AMPERSAND) return word;
    return this.#redirection(op, word.start, fd, nesting, heredocs);
  }

  #redirection(
    op: string,
    start: number,
    fd: string | undefined,
    nesting: number,
    heredocs: Redirection[],
  ): Redirection {
    const s = this.#s;
    this.#i += op.length;
    const opEnd = this.#i;
    while (this.#i < this.#end && (isBlank(s.charCodeAt(this.#i)) || this.#isLineJoin(this.#i)))
      this.#i += s.charCodeAt(this.#i) === BACKSLASH ? 2 : 1;
    const target =
      s.charCodeAt(this.#i) !== 35 && this.#startsWord(this.#i) ? this.#word(nesting) : undefined;
    if (target === undefined) this.#i = opEnd;
    const token: Redirection = { kind: 'redirection', op, fd, target, start, end: target?.end ?? opEnd };
    if ((op === '<<' || op === '<<-') && target !== undefined) heredocs.push(token);
    return token;
  }

  /** The body of the here-document `doc` (its delimiter word is `doc.target`), read from the cursor. */
  #hereDocument(doc: Redirection): HereDocument {
    const s = this.#s;
    let delimiter = '';
    let quoted = false;
    for (const part of doc.target?.parts ?? []) {
      if (part.quoting !== 'unquoted') quoted = true;
      delimiter += part.kind === 'text' ? part.text : s.slice(part.start, part.end);
    }
    const stripTabs = doc.op === '<<-';
    const start = this.#i;
    let line = start;
    while (line < this.#end) {
      const stop = this.#find('\n', line);
      let from = line;
      while (stripTabs && from < stop && s[from] === '\t') from++;
      if (stop - from === delimiter.length && s.startsWith(delimiter, from)) break;
      line = stop + 1;
    }
    line = Math.min(line, this.#end);
    this.#i = this.#find('\n', line);
    return { kind: 'heredoc', delimiter, quoted, stripTabs, body: { start, end: line }, start, end: this.#i };
  }

  #word(nesting: number): Word {
    const start = this.#i;
    const from = PARTS.length;
    this.#parts('word', nesting, PARTS);
    return { kind: 'word', parts: partsSince(from), start, end: this.#i };
  }

  /** Literal text from `run` to the cursor, if any, as a part of `quoting`. */
  #text(run: number, quoting: Quoting, into: Part[]): void {
    if (run >= 0)
      into.push({ kind: 'text', quoting, text: this.#s.slice(run, this.#i), start: run, end: this.#i });
  }

  /** Reads parts into `into` up to what ends `mode` (left unread) or the end. */
  #parts(mode: Mode, nesting: number, into: Part[]): void {
    const s = this.#s;
    const quoted = mode === 'double' || mode === 'heredoc';
    const quoting: Quoting = quoted ? 'double' : 'unquoted';
    const inWord = mode === 'word';
    /** Start of the literal text being read, or -1. */
    let run = -1;
    /** `$((…))`: parentheses opened inside it and not closed. */
    let parens = 0;
    while (this.#i < this.#end) {
      const i = this.#i;
      const c = s.charCodeAt(i);
      if (inWord && isPlainWordChar(c)) {
        // The common run of an unquoted word: nothing in it ends the word or starts a part.
        if (run < 0) run = i;
        let j = i + 1;
        while (j < this.#end && isPlainWordChar(s.charCodeAt(j))) j++;
        this.#i = j;
        continue;
      }
      const next = this.#next(i);
      const substitution = inWord && (c === LESS || c === GREATER) && next === OPEN;
      if (!substitution && endsMode(mode, c, parens)) break;
      if (c === BACKSLASH && next === NEWLINE) {
        // A line join right before a word's end is a blank after it, not part of it.
        if (inWord && !this.#startsWord(i + 2)) break;
        this.#text(run, quoting, into);
        run = -1;
        this.#i += 2;
      } else if (!substitution && !startsPart(quoted, c, next)) {
        if (mode === 'arithmetic' && c === OPEN) parens++;
        if (mode === 'arithmetic' && c === CLOSE) parens--;
        if (run < 0) run = i;
        this.#i++;
      } else {
        this.#text(run, quoting, into);
        run = -1;
        if (c === BACKSLASH) {
          into.push({ kind: 'text', quoting: 'escaped', text: s[i + 1] ?? '', start: i, end: i + 2 });
          this.#i += 2;
        } else if (c === APOSTROPHE) into.push(this.#singleQuoted());
        else if (c === QUOTE) {
          this.#i++;
          this.#parts('double', nesting, into);
          this.#close();
        } else if (c === DOLLAR) into.push(this.#dollar(mode, nesting));
        else if (c === BACKTICK) into.push(this.#backticks(quoting, nesting));
        else into.push(this.#commandList(c === LESS ? '<(' : '>(', quoting, nesting));
      }
    }
    this.#text(run, quoting, into);
  }

  /** Index of the next `c` from `from` (`escapes`: not one after a backslash); the end, flagged, if none. */
  #closing(c: number, from: number, escapes: boolean): number {
    const s = this.#s;
    let j = from;
    while (j < this.#end && s.charCodeAt(j) !== c) j += escapes && s.charCodeAt(j) === BACKSLASH ? 2 : 1;
    if (j < this.#end) return j;
    this.#unbalanced = true;
    return this.#end;
  }

  #singleQuoted(): TextPart {
    const start = this.#i;
    const close = this.#closing(APOSTROPHE, start + 1, false);
    this.#i = Math.min(close + 1, this.#end);
    return { kind: 'text', quoting: 'single', text: this.#s.slice(start + 1, close), start, end: this.#i };
  }

  /** `$'…'`, where a backslash escapes the quote. */
  #ansiQuoted(): TextPart {
    const start = this.#i;
    const close = this.#closing(APOSTROPHE, start + 2, true);
    this.#i = Math.min(close + 1, this.#end);
    return { kind: 'text', quoting: 'ansi', text: this.#s.slice(start + 2, close), start, end: this.#i };
  }

  /** `$…` at the cursor, where `startsPart` says an expansion starts. */
  #dollar(mode: Mode, nesting: number): Part {
    const s = this.#s;
    const start = this.#i;
    const next = this.#next(start);
    const quoting: Quoting = mode === 'double' || mode === 'heredoc' ? 'double' : 'unquoted';
    if (next === OPEN && this.#next(start + 1) === OPEN) return this.#arithmetic(quoting, nesting);
    if (next === OPEN) return this.#commandList('$(', quoting, nesting);
    if (next === BRACE) return this.#parameter(quoting, nesting);
    if (next === APOSTROPHE) return this.#ansiQuoted();
    if (!isNameStartCode(next)) {
      this.#i = start + 2;
      return { kind: 'special', quoting, start, end: this.#i };
    }
    let end = start + 2;
    while (end < this.#end && isNameCode(s.charCodeAt(end))) end++;
    this.#i = end;
    return { kind: 'variable', quoting, name: s.slice(start + 1, end), start, end };
  }

  /** Whether a construct opened at `nesting` is one too many: then it is flagged, and not read. */
  #tooDeep(nesting: number): boolean {
    if (nesting < MAX_NESTING) return false;
    this.#unbalanced = true;
    this.#i = this.#end;
    return true;
  }

  /** Consumes the closing character at the cursor, or flags it missing. */
  #close(): void {
    if (this.#i < this.#end) this.#i++;
    else this.#unbalanced = true;
  }

  #commandList(form: '$(' | '<(' | '>(', quoting: Quoting, nesting: number): CommandPart {
    const start = this.#i;
    this.#i += 2;
    const tokens = this.#tooDeep(nesting) ? [] : this.list(nesting + 1, true);
    const inner = { start: start + 2, end: this.#i };
    this.#close();
    return { kind: 'command', form, quoting, inner, tokens, start, end: this.#i };
  }

  #backticks(quoting: Quoting, nesting: number): CommandPart {
    const start = this.#i;
    const close = this.#closing(BACKTICK, start + 1, true);
    let tokens: Token[] = [];
    const end = this.#end;
    if (!this.#tooDeep(nesting)) {
      this.#end = close;
      this.#i = start + 1;
      tokens = this.list(nesting + 1, false);
      this.#end = end;
    }
    this.#i = Math.min(close + 1, end);
    const inner = { start: start + 1, end: close };
    return { kind: 'command', form: '`', quoting, inner, tokens, start, end: this.#i };
  }

  #parameter(quoting: Quoting, nesting: number): VariablePart | ExpansionPart {
    const start = this.#i;
    this.#i += 2;
    const parts: Part[] = [];
    if (!this.#tooDeep(nesting)) this.#parts('parameter', nesting + 1, parts);
    const inner = { start: start + 2, end: this.#i };
    const closed = this.#i < this.#end;
    this.#close();
    const only = parts.length === 1 ? parts[0] : undefined;
    if (closed && only?.kind === 'text' && only.quoting === 'unquoted' && isName(only.text))
      return { kind: 'variable', quoting, name: only.text, start, end: this.#i };
    return { kind: 'parameter', quoting, inner, parts, start, end: this.#i };
  }

  /**
   * `$((…))`, up to the `)` that balances its first `(`, as the readers before this one took it
   * (bash reads `$((a) b)` as a command substitution: left to the caller).
   */
  #arithmetic(quoting: Quoting, nesting: number): ExpansionPart {
    const start = this.#i;
    this.#i += 3;
    const parts: Part[] = [];
    if (!this.#tooDeep(nesting)) this.#parts('arithmetic', nesting + 1, parts);
    let innerEnd = this.#i;
    this.#close();
    if (this.#i < this.#end && this.#s[this.#i] === ')') this.#i++;
    else {
      this.#parts('arithmetic', nesting + 1, parts);
      innerEnd = this.#i;
      this.#close();
    }
    const inner = { start: start + 3, end: innerEnd };
    return { kind: 'arithmetic', quoting, inner, parts, start, end: this.#i };
  }
}
