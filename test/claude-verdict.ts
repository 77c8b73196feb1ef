/**
 * Claude Code's reading of a `hookwerk hook` reply, for the tests that run the real hook and look
 * at what the agent would do: one copy, so every test reads the reply the way the agent does.
 */
import { expect } from 'vitest';
import type { CliResult } from './cli-runner.ts';

/** The reply's permission decision (`none` for no objection) and its reason if it gives one; the hook must exit 0. */
export function claudeVerdict(r: CliResult): { decision: string; reason?: string } {
  expect(r.code, r.stderr).toBe(0);
  if (r.stdout.trim() === '') return { decision: 'none' };
  const out: unknown = JSON.parse(r.stdout);
  const specific =
    typeof out === 'object' && out !== null ? Reflect.get(out, 'hookSpecificOutput') : undefined;
  const decision =
    typeof specific === 'object' && specific !== null
      ? Reflect.get(specific, 'permissionDecision')
      : undefined;
  const reason =
    typeof specific === 'object' && specific !== null
      ? Reflect.get(specific, 'permissionDecisionReason')
      : undefined;
  return {
    decision: typeof decision === 'string' ? decision : 'none',
    ...(typeof reason === 'string' ? { reason } : {}),
  };
}
