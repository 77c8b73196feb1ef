/**
 * [R-HOOK-4] Before loading the engine: can any policy hook run for this call? Answered only from
 * the policy index the real loader wrote (`policy-index.ts`), never from a file read here: with no
 * fresh index, or one that names a hook this call may select, or a policy that cannot be used,
 * the engine decides. So skipping the engine is the only thing this may do, and only when the
 * approved text in force is known to have no hook for the event and tool.
 */
import { trustStorePath } from '../consent/trust-store-path.ts';
import { policyFile } from '../dialects/policy/files.ts';
import { stampOf } from './path-stamps.ts';
import { freshIndex, type IndexedHook, indexKey } from './policy-index.ts';

/** The events whose matcher tests `tool_name` [C-MATCH-1]. */
const TOOL_EVENTS = new Set(['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'PermissionRequest']);
/** A matcher that is a plain list of tool names (`Bash`, `Edit|Write`): tested here exactly. */
const NAME_LIST = /^[A-Za-z0-9_]+(\|[A-Za-z0-9_]+)*$/;

export interface PolicyScan {
  /** Some hook may run for the call (or it is not known): the engine must decide. */
  mayRun: boolean;
  /**
   * A handler with `failMode: "closed"` is configured for the event (matcher aside), as far as a
   * fresh index says; `undefined` when there is none to ask [R-HOOK-2].
   */
  closedGuard: boolean | undefined;
  /** No fresh index: the engine that decides this call should write one. */
  stale: boolean;
}

/** The group's matcher surely does not admit `tool` (a plain name list without it). */
function matcherExcludes(hook: IndexedHook, event: string, tool: string | undefined): boolean {
  const matcher = hook.matcher;
  if (!TOOL_EVENTS.has(event) || tool === undefined) return false;
  if (matcher === undefined || matcher === '' || matcher === '*') return false;
  if (!NAME_LIST.test(matcher)) return false;
  return !matcher.split('|').includes(tool);
}

/**
 * No policy file and no trust store exist: no hook can run (an approved project's text lives in
 * the trust store, so a deleted approved policy file does not count as absent), and there is no
 * need for an index. Three `stat`s, for the account that has no policy at all.
 */
function nothingToRead(opts: { projectDir: string; home: string }): boolean {
  return [policyFile(opts.home), policyFile(opts.projectDir), trustStorePath(opts.home)].every(
    (file) => stampOf(file).stamp === 'absent',
  );
}

/** Scans the index of the policy (and what it includes) for `event` and `tool`, for `agent`. */
export function scanPolicy(opts: {
  projectDir: string;
  home: string;
  agent: string;
  event: string;
  tool: string | undefined;
}): PolicyScan {
  const index = freshIndex(opts.home, indexKey(opts), opts.projectDir);
  if (index === undefined)
    return nothingToRead(opts)
      ? { mayRun: false, closedGuard: false, stale: false }
      : { mayRun: true, closedGuard: undefined, stale: true };
  const hooks = index.events.get(opts.event) ?? [];
  return {
    mayRun: index.unusable || hooks.some((h) => !matcherExcludes(h, opts.event, opts.tool)),
    closedGuard: hooks.some((h) => h.closed),
    stale: false,
  };
}
