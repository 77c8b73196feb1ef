/**
 * [G-ACT-1] The shipped table of what commands do to the files they name, as data: which
 * positionals and option values a command reads, writes, deletes or runs. The action view turns
 * them into `paths`; a command not in the table names no path but its redirections (and its own
 * program, when that is a path).
 */
import { ownEntry } from '../core/plain-object.ts';

export type Access = 'read' | 'write' | 'delete' | 'execute';

/**
 * What a command's positionals are:
 * - `read`, `write`, `delete`: every one (after the skipped first, see `skipFirstUnless`);
 * - `copy` (`cp`, `install`, `scp`, `rsync`): sources read, the last written (with
 *   `--target-directory DIR`: all sources, DIR written); `move` (`mv`): sources deleted;
 * - `link` (`ln`): the last written; `zip`: the first written, the rest read; `unzip`: the first read;
 * - `tar`: the archive (`-f`) written and the positionals read when creating, appending or
 *   updating; the archive read otherwise;
 * - `dd`: the `if=` operand read, `of=` written;
 * - `script`: the first is run (`execute`), unless a code option (`-c`, `-e`…) gives the program;
 * - `first-read`: only the first is read (`source FILE ARGS…`).
 */
export type ArgsAccess =
  | Access
  | 'copy'
  | 'move'
  | 'link'
  | 'zip'
  | 'unzip'
  | 'tar'
  | 'dd'
  | 'script'
  | 'first-read';

export interface FileAccess {
  readonly args?: ArgsAccess;
  /** The first positional is no file (a pattern, a script, a mode, an owner) unless one of these options is given. */
  readonly skipFirstUnless?: readonly string[];
  /** With one of these options the positionals are written, not read (`sed -i`). */
  readonly writtenWith?: readonly string[];
  /** For `script`: these options give the program, so no positional is a script. */
  readonly codeOptions?: readonly string[];
  /** For `script`: with a code option and one of these, the positionals are files edited in place (`perl -pi -e … f`). */
  readonly inPlace?: readonly string[];
  /** Option name → what its value is to the file it names. */
  readonly values?: Readonly<Record<string, Access>>;
  /** Options whose value reads a file when written `@FILE` or `NAME=@FILE` / `NAME=<FILE` (curl). */
  readonly atValues?: readonly string[];
  /** Spellings of those options that never read a file (`--data-raw`). */
  readonly atValuesExcept?: readonly string[];
}

const READ: FileAccess = { args: 'read' };
const WRITE: FileAccess = { args: 'write' };
const DELETE: FileAccess = { args: 'delete' };
const GREP: FileAccess = {
  args: 'read',
  skipFirstUnless: ['regexp', 'file'],
  values: { file: 'read', 'exclude-from': 'read' },
};
const SHELL: FileAccess = { args: 'script', codeOptions: ['c', 's'], values: { rcfile: 'read' } };
const PYTHON: FileAccess = { args: 'script', codeOptions: ['c', 'm'] };
const MODE: FileAccess = { args: 'write', skipFirstUnless: ['reference'], values: { reference: 'read' } };

