/**
 * [G-FAIL-2] A hook whose command cannot run is found before it is needed: the script a command
 * line runs (its program when that is a path, or the script a known interpreter is given, as
 * `primaryScriptOf` reads it) must exist, and a program given by path must be executable. A
 * guard whose script is missing would otherwise answer nothing — or, under dash, `exit 2`, a deny
 * for a reason nobody wrote. `validate` and `install` report these as errors.
 */
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import { commandWords, primaryScriptOf } from '../core/command-words.ts';
import type { ConfigIssue } from '../core/issues.ts';
import type { AgentHook } from '../registry/hook-definition.ts';

/** One error per process hook whose script is missing or whose program cannot be executed. */
export function missingCommandProblems(hooks: readonly AgentHook[], home: string): ConfigIssue[] {
  const out: ConfigIssue[] = [];
  for (const hook of hooks) {
    if (hook.kind !== 'process') continue;
    const problem = commandProblem(hook, home);
    if (problem !== undefined)
      out.push({
        file: hook.origin.file ?? hook.origin.source,
        path: hook.origin.path ?? '$',
        message: problem,
      });
  }
  return out;
}

function commandProblem(hook: Extract<AgentHook, { kind: 'process' }>, home: string): string | undefined {
  const projectDir = hook.env.CLAUDE_PROJECT_DIR ?? hook.cwd;
  const opts = { projectDir, ...(hook.pluginRoot !== undefined ? { pluginRoot: hook.pluginRoot } : {}) };
  if (hook.exec !== undefined) {
    const program = hook.exec.program;
    return program.includes('/') ? fileProblem(program, true) : undefined;
  }
  const script = primaryScriptOf(hook.command, hook.cwd, home, opts);
  if (script === undefined) return undefined;
  // Run by its path (`./guard.sh`, `"$CLAUDE_PROJECT_DIR"/hooks/x`), not given to an interpreter
  // (`/usr/bin/node guard.mjs`): it must be executable too.
  const first = (commandWords(hook.command)[0] ?? '').replace(/^\$\{?CLAUDE_PROJECT_DIR\}?/, projectDir);
  const byPath = first.includes('/') && path.resolve(hook.cwd, first) === script;
  return fileProblem(script, byPath);
}

function fileProblem(file: string, mustExecute: boolean): string | undefined {
  let isFile: boolean;
  try {
    isFile = statSync(file).isFile();
  } catch {
    return `the command's script ${file} does not exist: this hook cannot run`;
  }
  if (!isFile) return `the command's script ${file} is not a file: this hook cannot run`;
  if (!mustExecute) return undefined;
  try {
    accessSync(file, constants.X_OK);
    return undefined;
  } catch {
    return `the command's program ${file} is not executable (chmod +x): this hook cannot run`;
  }
}
