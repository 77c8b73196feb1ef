/**
 * [G-LIB-3, T-SELF-1] Best effort: the program text an interpreter is given on its command line
 * (`python3 -c CODE`, `node -e CODE`, `ruby -e`, `perl -e`, `php -r`, `deno eval`, `bun -e`,
 * an `awk` program, or the here-document an interpreter reads as its program), and the path-like words in such a text (`open('.env')` names `.env`). The
 * `secrets` and `self-protect` guards look for the files they keep in these words: a program that
 * builds a name out of pieces (`'.e' + 'nv'`) or reads it from elsewhere is not seen.
 */
import type { SimpleCommand } from '../action/view-types.ts';

/** Options that give the program, per interpreter family. */
const CODE_OPTIONS: readonly (readonly [RegExp, readonly string[]])[] = [
  [/^(python|pypy)[0-9.]*$/, ['c']],
  [/^(node|nodejs)$/, ['e', 'eval', 'p', 'print']],
  [/^ruby$/, ['e']],
  [/^perl[0-9.]*$/, ['e', 'E']],
  [/^php[0-9.]*$/, ['r']],
  [/^(bun|osascript)$/, ['e', 'eval']],
];

/** The names of the options that give `name`'s program, if it is an interpreter that takes one. */
export function codeOptionsOf(name: string): readonly string[] | undefined {
  return CODE_OPTIONS.find(([re]) => re.test(name))?.[1];
}

export interface CodeGiven {
  /** The program texts. */
  readonly code: readonly string[];
  /** The words after the program: its arguments (or, for `perl -n`/`awk`, the files it reads). */
  readonly args: readonly string[];
}

/** The program texts a command gives an interpreter on its command line; undefined when none. */
export function codeGiven(c: SimpleCommand): CodeGiven | undefined {
  if (c.dynamic) return undefined;
  if (c.name === 'deno' && c.positionals[0] === 'eval' && c.positionals[1] !== undefined)
    return { code: [c.positionals[1]], args: c.positionals.slice(2) };
  if (c.name === 'awk' || c.name === 'gawk' || c.name === 'mawk' || c.name === 'nawk') {
    if (c.flags.some((f) => f.names.includes('f')) || c.positionals[0] === undefined) return undefined;
    return { code: [c.positionals[0]], args: c.positionals.slice(1) };
  }
  const options = codeOptionsOf(c.name);
  if (options === undefined) return undefined;
  const code: string[] = [];
  for (const f of c.flags)
    if (f.names.some((n) => options.includes(n)) && f.value !== undefined) code.push(f.value);
  // A table without the option's value arity (bun, osascript): the word after it.
  if (code.length === 0)
    c.argv.forEach((w, i) => {
      const next = c.argv[i + 1];
      if (i > 0 && next !== undefined && options.some((o) => w === (o.length === 1 ? `-${o}` : `--${o}`)))
        code.push(next);
    });
  // `python3 - <<'EOF' … EOF`, `node <<< '…'`: the here-document or here-string is the program.
  const first = c.positionals[0];
  if (code.length === 0 && c.stdin !== undefined && (first === undefined || first === '-'))
    return { code: [c.stdin], args: c.positionals.slice(1) };
  if (code.length === 0) return undefined;
  const args = c.positionals.filter((p) => !code.includes(p));
  return { code, args };
}

/** Characters a path-like word of a program is made of. */
const PATH_CHAR = /[A-Za-z0-9_.~/@+%-]/;

/**
 * The path-like words of a program text: runs of path characters holding a letter or a `.`
 * (`open("~/.ssh/id_rsa")` → `open`, `~/.ssh/id_rsa`). A `$HOME` or `${HOME}` before a `/` is `~`.
 */
export function pathTokens(text: string): string[] {
  const normalised = text.replace(/\$\{?HOME\}?(?=\/)/g, '~').replace(/\$\{?PWD\}?(?=\/)/g, '.');
  const out: string[] = [];
  let current = '';
  for (const ch of normalised) {
    if (PATH_CHAR.test(ch)) current += ch;
    else {
      if (/[A-Za-z.]/.test(current)) out.push(current);
      current = '';
    }
  }
  if (/[A-Za-z.]/.test(current)) out.push(current);
  return out;
}
