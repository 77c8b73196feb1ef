/**
 * [G-LIB-1, G-LIB-3] The `pipe-to-shell` guard: a download (`curl`, `wget`, …) or a decode
 * (`base64 -d`, `xxd -r`, `openssl enc -d`, …) that an interpreter runs as its program —
 * - through a pipe, to an interpreter that takes its program from standard input (`sh`, `bash`,
 *   `zsh`, `dash`, `ksh` without `-c` and without a script, or with `-s`; `python*`, `node`,
 *   `perl`, `ruby`, `php` without a script or with `-`; `source /dev/stdin`), any stage before it
 *   (`curl x | tee f | sh`, `(curl x) | sudo bash`, `echo "$(curl x)" | sh`);
 * - through a substitution that is the program (`sh <(curl x)`, `source <(curl x)`, `bash -c
 *   "$(curl x)"`, `eval "$(curl x)"`, `python3 -c "$(curl x)"`, `bash <<< "$(curl x)"`, `bash <
 *   <(curl x)`, or the command word itself: `$(curl x)`);
 * - through a file the same line writes and then runs (`curl -o f x && sh f`, `wget x/i.sh &&
 *   bash i.sh`, `curl x > f; chmod +x f; ./f`).
 * An interpreter given its program otherwise (`| python3 -m json.tool`, `| node -e …`) and a
 * substitution that downloads and decodes nothing (`source <(kubectl completion bash)`) pass.
 */
import path from 'node:path';
import { z } from 'zod';
import type { ActionView, SimpleCommand } from '../action/view-types.ts';
import { shownCommand } from './guard-paths.ts';
import type { GuardDefinition, GuardHit } from './guard-types.ts';

const optionsSchema = z.object({}).strict();
export type PipeToShellOptions = z.infer<typeof optionsSchema>;

/** Programs that fetch from the network and write what they fetched. */
const DOWNLOADERS = new Set([
  'curl',
  'wget',
  'wget2',
  'fetch',
  'aria2c',
  'http',
  'https',
  'xh',
  'xhs',
  'curlie',
  'lwp-request',
  'GET',
  'lynx',
  'w3m',
]);

/** Decoders: `NAME` with one of the options (none listed: always a decode). */
const DECODERS: Readonly<Record<string, readonly string[]>> = {
  base64: ['d', 'decode', 'D'],
  gbase64: ['d', 'decode', 'D'],
  base32: ['d', 'decode'],
  basenc: ['d', 'decode'],
  xxd: ['r', 'revert'],
  uudecode: [],
  gunzip: [],
  zcat: [],
  gzip: ['d', 'decompress'],
  bzip2: ['d', 'decompress'],
  bunzip2: [],
  xz: ['d', 'decompress'],
  unxz: [],
  zstd: ['d', 'decompress'],
};

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'ash', 'mksh', 'fish', 'pwsh', 'powershell']);
/** A script argument that is standard input. */
const STDIN_NAMES = new Set(['-', '/dev/stdin', '/dev/fd/0', '/proc/self/fd/0']);
/** Options that give an interpreter its program on the command line (`-m` runs a module). */
const INTERPRETERS: readonly (readonly [RegExp, readonly string[]])[] = [
  [/^(python|pypy)[0-9.]*$/, ['c', 'm']],
  [/^(node|nodejs)$/, ['e', 'eval', 'p', 'print']],
  [/^perl[0-9.]*$/, ['e', 'E']],
  [/^ruby$/, ['e']],
  [/^php[0-9.]*$/, ['r', 'f']],
  [/^osascript$/, ['e']],
];

function has(c: SimpleCommand, names: readonly string[]): boolean {
  return c.options.some((o) => names.includes(o));
}

