/**
 * [R-HOOK-4, C-MATCH-2] The one matcher test the fast paths may make without the engine: a group
 * whose matcher is a plain list of tool names (`Bash`, `Edit|Write`) surely does not admit a tool
 * that is not on it. Anything else (a regex, no matcher, an event whose matcher is not about
 * tools) may admit anything: the engine decides.
 */

/** The events whose matcher tests `tool_name` [C-MATCH-1]. */
const TOOL_EVENTS = new Set(['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'PermissionRequest']);
const NAME_LIST = /^[A-Za-z0-9_]+(\|[A-Za-z0-9_]+)*$/;

export function nameListExcludes(matcher: unknown, event: string, tool: string | undefined): boolean {
  if (!TOOL_EVENTS.has(event) || tool === undefined) return false;
  if (typeof matcher !== 'string' || matcher === '' || matcher === '*') return false;
  if (!NAME_LIST.test(matcher)) return false;
  return !matcher.split('|').includes(tool);
}
