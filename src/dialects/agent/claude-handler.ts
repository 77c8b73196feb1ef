/**
 * One handler of a file in Claude Code's shape, read as Claude Code reads it [C-SRC-3, C-RUN-1]:
 * `command` (shell or exec form) and `http`, with their `if` rule, matcher, timeout and fail mode;
 * a handler that cannot be read is skipped with a warning, never the file. Claude Code's own files,
 * hookwerk's policy (with its `rule` handlers) and the Claude files Cursor runs [A-CUR-1] all read
 * their handlers here.
 */
import { z } from 'zod';
import type { HookConsent } from '../../consent/project-consent.ts';
import { type ConfigIssue, jsonPath } from '../../core/issues.ts';
import { handlerIdentity } from '../../registry/handler-identity.ts';
import type {
  AgentCommandHook,
  AgentHook,
  AgentHttpHook,
  HookScope,
} from '../../registry/hook-definition.ts';
import { compileMatcher } from '../../registry/matcher.ts';
import { literalHostProblem } from '../../runners/blocked-address.ts';
import { headerProblems, urlProblem } from '../../runners/http-headers.ts';
import { handlerOrigin, MAX_AGENT_TIMEOUT_MS } from '../../sources/agent-config.ts';
import { type RawHandler, readHandler } from '../../sources/agent-settings.ts';
import { claudeMatchField, isDocumentedClaudeEvent } from './claude-events.ts';
import { compileClaudeMatcher } from './claude-matcher.ts';
import { commandText } from './handler-fields.ts';
import { ifRuleProblem, toolCallRuleOf } from './if-rule.ts';

const CLAUDE_DEFAULT_TIMEOUT_S = 600;

const seconds = z.number().positive('timeout must be a positive number of seconds');
const failMode = z.enum(['open', 'closed']);
/** [K-VER-1] Claude Code 2.1.332's per-handler switch: `block` is hookwerk's `failMode: "closed"`. */
const onFailure = z.enum(['continue', 'block']);

const commandHandler = z.object({
  type: z.literal('command'),
  command: commandText,
  args: z.array(z.string().refine((s) => !s.includes('\0'), 'an argument contains a NUL byte')).optional(),
  timeout: seconds.optional(),
  async: z.boolean().optional(),
  if: z.string().optional(),
  failMode: failMode.optional(),
  onFailure: onFailure.optional(),
  keepChildren: z.boolean().optional(),
  statusMessage: z.string().optional(),
});

const httpHandler = z.object({
  type: z.literal('http'),
  url: z.string().min(1, 'url must not be empty'),
  headers: z.record(z.string(), z.string()).optional(),
  allowedEnvVars: z.array(z.string()).optional(),
  timeout: seconds.optional(),
  if: z.string().optional(),
  failMode: failMode.optional(),
  onFailure: onFailure.optional(),
  statusMessage: z.string().optional(),
  /** hookwerk's (issue 11): link-local and cloud metadata addresses may be reached. */
  allowLinkLocal: z.boolean().optional(),
});

const COMMON_FIELDS = ['type', 'timeout', 'if', 'statusMessage', 'once', 'failMode', 'onFailure'];
const COMMAND_FIELDS = new Set([
  ...COMMON_FIELDS,
  'command',
  'args',
  'async',
  'asyncRewake',
  'shell',
  'keepChildren',
]);
const HTTP_FIELDS = new Set([...COMMON_FIELDS, 'url', 'headers', 'allowedEnvVars', 'allowLinkLocal']);
const UNSUPPORTED_TYPES = new Set(['prompt', 'agent', 'mcp_tool']);

/**
 * (SPEC §14.4) How a file format with `rule` handlers (hookwerk's policy) reads one, given what the
 * loader worked out for every handler (event, matcher, `if`, origin, order, consent).
 */
export type RuleHookReader = (
  raw: RawHandler,
  common: Pick<
    AgentHook,
    'event' | 'dialect' | 'origin' | 'matcher' | 'enabled' | 'order' | 'consent' | 'ifRule'
  >,
  file: string,
  warnings: ConfigIssue[],
) => AgentHook | undefined;

/** What `claudeHook` needs of the file it reads (Cursor reads Claude files with it too [A-CUR-1]). */
export interface HandlerContext {
  file: string;
  scope: HookScope;
  projectDir: string;
  home: string;
  env: Readonly<Record<string, string>>;
  /** Where `allowedEnvVars` are looked up for HTTP headers. */
  parentEnv: NodeJS.ProcessEnv;
  warnings: ConfigIssue[];
  consent?: HookConsent;
  pluginRoot?: string;
  /** [C-RUN-3] Set with `pluginRoot`: its `CLAUDE_PLUGIN_DATA`. */
  pluginData?: string;
  /** Set for a format that has `rule` handlers; in Claude Code's own files `rule` is an unknown type. */
  ruleHook?: RuleHookReader;
}

