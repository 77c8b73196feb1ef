/**
 * [T-SELF-1, R-HOOK-4] What the guards on by default (`self-protect`) look at, as plain names: the
 * fast path (`hook/policy-prefilter.ts`) must hand such calls to the engine even for an account
 * with no policy file at all, and it may not load the guards to learn which calls those are. The
 * guard's own `tools` is this list, so the two cannot disagree.
 */

/** The event the default guards run on. */
export const DEFAULT_GUARD_EVENT = 'PreToolUse';

/**
 * The Claude-shaped tools (after R-MAP-1) whose calls the action view reads files or commands
 * of (G-ACT-1: `action/tool-paths.ts`' file tools, Codex's `apply_patch`, the shell): no other
 * tool's call can name a file the view sees.
 */
export const DEFAULT_GUARD_TOOLS: readonly string[] = [
  'Bash',
  'apply_patch',
  'Read',
  'NotebookRead',
  'Glob',
  'Grep',
  'LS',
  'Write',
  'Edit',
  'MultiEdit',
  'NotebookEdit',
  'Delete',
];

/** A default guard may object to a call of `event` and `tool` (`undefined`: not known, so it may). */
export function defaultGuardsLookAt(event: string, tool: string | undefined): boolean {
  return event === DEFAULT_GUARD_EVENT && (tool === undefined || DEFAULT_GUARD_TOOLS.includes(tool));
}
