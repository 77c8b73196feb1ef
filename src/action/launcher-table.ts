/**
 * [G-ACT-1] The shipped table of commands that run another command, as data: where each finds the
 * command it runs. The action view lists the launcher itself (it runs too) and then, recursively,
 * the command it launches, which is "found through" it (`via`).
 */

export type Launch =
  /** The command starts at the first positional, after `skip` more (`timeout DUR`, `chroot DIR`). */
  | { readonly kind: 'words'; readonly skip?: number }
  /** `env [-i] [-u N] [N=V]… CMD`, and `-S STRING` read as a command line. */
  | { readonly kind: 'env' }
  /** `bash -c STRING`; without `-c` and a script, the here-document or here-string is the script. */
  | { readonly kind: 'shell' }
  /** The positionals joined with spaces are a command line (`eval`, `watch`). */
  | { readonly kind: 'line' }
  /** `parallel [opts] CMD … ::: ARGS` (no CMD: each argument is a command line). */
  | { readonly kind: 'parallel' }
  /** `su [opts] [-c CMD] [USER]`, `flock [opts] FILE -c CMD` or `flock FILE CMD…`. */
  | { readonly kind: 'su' }
  | { readonly kind: 'flock' }
  /** `ssh [opts] HOST CMD…`: the words after the host, joined, are the remote command line. */
  | { readonly kind: 'ssh' }
  /** `find … -exec|-execdir|-ok|-okdir CMD … ;|+`. */
  | { readonly kind: 'find' }
  /**
   * A package runner [G-LIB-3]: `npx [opts] CMD …`, `bunx`, `uvx` — the words from the first
   * positional on; `-c STRING` (`--call`) read as a command line.
   */
  | { readonly kind: 'package' }
  /**
   * A tool whose subcommand runs a command [G-LIB-3]: `pnpm exec CMD …`, `npm exec`, `yarn dlx`,
   * `uv run`, `uv tool run`, `pipx run`, `poetry run` — when the first positionals are one of
   * `subs`, the words from the next positional on (`npm exec -c STRING`: a command line).
   */
  | { readonly kind: 'sub'; readonly subs: readonly (readonly string[])[] }
  /** `python -m MODULE ARGS…` [G-LIB-3]: the module run as the command `MODULE ARGS…` (`python -m twine upload`). */
  | { readonly kind: 'module' };

const WORDS: Launch = { kind: 'words' };
const SHELL: Launch = { kind: 'shell' };
const PACKAGE: Launch = { kind: 'package' };
const MODULE: Launch = { kind: 'module' };
const sub = (...subs: string[]): Launch => ({ kind: 'sub', subs: subs.map((s) => s.split(' ')) });

export const LAUNCHERS: Readonly<Record<string, Launch>> = {
  sudo: WORDS,
  doas: WORDS,
  command: WORDS,
  builtin: WORDS,
  exec: WORDS,
  nice: WORDS,
  nohup: WORDS,
  setsid: WORDS,
  stdbuf: WORDS,
  ionice: WORDS,
  time: WORDS,
  xargs: WORDS,
  timeout: { kind: 'words', skip: 1 },
  chroot: { kind: 'words', skip: 1 },
  env: { kind: 'env' },
  bash: SHELL,
  sh: SHELL,
  zsh: SHELL,
  dash: SHELL,
  ksh: SHELL,
  eval: { kind: 'line' },
  watch: { kind: 'line' },
  parallel: { kind: 'parallel' },
  su: { kind: 'su' },
  flock: { kind: 'flock' },
  ssh: { kind: 'ssh' },
  find: { kind: 'find' },
  // [G-LIB-3] More wrappers a respelling reaches for: each runs the words after its options.
  busybox: WORDS,
  corepack: WORDS,
  toybox: WORDS,
  fakeroot: WORDS,
  strace: WORDS,
  ltrace: WORDS,
  unbuffer: WORDS,
  caffeinate: WORDS,
  screen: WORDS,
  unshare: WORDS,
  chrt: { kind: 'words', skip: 1 },
  taskset: { kind: 'words', skip: 1 },
  npx: PACKAGE,
  bunx: PACKAGE,
  uvx: PACKAGE,
  npm: sub('exec', 'x'),
  pnpm: sub('exec', 'dlx'),
  yarn: sub('exec', 'dlx'),
  bun: sub('x'),
  uv: sub('run', 'tool run'),
  pipx: sub('run'),
  poetry: sub('run'),
  python: MODULE,
  python3: MODULE,
  python2: MODULE,
  // `script -c CMD [FILE]`, and BSD's `script [-q] FILE CMD…`: read as `flock` is.
  script: { kind: 'flock' },
  runuser: { kind: 'su' },
};

/** Options with which a launcher runs nothing (`command -v x` only looks `x` up). */
export const RUNS_NOTHING_WITH: Readonly<Record<string, readonly string[]>> = {
  command: ['v', 'V'],
  ionice: ['p', 'P', 'u'],
  watch: [],
  chrt: ['p', 'm'],
  taskset: ['p'],
  screen: ['r', 'R', 'x', 'X', 'ls', 'list', 'wipe', 'v'],
};

const LAUNCHER_BY_NAME: ReadonlyMap<string, Launch> = new Map(
  Object.keys(LAUNCHERS).map((name) => [name, LAUNCHERS[name]!]),
);

/** How the launcher `name` runs what it is given; undefined for a command that launches nothing. */
export function launcherOf(name: string): Launch | undefined {
  return LAUNCHER_BY_NAME.get(name);
}
