/**
 * Tool/trigger matchers, compiled once at load: the gate's [L-MATCH-1..4] (`compileMatcher`): not
 * a glob: with `*` each star becomes `.*` and the whole is anchored, other regex characters keep
 * their meaning; without `*` an exact comparison comes first, then an unanchored regex. Each agent
 * dialect's own matcher is in its folder (issue 31), built from the pieces exported here:
 * Claude Code's [C-MATCH-2] in `dialects/agent/claude-matcher.ts` (Codex and the policy use it
 * too), Gemini CLI's [G-EV-1], Cursor's [A-CUR-1] and Copilot CLI's [A-COP-1] in `matcher.ts` of
 * their folders.
 *
 * [L-MATCH-4] Every regex runs on a linear-time engine (re2js, a port of RE2), never on V8's
 * backtracking RegExp. Patterns keep their JavaScript meaning: V8 only parses them (which is linear
 * and never matches), `translateJsRegex` rewrites JavaScript spellings into RE2 ones, and what RE2
 * cannot do (backreferences, lookaround) is an error; such a matcher matches only the exact name.
 */
import { RE2JS } from 're2js';
import { errorMessage } from '../core/errno.ts';

export interface CompiledMatcher {
  readonly source: string | undefined;
  /**
   * Set when the pattern is not a valid regular expression [L-MATCH-3], or uses a feature the
   * linear-time engine does not support [L-MATCH-4]: it then matches only exactly.
   */
  readonly error?: string;
  test(value: string | undefined): boolean;
}

const ALWAYS: CompiledMatcher = { source: undefined, test: () => true };

/** Matches every value: `pattern` is kept as the matcher's source. */
export function always(pattern: string | undefined): CompiledMatcher {
  return pattern === undefined ? ALWAYS : { source: pattern, test: () => true };
}

/** For a pattern that cannot run as a regex: it only compares; a missing value matches [L-MATCH-1]. */
export function exactOnly(pattern: string, error: string): CompiledMatcher {
  return { source: pattern, error, test: (value) => value === undefined || value === pattern };
}

// ---------------------------------------------------------------------------------------------
// Gate dialect

/** [L-MATCH-1..4] A gate matcher. */
export function compileMatcher(pattern: string | undefined): CompiledMatcher {
  if (pattern === undefined || pattern === '' || pattern === '*') return always(pattern);
  const starred = pattern.includes('*');
  const compiled = compileRegex(starred ? `^${pattern.replaceAll('*', '.*')}$` : pattern, pattern);
  // [L-MATCH-3/4] An invalid or unsupported regex still matches exactly, and validate reports it.
  if (typeof compiled === 'string') return exactOnly(pattern, compiled);
  const regex = compiled;
  return {
    source: pattern,
    // [L-MATCH-1] No toolName and no trigger: every matcher matches.
    test: starred
      ? (value) => value === undefined || regex(value)
      : (value) => value === undefined || value === pattern || regex(value),
  };
}

