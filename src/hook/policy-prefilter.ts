/**
 * [R-HOOK-4] Before loading the engine: can any policy hook run for this call? Answered only from
 * the policy index the real loader wrote (`policy-index.ts`), never from a file read here: with no
 * fresh index, or one that names a hook this call may select, or a policy that cannot be used,
 * the engine decides. So skipping the engine is the only thing this may do, and only when the
 * approved text in force is known to have no hook for the event and tool — and no guard on by
 * default (`self-protect`, T-SELF-1) looks at them.
 */
import { trustStorePath } from '../consent/trust-store-path.ts';
import { managedPolicyState } from '../dialects/policy/managed-policy.ts';
import { fleetPolicyFile, policyFile } from '../dialects/surfaces/policy-files.ts';
import { defaultGuardsLookAt } from '../guards/default-guards.ts';
import { nameListExcludes } from './name-list-matcher.ts';
import { stampOf } from './path-stamps.ts';
import { freshIndex, indexKey } from './policy-index.ts';

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

/**
 * No policy file and no trust store exist: no hook can run (an approved project's text lives in
 * the trust store, so a deleted approved policy file does not count as absent), and there is no
 * need for an index. Three `stat`s, for the account that has no policy at all (after the managed
 * policy's one or two, `managedMode`).
 */
function nothingToRead(opts: { projectDir: string; home: string }): boolean {
  return [
    policyFile(opts.home),
    fleetPolicyFile(opts.home),
    policyFile(opts.projectDir),
    trustStorePath(opts.home),
  ].every((file) => stampOf(file).stamp === 'absent');
}

/**
 * [T-MGD-1] The index lives in the user's home, which the agent can write: while a managed policy
 * is there (or its folder is one root does not own, which denies), an index could have been forged
 * to say "no hook", so it is not asked and every call goes to a decider, which reads the managed
 * policy itself. One `lstat` when there is no `/etc/hookwerk`.
 */
function managedMode(): boolean {
  return managedPolicyState().kind !== 'absent';
}

/** Scans the index of the policy (and what it includes) for `event` and `tool`, for `agent`. */
export function scanPolicy(opts: {
  projectDir: string;
  home: string;
  agent: string;
  event: string;
  tool: string | undefined;
}): PolicyScan {
  if (managedMode()) return { mayRun: true, closedGuard: undefined, stale: false };
  const index = freshIndex(opts.home, indexKey(opts), opts.projectDir);
  if (index === undefined) {
    if (!nothingToRead(opts)) return { mayRun: true, closedGuard: undefined, stale: true };
    // [T-SELF-1] No policy at all still runs the guards on by default, on the calls they look at.
    return defaultGuardsLookAt(opts.event, opts.tool)
      ? { mayRun: true, closedGuard: true, stale: true }
      : { mayRun: false, closedGuard: false, stale: false };
  }
  const hooks = index.events.get(opts.event) ?? [];
  return {
    mayRun: index.unusable || hooks.some((h) => !nameListExcludes(h.matcher, opts.event, opts.tool)),
    closedGuard: hooks.some((h) => h.closed && !nameListExcludes(h.matcher, opts.event, opts.tool)),
    stale: false,
  };
}
