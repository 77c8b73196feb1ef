import path from 'node:path';
import type { AgentCommandHook } from '../registry/hook-definition.ts';

/**
 * The folder a command hook runs in: the input's `cwd` when it is an absolute path, else the
 * hook's; always the hook's when it says `ownCwd` (Copilot CLI [A-COP-1]).
 */
export function runFolderOf(hook: AgentCommandHook, input: Record<string, unknown>): string {
  if (hook.ownCwd === true) return hook.cwd;
  return typeof input.cwd === 'string' && path.isAbsolute(input.cwd) ? input.cwd : hook.cwd;
}