/** [L-MATCH-1] The value a matcher is tested against: `toolName`, else `trigger`. */
export function matchTarget(context: { toolName?: unknown; trigger?: unknown }): string | undefined {
  if (typeof context.toolName === 'string') return context.toolName;
  if (typeof context.trigger === 'string') return context.trigger;
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// The shared regex compiler

/** An unanchored test of a compiled pattern: linear in the length of the value. */
export type RegexTest = (value: string) => boolean;

const onlyExact = 'it matches only the exact name';

/**
 * Compiles a JavaScript regex source (no flags) for the linear-time engine. Returns the test, or
 * the error text (one line) when the source is not a valid JavaScript regex or uses a feature the
 * engine does not support. `shown` is the matcher as the user wrote it, for the message.
 */
export function compileRegex(source: string, shown: string): RegexTest | string {
  try {
    // V8 only parses here (linear, no matching): what is valid keeps today's JavaScript meaning.
    new RegExp(source);
  } catch (err) {
    const detail =
      err instanceof SyntaxError ? err.message.replace(/^Invalid regular expression: /, '') : String(err);
    return `matcher ${JSON.stringify(shown)} is not a valid regular expression (${detail}); ${onlyExact}`;
  }
  const translated = translateJsRegex(source);
  if ('unsupported' in translated) return unsupported(shown, translated.unsupported);
  let re: RE2JS;
  try {
    re = RE2JS.compile(translated.re2);
  } catch (err) {
    const detail = errorMessage(err)
      .replace(/^error parsing regexp: /, '')
      .replace(/\s+/g, ' ');
    return unsupported(shown, detail);
  }
  const fast = literalShape(source);
  if (fast === undefined) return (value) => re.test(re2Value(value));
  if (!fast.gapped) return fast.test;
  // `.` in a gap does not match line terminators: such rare values go to the engine.
  const fastTest = fast.test;
  return (value) => (hasLineTerminator(value) ? re.test(re2Value(value)) : fastTest(value));
}

function unsupported(shown: string, what: string): string {
  return `matcher ${JSON.stringify(shown)} uses a feature the linear-time regex engine does not support (${what}); ${onlyExact}`;
}

function hasLineTerminator(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 0x0a || c === 0x0d || c === 0x2028 || c === 0x2029) return true;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// Fast path: alternatives of literals with `.*` gaps, tested with string methods (no allocation)

interface Alternative {
  readonly start: boolean;
  readonly end: boolean;
  /** Literal pieces; between two pieces a gap `.*` (any characters but line terminators). */
  readonly parts: readonly string[];
}

const META = new Set(['\\', '^', '$', '.', '|', '?', '*', '+', '(', ')', '[', ']', '{', '}']);
/** Escapes that stand for the character itself (`\.` is a dot); letters and digits never do here. */
const LITERAL_ESCAPES = new Set([...META, '/', '-']);

/**
 * Recognizes `A|B…` where each alternative is `^?` (literal | `.*`)* `$?`, and `^?(A|B…)$?` /
 * `^?(?:A|B…)$?`; undefined for anything else. The result tests exactly as V8 would (as long as a
 * gapped pattern is not tested against a value holding a line terminator).
 */
export function literalShape(source: string): { gapped: boolean; test: RegexTest } | undefined {
  let alternatives = parseAlternatives(source, false);
  if (alternatives === undefined) {
    // ^?(A|B)$? or ^?(?:A|B)$?
    let i = 0;
    const start = source.startsWith('^');
    if (start) i++;
    if (source[i] !== '(') return undefined;
    i += source.startsWith('(?:', i) ? 3 : 1;
    if (source[i] === '?') return undefined;
    const end = source.endsWith(')$');
    const close = source.length - (end ? 2 : 1);
    if (source[close] !== ')' || close < i) return undefined;
    alternatives = parseAlternatives(source.slice(i, close), true)?.map((alt) => ({
      start,
      end,
      parts: alt.parts,
    }));
    if (alternatives === undefined) return undefined;
  }
  const alts = alternatives.map(normalize);
  const gapped = alts.some((alt) => alt.parts.length > 1);
  return { gapped, test: alternativesTest(alts) };
}

/** The test for a list of alternatives, specialized for the common shapes. */
function alternativesTest(alts: readonly Alternative[]): RegexTest {
  if (alts.length === 1) {
    const alt = alts[0]!;
    const lit = alt.parts[0]!;
    if (alt.parts.length > 1) return (value) => matchAlternative(alt, value);
    if (alt.start) return alt.end ? (value) => value === lit : (value) => value.startsWith(lit);
    return alt.end ? (value) => value.endsWith(lit) : (value) => value.includes(lit);
  }
  const literals = alts.map((alt) => alt.parts[0]!);
  if (alts.every((alt) => alt.start && alt.end && alt.parts.length === 1)) {
    return (value) => literals.includes(value);
  }
  if (alts.every((alt) => !alt.start && !alt.end && alt.parts.length === 1)) {
    return (value) => {
      for (let i = 0; i < literals.length; i++) if (value.includes(literals[i]!)) return true;
      return false;
    };
  }
  return (value) => {
    for (let i = 0; i < alts.length; i++) if (matchAlternative(alts[i]!, value)) return true;
    return false;
  };
}

/** Splits at top-level `|`; in a group (`inGroup`) no anchors are allowed inside. */
function parseAlternatives(source: string, inGroup: boolean): Alternative[] | undefined {
  const out: Alternative[] = [];
  let parts: string[] = [];
  let current = '';
  let start = false;
  let end = false;
  let atStart = true;
  for (let i = 0; i <= source.length; i++) {
    const ch = source[i];
    if (ch === undefined || ch === '|') {
      parts.push(current);
      out.push({ start, end, parts });
      parts = [];
      current = '';
      start = false;
      end = false;
      atStart = true;
      continue;
    }
    if (end) return undefined; // something after `$`
    if (ch === '^') {
      if (!atStart || inGroup) return undefined;
      start = true;
      atStart = false;
      continue;
    }
    atStart = false;
    if (ch === '$') {
      if (inGroup) return undefined;
      end = true;
      continue;
    }
    if (ch === '.') {
      // Only `.*` (or lazy `.*?`, the same for a test) is a gap; `.`, `.+`, `.{2}` are not.
      if (source[i + 1] !== '*') return undefined;
      parts.push(current);
      current = '';
      i += source[i + 2] === '?' ? 2 : 1;
      continue;
    }
    if (ch === '\\') {
      const next = source[i + 1];
      if (next === undefined || !LITERAL_ESCAPES.has(next)) return undefined;
      if (isQuantifier(source[i + 2])) return undefined;
      current += next;
      i++;
      continue;
    }
    if (META.has(ch)) return undefined;
    if (isQuantifier(source[i + 1])) return undefined;
    current += ch;
  }
  return out;
}

function isQuantifier(ch: string | undefined): boolean {
  return ch === '*' || ch === '+' || ch === '?' || ch === '{';
}

/** Drops gaps that can match nothing: a leading `.*` when unanchored at the start, a trailing one at the end. */
function normalize(alt: Alternative): Alternative {
  const parts = [...alt.parts];
  while (parts.length > 1 && !alt.start && parts[0] === '') parts.shift();
  while (parts.length > 1 && !alt.end && parts[parts.length - 1] === '') parts.pop();
  return { start: alt.start, end: alt.end, parts };
}

function matchAlternative(alt: Alternative, value: string): boolean {
  const parts = alt.parts;
  const first = parts[0]!;
  if (parts.length === 1) {
    if (alt.start) return alt.end ? value === first : value.startsWith(first);
    return alt.end ? value.endsWith(first) : value.includes(first);
  }
  // Gaps match anything (no line terminator in `value`): the earliest place of each piece is best.
  let pos: number;
  if (alt.start) {
    if (!value.startsWith(first)) return false;
    pos = first.length;
  } else {
    const at = value.indexOf(first);
    if (at < 0) return false;
    pos = at + first.length;
  }
  const last = parts.length - 1;
  for (let k = 1; k < last; k++) {
    const part = parts[k]!;
    const at = value.indexOf(part, pos);
    if (at < 0) return false;
    pos = at + part.length;
  }
  const tail = parts[last]!;
  if (alt.end) return value.length - tail.length >= pos && value.endsWith(tail);
  return value.indexOf(tail, pos) >= 0;
}

// ---------------------------------------------------------------------------------------------
// JavaScript regex syntax → RE2 syntax

/** JavaScript's `\s` (WhiteSpace and LineTerminator), as RE2 class ranges. */
const JS_SPACE =
  '\\x{9}-\\x{D}\\x{20}\\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}';
/** Its complement, for `\S` (which may stand inside a class, where RE2 has no nested negation). */
const JS_NON_SPACE =
  '\\x{0}-\\x{8}\\x{E}-\\x{1F}\\x{21}-\\x{9F}\\x{A1}-\\x{167F}\\x{1681}-\\x{1FFF}\\x{200B}-\\x{2027}' +
  '\\x{202A}-\\x{202E}\\x{2030}-\\x{205E}\\x{2060}-\\x{2FFF}\\x{3001}-\\x{FEFE}\\x{FF00}-\\x{10FFFF}';
/** JavaScript's `.` without the `s` flag: anything but a line terminator (RE2's excludes only `\n`). */
const JS_DOT = '[^\\x{A}\\x{D}\\x{2028}\\x{2029}]';

const QUANTIFIER = /\{\d+(?:,\d*)?\}/y;

type Translation = { readonly re2: string } | { readonly unsupported: string };

/**
 * Rewrites a valid JavaScript regex source (no flags, so Annex B syntax) into RE2 syntax with the
 * same meaning, or names the first feature RE2 cannot express. Spelling differences are translated:
 * `.` and `\s`/`\S` (JavaScript's sets), `\uXXXX`, `\xHH`, `\cX`, `\0` and legacy octal escapes,
 * identity escapes (`\/`, `\a` = `a`, `\z` = `z`, `\k`, `\p` …), named groups (names dropped),
 * `[]`/`[^]`, `[` inside a class, and `{` / `}` that are not quantifiers. Backreferences,
 * lookahead, lookbehind and inline modifier groups are unsupported.
 */
export function translateJsRegex(source: string): Translation {
  const { groups, named } = countGroups(source);
  let out = '';
  let i = 0;
  const n = source.length;
  while (i < n) {
    const ch = source[i]!;
    switch (ch) {
      case '\\': {
        const esc = readEscape(source, i + 1, false, groups, named);
        if ('unsupported' in esc) return esc;
        out += esc.re2;
        i = esc.next;
        break;
      }
      case '[': {
        const cls = readClass(source, i + 1);
        out += cls.re2;
        i = cls.next;
        break;
      }
      case '(': {
        if (source[i + 1] !== '?') {
          out += '(';
          i++;
        } else if (source[i + 2] === ':') {
          out += '(?:';
          i += 3;
        } else if (source[i + 2] === '=' || source[i + 2] === '!') {
          return { unsupported: `lookahead ${source.slice(i, i + 3)}` };
        } else if (source[i + 2] === '<' && (source[i + 3] === '=' || source[i + 3] === '!')) {
          return { unsupported: `lookbehind ${source.slice(i, i + 4)}` };
        } else if (source[i + 2] === '<') {
          // A named group: the name only matters for backreferences, which RE2 lacks anyway.
          const close = source.indexOf('>', i + 3);
          out += '(';
          i = close < 0 ? n : close + 1;
        } else {
          const colon = source.indexOf(':', i);
          return { unsupported: `inline modifier group ${source.slice(i, colon < 0 ? i + 3 : colon + 1)}` };
        }
        break;
      }
      case '.':
        out += JS_DOT;
        i++;
        break;
      case '{': {
        // A JavaScript quantifier passes as is; any other `{` is a literal (Annex B).
        QUANTIFIER.lastIndex = i;
        const quantifier = QUANTIFIER.exec(source);
        out += quantifier === null ? '\\{' : quantifier[0];
        i += quantifier === null ? 1 : quantifier[0].length;
        break;
      }
      case '}':
      case ']':
        out += `\\${ch}`;
        i++;
        break;
      case '^':
      case '$':
      case '|':
      case ')':
      case '*':
      case '+':
      case '?':
        out += ch;
        i++;
        break;
      default:
        // One UTF-16 unit at a time: without the `u` flag V8 reads a non-BMP character as two.
        out += literal(source.charCodeAt(i));
        i++;
    }
  }
  return { re2: out };
}

/** Capturing groups (numbered and named) outside classes, and whether any is named. */
function countGroups(source: string): { groups: number; named: boolean } {
  let groups = 0;
  let named = false;
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i];
    if (ch === '\\') i++;
    else if (inClass) inClass = ch !== ']';
    else if (ch === '[') inClass = true;
    else if (ch === '(') {
      if (source[i + 1] !== '?') groups++;
      else if (source[i + 2] === '<' && source[i + 3] !== '=' && source[i + 3] !== '!') {
        groups++;
        named = true;
      }
    }
  }
  return { groups, named };
}

