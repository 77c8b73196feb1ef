/**
 * [G-PERM-2] `Bash(PATTERN)` against one simple command of the action view. PATTERN is lexed like
 * a command line and read with the same option table as the command (`command-options.ts`): its
 * first word is the command name (basename compared; `*` in it a glob); each of its options must
 * be present on the command, in any order, position or spelling (with its value, a glob, when the
 * pattern gives one); its other words must match the command's positionals in order, a word `*`
 * standing for any number of words and a `*` inside a word for any text in that word. A trailing
 * `:*` means ` *` (Claude Code's prefix form); `*` alone matches every command.
 *
 * An allow rule is read stricter (docs/permissions.md): unless its pattern ends with a `*` word,
 * the command may have no option the pattern does not name — `Bash(npm test)` does not allow
 * `npm test --watch=false --registry=…`, as Claude Code's exact match would not.
 */
import path from 'node:path';
import { optionNames, readArgs, specOf } from '../../action/command-options.ts';
import type { SimpleCommand } from '../../action/view-types.ts';
import { decodeAnsi } from '../../action/view-words.ts';
import { lexShell, type Word } from '../../core/shell-lexer.ts';
import { compileGlob, globMatches } from '../agent/if-rule.ts';

type Glob = ReturnType<typeof compileGlob>;

export interface BashPattern {
  /** `*` alone: every command. */
  readonly all: boolean;
  readonly name: Glob;
  readonly options: readonly { readonly names: readonly string[]; readonly value?: Glob }[];
  /** `rest`: a `*` word, any number of words. */
  readonly positionals: readonly (Glob | 'rest')[];
  /** The pattern ends with a `*` word: more options and words may follow. */
  readonly open: boolean;
}

/** A `*`-glob's text for a word: unquoted `*` a wildcard, a quoted one a literal star. */
function globText(source: string, word: Word, home: string): { text: string; value: string } {
  let text = '';
  let value = '';
  const literalGlob = (s: string) => s.replaceAll('\\', '\\\\').replaceAll('*', '\\*');
  word.parts.forEach((part, i) => {
    if (part.kind === 'text') {
      const raw = part.quoting === 'ansi' ? decodeAnsi(part.text) : part.text;
      const tilde = i === 0 && part.quoting === 'unquoted' && (raw === '~' || raw.startsWith('~/'));
      const literal = tilde ? home + raw.slice(1) : raw;
      text += part.quoting === 'unquoted' ? literal.replaceAll('\\', '\\\\') : literalGlob(literal);
      value += literal;
    } else if (part.kind === 'variable' && part.name === 'HOME') {
      text += literalGlob(home);
      value += home;
    } else {
      const raw = source.slice(part.start, part.end);
      text += literalGlob(raw);
      value += raw;
    }
  });
  return { text, value };
}

export function compileBashPattern(pattern: string, home: string): BashPattern {
  let source = pattern.trim();
  if (source.endsWith(':*')) source = `${source.slice(0, -2)} *`;
  const words = lexShell(source).tokens.filter((t): t is Word => t.kind === 'word');
  const texts = words.map((w) => globText(source, w, home));
  const all = texts.length === 1 && texts[0]!.text === '*';
  const first = texts[0] ?? { text: '', value: '' };
  const name = compileGlob(path.posix.basename(first.text));
  const rest = texts.slice(1);
  const read = readArgs(
    specOf(path.posix.basename(first.value)),
    rest.map((t) => ({ text: t.value, dynamic: false })),
  );
  const options = read.flags.map((f) =>
    f.value === undefined ? { names: f.names } : { names: f.names, value: compileGlob(f.value) },
  );
  const positionals = read.positionals.map((k) => {
    const t = rest[k]!.text;
    return t === '*' ? ('rest' as const) : compileGlob(t);
  });
  return { all, name, options, positionals, open: rest.at(-1)?.text === '*' };
}

/** Words against pattern words, `rest` matching any run of words (two pointers, one backtrack). */
function positionalsMatch(pattern: readonly (Glob | 'rest')[], words: readonly string[]): boolean {
  let p = 0;
  let w = 0;
  let starP = -1;
  let starW = 0;
  while (w < words.length) {
    const item = pattern[p];
    if (item !== undefined && item !== 'rest' && globMatches(item, words[w]!)) {
      p++;
      w++;
    } else if (item === 'rest') {
      starP = p++;
      starW = w;
    } else if (starP >= 0) {
      p = starP + 1;
      w = ++starW;
    } else return false;
  }
  while (pattern[p] === 'rest') p++;
  return p === pattern.length;
}

/** Whether `pattern` matches `command` (a command whose name is known: see G-PERM-3 for the others). */
export function bashPatternMatches(pattern: BashPattern, command: SimpleCommand, strict: boolean): boolean {
  if (command.dynamic) return false;
  if (pattern.all) return true;
  if (!globMatches(pattern.name, command.name)) return false;
  for (const option of pattern.options) {
    const given = command.flags.filter((f) => f.names.some((n) => option.names.includes(n)));
    if (given.length === 0) return false;
    const value = option.value;
    if (value !== undefined && !given.some((f) => f.value !== undefined && globMatches(value, f.value)))
      return false;
  }
  if (strict && !pattern.open) {
    const named = new Set(pattern.options.flatMap((o) => o.names));
    if (optionNames(command.flags).some((n) => !named.has(n))) return false;
  }
  return positionalsMatch(pattern.positionals, command.positionals);
}
