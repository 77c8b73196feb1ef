/**
 * [G-ACT-1] The files one simple command names, from the shipped table of what commands do to
 * files (`file-access-table.ts`), and the hosts it names. Paths are collected as written with the
 * folder they stand in; `view-paths.ts` resolves them.
 */
import { type CommandFlag, flagValue, hasOption, namedAs } from './command-options.ts';
import { type Access, fileAccessOf } from './file-access-table.ts';
import { FIND_WRITES } from './find-command.ts';
import { hostOfFetchTarget, hostOfGitRemote, hostOfRemoteSpec, hostOfSshTarget, hostOfUrl } from './hosts.ts';
import type { ViewWord } from './view-words.ts';

/** A path some command or tool names, before it is resolved. */
export interface PathRef {
  /** The value as written (quotes removed, `~` and known variables expanded). */
  readonly written: string;
  /** The folder a relative `written` is resolved against. */
  readonly cwd: string;
  readonly access: Access;
  readonly from: 'tool' | 'redirect' | 'argument';
  /** The command (index in `commands`) that names it. */
  readonly command?: number;
}

/** What one command gives to `commandPaths`. */
export interface CommandFacts {
  readonly name: string;
  /** The program word as written: a path (`./deploy.sh`) runs that file. */
  readonly program: ViewWord;
  readonly flags: readonly CommandFlag[];
  readonly positionals: readonly ViewWord[];
  readonly cwd: string;
  readonly index: number;
  /**
   * `find … -exec CMD {}`: `{}` stands for the start paths; `xargs -I R CMD R`: R stands for what
   * comes on stdin, not known here (no path).
   */
  placeholder?: { readonly text: string; readonly stands: readonly string[] };
}

/** The commands whose words may name hosts (`commandHosts`). */
export const HOST_COMMANDS: ReadonlySet<string> = new Set(['curl', 'wget', 'git', 'ssh', 'scp', 'rsync']);

/** A value that names no file: empty, stdin/stdout, or holding an expansion not known here. */
function noFile(text: string): boolean {
  return text === '' || text === '-' || text.includes('$') || text.includes('`');
}

/** The file an `@FILE`-style value reads (`@f`, `name=@f`, `name=<f;type=…`, urlencode `name@f`). */
function atFile(value: string, written: string): string | undefined {
  if (value.startsWith('@')) return value.slice(1);
  const form = /^[^=]*=[@<](.+)$/.exec(value)?.[1];
  if (form !== undefined) return form.split(';')[0];
  if (written === '--data-urlencode') return /^[^=@]*@(.+)$/.exec(value)?.[1];
  return undefined;
}

/** Appends the paths command `c` names to `out` (the walk's own list: no list per command [G-PERF-1]). */
export function commandPaths(c: CommandFacts, out: PathRef[]): void {
  const add = (written: string | undefined, access: Access) => {
    if (written === undefined || noFile(written)) return;
    const p = c.placeholder;
    if (p !== undefined && written.includes(p.text))
      for (const s of p.stands)
        out.push({
          written: written.replaceAll(p.text, s),
          cwd: c.cwd,
          access,
          from: 'argument',
          command: c.index,
        });
    else out.push({ written, cwd: c.cwd, access, from: 'argument', command: c.index });
  };
  if (!c.program.dynamic && c.program.text.includes('/')) add(c.program.text, 'execute');
  if (c.name === 'find') {
    for (const ref of findPaths(c)) out.push(ref);
    return;
  }
  if (c.name === 'git') {
    for (const ref of gitPaths(c)) out.push(ref);
    return;
  }
  const table = fileAccessOf(c.name);
  if (table === undefined) return;
  for (const f of c.flags) {
    for (const n of f.names) {
      const access = table.values?.[n];
      if (access !== undefined && f.value !== undefined) {
        add(f.value, access);
        break;
      }
    }
    if (
      f.value !== undefined &&
      table.atValues !== undefined &&
      namedAs(f, table.atValues) &&
      !table.atValuesExcept?.includes(f.written)
    ) {
      const file = atFile(f.value, f.written);
      if (file !== undefined) add(file, 'read');
    }
  }
  let words = c.positionals;
  if (table.skipFirstUnless !== undefined && !hasOption(c.flags, table.skipFirstUnless))
    words = words.slice(1);
  // A word holding an expansion not known here keeps its place (its role) but names no path.
  const args = words.map((w) => (w.dynamic ? undefined : w.text));
  const remote = (t: string | undefined) =>
    t !== undefined && (hostOfRemoteSpec(t) !== undefined || hostOfUrl(t) !== undefined);
  switch (table.args) {
    case undefined:
      break;
    case 'read':
    case 'write':
    case 'delete':
    case 'execute': {
      const access = table.args === 'read' && hasOption(c.flags, table.writtenWith) ? 'write' : table.args;
      for (const a of args) add(a, access);
      break;
    }
    case 'first-read':
      add(args[0], 'read');
      break;
    case 'copy':
    case 'move': {
      const source: Access = table.args === 'move' ? 'delete' : 'read';
      const local = args.filter((a) => !remote(a));
      const dir = flagValue(c.flags, ['target-directory']);
      if (c.name === 'install' && hasOption(c.flags, ['directory'])) for (const a of local) add(a, 'write');
      else if (dir !== undefined) {
        add(dir, 'write');
        for (const a of local) add(a, source);
      } else if (args.length === 1) add(args[0], source);
      else {
        for (const a of args.slice(0, -1)) if (!remote(a)) add(a, source);
        const target = args.at(-1);
        if (target !== undefined && !remote(target)) add(target, 'write');
      }
      break;
    }
    case 'link': {
      const dir = flagValue(c.flags, ['target-directory']);
      if (dir !== undefined) add(dir, 'write');
      else if (args.length >= 2) add(args.at(-1), 'write');
      break;
    }
    case 'zip':
      add(args[0], 'write');
      for (const a of args.slice(1)) add(a, 'read');
      break;
    case 'unzip':
      add(args[0], 'read');
      break;
    case 'tar': {
      const archive = flagValue(c.flags, ['file']);
      const creates = hasOption(c.flags, ['create', 'append', 'update', 'catenate']);
      if (archive !== undefined) add(archive, creates ? 'write' : 'read');
      const dir = flagValue(c.flags, ['directory']);
      const base = dir !== undefined && !noFile(dir) ? joinPath(dir, c.cwd) : c.cwd;
      if (creates) {
        for (const a of args) {
          if (a !== undefined && !noFile(a))
            out.push({ written: a, cwd: base, access: 'read', from: 'argument', command: c.index });
        }
      } else if (hasOption(c.flags, ['extract'])) add(dir ?? '.', 'write');
      break;
    }
    case 'dd':
      for (const a of args) {
        if (a?.startsWith('if=') === true) add(a.slice(3), 'read');
        else if (a?.startsWith('of=') === true) add(a.slice(3), 'write');
      }
      break;
    case 'script':
      if (!hasOption(c.flags, table.codeOptions)) add(args[0], 'execute');
      else if (hasOption(c.flags, table.inPlace)) for (const a of args) add(a, 'write');
      break;
  }
}

