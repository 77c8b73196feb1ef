/**
 * Which of the agent's variables a hook inherits. The Claude Code and Gemini CLI dialects pass the
 * engine's environment on, as those tools do [C-RUN-3, G-RUN-1] — minus the names that let a
 * variable choose code for a loader or an interpreter to run.
 */

/** Variables that make a loader, a shell or an interpreter run code named by the variable. */
export const CODE_INJECTING_ENV: ReadonlySet<string> = new Set([
  'LD_PRELOAD',
  'LD_LIBRARY_PATH',
  'LD_AUDIT',
  'DYLD_INSERT_LIBRARIES',
  'DYLD_LIBRARY_PATH',
  'GCONV_PATH',
  'NODE_OPTIONS',
  'BASH_ENV',
  'ENV',
  'SHELLOPTS',
  'PS4',
  'PYTHONSTARTUP',
  'PERL5OPT',
]);

/** The parent's environment without the code-injecting names (compared case-insensitively). */
export function inheritedEnv(parent: NodeJS.ProcessEnv): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(parent)) {
    if (value === undefined || CODE_INJECTING_ENV.has(key.toUpperCase())) continue;
    env[key] = value;
  }
  return env;
}