function hex(cp: number): string {
  return `\\x{${asPoint(cp).toString(16).toUpperCase()}}`;
}

// V8 (no `u` flag) reads strings and patterns as UTF-16 units, RE2 as code points. So a surrogate
// unit stands for itself: in patterns it is spelled as the code point SURROGATE_POINTS + (unit -
// 0xD800) (plane 15, private use), and `re2Value` spells the units of a tested value the same way.
// Then `.`, `[^…]` and `\S` take one unit of a non-BMP character, as V8 does.
const SURROGATE_POINTS = 0xf0000;

function asPoint(unit: number): number {
  return unit >= 0xd800 && unit <= 0xdfff ? SURROGATE_POINTS + unit - 0xd800 : unit;
}

/** `value` as RE2 must see it: each surrogate unit as its code point (see SURROGATE_POINTS). */
function re2Value(value: string): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    out += value.slice(from, i) + String.fromCodePoint(asPoint(c));
    from = i + 1;
  }
  return from === 0 ? value : out + value.slice(from);
}

/** A class range of UTF-16 units, split where it crosses the surrogate units (spelled apart). */
function classRange(lo: number, hi: number): string {
  const pieces: string[] = [];
  const span = (a: number, b: number) => pieces.push(a === b ? hex(a) : `${hex(a)}-${hex(b)}`);
  if (lo < 0xd800) span(lo, Math.min(hi, 0xd7ff));
  if (hi >= 0xd800 && lo <= 0xdfff) span(Math.max(lo, 0xd800), Math.min(hi, 0xdfff));
  if (hi > 0xdfff) span(Math.max(lo, 0xe000), hi);
  return pieces.join('');
}

