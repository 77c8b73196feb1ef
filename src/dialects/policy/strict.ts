/**
 * [G-FAIL-1] hookwerk's own policy files are strict, unlike the agents' files (C-SRC-3): a key the
 * policy does not know (`matchr`), a field of the wrong type, a handler type hookwerk cannot run,
 * a matcher, an `if` rule, a permission rule [G-PERM-1], a guard setting [G-LIB-1] or a rule's CEL
 * condition [G-CEL-3] that does not parse is an error of the file, and a file with an error
 * is not used at all — the gate then denies (`policy-error.ts`) rather than run a guard that
 * silently lost its matcher or its condition. Warnings (a timeout over Claude Code's hour, an
 * event name hookwerk does not know and that looks like no typo) never make a file unusable.
 */
import { z } from 'zod';
import { type ConfigIssue, fromZodIssues, jsonPath } from '../../core/issues.ts';
import { looksLike } from '../../core/looks-like.ts';
import { isPlainObject } from '../../core/plain-object.ts';
import type { HookScope } from '../../registry/hook-definition.ts';
import { MAX_AGENT_TIMEOUT_MS } from '../../sources/agent-config.ts';
import { CLAUDE_EVENT_NAMES, claudeMatchField, isDocumentedClaudeEvent } from '../agent/claude-events.ts';
import { compileClaudeMatcher } from '../agent/claude-matcher.ts';
import { ifRuleProblem } from '../agent/if-rule.ts';
import { readGuardSettings } from './guard-settings.ts';
import { PERMISSION_LISTS, parsePermissionRule } from './permission-rule.ts';
import { RULE_HANDLER, ruleProblems } from './rule-handler.ts';
import { TRUST_SETTING } from './trust-setting.ts';

const seconds = z.number().positive('timeout must be a positive number of seconds');
const noNul = (what: string) => z.string().refine((s) => !s.includes('\0'), `${what} contains a NUL byte`);

/** What every handler may carry. */
const COMMON = {
  timeout: seconds.optional(),
  if: z.string().optional(),
  failMode: z.enum(['open', 'closed']).optional(),
  /** Claude Code 2.1.332's own spelling of a closed guard (K-VER-1): `block` is `failMode: "closed"`. */
  onFailure: z.enum(['continue', 'block']).optional(),
  statusMessage: z.string().optional(),
  once: z.boolean().optional(),
};

const HANDLERS = {
  command: z.strictObject({
    type: z.literal('command'),
    command: noNul('command').pipe(z.string().min(1, 'command must not be empty')),
    args: z.array(noNul('an argument')).optional(),
    async: z.boolean().optional(),
    asyncRewake: z.boolean().optional(),
    shell: z.string().optional(),
    keepChildren: z.boolean().optional(),
    ...COMMON,
  }),
  http: z.strictObject({
    type: z.literal('http'),
    url: z.string().min(1, 'url must not be empty'),
    headers: z.record(z.string(), z.string()).optional(),
    allowedEnvVars: z.array(z.string()).optional(),
    allowLinkLocal: z.boolean().optional(),
    ...COMMON,
  }),
  // (SPEC §14.4) Bounded by its own budget: no timeout, never async.
  rule: RULE_HANDLER,
} as const;

const GROUP = z.strictObject({ matcher: z.string().optional(), hooks: z.array(z.unknown()) });

const TOP = z.strictObject({
  $schema: z.string().optional(),
  hooks: z.record(z.string(), z.array(z.unknown())).optional(),
  include: z
    .array(z.enum(['claude'], 'include lists other hook files to run: only "claude" is known'))
    .optional(),
  disableAllHooks: z.boolean().optional(),
  /** [T-MGD-1] Only the managed policy's counts: the other files are then not read. */
  managedOnly: z.boolean().optional(),
  /** [G-PERM-1] Claude Code's permission rules; each is read below (a rule that does not read is an error). */
  permissions: z
    .strictObject({
      deny: z.array(z.string()).optional(),
      ask: z.array(z.string()).optional(),
      allow: z.array(z.string()).optional(),
    })
    .optional(),
  /** [G-LIB-1] The shipped guards it turns on, each read by `guard-settings.ts`. */
  guards: z.record(z.string(), z.unknown()).optional(),
  /** [T-SELF-2] How `hookwerk trust` approves (read from the user's file: `trust-setting.ts`). */
  trust: TRUST_SETTING.optional(),
});

const unknownKey = (_at: ReadonlyArray<PropertyKey>, key: string) =>
  `unknown key "${key}" (a policy file is strict: check its spelling)`;

/**
 * Every problem of one policy file's parsed value: errors make it unusable, warnings do not.
 * `scope` is the file's (`managed` may turn off a guard that is on by default, T-MGD-1).
 */