/** One handler, validated, or `undefined` (skipped with a warning) [C-SRC-3, C-RUN-1]. */
export function claudeHook(raw: RawHandler, ctx: HandlerContext, order: number): AgentHook | undefined {
  const type: unknown = Reflect.get(raw.handler, 'type');
  const warn: Warn = (message, at = raw.at, level) =>
    ctx.warnings.push({
      file: ctx.file,
      path: jsonPath(at),
      message,
      ...(level !== undefined ? { level } : {}),
    });
  const rule = type === 'rule' ? ctx.ruleHook : undefined;
  if (!typeRead(type, rule !== undefined, raw, warn)) return undefined;
  if (!isDocumentedClaudeEvent(raw.event)) {
    ctx.warnings.push({
      file: ctx.file,
      path: jsonPath(['hooks', raw.event]),
      message: `"${raw.event}" is not an event Claude Code documents (kept: it runs when an agent sends it)`,
      level: 'warning',
    });
  }
  const common: Common = {
    event: raw.event,
    dialect: 'claude',
    origin: handlerOrigin(ctx.file, ctx.scope, raw.at),
    matcher: matcherFor(raw, ctx),
    enabled: true,
    order,
    ...(ctx.consent !== undefined ? { consent: ctx.consent } : {}),
    ...(ctx.pluginRoot !== undefined && ctx.pluginData !== undefined
      ? { pluginRoot: ctx.pluginRoot, pluginData: ctx.pluginData }
      : {}),
  };
  if (rule !== undefined) {
    const ifText: unknown = Reflect.get(raw.handler, 'if');
    const withIf = typeof ifText === 'string' ? { ...common, ifRule: ifRuleOf(ifText, raw, warn) } : common;
    return rule(raw, withIf, ctx.file, ctx.warnings);
  }
  return type === 'command' ? commandHook(raw, ctx, common, warn) : httpHook(raw, ctx, common, warn);
}

type Warn = (message: string, at?: PropertyKey[], level?: 'warning') => void;

/** What every handler of a Claude-shaped file gets, whatever its type. */
type Common = Pick<
  AgentHook,
  'event' | 'dialect' | 'origin' | 'matcher' | 'enabled' | 'order' | 'consent' | 'pluginRoot' | 'pluginData'
>;

/**
 * Whether a handler of this `type` is read: `command`, `http`, and `rule` where the file format
 * has it; a type Claude Code runs and hookwerk does not is a warning, any other an error (skipped).
 */
function typeRead(type: unknown, ruleFormat: boolean, raw: RawHandler, warn: Warn): boolean {
  if (typeof type === 'string' && UNSUPPORTED_TYPES.has(type)) {
    // [G-FAIL-3] A warning: Claude Code runs such a handler, so the file is fine for the agent;
    // only hookwerk's own runs of it (decide --dialect claude, an include) leave it out.
    warn(
      `handler type "${type}" is not supported by hookwerk (command and http are); this handler is skipped`,
      raw.at,
      'warning',
    );
    return false;
  }
  if (type === 'command' || type === 'http' || ruleFormat) return true;
  warn(`unknown handler type ${JSON.stringify(type ?? null)} (command or http); this handler is skipped`, [
    ...raw.at,
    'type',
  ]);
  return false;
}

/** A `command` handler: shell form, or exec form with `args` [C-RUN-1]. */
function commandHook(
  raw: RawHandler,
  ctx: HandlerContext,
  common: Common,
  warn: Warn,
): AgentHook | undefined {
  const h = readHandler(ctx.file, raw, commandHandler, COMMAND_FIELDS, ctx.warnings);
  if (h === undefined) return undefined;
  const hook: AgentCommandHook = {
    ...common,
    kind: 'process',
    name: h.args !== undefined ? [h.command, ...h.args].join(' ') : h.command,
    command: h.command,
    shell: '/bin/sh',
    env: ctx.env,
    cwd: ctx.projectDir,
    timeoutMs: timeoutOf(h.timeout, (m) => warn(m, [...raw.at, 'timeout'], 'warning')),
    failMode: failModeOf(h),
    async: h.async === true,
    // Plugin copies stay apart [C-RUN-2]: their key carries the plugin folder.
    dedupeKey: handlerIdentity({
      type: 'command',
      runs: [h.command, h.args ?? null],
      place: ctx.pluginRoot,
      ifRule: h.if,
      matcher: common.matcher.source,
      failMode: failModeOf(h),
    }),
  };
  if (h.args !== undefined) {
    const sub = (s: string) => substitutePlaceholders(s, ctx);
    hook.exec = { program: sub(h.command), args: h.args.map(sub) };
    hook.args = h.args;
  }
  if (h.if !== undefined) hook.ifRule = ifRuleOf(h.if, raw, warn);
  if (h.statusMessage !== undefined) hook.statusMessage = h.statusMessage;
  if (h.keepChildren === true) hook.keepChildren = true;
  return hook;
}

