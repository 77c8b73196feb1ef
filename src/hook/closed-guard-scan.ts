/**
 * [R-HOOK-2] When the engine itself failed: does a closed guard (`failMode: "closed"`, or Claude
 * Code's `onFailure: "block"`) whose matcher may select the call name the event in any policy file,
 * or in the Claude Code files a policy includes — or do a policy's permission rules deny or ask on
 * it, or its guards [G-LIB-1], or a guard on by default [T-SELF-1]? Read from the files as they are now, bounded and regular files only; used only
 * to turn "hookwerk could not decide" into a deny, never to allow anything.
 */
import { MAX_SOURCE_BYTES } from '../consent/project-surface.ts';
import { parseJsoncText } from '../core/json-text.ts';
import { isPlainObject } from '../core/plain-object.ts';
import { readSourceFile } from '../core/read-source.ts';
import { claudeSurface } from '../dialects/surfaces/claude.ts';
import { fleetPolicyFile, MANAGED_POLICY_FILE, policyFile } from '../dialects/surfaces/policy-files.ts';
import { defaultGuardsLookAt } from '../guards/default-guards.ts';
import { nameListExcludes } from './name-list-matcher.ts';

export function closedGuardInFiles(q: {
  projectDir: string;
  home: string;
  agent: string;
  event: string;
  /** The call's tool: a group whose matcher is a plain list of other tools cannot select it. */
  tool: string | undefined;
  /** [G-TEST-1] The policy files in force instead of the user's and the project's. */
  files?: readonly string[];
}): boolean {
  // [T-MGD-1] The managed policy is one of them, whatever files are under test.
  const own = q.files ?? [fleetPolicyFile(q.home), policyFile(q.home), policyFile(q.projectDir)];
  const policies = [MANAGED_POLICY_FILE, ...own].map(settingsValue);
  const include = q.agent !== 'claude' && policies.some((v) => includesClaude(v));
  const claude = include
    ? [...claudeSurface.homeFiles(q.home), ...claudeSurface.projectFiles(q.projectDir)].map(settingsValue)
    : [];
  return (
    // [T-SELF-1] A guard on by default runs whatever the files say (only a managed policy turns it off).
    defaultGuardsLookAt(q.event, q.tool) ||
    policies.some((v) => deniesOrAsks(v, q.event) || guardsOn(v, q.event)) ||
    [...policies, ...claude].some((v) => namesClosedGuard(v, q.event, q.tool))
  );
}

/** [G-PERM-1] A policy's permission rules deny or ask on PreToolUse: a failure there denies too. */
function deniesOrAsks(value: unknown, event: string): boolean {
  const permissions = isPlainObject(value) ? value.permissions : undefined;
  if (event !== 'PreToolUse' || !isPlainObject(permissions)) return false;
  return ['deny', 'ask'].some((list) => {
    const rules = permissions[list];
    return Array.isArray(rules) && rules.length > 0;
  });
}

/** [G-LIB-1] A policy turns a guard on (a guard denies or asks on PreToolUse): a failure there denies too. */
function guardsOn(value: unknown, event: string): boolean {
  const guards = isPlainObject(value) ? value.guards : undefined;
  if (event !== 'PreToolUse' || !isPlainObject(guards)) return false;
  return Object.values(guards).some((g) => g !== false);
}

function settingsValue(file: string): unknown {
  const read = readSourceFile(file, MAX_SOURCE_BYTES);
  if (read.kind !== 'text') return undefined;
  const parsed = parseJsoncText(file, read.text);
  return parsed.ok ? parsed.value : undefined;
}

function includesClaude(value: unknown): boolean {
  const list = isPlainObject(value) ? value.include : undefined;
  return Array.isArray(list) && list.includes('claude');
}

function namesClosedGuard(value: unknown, event: string, tool: string | undefined): boolean {
  const hooks = isPlainObject(value) ? value.hooks : undefined;
  const groups = isPlainObject(hooks) && Object.hasOwn(hooks, event) ? hooks[event] : undefined;
  if (!Array.isArray(groups)) return false;
  return groups.some((group) => {
    if (isPlainObject(group) && nameListExcludes(group.matcher, event, tool)) return false;
    const handlers = isPlainObject(group) ? group.hooks : undefined;
    return (
      Array.isArray(handlers) &&
      handlers.some((h) => isPlainObject(h) && (h.failMode === 'closed' || h.onFailure === 'block'))
    );
  });
}
