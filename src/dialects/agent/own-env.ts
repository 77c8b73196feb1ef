/**
 * What Gemini CLI's and Copilot CLI's command hooks share (issue 31: the base, not a sibling): a
 * hook's own `env` over the base environment, and the shell they run commands with.
 */
import { accessSync, constants } from 'node:fs';
import { isCodeInjectingEnv } from '../../core/env-policy.ts';

/**
 * `base` with a hook's own `env` laid over it, except the names that would choose code for a loader
 * or interpreter (each one passed to `refused`). Also Copilot CLI's entries' `env` [A-COP-1].
 */
export function withOwnEnv(
  base: Readonly<Record<string, string>>,
  own: Readonly<Record<string, string>> | undefined,
  refused: (name: string) => void,
): Record<string, string> {
  const env: Record<string, string> = { ...base };
  for (const [name, value] of Object.entries(own ?? {})) {
    if (isCodeInjectingEnv(name)) refused(name);
    else env[name] = value;
  }
  return env;
}

/** Gemini CLI (and Copilot CLI) run commands with `bash -c` on Unix; `/bin/sh` where there is no bash. */
export function bashOrSh(): string {
  for (const candidate of ['/bin/bash', '/usr/bin/bash']) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // next
    }
  }
  return '/bin/sh';
}
