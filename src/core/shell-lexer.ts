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

const BLANKS = ' \t\r';
/** What ends an unquoted word (`<(` and `>(` excepted). */
const METACHARACTERS = ' \t\r\n;&|()<>';
/** Longest first, so `&&` is not read as two `&`. */
const OPERATORS = [
  '&&',
  '&>>',
  '&>',
  '||',
  '|&',
  ';;',
  '<<<',
  '<<-',
  '<<',
  '>>',
  '<&',
  '>&',
  '<>',
  '>|',
  ';',
  '&',
  '|',
  '<',
  '>',
];
const REDIRECTIONS = new Set(['&>>', '&>', '<<<', '<<-', '<<', '>>', '<&', '>&', '<>', '>|', '<', '>']);
const SPECIAL_PARAMETERS = '0123456789@*#?$!-';
/** What a backslash escapes inside double quotes; before anything else it is a literal `\`. */
const DOUBLE_QUOTE_ESCAPES = '$`"\\';

/** Where parts are read: an unquoted word, `"…"`, `${…}`, `$((…))`, or a here-document body. */
type Mode = 'word' | 'double' | 'parameter' | 'arithmetic' | 'heredoc';

function isNameStart(c: string | undefined): boolean {
  return c !== undefined && ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c === '_');
}

function isNameChar(c: string | undefined): boolean {
  return isNameStart(c) || (c !== undefined && c >= '0' && c <= '9');
}

function isName(text: string): boolean {
  if (!isNameStart(text[0])) return false;
  for (const c of text) if (!isNameChar(c)) return false;
  return true;
}