export function policyProblems(file: string, value: unknown, scope?: HookScope): ConfigIssue[] {
  if (!isPlainObject(value)) return [{ file, path: '$', message: 'must be a JSON object' }];
  const top = TOP.safeParse(value);
  if (!top.success) return fromZodIssues(file, top.error.issues, unknownKey);
  const out: ConfigIssue[] = [];
  for (const list of PERMISSION_LISTS)
    (top.data.permissions?.[list] ?? []).forEach((rule, i) => {
      const read = parsePermissionRule(rule);
      if ('problem' in read)
        out.push({ file, path: jsonPath(['permissions', list, i]), message: read.problem });
    });
  if (top.data.managedOnly !== undefined && scope !== 'managed')
    out.push({
      file,
      path: '$.managedOnly',
      message: 'managedOnly is ignored here: only the managed policy (/etc/hookwerk/policy.json) may say it',
      level: 'warning',
    });
  out.push(...readGuardSettings(file, top.data.guards, undefined, scope).problems);
  for (const [event, groups] of Object.entries(top.data.hooks ?? {})) {
    const eventProblem = unknownEvent(event);
    if (eventProblem !== undefined) out.push({ file, path: jsonPath(['hooks', event]), ...eventProblem });
    groups.forEach((group, g) => {
      out.push(...groupProblems(file, event, group, ['hooks', event, g]));
    });
  }
  return out;
}

function groupProblems(file: string, event: string, group: unknown, at: PropertyKey[]): ConfigIssue[] {
  const parsed = GROUP.safeParse(group);
  if (!parsed.success) return fromZodIssues(file, parsed.error.issues, unknownKey, at);
  const out: ConfigIssue[] = [];
  const matcher = parsed.data.matcher;
  if (matcher !== undefined && claudeMatchField(event) !== undefined) {
    const error = compileClaudeMatcher(matcher).error;
    if (error !== undefined) out.push({ file, path: jsonPath([...at, 'matcher']), message: error });
  }
  parsed.data.hooks.forEach((handler, h) => {
    out.push(...handlerProblems(file, event, handler, [...at, 'hooks', h]));
  });
  return out;
}

function handlerProblems(file: string, event: string, handler: unknown, at: PropertyKey[]): ConfigIssue[] {
  const type: unknown = isPlainObject(handler) ? Reflect.get(handler, 'type') : undefined;
  if (type !== 'command' && type !== 'http' && type !== 'rule') {
    const given = isPlainObject(handler) ? JSON.stringify(type ?? null) : 'not an object';
    return [
      {
        file,
        path: jsonPath(isPlainObject(handler) ? [...at, 'type'] : at),
        message: `a handler must be {"type": "command", …}, {"type": "http", …} or {"type": "rule", …} (got ${given}); hookwerk cannot run prompt, agent or mcp_tool handlers`,
      },
    ];
  }
  const parsed = HANDLERS[type].safeParse(handler);
  if (!parsed.success) return fromZodIssues(file, parsed.error.issues, unknownKey, at);
  const h = parsed.data;
  const out: ConfigIssue[] = h.type === 'rule' ? ruleProblems(file, event, h, at) : [];
  if (h.if !== undefined) {
    const problem = ifRuleProblem(h.if);
    if (problem !== undefined)
      out.push({
        file,
        path: jsonPath([...at, 'if']),
        message: `${problem} (a rule that cannot be read would run the handler on every call)`,
      });
  }
  const closed = h.failMode === 'closed' || h.onFailure === 'block';
  if (h.failMode !== undefined && h.onFailure !== undefined && closed !== (h.failMode === 'closed'))
    out.push({
      file,
      path: jsonPath([...at, 'onFailure']),
      message: 'failMode and onFailure disagree: give one of them',
    });
  if (type === 'command' && Reflect.get(h, 'async') === true && closed)
    out.push({
      file,
      path: jsonPath([...at, 'async']),
      message: 'an async handler never decides, so it cannot fail closed: drop async or the closed failMode',
    });
  if ('timeout' in h && h.timeout !== undefined && h.timeout * 1000 > MAX_AGENT_TIMEOUT_MS)
    out.push({
      file,
      path: jsonPath([...at, 'timeout']),
      message: `timeout ${h.timeout} s is over Claude Code's 1 hour limit; 3600 s is used`,
      level: 'warning',
    });
  return out;
}

/**
 * An event name hookwerk does not know: an error when it looks like a typo of one it knows (its
 * guards would never run), else a warning (an agent newer than hookwerk may send it, and then it runs).
 */
function unknownEvent(event: string): Pick<ConfigIssue, 'message' | 'level'> | undefined {
  if (isDocumentedClaudeEvent(event)) return undefined;
  const near = CLAUDE_EVENT_NAMES.find((known) => looksLike(event, known));
  if (near !== undefined) return { message: `unknown event "${event}": did you mean "${near}"?` };
  return {
    message: `"${event}" is not an event hookwerk knows (its hooks run only if an agent sends it)`,
    level: 'warning',
  };
}
