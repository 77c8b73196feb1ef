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

/**
 * `'<root>/dist/native/hookwerk-hook' --agent A [--event E]` when that client exists and is
 * executable, else `'<node>' '<root>/bin/hookwerk.js' hook --agent A [--event E]`.
 */
export function hookCommandLine(agent: string, event?: string, root: string = packageRoot()): string {
  const client = path.join(root, 'dist', 'native', 'hookwerk-hook');
  const program = isExecutableFile(client)
    ? shellQuote(client)
    : `${shellQuote(process.execPath)} ${shellQuote(path.join(root, 'bin', 'hookwerk.js'))} hook`;
  return `${program} --agent ${agent}${event !== undefined ? ` --event ${event}` : ''}`;
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
