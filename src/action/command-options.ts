/**
 * [G-ACT-1] A simple command's words after its name, read into options and positionals
 * with the shipped table (`option-table.ts`): short clusters split (`-rf` → `r`, `f`), every
 * spelling of an option named (`-r` = `-R` = `--recursive`), a long option's unique prefix read as
 * that option (`--recur`, as GNU getopt and git do), values taken as the table's arities say
 * (`git -C dir push -f` has positionals `push`), options anywhere on the line (GNU order) unless
 * the command stops reading them at its first positional (POSIX order: wrappers, shells), and
 * `--` ends them. Permission patterns are read by the same function, so a rule and a command
 * always agree on what an option is.
 */
import { familyOf } from './file-access-table.ts';
import { type CommandSpec, OPTION_TABLE } from './option-table.ts';

/** One option as given: its spelling, every name it has, and its value if it took one. */
export interface CommandFlag {
  /** `-f`, `--force`, `-exec` (a cluster's letters each as `-x`). */
  readonly written: string;
  /** Every name of the option, without dashes: `['f', 'force']`. */
  readonly names: readonly string[];
  readonly value?: string;
}

/** What `readArgs` needs of a word: its value, and whether it holds an expansion not known here. */
export interface ArgWord {
  readonly text: string;
  readonly dynamic: boolean;
}

export interface ReadArgs {
  readonly flags: readonly CommandFlag[];
  /** For each flag, the index of the word it was read from. */
  readonly flagAt: readonly number[];
  /** Indices (into the words read) of the positionals, in order. */
  readonly positionals: readonly number[];
}

type Arity = 'none' | 'required' | 'optional';

interface OptionEntry {
  readonly names: readonly string[];
  readonly arity: Arity;
  /** Words a required value takes (`jq --arg NAME VALUE`: 2); the first is the value kept. */
  readonly count: number;
}

export interface CompiledSpec {
  readonly short: ReadonlyMap<string, OptionEntry>;
  readonly long: ReadonlyMap<string, OptionEntry>;
  /** Single-dash words read whole (`-nv`, `-in`). */
  readonly words: ReadonlyMap<string, OptionEntry>;
  /** Long names, for unique-prefix reading; empty for a command not in the table. */
  readonly longNames: readonly string[];
  readonly posix: boolean;
  readonly numeric: string | undefined;
  readonly modeLetters: string | undefined;
  readonly bundled: boolean;
  readonly subcommands: ReadonlyMap<string, CompiledSpec>;
  /** From the table (unique prefixes of long options are read only then). */
  readonly known: boolean;
}

/** One option line of the table, parsed; throws on a malformed line (the table's own tests run it). */
export function parseOptionLine(line: string): OptionEntry & { spellings: readonly string[] } {
  const tokens = line.split(' ').filter((t) => t !== '');
  const values = tokens.filter((t) => t.startsWith('='));
  const spellings = tokens.filter((t) => !t.startsWith('='));
  const optional = values.length === 1 && values[0]!.startsWith('=?');
  const arity: Arity = values.length === 0 ? 'none' : optional ? 'optional' : 'required';
  if (spellings.length === 0) throw new Error(`option line without a spelling: "${line}"`);
  if (!tokens.slice(spellings.length).every((t) => t.startsWith('=')))
    throw new Error(`values come after the spellings: "${line}"`);
  for (const s of spellings)
    if (!/^--?[^-=\s][^=\s]*$/.test(s)) throw new Error(`not an option spelling: "${s}" in "${line}"`);
  return { names: spellings.map((s) => s.replace(/^--?/, '')), arity, count: values.length, spellings };
}

function compile(spec: CommandSpec, known: boolean): CompiledSpec {
  const short = new Map<string, OptionEntry>();
  const long = new Map<string, OptionEntry>();
  const words = new Map<string, OptionEntry>();
  for (const line of spec.options ?? []) {
    const { names, arity, count, spellings } = parseOptionLine(line);
    const entry = { names, arity, count };
    for (const s of spellings) {
      if (s.startsWith('--')) long.set(s.slice(2), entry);
      else if (s.length === 2) short.set(s.slice(1), entry);
      else words.set(s, entry);
    }
  }
  const subcommands = new Map<string, CompiledSpec>();
  for (const [name, sub] of Object.entries(spec.subcommands ?? {})) subcommands.set(name, compile(sub, true));
  return {
    short,
    long,
    words,
    longNames: [...long.keys()],
    posix: spec.posix === true,
    numeric: spec.numeric,
    modeLetters: spec.modeLetters,
    bundled: spec.bundled === true,
    subcommands,
    known,
  };
}

