/**
 * [G-ACT-1] `find`, read as GNU find reads it: its own leading options (`-H -L -P -D X
 * -O3`), its start paths (the words before the expression), and its expression's primaries, each
 * with its argument(s) — `-exec|-execdir|-ok|-okdir CMD … ;` (or `{} +`) being a command it runs,
 * `-delete` a delete of what it finds, `-fprint F` a write of F. The primaries are the command's
 * options (`delete`, `exec`, `name`), the start paths its positionals.
 */
import type { CommandFlag } from './command-options.ts';
import type { ViewWord } from './view-words.ts';

/** Primaries that take one argument (GNU find 4.9). */
const ONE_ARGUMENT = new Set([
  'name',
  'iname',
  'path',
  'ipath',
  'wholename',
  'iwholename',
  'lname',
  'ilname',
  'regex',
  'iregex',
  'regextype',
  'type',
  'xtype',
  'size',
  'perm',
  'user',
  'group',
  'uid',
  'gid',
  'newer',
  'anewer',
  'cnewer',
  'mtime',
  'atime',
  'ctime',
  'mmin',
  'amin',
  'cmin',
  'used',
  'links',
  'inum',
  'samefile',
  'maxdepth',
  'mindepth',
  'fstype',
  'context',
  'printf',
  'fprint',
  'fprint0',
  'fls',
  'files0-from',
]);
/** Primaries whose (first) argument is a file they write. */
export const FIND_WRITES = new Set(['fprint', 'fprint0', 'fprintf', 'fls']);
const EXECS = new Set(['exec', 'execdir', 'ok', 'okdir']);
const OPERATORS = new Set(['(', ')', '!', ',']);

export interface FindRead {
  readonly flags: readonly CommandFlag[];
  /** The start paths (none written: find searches `.`). */
  readonly starts: readonly ViewWord[];
  /** The commands `-exec` and its kin run: their words, `{}` standing for what was found. */
  readonly execs: readonly (readonly ViewWord[])[];
}

export function readFind(words: readonly ViewWord[]): FindRead {
  const flags: CommandFlag[] = [];
  const starts: ViewWord[] = [];
  const execs: ViewWord[][] = [];
  let i = 0;
  // Leading options: -H, -L, -P, -D LIST, -Olevel.
  for (; i < words.length; i++) {
    const t = words[i]!.text;
    if (t === '-H' || t === '-L' || t === '-P') flags.push({ written: t, names: [t.slice(1)] });
    else if (t === '-D') {
      flags.push({ written: t, names: ['D'], value: words[i + 1]?.text ?? '' });
      i++;
    } else if (/^-O\d*$/.test(t)) flags.push({ written: t, names: ['O'], value: t.slice(2) });
    else break;
  }
  for (; i < words.length; i++) {
    const w = words[i]!;
    if (!w.dynamic && ((w.text.startsWith('-') && w.text.length > 1) || OPERATORS.has(w.text))) break;
    starts.push(w);
  }
  for (; i < words.length; i++) {
    const w = words[i]!;
    const t = w.text;
    if (!t.startsWith('-') || t.length < 2 || w.dynamic) continue;
    const primary = t.slice(1);
    if (EXECS.has(primary)) {
      const body: ViewWord[] = [];
      let j = i + 1;
      for (; j < words.length; j++) {
        const x = words[j]!.text;
        if (x === ';' || (x === '+' && words[j - 1]?.text === '{}')) break;
        body.push(words[j]!);
      }
      flags.push({ written: t, names: [primary], value: body.map((b) => b.text).join(' ') });
      if (body.length > 0) execs.push(body);
      i = j;
    } else if (primary === 'fprintf') {
      flags.push({ written: t, names: [primary], value: words[i + 1]?.text ?? '' });
      i += 2;
    } else if (ONE_ARGUMENT.has(primary) || /^newer[amcBt][amcBt]$/.test(primary)) {
      flags.push({ written: t, names: [primary], value: words[i + 1]?.text ?? '' });
      i++;
    } else flags.push({ written: t, names: [primary] });
  }
  return { flags, starts, execs };
}