export const FILE_ACCESS: Readonly<Record<string, FileAccess>> = {
  // Readers: they show, copy or encode what the file holds.
  cat: READ,
  bat: READ,
  less: { args: 'read', values: { 'log-file': 'write', 'LOG-FILE': 'write' } },
  more: READ,
  head: READ,
  tail: READ,
  nl: READ,
  tac: READ,
  wc: READ,
  base64: READ,
  base32: READ,
  xxd: READ,
  hexdump: READ,
  od: READ,
  strings: READ,
  md5sum: READ,
  sha1sum: READ,
  sha256sum: READ,
  sha512sum: READ,
  cksum: READ,
  diff: READ,
  cmp: READ,
  source: { args: 'first-read' },
  '.': { args: 'first-read' },
  grep: GREP,
  egrep: GREP,
  fgrep: GREP,
  zgrep: GREP,
  awk: { args: 'read', skipFirstUnless: ['f'], values: { f: 'read' } },
  jq: { args: 'read', skipFirstUnless: ['from-file'] },
  sort: { args: 'read', values: { o: 'write', output: 'write' } },
  gpg: { args: 'read', values: { output: 'write', 'passphrase-file': 'read' } },
  openssl: {
    values: {
      in: 'read',
      out: 'write',
      inkey: 'read',
      key: 'read',
      kfile: 'read',
      keyout: 'write',
      config: 'read',
    },
  },
  // Writers.
  tee: WRITE,
  touch: { args: 'write', values: { reference: 'read' } },
  truncate: { args: 'write', values: { reference: 'read' } },
  chmod: MODE,
  chown: MODE,
  chgrp: MODE,
  sed: {
    args: 'read',
    skipFirstUnless: ['expression', 'file'],
    writtenWith: ['in-place'],
    values: { file: 'read' },
  },
  cp: { args: 'copy' },
  install: { args: 'copy' },
  mv: { args: 'move' },
  ln: { args: 'link' },
  dd: { args: 'dd' },
  // Deleters.
  rm: DELETE,
  rmdir: DELETE,
  unlink: DELETE,
  shred: DELETE,
  // Archives and copies to elsewhere.
  tar: { args: 'tar', values: { 'files-from': 'read', 'exclude-from': 'read' } },
  zip: { args: 'zip' },
  unzip: { args: 'unzip', values: { d: 'write' } },
  scp: { args: 'copy', values: { i: 'read', F: 'read' } },
  rsync: {
    args: 'copy',
    values: {
      'exclude-from': 'read',
      'include-from': 'read',
      'files-from': 'read',
      'password-file': 'read',
      'log-file': 'write',
    },
  },
  ssh: { values: { i: 'read', F: 'read', E: 'write' } },
  // Network.
  curl: {
    values: {
      output: 'write',
      'upload-file': 'read',
      config: 'read',
      'cookie-jar': 'write',
      'dump-header': 'write',
      trace: 'write',
      stderr: 'write',
      'netrc-file': 'read',
      cacert: 'read',
      cert: 'read',
      key: 'read',
    },
    atValues: ['data', 'form', 'json'],
    atValuesExcept: ['--data-raw'],
  },
  wget: {
    values: {
      'output-document': 'write',
      'output-file': 'write',
      'append-output': 'write',
      'input-file': 'read',
      'post-file': 'read',
      'body-file': 'read',
      'directory-prefix': 'write',
    },
  },
  // Launchers' own files.
  time: { values: { output: 'write' } },
  xargs: { values: { 'arg-file': 'read' } },
  parallel: { values: { 'arg-file': 'read', joblog: 'write' } },
  // Interpreters: the script they run.
  bash: SHELL,
  sh: SHELL,
  zsh: SHELL,
  dash: SHELL,
  ksh: SHELL,
  python: PYTHON,
  python3: PYTHON,
  python2: PYTHON,
  node: { args: 'script', codeOptions: ['eval', 'print'], values: { 'env-file': 'read' } },
  perl: { args: 'script', codeOptions: ['e', 'E'], inPlace: ['i'] },
  ruby: { args: 'script', codeOptions: ['e'], inPlace: ['i'] },
  php: { args: 'script', codeOptions: ['r'], values: { f: 'execute' } },
  // More readers and writers the guards meet (G-LIB-3).
  cut: READ,
  paste: READ,
  fold: READ,
  fmt: READ,
  column: READ,
  uniq: READ,
  rev: READ,
  expand: READ,
  unexpand: READ,
  pr: READ,
  comm: READ,
  join: READ,
  zcat: READ,
  bzcat: READ,
  xzcat: READ,
  zless: READ,
  zmore: READ,
  b2sum: READ,
  sha224sum: READ,
  sha384sum: READ,
  shasum: READ,
  md5: READ,
  // Compressors read what they pack (`gzip -c .env > e.gz`); their outputs are named by suffix.
  gzip: READ,
  gunzip: READ,
  bzip2: READ,
  xz: READ,
  zstd: READ,
  lz4: READ,
  iconv: { args: 'read', values: { output: 'write' } },
  rg: {
    args: 'read',
    skipFirstUnless: ['regexp', 'file', 'files'],
    values: { file: 'read', 'ignore-file': 'read' },
  },
  ag: { args: 'read', values: { 'path-to-ignore': 'read' }, skipFirstUnless: [] },
  mkdir: WRITE,
  mkfifo: WRITE,
  sponge: WRITE,
  dos2unix: WRITE,
  unix2dos: WRITE,
  chattr: { args: 'write', skipFirstUnless: [] },
};

/** Versioned interpreters read as their family (`python3.12` as `python`, `nodejs` as `node`). */
const FAMILIES: readonly (readonly [RegExp, string])[] = [
  [/^(python|pypy)[0-9.]*$/, 'python'],
  [/^nodejs$/, 'node'],
];

/** The family a versioned interpreter's name belongs to (`python3.12` → `python`); undefined for any other name. */
export function familyOf(name: string): string | undefined {
  // Every family's names start with `p` or are `nodejs`: most names need no regex [G-PERF-1].
  if (name.charCodeAt(0) !== 0x70 && name !== 'nodejs') return undefined;
  for (const [re, family] of FAMILIES) if (re.test(name)) return family;
  return undefined;
}

/** The file access entry of a command name (a versioned interpreter as its family). */
/** The table's own entries in a Map: a lookup per command of every call costs less there [G-PERF-1]. */
const BY_NAME: ReadonlyMap<string, FileAccess> = new Map(
  Object.keys(FILE_ACCESS).map((name) => [name, ownEntry(FILE_ACCESS, name)!]),
);

export function fileAccessOf(name: string): FileAccess | undefined {
  const own = BY_NAME.get(name);
  if (own !== undefined) return own;
  const family = familyOf(name);
  return family === undefined ? undefined : BY_NAME.get(family);
}