/** An `http` handler: its URL and headers checked at load [C-RUN-1, issue 11]. */
function httpHook(raw: RawHandler, ctx: HandlerContext, common: Common, warn: Warn): AgentHook | undefined {
  const h = readHandler(ctx.file, raw, httpHandler, HTTP_FIELDS, ctx.warnings);
  if (h === undefined) return undefined;
  const url = urlProblem(h.url) ?? (h.allowLinkLocal === true ? undefined : literalHostProblem(h.url));
  if (url !== undefined) {
    warn(`${url}; this handler is skipped`, [...raw.at, 'url']);
    return undefined;
  }
  const allowed = new Set(h.allowedEnvVars ?? []);
  const headers = h.headers ?? {};
  const problems = headerProblems(headers, {
    credentialFromEnv: (v) => namesIn(v).some((n) => allowed.has(n)),
  });
  if (problems.length > 0) {
    warn(`${problems[0]}; this handler is skipped`, [...raw.at, 'headers']);
    return undefined;
  }
  const hook: AgentHttpHook = {
    ...common,
    kind: 'http',
    name: `POST ${h.url}`,
    url: h.url,
    headers: expandHeaders(headers, allowed, ctx.parentEnv),
    timeoutMs: timeoutOf(h.timeout, (m) => warn(m, [...raw.at, 'timeout'], 'warning')),
    failMode: failModeOf(h),
    async: false,
    dedupeKey: handlerIdentity({
      type: 'http',
      runs: [h.url],
      place: ctx.pluginRoot,
      ifRule: h.if,
      matcher: common.matcher.source,
      failMode: failModeOf(h),
    }),
  };
  if (h.allowLinkLocal === true) hook.allowLinkLocal = true;
  if (h.if !== undefined) hook.ifRule = ifRuleOf(h.if, raw, warn);
  if (h.statusMessage !== undefined) hook.statusMessage = h.statusMessage;
  return hook;
}

/**
 * [C-RUN-1] The handler's `if` rule; one Claude Code cannot read runs the handler on every call,
 * as Claude Code does, and `validate` says so (a warning: the file is the agent's, and lenient).
 */
function ifRuleOf(
  text: string,
  raw: RawHandler,
  warn: (message: string, at: PropertyKey[], level: 'warning') => void,
) {
  const problem = ifRuleProblem(text);
  if (problem !== undefined)
    warn(`if rule cannot be read (${problem}): the handler runs on every call`, [...raw.at, 'if'], 'warning');
  return toolCallRuleOf(text);
}

/** `failMode` as written, else Claude Code's own `onFailure` (`block` fails closed), else open. */
function failModeOf(h: {
  failMode?: 'open' | 'closed' | undefined;
  onFailure?: 'continue' | 'block' | undefined;
}) {
  return h.failMode ?? (h.onFailure === 'block' ? 'closed' : 'open');
}

/** [C-MATCH-1, C-MATCH-2] A matcher on an event without a matched field is ignored. */
function matcherFor(raw: RawHandler, ctx: HandlerContext) {
  if (claudeMatchField(raw.event) === undefined) return compileMatcher(undefined);
  const matcher = compileClaudeMatcher(raw.matcher);
  if (matcher.error !== undefined) {
    ctx.warnings.push({
      file: ctx.file,
      path: jsonPath([...raw.at.slice(0, -2), 'matcher']),
      message: matcher.error,
    });
  }
  return matcher;
}

/**
 * [C-RUN-1, G-FAIL-3] Seconds (fractions allowed), default 600; beyond an hour cut to an hour,
 * with a warning that fails nothing: Claude Code runs such a file (and caps it) too.
 */
function timeoutOf(value: number | undefined, warn: (message: string) => void): number {
  const ms = Math.round((value ?? CLAUDE_DEFAULT_TIMEOUT_S) * 1000);
  if (ms > MAX_AGENT_TIMEOUT_MS) {
    warn(`timeout ${value} s is over the 1 hour limit; 3600 s is used`);
    return MAX_AGENT_TIMEOUT_MS;
  }
  return Math.max(1, ms);
}

/** [C-RUN-1] Exec form: the placeholders are plain-string substitutions (no shell, no quoting). */
function substitutePlaceholders(s: string, ctx: HandlerContext): string {
  let out = s.replaceAll(placeholder('CLAUDE_PROJECT_DIR'), ctx.projectDir);
  if (ctx.pluginRoot !== undefined && ctx.pluginData !== undefined) {
    out = out
      .replaceAll(placeholder('CLAUDE_PLUGIN_ROOT'), ctx.pluginRoot)
      .replaceAll(placeholder('CLAUDE_PLUGIN_DATA'), ctx.pluginData);
  }
  return out;
}

/** `${NAME}` as written in a hook file (built, so it is not mistaken for a template placeholder). */
function placeholder(name: string): string {
  return `$\{${name}}`;
}

/** `$NAME` and `${NAME}` references in a header value. */
function namesIn(value: string): string[] {
  return [...value.matchAll(/\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/g)].map(
    (m) => m[1] ?? m[2] ?? '',
  );
}

/** [C-RUN-1] `$VAR` / `${VAR}` in header values, only for the names in `allowedEnvVars` (others become empty). */
function expandHeaders(
  headers: Readonly<Record<string, string>>,
  allowed: ReadonlySet<string>,
  env: NodeJS.ProcessEnv,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    out[name] = value.replace(/\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/g, (_m, a, b) => {
      const key = String(a ?? b);
      return allowed.has(key) ? (env[key] ?? '') : '';
    });
  }
  return out;
}
