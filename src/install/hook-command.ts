/**
 * The command an agent's hook entry runs [R-INST-1, R-HOOK-4]: hookwerk by absolute path, so it
 * works whatever the agent's PATH is. The small native client when it was built (the warm path),
 * else node running our bin script.
 */
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package root: two folders up from `src/install/` and `dist/install/`. */
export function packageRoot(): string {
  return fileURLToPath(new URL('../../', import.meta.url));
}

/** One word for `sh`/`bash`: single-quoted, a `'` inside as `'\''`. */
export function shellQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** What an entry's command says besides the agent: its event (Copilot), the agent's timeout [G-FAIL-4]. */
export interface HookCommandFlags {
  readonly event?: string | undefined;
  /** The entry's timeout in seconds: `hookwerk hook` answers within it. */
  readonly timeoutS?: number | undefined;
}

/**
 * `'<root>/dist/native/hookwerk-hook' --agent A [--event E] [--timeout S]` when that client exists
 * and is executable, else `'<node>' '<root>/bin/hookwerk.js' hook --agent A [--event E] [--timeout S]`.
 */
export function hookCommandLine(
  agent: string,
  flags: HookCommandFlags = {},
  root: string = packageRoot(),
): string {
  const client = path.join(root, 'dist', 'native', 'hookwerk-hook');
  const program = isExecutableFile(client)
    ? shellQuote(client)
    : `${shellQuote(process.execPath)} ${shellQuote(path.join(root, 'bin', 'hookwerk.js'))} hook`;
  return `${program} --agent ${agent}${hookFlags(flags)}`;
}

/** ` --event E --timeout S`, each when given. */
export function hookFlags(flags: HookCommandFlags): string {
  const event = flags.event !== undefined ? ` --event ${flags.event}` : '';
  return `${event}${flags.timeoutS !== undefined ? ` --timeout ${flags.timeoutS}` : ''}`;
}

function isExecutableFile(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