const UNKNOWN: CompiledSpec = compile({}, false);
const COMPILED = new Map<string, CompiledSpec>();
for (const [name, spec] of Object.entries(OPTION_TABLE)) {
  const target = spec.as !== undefined ? OPTION_TABLE[spec.as] : spec;
  if (target === undefined) throw new Error(`option table: ${name} reads as unknown ${spec.as}`);
  COMPILED.set(name, compile(target, true));
}

/** The compiled table entry of a command name (a plain GNU reader for one not in the table). */
export function specOf(name: string): CompiledSpec {
  const own = COMPILED.get(name);
  if (own !== undefined) return own;
  const family = familyOf(name);
  return (family === undefined ? undefined : COMPILED.get(family)) ?? UNKNOWN;
}

/** A long option by exact name, else by unique prefix (table commands only). */
function longOption(spec: CompiledSpec, name: string): OptionEntry | undefined {
  const exact = spec.long.get(name);
  if (exact !== undefined || !spec.known || name.length < 2) return exact;
  let found: OptionEntry | undefined;
  for (const candidate of spec.longNames) {
    if (!candidate.startsWith(name)) continue;
    const entry = spec.long.get(candidate);
    if (found !== undefined && found !== entry) return undefined;
    found = entry;
  }
  return found;
}

function isDigits(text: string): boolean {
  if (text === '') return false;
  for (const c of text) if (c < '0' || c > '9') return false;
  return true;
}

function onlyLetters(text: string, letters: string): boolean {
  for (const c of text) if (!letters.includes(c)) return false;
  return text !== '';
}

/** `-x` for each ASCII letter, made once: a cluster's letters are written so on every call [G-PERF-1]. */
const DASHED: readonly string[] = Array.from({ length: 128 }, (_, c) => `-${String.fromCharCode(c)}`);
/** `[x]`, the names of an option not in the table, for each ASCII character (shared, never written to). */
const ALONE: readonly (readonly string[])[] = Array.from({ length: 128 }, (_, c) =>
  Object.freeze([String.fromCharCode(c)]),
);

function dashed(letter: string): string {
  const c = letter.charCodeAt(0);
  return letter.length === 1 && c < 128 ? DASHED[c]! : `-${letter}`;
}

function alone(name: string): readonly string[] {
  const c = name.charCodeAt(0);
  return name.length === 1 && c < 128 ? ALONE[c]! : [name];
}

/**
 * A `readArgs` call's state: the options read, and the word at. One for all calls (a call runs
 * to its end before the next starts), its lists copied out at the end at their size: a list grown
 * by `push` from empty holds room for 17 [G-PERF-1].
 */
class ArgReader {
  readonly flags: CommandFlag[] = [];
  readonly flagAt: number[] = [];
  readonly positionals: number[] = [];
  words: readonly ArgWord[] = [];
  i = 0;
  /** The word the option being read was read from (a value may move `i` on first). */
  at = 0;

  start(words: readonly ArgWord[]): void {
    this.words = words;
    this.i = 0;
    this.at = 0;
    clear(this.flags);
    clear(this.flagAt);
    clear(this.positionals);
  }

  done(): ReadArgs {
    const out = {
      flags: this.flags.slice(),
      flagAt: this.flagAt.slice(),
      positionals: this.positionals.slice(),
    };
    this.words = [];
    clear(this.flags);
    return out;
  }

  /** The value word(s) after the current one: the first is the value, the others are skipped. */
  next(entry: OptionEntry | undefined): string | undefined {
    const w = this.words[this.i + 1];
    if (w === undefined) return undefined;
    this.i = Math.min(this.words.length - 1, this.i + (entry?.count ?? 1));
    return w.text;
  }

  push(written: string, entry: OptionEntry | undefined, fallback: string, value?: string): void {
    const names = entry?.names ?? alone(fallback);
    this.flagAt.push(this.at);
    this.flags.push(value === undefined ? { written, names } : { written, names, value });
  }
}

const READER = new ArgReader();

/** Empties a short list (`pop` costs less than setting `length`, a call into the runtime). */
function clear(list: unknown[]): void {
  while (list.length > 0) list.pop();
}