/** A word that is only unquoted digits: before a redirection, the file descriptor it applies to. */
function digitsOf(word: Word): string | undefined {
  const only = word.parts.length === 1 ? word.parts[0] : undefined;
  if (only?.kind !== 'text' || only.quoting !== 'unquoted') return undefined;
  for (const c of only.text) if (c < '0' || c > '9') return undefined;
  return only.text;
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
    const parts: Part[] = [];
    this.#parts('heredoc', depth, parts);
    return parts;
  }

  /**
   * A command list up to the end, or (`closedByParen`: inside `$(…)`, `<(…)`, `>(…)`) up to its
   * unmatched `)`, which is left to the caller. `depth`: the constructs the list stands in.
   */
  list(depth: number, closedByParen: boolean): Token[] {
    const s = this.#s;
    const tokens: Token[] = [];
    const heredocs: Redirection[] = [];
    let parens = 0;
    while (this.#i < this.#end) {
      const i = this.#i;
      const c = s[i]!;
      if (BLANKS.includes(c)) this.#i++;
      else if (this.#isLineJoin(i)) this.#i += 2;
      else if (c === '#') tokens.push(this.#comment());
      else if (c === '\n') {
        tokens.push(this.#operator('\n'));
        for (const [k, doc] of heredocs.splice(0).entries()) {
          // The next body starts on the line after the last one's delimiter.
          if (k > 0 && this.#i < this.#end) this.#i++;
          tokens.push(this.#hereDocument(doc));
        }
      } else if (c === '(') {
        parens++;
        if (depth + parens > MAX_NESTING) this.#unbalanced = true;
        tokens.push(this.#operator(c));
      } else if (c === ')') {
        if (parens === 0 && closedByParen) return tokens;
        if (parens === 0) this.#unbalanced = true;
        else parens--;
        tokens.push(this.#operator(c));
      } else if (this.#startsWord(i)) tokens.push(this.#wordOrRedirection(depth + parens, heredocs));
      else tokens.push(this.#operatorAt(depth + parens, heredocs));
    }
    if (parens > 0 || closedByParen) this.#unbalanced = true;
    return tokens;
  }

  #isLineJoin(i: number): boolean {
    return this.#s[i] === '\\' && this.#next(i) === '\n';
  }

  #next(i: number): string | undefined {
    return i + 1 < this.#end ? this.#s[i + 1] : undefined;
  }

  #startsWord(i: number): boolean {
    const c = this.#s[i];
    if (c === undefined || i >= this.#end) return false;
    return !METACHARACTERS.includes(c) || ((c === '<' || c === '>') && this.#next(i) === '(');
  }

  /** Index of the next `c` from `from`, or the end. */
  #find(c: string, from: number): number {
    let j = from;
    while (j < this.#end && this.#s[j] !== c) j++;
    return j;
  }

  #operator(op: string): Operator {
    const start = this.#i;
    this.#i += op.length;
    return { kind: 'operator', op, start, end: this.#i };
  }

  #operatorMatching(i: number): string | undefined {
    return OPERATORS.find((o) => this.#s.startsWith(o, i) && i + o.length <= this.#end);
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
    if (op === undefined || !REDIRECTIONS.has(op) || op.startsWith('&')) return word;
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
    while (this.#i < this.#end && (BLANKS.includes(s[this.#i]!) || this.#isLineJoin(this.#i)))
      this.#i += s[this.#i] === '\\' ? 2 : 1;
    const target = s[this.#i] !== '#' && this.#startsWord(this.#i) ? this.#word(nesting) : undefined;
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
    const parts: Part[] = [];
    this.#parts('word', nesting, parts);
    return { kind: 'word', parts, start, end: this.#i };
  }

  /** Reads parts into `into` up to what ends `mode` (left unread) or the end. */
  #parts(mode: Mode, nesting: number, into: Part[]): void {
    const s = this.#s;
    const quoting: Quoting = mode === 'double' || mode === 'heredoc' ? 'double' : 'unquoted';
    /** Start of the literal text being read, or -1. */
    let run = -1;
    const flush = () => {
      if (run >= 0)
        into.push({ kind: 'text', quoting, text: s.slice(run, this.#i), start: run, end: this.#i });
      run = -1;
    };
    /** `$((…))`: parentheses opened inside it and not closed. */
    let parens = 0;
    while (this.#i < this.#end) {
      const i = this.#i;
      const c = s[i]!;
      const next = this.#next(i);
      const substitution = mode === 'word' && (c === '<' || c === '>') && next === '(';
      if (!substitution && this.#endsMode(mode, c, parens)) break;
      if (c === '\\' && next === '\n') {
        // A line join right before a word's end is a blank after it, not part of it.
        if (mode === 'word' && !this.#startsWord(i + 2)) break;
        flush();
        this.#i += 2;
      } else if (!substitution && !this.#startsPart(mode, c, next)) {
        if (mode === 'arithmetic' && c === '(') parens++;
        if (mode === 'arithmetic' && c === ')') parens--;
        if (run < 0) run = i;
        this.#i++;
      } else {
        flush();
        if (c === '\\') {
          into.push({ kind: 'text', quoting: 'escaped', text: next ?? '', start: i, end: i + 2 });
          this.#i += 2;
        } else if (c === "'") into.push(this.#singleQuoted());
        else if (c === '"') {
          this.#i++;
          this.#parts('double', nesting, into);
          this.#close();
        } else if (c === '$') into.push(this.#dollar(mode, nesting));
        else if (c === '`') into.push(this.#backticks(quoting, nesting));
        else into.push(this.#commandList(c === '<' ? '<(' : '>(', quoting, nesting));
      }
    }
    flush();
  }

  #endsMode(mode: Mode, c: string, parens: number): boolean {
    if (mode === 'word') return METACHARACTERS.includes(c);
    if (mode === 'double') return c === '"';
    if (mode === 'heredoc') return false;
    if (mode === 'parameter') return c === '}';
    return c === ')' && parens === 0;
  }

  /** Whether `c` (then `next`) starts something other than literal text. */
  #startsPart(mode: Mode, c: string, next: string | undefined): boolean {
    const quoted = mode === 'double' || mode === 'heredoc';
    if (c === '`') return true;
    if (c === "'" || c === '"') return !quoted;
    if (next === undefined) return false;
    if (c === '\\') return !quoted || DOUBLE_QUOTE_ESCAPES.includes(next);
    if (c !== '$') return false;
    if (next === "'") return !quoted;
    return next === '(' || next === '{' || isNameStart(next) || SPECIAL_PARAMETERS.includes(next);
  }

  /** Index of the next `c` from `from` (`escapes`: not one after a backslash); the end, flagged, if none. */
  #closing(c: string, from: number, escapes: boolean): number {
    let j = from;
    while (j < this.#end && this.#s[j] !== c) j += escapes && this.#s[j] === '\\' ? 2 : 1;
    if (j < this.#end) return j;
    this.#unbalanced = true;
    return this.#end;
  }

  #singleQuoted(): TextPart {
    const start = this.#i;
    const close = this.#closing("'", start + 1, false);
    this.#i = Math.min(close + 1, this.#end);
    return { kind: 'text', quoting: 'single', text: this.#s.slice(start + 1, close), start, end: this.#i };
  }

  /** `$'…'`, where a backslash escapes the quote. */
  #ansiQuoted(): TextPart {
    const start = this.#i;
    const close = this.#closing("'", start + 2, true);
    this.#i = Math.min(close + 1, this.#end);
    return { kind: 'text', quoting: 'ansi', text: this.#s.slice(start + 2, close), start, end: this.#i };
  }

  /** `$…` at the cursor, where `#startsPart` says an expansion starts. */
  #dollar(mode: Mode, nesting: number): Part {
    const s = this.#s;
    const start = this.#i;
    const next = this.#next(start);
    const quoting: Quoting = mode === 'double' || mode === 'heredoc' ? 'double' : 'unquoted';
    if (next === '(' && this.#next(start + 1) === '(') return this.#arithmetic(quoting, nesting);
    if (next === '(') return this.#commandList('$(', quoting, nesting);
    if (next === '{') return this.#parameter(quoting, nesting);
    if (next === "'") return this.#ansiQuoted();
    if (!isNameStart(next)) {
      this.#i = start + 2;
      return { kind: 'special', quoting, start, end: this.#i };
    }
    let end = start + 2;
    while (end < this.#end && isNameChar(s[end])) end++;
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
    const close = this.#closing('`', start + 1, true);
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