/** [G-LIB-3] A download, or a decode. */
function fetchesOrDecodes(c: SimpleCommand): 'download' | 'decode' | undefined {
  if (c.dynamic) return undefined;
  if (DOWNLOADERS.has(c.name)) return 'download';
  const decode = DECODERS[c.name];
  if (decode !== undefined && (decode.length === 0 || has(c, decode))) return 'decode';
  // `openssl base64 -d`, `openssl enc -d -base64`.
  if (c.name === 'openssl' && (c.positionals[0] === 'base64' || c.positionals[0] === 'enc') && has(c, ['d']))
    return 'decode';
  // `printf '\x72\x6d …'`, `echo -e '\x72…'`: a program spelled in escapes.
  if (
    (c.name === 'printf' || (c.name === 'echo' && has(c, ['e']))) &&
    c.argv.some((w) => /\\(x[0-9a-fA-F]|[0-7]{3})/.test(w))
  )
    return 'decode';
  return undefined;
}

/** `sudo -s`, `sudo -i`, `doas -s`, `su` without `-c`, `busybox sh`: a shell that reads its standard input. */
function shellOfLauncher(c: SimpleCommand): boolean {
  if ((c.name === 'sudo' || c.name === 'doas') && c.positionals.length === 0)
    return has(c, ['s', 'shell', 'i', 'login']);
  if (c.name === 'su' || c.name === 'runuser')
    return !has(c, ['c', 'command', 'session-command']) && !c.positionals.includes('-c');
  return c.name === 'busybox' && SHELLS.has(c.positionals[0] ?? '') && c.positionals.length === 1;
}

/** The interpreter's program comes from its standard input. */
function programFromStdin(c: SimpleCommand, view: ActionView): boolean {
  if (c.dynamic) return false;
  if (shellOfLauncher(c)) return true;
  const first = c.positionals[0];
  if (SHELLS.has(c.name)) {
    if (has(c, ['c'])) {
      // `… | xargs bash -c`: xargs gives the lines it reads as the program.
      const parent = c.parent === undefined ? undefined : view.commands[c.parent.command];
      return first === undefined && parent?.name === 'xargs';
    }
    return first === undefined || has(c, ['s']) || STDIN_NAMES.has(first);
  }
  if (c.name === 'source' || c.name === '.') return first !== undefined && STDIN_NAMES.has(first);
  const code = INTERPRETERS.find(([re]) => re.test(c.name))?.[1];
  if (code === undefined || has(c, code)) return false;
  return first === undefined || STDIN_NAMES.has(first);
}

/** The words that are an interpreter's program (its script word, its `-c`/`-e` text, `eval`'s words). */
function programWords(c: SimpleCommand): readonly string[] {
  if (c.dynamic) return [c.name];
  if (c.name === 'eval') return c.positionals;
  if (c.name === 'source' || c.name === '.') return c.positionals.slice(0, 1);
  if (SHELLS.has(c.name)) return c.positionals.slice(0, 1);
  const code = INTERPRETERS.find(([re]) => re.test(c.name))?.[1];
  if (code === undefined) return [];
  const given = c.flags.filter((f) => f.value !== undefined && f.names.some((n) => code.includes(n)));
  // `python -m MODULE` runs a module, not the word.
  if (given.some((f) => f.names.includes('m'))) return [];
  return given.length > 0 ? given.map((f) => f.value ?? '') : c.positionals.slice(0, 1);
}

/** `a` writes into what `b` reads: an earlier stage of one of b's pipelines. */
function feeds(a: SimpleCommand, b: SimpleCommand): boolean {
  return a.pipes.some((p) => b.pipes.some((q) => q.id === p.id && p.stage < q.stage));
}

/**
 * The interpreter that runs `d`'s output as its program through the substitution `d` stands in,
 * if any: `sh <(d)`, `bash -c "$(d)"`, `eval "$(d)"`, `bash <<< "$(d)"`, `$(d)` as a command.
 * `echo "$(d)"` and `printf` pass it on to their own holder.
 */
function substitutedInto(d: SimpleCommand, view: ActionView): SimpleCommand | undefined {
  let at = d;
  for (let hops = 0; hops < 16 && at.parent !== undefined; hops++) {
    const { by, text, command } = at.parent;
    const holder = view.commands[command];
    if (holder === undefined || by === 'launch' || by === 'redirect' || text === undefined) return undefined;
    if (by === 'stdin' && programFromStdinAlone(holder)) return holder;
    if (by === 'word' && programWords(holder).includes(text)) return holder;
    if (holder.name !== 'echo' && holder.name !== 'printf') return undefined;
    at = holder;
  }
  return undefined;
}