/**
 * Reads `words` (the command's words after its name) with `spec`. A subcommand (`git push`) is the
 * first positional; the words after it are read with its own table, in GNU order.
 */
export function readArgs(spec: CompiledSpec, words: readonly ArgWord[]): ReadArgs {
  const r = READER;
  r.start(words);
  const { positionals } = r;
  let current = spec;
  let ended = false;
  for (; r.i < words.length; r.i++) {
    const i = r.i;
    r.at = i;
    const word = words[i]!;
    const t = word.text;
    const dash = t.charCodeAt(0) === 45;
    const bundledFirst = current.bundled && i === 0 && /^[A-Za-z]+$/.test(t);
    if (ended || word.dynamic || t === '-' || (!dash && !bundledFirst)) {
      if (!ended && !word.dynamic && t === '--') {
        ended = true;
        continue;
      }
      positionals.push(i);
      const sub = positionals.length === 1 && !word.dynamic ? current.subcommands.get(t) : undefined;
      if (sub !== undefined || (positionals.length === 1 && current.subcommands.size > 0)) {
        current = sub ?? UNKNOWN;
        ended = false;
      } else if (current.posix) ended = true;
      continue;
    }
    if (t === '--') {
      ended = true;
      continue;
    }
    if (current.numeric !== undefined && t.length > 1 && isDigits(t.slice(1))) {
      r.push(t, current.short.get(current.numeric), current.numeric, t.slice(1));
      continue;
    }
    if (current.modeLetters !== undefined && onlyLetters(t.slice(1), current.modeLetters)) {
      positionals.push(i);
      continue;
    }
    if (dash && t.charCodeAt(1) === 45) {
      const eq = t.indexOf('=');
      const name = eq < 0 ? t.slice(2) : t.slice(2, eq);
      const entry = longOption(current, name);
      const written = eq < 0 ? t : t.slice(0, eq);
      if (eq >= 0) r.push(written, entry, name, t.slice(eq + 1));
      else if (entry?.arity === 'required') r.push(written, entry, name, r.next(entry) ?? '');
      else r.push(written, entry, name);
      continue;
    }
    const whole = current.words.get(t);
    if (whole !== undefined) {
      r.push(t, whole, t.slice(1), whole.arity === 'required' ? (r.next(whole) ?? '') : undefined);
      continue;
    }
    // A cluster: `-rf`; a letter that takes a value takes the rest of the cluster, else the next
    // word; in a bundled first word (`tar czf out.tgz`) each such letter takes the next word in turn.
    const bundled = !dash;
    const from = bundled ? 0 : 1;
    for (let j = from; j < t.length; j++) {
      const letter = t[j]!;
      const entry = current.short.get(letter);
      if (entry?.arity === 'required' && !bundled) {
        const rest = t.slice(j + 1);
        r.push(dashed(letter), entry, letter, rest !== '' ? rest : (r.next(entry) ?? ''));
        break;
      }
      if (entry?.arity === 'required') {
        r.push(dashed(letter), entry, letter, r.next(entry) ?? '');
        continue;
      }
      if (entry?.arity === 'optional' && !bundled) {
        const rest = t.slice(j + 1);
        r.push(dashed(letter), entry, letter, rest === '' ? undefined : rest);
        break;
      }
      r.push(dashed(letter), entry, letter);
    }
  }
  return r.done();
}

/** Every name of every option given, once, in the order first seen. */
export function optionNames(flags: readonly CommandFlag[]): string[] {
  if (flags.length === 0) return [];
  const out: string[] = [];
  for (const f of flags) for (const n of f.names) if (!out.includes(n)) out.push(n);
  return out;
}

/** The option has one of `names` (loops, not closures: asked for every option of every command [G-PERF-1]). */
export function namedAs(flag: CommandFlag, names: readonly string[]): boolean {
  for (const n of flag.names) if (names.includes(n)) return true;
  return false;
}

/** The value of the last option given that has one of `names`. */
export function flagValue(flags: readonly CommandFlag[], names: readonly string[]): string | undefined {
  for (let i = flags.length - 1; i >= 0; i--) {
    const f = flags[i]!;
    if (f.value !== undefined && namedAs(f, names)) return f.value;
  }
  return undefined;
}

/** Some option given has one of `names`. */
export function hasOption(flags: readonly CommandFlag[], names: readonly string[] | undefined): boolean {
  if (names === undefined) return false;
  for (const f of flags) if (namedAs(f, names)) return true;
  return false;
}
