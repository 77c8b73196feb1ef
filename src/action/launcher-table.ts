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
  | { readonly kind: 'find' };

const WORDS: Launch = { kind: 'words' };
const SHELL: Launch = { kind: 'shell' };

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
  // `script -c CMD [FILE]`, and BSD's `script [-q] FILE CMD…`: read as `flock` is.
  script: { kind: 'flock' },
  runuser: { kind: 'su' },
  unbuffer: WORDS,
};

/** Options with which a launcher runs nothing (`command -v x` only looks `x` up). */
export const RUNS_NOTHING_WITH: Readonly<Record<string, readonly string[]>> = {
  command: ['v', 'V'],
  ionice: ['p', 'P', 'u'],
  watch: [],
};