/** One character as an RE2 atom outside a class. */
function literal(cp: number): string {
  if ((cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a) || cp === 0x5f) {
    return String.fromCharCode(cp);
  }
  return hex(cp);
}

type Escape = { re2: string; next: number; cp?: number; set?: boolean } | { unsupported: string };

const HEX2 = /^[0-9A-Fa-f]{2}$/;
const HEX4 = /^[0-9A-Fa-f]{4}$/;

/**
 * The escape after a backslash at `at` (Annex B meaning), as RE2 text. `cp` is set when it stands
 * for one character (a class range may use it), `set` when it is a class escape like `\d`.
 */
function readEscape(source: string, at: number, inClass: boolean, groups: number, named: boolean): Escape {
  const ch = source[at];
  const char = (cp: number, next: number): Escape => ({ re2: inClass ? hex(cp) : literal(cp), next, cp });
  switch (ch) {
    case undefined:
      return char(0x5c, at);
    case 'd':
    case 'D':
    case 'w':
    case 'W':
      return { re2: `\\${ch}`, next: at + 1, set: true };
    case 's':
      return { re2: inClass ? JS_SPACE : `[${JS_SPACE}]`, next: at + 1, set: true };
    case 'S':
      return { re2: inClass ? JS_NON_SPACE : `[${JS_NON_SPACE}]`, next: at + 1, set: true };
    case 'b':
      return inClass ? char(0x08, at + 1) : { re2: '\\b', next: at + 1 };
    case 'B':
      return inClass ? char(0x42, at + 1) : { re2: '\\B', next: at + 1 };
    case 't':
      return char(0x09, at + 1);
    case 'n':
      return char(0x0a, at + 1);
    case 'v':
      return char(0x0b, at + 1);
    case 'f':
      return char(0x0c, at + 1);
    case 'r':
      return char(0x0d, at + 1);
    case 'x': {
      const digits = source.slice(at + 1, at + 3);
      return HEX2.test(digits) ? char(Number.parseInt(digits, 16), at + 3) : char(0x78, at + 1);
    }
    case 'u': {
      const digits = source.slice(at + 1, at + 5);
      if (!HEX4.test(digits)) return char(0x75, at + 1);
      // One unit, a surrogate too: without the `u` flag a pair spelled as two escapes is two units.
      return char(Number.parseInt(digits, 16), at + 5);
    }
    case 'c': {
      const code = source.charCodeAt(at + 1);
      const letter = (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
      const inClassExtra = inClass && ((code >= 0x30 && code <= 0x39) || code === 0x5f);
      if (letter || inClassExtra) return char(code % 32, at + 2);
      // Annex B: `\c` not followed by a control letter is a backslash, then `c` as itself.
      return char(0x5c, at);
    }
    case 'k':
      if (named && !inClass) {
        const close = source.indexOf('>', at);
        return { unsupported: `named backreference ${source.slice(at - 1, close < 0 ? at + 1 : close + 1)}` };
      }
      return char(0x6b, at + 1);
    default:
      break;
  }
  if (ch >= '0' && ch <= '9') {
    if (!inClass && ch !== '0') {
      const digits = /^\d+/.exec(source.slice(at, at + 12))![0];
      if (Number(digits) <= groups) return { unsupported: `backreference \\${digits}` };
    }
    if (ch === '8' || ch === '9') return char(ch.charCodeAt(0), at + 1);
    // Legacy octal: up to three digits, at most \377.
    let end = at + 1;
    const max = ch <= '3' ? 3 : 2;
    while (end < at + max && source[end]! >= '0' && source[end]! <= '7') end++;
    return char(Number.parseInt(source.slice(at, end), 8), end);
  }
  // Identity escape: the character itself (`\/`, `\-`, and in Annex B any letter without a meaning).
  return char(source.charCodeAt(at), at + 1);
}

/** A class after its `[` at `at`: rebuilt item by item, every character spelled `\x{…}`. */
function readClass(source: string, at: number): { re2: string; next: number } {
  let i = at;
  const negated = source[i] === '^';
  if (negated) i++;
  let items = '';
  let empty = true;
  while (i < source.length && source[i] !== ']') {
    const first = classAtom(source, i);
    i = first.next;
    empty = false;
    if (first.cp !== undefined && source[i] === '-' && source[i + 1] !== ']' && source[i + 1] !== undefined) {
      const second = classAtom(source, i + 1);
      if (second.cp !== undefined) {
        items += classRange(first.cp, second.cp);
        i = second.next;
        continue;
      }
    }
    items += first.re2;
  }
  const next = i + 1;
  // [] matches nothing and [^] anything; RE2 would read `]` there as a literal.
  if (empty) return { re2: negated ? '[\\x{0}-\\x{10FFFF}]' : '[^\\x{0}-\\x{10FFFF}]', next };
  return { re2: `[${negated ? '^' : ''}${items}]`, next };
}

function classAtom(source: string, at: number): { re2: string; next: number; cp?: number } {
  if (source[at] === '\\') {
    const esc = readEscape(source, at + 1, true, 0, false);
    // Inside a class nothing is unsupported (no backreferences or groups there).
    if ('unsupported' in esc) return { re2: '', next: at + 2 };
    return esc.set ? { re2: esc.re2, next: esc.next } : { re2: esc.re2, next: esc.next, cp: esc.cp! };
  }
  const cp = source.charCodeAt(at);
  return { re2: hex(cp), next: at + 1, cp };
}