/** As `programFromStdin`, for a holder whose standard input is the substitution (no pipe needed). */
function programFromStdinAlone(c: SimpleCommand): boolean {
  if (c.dynamic) return false;
  if (shellOfLauncher(c)) return true;
  const first = c.positionals[0];
  if (c.name === 'source' || c.name === '.') return first !== undefined && STDIN_NAMES.has(first);
  if (SHELLS.has(c.name))
    return !has(c, ['c']) && (first === undefined || has(c, ['s']) || STDIN_NAMES.has(first));
  const code = INTERPRETERS.find(([re]) => re.test(c.name))?.[1];
  if (code === undefined || has(c, code)) return false;
  return first === undefined || STDIN_NAMES.has(first);
}

/** The files a download or decode writes: its output options and redirects, a downstream `tee`, curl's `-O` and wget's default name. */
function writtenBy(d: SimpleCommand, index: number, view: ActionView): string[] {
  const out = view.paths.filter((p) => p.command === index && p.access === 'write').map((p) => p.path);
  for (const [k, t] of view.commands.entries())
    if (t.name === 'tee' && feeds(d, t))
      for (const p of view.paths) if (p.command === k && p.access === 'write') out.push(p.path);
  const urls = d.positionals.filter((w) => /^[a-z][a-z0-9+.-]*:\/\//i.test(w));
  const named =
    (d.name === 'curl' && has(d, ['O', 'remote-name'])) ||
    (d.name === 'wget' && !has(d, ['O', 'output-document']) && urls.length > 0);
  if (named) {
    const dir = d.flags.find(
      (f) => f.names.includes('output-dir') || f.names.includes('directory-prefix'),
    )?.value;
    for (const url of urls) {
      const name = path.posix.basename(url.replace(/[?#].*$/, '').replace(/\/+$/, ''));
      if (name !== '' && !name.includes(':')) out.push(path.posix.resolve(d.cwd, dir ?? '.', name));
    }
  }
  return out;
}

/** What a later command of the line runs as a program: a path it executes, a script it sources. */
function runsFile(view: ActionView, index: number, file: string): SimpleCommand | undefined {
  for (const p of view.paths) {
    if (p.command === undefined || p.command <= index || (p.path !== file && p.real !== file)) continue;
    const c = view.commands[p.command]!;
    if (p.access === 'execute' || (p.access === 'read' && (c.name === 'source' || c.name === '.'))) return c;
  }
  return undefined;
}

function hitOf(d: SimpleCommand, kind: string, how: string): GuardHit {
  return {
    saw: `${shownCommand(d.raw)} ${kind === 'download' ? 'downloads' : 'decodes'} a program that ${how}`,
    command: d,
  };
}

export const pipeToShellGuard: GuardDefinition<PipeToShellOptions> = {
  name: 'pipe-to-shell',
  defaultDecision: 'deny',
  options: optionsSchema,
  tools: ['Bash'],
  check(call) {
    const { view } = call;
    const hits: GuardHit[] = [];
    const runners = view.commands.filter((c) => programFromStdin(c, view));
    view.commands.forEach((d, index) => {
      const kind = fetchesOrDecodes(d);
      if (kind === undefined) return;
      const piped = runners.find((r) => feeds(d, r));
      if (piped !== undefined) {
        hits.push(hitOf(d, kind, `${piped.name} runs from a pipe`));
        return;
      }
      const into = substitutedInto(d, view);
      if (into !== undefined) {
        hits.push(
          hitOf(d, kind, `${into.dynamic ? 'the shell' : into.name} runs (${shownCommand(into.raw)})`),
        );
        return;
      }
      for (const file of writtenBy(d, index, view)) {
        const runner = runsFile(view, index, file);
        if (runner !== undefined) {
          hits.push(hitOf(d, kind, `${shownCommand(runner.raw)} then runs`));
          return;
        }
      }
    });
    return hits;
  },
};
