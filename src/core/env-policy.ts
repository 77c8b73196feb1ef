/**
 * Variables that make a loader, a shell or an interpreter run code named by the variable, in every
 * program of the hook that starts (`sh`, `git`, `node`…), whatever its command line says. A hooks
 * file may not set them [P-SEC-2] (issue 11 widened the list), and the Claude Code and Gemini CLI
 * dialects, which pass the engine's environment on as those tools do [C-RUN-3, G-RUN-1], drop them
 * from it.
 *
 * Module search paths (`PYTHONPATH`, `NODE_PATH`, `PERL5LIB`, `RUBYLIB`) are not on the list: they
 * are ordinary settings of hooks written in those languages and only change where a program finds
 * the modules it asks for. The loader's `LD_LIBRARY_PATH` is the exception, as every dynamically
 * linked program loads libraries (it was refused before, with all `LD_*` now).
 */

/** Exact names, upper case. */
const CODE_INJECTING_NAMES: ReadonlySet<string> = new Set([
  'GCONV_PATH', // glibc loads the iconv modules it names
  'NODE_OPTIONS', // --require / --import
  'BASH_ENV', // sourced by every non-interactive bash
  'ENV', // sourced by sh / bash in POSIX mode
  'SHELLOPTS', // xtrace, which expands PS4…
  'PS4', // …including $(command) in it
  'PYTHONSTARTUP',
  'PERL5OPT', // -M / -I
  'PERL5DB', // code run under -d
  'RUBYOPT', // -r
  'JAVA_TOOL_OPTIONS', // -javaagent:
  'JDK_JAVA_OPTIONS',
  '_JAVA_OPTIONS',
]);

/**
 * Whole families: every variable of the dynamic loaders (glibc `LD_AUDIT`, `LD_PRELOAD`,
 * `LD_LIBRARY_PATH`…; macOS `DYLD_*`) and bash's exported functions (`BASH_FUNC_name%%`).
 */
const CODE_INJECTING_PREFIXES: readonly string[] = ['LD_', 'DYLD_', 'BASH_FUNC_'];

/** Whether `name` chooses code for a loader, shell or interpreter (compared case-insensitively). */
export function isCodeInjectingEnv(name: string): boolean {
  const upper = name.toUpperCase();
  if (CODE_INJECTING_NAMES.has(upper)) return true;
  for (const prefix of CODE_INJECTING_PREFIXES) if (upper.startsWith(prefix)) return true;
  return false;
}

/** The parent's environment without the code-injecting names. */
export function inheritedEnv(parent: NodeJS.ProcessEnv): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(parent)) {
    if (value === undefined || isCodeInjectingEnv(key)) continue;
    env[key] = value;
  }
  return env;
}

/**
 * [L-TRUST-10] Python never reads or writes a bytecode cache for a gate hook: a forged
 * `__pycache__/*.pyc` whose header matches an approved script would otherwise run instead of it.
 * The prefix names a folder under `/dev/null`, which no one — the guarded agent included, though
 * it runs as the same user — can ever create, so no cache can be planted there either.
 */
const INTERPRETER_CACHE_ENV: Readonly<Record<string, string>> = Object.freeze({
  PYTHONDONTWRITEBYTECODE: '1',
  PYTHONPYCACHEPREFIX: '/dev/null/hookwerk-pycache',
});

/** `env` with the interpreter-cache settings over whatever it had. */
export function withoutInterpreterCaches(env: Record<string, string>): Record<string, string> {
  return Object.assign(env, INTERPRETER_CACHE_ENV);
}

/** [L-RUN-3] Variables a command hook may inherit, besides those named in LURUS_HOOK_PASS_ENV. */
const ENV_ALLOWLIST = new Set(['PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'LANG', 'TERM', 'TMPDIR', 'TZ']);

/** [L-RUN-3] The environment of a command hook: the allowlist, `LC_*`, and the names in LURUS_HOOK_PASS_ENV. */
export function lurusHookEnv(parent: NodeJS.ProcessEnv): Record<string, string> {
  const pass = new Set(
    (parent.LURUS_HOOK_PASS_ENV ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== ''),
  );
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(parent)) {
    if (value === undefined) continue;
    if (ENV_ALLOWLIST.has(key) || key.startsWith('LC_') || pass.has(key)) env[key] = value;
  }
  return env;
}
