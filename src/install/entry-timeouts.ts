/**
 * [G-FAIL-4] The timeout `install` writes into each entry, from the policy's own handlers: the
 * longest timeout of the handlers of the entry's Claude Code event (a handler without one counts
 * 600 s, as the policy's loader gives it) plus 5 s, capped at the agent's maximum; the agent's
 * default for an event the policy has no handler for. The policy is read by its own loader in
 * review mode (every current text, approved or not: install prepares for what the user will
 * approve), with `"include": ["claude"]` as `hookwerk hook` runs it for that agent.
 */

import { answerBudgetMs, entryTimeoutS, handlersOf } from '../dialects/agent/hook-timeout.ts';
import { loadPolicyConfig } from '../dialects/policy/source.ts';
import type { AgentHook } from '../registry/hook-definition.ts';
import type { InstallTarget } from './install-target.ts';

/** The seconds of each of the agent's events, and why a closed guard may still be cut short. */
export interface PlannedTimeouts {
  readonly seconds: ReadonlyMap<string, number>;
  /** One line per closed handler whose timeout the agent's maximum cuts short. */
  readonly warnings: readonly string[];
}

/** The policy handlers (run by `hookwerk hook --agent <target>`) of each Claude Code event. */
export function policyHandlers(
  target: Pick<InstallTarget, 'name' | 'scope' | 'projectDir' | 'home' | 'env'>,
): ReadonlyMap<string, readonly AgentHook[]> {
  // The home stands in for the project folder of a user install.
  const projectDir = target.projectDir ?? target.home;
  const config = loadPolicyConfig({ projectDir, home: target.home, env: target.env }, { agent: target.name });
  // A user install serves every project: the project's own files are left out.
  const entries = config.entries.filter(
    (e) => target.scope !== 'user' || (e.origin.scope !== 'project' && e.origin.scope !== 'local'),
  );
  const out = new Map<string, AgentHook[]>();
  for (const event of new Set(entries.map((e) => e.event))) out.set(event, handlersOf(entries, event));
  return out;
}

function sourceOf(h: AgentHook): string {
  return h.origin.file !== undefined ? `${h.origin.file} ${h.origin.path ?? ''}`.trim() : h.origin.source;
}

/** The entry timeout of each of the target agent's events, and the warnings of the caps. */
export function plannedTimeouts(target: InstallTarget): PlannedTimeouts {
  const handlers = policyHandlers(target);
  const { install, label } = target;
  const seconds = new Map<string, number>();
  const warnings: string[] = [];
  for (const event of install.events) {
    const claude = install.claudeEvent(event);
    const own: readonly AgentHook[] = claude === undefined ? [] : (handlers.get(claude) ?? []);
    const s = entryTimeoutS(install.timeouts, event, own);
    seconds.set(event, s);
    const budgetMs = answerBudgetMs(s);
    for (const h of own) {
      if (h.failMode !== 'closed' || h.timeoutMs <= budgetMs) continue;
      warnings.push(
        `a failMode "closed" ${claude} handler (${h.name}, ${sourceOf(h)}) has a timeout of ${h.timeoutMs / 1000} s, but ${label} waits at most ${s} s for ${event}: hookwerk hook stops it and denies ("timed out") when it is still running ${budgetMs / 1000} s in`,
      );
    }
  }
  return { seconds, warnings };
}
