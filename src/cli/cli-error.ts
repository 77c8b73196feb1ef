import { statSync } from 'node:fs';
import path from 'node:path';
import { HookwerkError } from '../core/errors.ts';
import { parseBoundedJson, TOO_DEEP } from '../core/json-text.ts';

/** An error the user can fix: printed as one line, no stack, with its exit code. */
export class CliError extends HookwerkError {
  readonly exitCode: number;
  constructor(message: string, exitCode = 1) {
    super('CLI', message);
    this.exitCode = exitCode;
  }
}

/** JSON given on the command line (`--input`, stdin…), nested no deeper than hooks' JSON may be [C-ANS-3]. */
export function parseJsonOption(flag: string, text: string): unknown {
  const parsed = parseBoundedJson(text);
  if (parsed.ok) return parsed.value;
  throw new CliError(parsed.tooDeep ? `${flag} is ${TOO_DEEP}` : `${flag} is not valid JSON: ${parsed.why}`);
}

/** An existing workspace or project folder, absolute; a missing one is a user error (a typo must not pass as "no hooks"). */
export function resolveWorkspace(dir: string | undefined): string {
  const workspace = path.resolve(dir ?? '.');
  let isDir = false;
  try {
    isDir = statSync(workspace).isDirectory();
  } catch {
    throw new CliError(`folder ${workspace} does not exist`);
  }
  if (!isDir) throw new CliError(`${workspace} is not a directory`);
  return workspace;
}