/** `dir` against `cwd` (a relative `-C` of tar). */
function joinPath(dir: string, cwd: string): string {
  return dir.startsWith('/') ? dir : `${cwd.replace(/\/$/, '')}/${dir}`;
}

/** `find`: `-delete` deletes under its start paths (`.` when none), `-fprint F` writes F. */
function findPaths(c: CommandFacts): PathRef[] {
  const out: PathRef[] = [];
  const starts = c.positionals.filter((w) => !w.dynamic).map((w) => w.text);
  const push = (written: string, access: Access) => {
    if (!noFile(written)) out.push({ written, cwd: c.cwd, access, from: 'argument', command: c.index });
  };
  for (const f of c.flags) {
    const name = f.names[0] ?? '';
    if (name === 'delete') for (const s of starts.length > 0 ? starts : ['.']) push(s, 'delete');
    if (FIND_WRITES.has(name) && f.value !== undefined) push(f.value, 'write');
  }
  return out;
}

/**
 * `git`: the folders it creates — `git clone REPO [DIR]` (DIR, else the repository's last name
 * without `.git`), `git init DIR`, `git worktree add DIR` — are written.
 */
function gitPaths(c: CommandFacts): PathRef[] {
  const words = c.positionals.map((w) => (w.dynamic ? undefined : w.text));
  const [sub, first, second] = words;
  let dir: string | undefined;
  if (sub === 'clone') {
    const repo = first?.replace(/\/+$/, '').replace(/\.git$/, '');
    dir = c.positionals.length > 2 ? second : repo?.split(/[/:]/).pop();
  } else if (sub === 'init') dir = first;
  else if (sub === 'worktree' && first === 'add') dir = second;
  if (dir === undefined || noFile(dir)) return [];
  return [{ written: dir, cwd: c.cwd, access: 'write', from: 'argument', command: c.index }];
}

/** The hosts a command names (G-ACT-1 `hosts`). */
export function commandHosts(
  name: string,
  flags: readonly CommandFlag[],
  positionals: readonly string[],
): string[] {
  const out: string[] = [];
  const add = (host: string | undefined) => {
    if (host !== undefined) out.push(host);
  };
  if (name === 'curl' || name === 'wget') {
    for (const p of positionals) add(hostOfFetchTarget(p));
    const url = flagValue(flags, ['url']);
    if (url !== undefined) add(hostOfFetchTarget(url));
  } else if (name === 'git') {
    // The repository: the first operand (refspecs like `HEAD:main` after it are no hosts).
    const sub = positionals[0];
    const repo =
      sub === 'clone' || sub === 'fetch' || sub === 'push' || sub === 'pull' || sub === 'ls-remote'
        ? positionals[1]
        : (sub === 'remote' || sub === 'submodule') && positionals[1] === 'add'
          ? positionals.slice(2).find((p) => hostOfGitRemote(p) !== undefined)
          : undefined;
    if (repo !== undefined) add(hostOfGitRemote(repo));
  } else if (name === 'ssh') {
    if (positionals[0] !== undefined) add(hostOfSshTarget(positionals[0]));
  } else if (name === 'scp' || name === 'rsync') {
    for (const p of positionals) add(hostOfUrl(p) ?? hostOfRemoteSpec(p));
  }
  return out;
}
