/**
 * One Codex CLI handler read as Codex 0.171 reads it [A-CDX-1]: `command` only (`prompt`, `agent`,
 * `mcp_tool` skipped with a warning, as Codex skips them), run by `$SHELL -lc`; identical hooks stay
 * apart; a matcher only where Codex reads one, a bad one skipping its whole group.
 */
import { z } from 'zod';
import { type ConfigIssue, jsonPath } from '../../core/issues.ts';
import type { AgentCommandHook, HookScope } from '../../registry/hook-definition.ts';
import { compileMatcher } from '../../registry/matcher.ts';
import { handlerOrigin, MAX_AGENT_TIMEOUT_MS } from '../../sources/agent-config.ts';
import { type RawHandler, readHandler } from '../../sources/agent-settings.ts';
import { type CodexEventName, codexMatchField, isCodexEvent } from './events.ts';
import { compileCodexMatcher } from './matcher.ts';

const CODEX_DEFAULT_TIMEOUT_S = 600;

export interface HandlerContext {
  spec: { file: string; scope: HookScope };
  projectDir: string;
  env: Readonly<Record<string, string>>;
  shell: string;
  warnings: ConfigIssue[];
  /** The matcher groups of this file already reported (one warning a group). */
  badGroups: Set<string>;
  consent?: AgentCommandHook['consent'];
  pluginRoot?: string;
  pluginData?: string;
}

const commandHandler = z.object({
  type: z.literal('command'),
  command: z.string().refine((s) => !s.includes('\0'), 'command contains a NUL byte'),
  commandWindows: z.string().nullish(),
  timeout: z.number().int().nonnegative().nullish(),
  async: z.boolean().optional(),
  statusMessage: z.string().nullish(),
  failMode: z.enum(['open', 'closed']).optional(),
  keepChildren: z.boolean().optional(),
});
/** The fields it reads: any other is an unknown field (validate warns). */
const COMMAND_FIELDS = new Set([...Object.keys(commandHandler.shape), 'visibilityHint']);

/** One handler, or undefined (skipped with a warning, as Codex skips it). */
export function codexHook(raw: RawHandler, ctx: HandlerContext, order: number): AgentCommandHook | undefined {
  const file = ctx.spec.file;
  const warn = (message: string, at: PropertyKey[] = raw.at) =>
    ctx.warnings.push({ file, path: jsonPath(at), message });
  // Walked only for Codex events (see `otherKeys`).
  if (!isCodexEvent(raw.event)) return undefined;
  const type: unknown = Reflect.get(raw.handler, 'type');
  if (type === 'prompt' || type === 'agent' || type === 'mcp_tool') {
    warn(
      type === 'mcp_tool'
        ? "skipping mcp_tool hook: it calls a tool of the agent's own MCP servers, which hookwerk has no connection to (command hooks run)"
        : `skipping ${type} hook: ${type} hooks are not supported yet (as in Codex)`,
    );
    return undefined;
  }
  const matcher = matcherFor(raw, raw.event, ctx.badGroups, warn);
  if (matcher === undefined) return undefined;
  const h = readHandler(file, raw, commandHandler, COMMAND_FIELDS, ctx.warnings);
  if (h === undefined) return undefined;
  if (h.command.trim() === '') {
    warn('skipping empty hook command (as Codex)', [...raw.at, 'command']);
    return undefined;
  }
  const hook: AgentCommandHook = {
    kind: 'process',
    dialect: 'codex',
    name: h.command,
    event: raw.event,
    origin: handlerOrigin(file, ctx.spec.scope, raw.at),
    matcher,
    timeoutMs: timeoutOf(h.timeout, (seconds) =>
      // [G-FAIL-3] A warning, never an error: Codex runs such a file.
      ctx.warnings.push({
        file,
        path: jsonPath([...raw.at, 'timeout']),
        message: `timeout ${seconds} s is over hookwerk's 1 hour limit; 3600 s is used`,
        level: 'warning',
      }),
    ),
    failMode: h.failMode ?? 'open',
    enabled: true,
    order,
    // Codex runs identical hooks as often as they are configured: no two keys are the same.
    dedupeKey: `codex\0${order}`,
    async: h.async === true,
    command: h.command,
    shell: ctx.shell,
    shellArgs: ['-lc'],
    env: ctx.env,
    cwd: ctx.projectDir,
    ...(ctx.consent !== undefined ? { consent: ctx.consent } : {}),
    ...(ctx.pluginRoot !== undefined && ctx.pluginData !== undefined
      ? { pluginRoot: ctx.pluginRoot, pluginData: ctx.pluginData }
      : {}),
  };
  if (h.statusMessage != null) hook.statusMessage = h.statusMessage;
  if (h.keepChildren === true) hook.keepChildren = true;
  return hook;
}

/**
 * A matcher only where Codex reads one (tool events, SessionStart, Subagent*); ignored elsewhere.
 * One that is not a valid regex skips its whole group, as Codex does: `undefined`, said once a group.
 */
function matcherFor(
  raw: RawHandler,
  event: CodexEventName,
  badGroups: Set<string>,
  warn: (message: string, at: PropertyKey[]) => void,
) {
  const matcher =
    codexMatchField(event) === undefined ? compileMatcher(undefined) : compileCodexMatcher(raw.matcher);
  if (matcher.error === undefined) return matcher;
  const groupAt = raw.at.slice(0, -2);
  const key = jsonPath(groupAt);
  if (!badGroups.has(key)) {
    badGroups.add(key);
    warn(`${matcher.error}; Codex skips this matcher group`, [...groupAt, 'matcher']);
  }
  return undefined;
}

/** Whole seconds, at least 1 (default 600); over an hour cut to an hour (`over` is told the seconds). */
function timeoutOf(timeout: number | null | undefined, over: (seconds: number) => void): number {
  const seconds = Math.max(1, timeout ?? CODEX_DEFAULT_TIMEOUT_S);
  if (seconds * 1000 <= MAX_AGENT_TIMEOUT_MS) return seconds * 1000;
  over(seconds);
  return MAX_AGENT_TIMEOUT_MS;
}
