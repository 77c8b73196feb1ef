/**
 * Cursor's "Third-party imports" [A-CUR-1, A-ALL-1] (research/cursor-facts.md §2, §13): Cursor also
 * runs the hooks of `.claude/settings.local.json`, `.claude/settings.json` and
 * `~/.claude/settings.json`, read in Claude Code's shape (Claude's own loader reads each handler),
 * below the Cursor files in priority. Claude event names become Cursor's, Claude tool names in
 * matchers and `if` rules meet Cursor's tool types, and the hooks' answers are read in either
 * format — Claude Code's (`hookSpecificOutput.permissionDecision`, `decision: "block"`) or Cursor's
 * — under Cursor's own rules (exit 2 blocks, non-JSON stdout on preToolUse blocks, no loop cap).
 * A handler that a Cursor file names too (the same command line) runs once: the Cursor file's.
 */
import path from 'node:path';
import type { Admission } from '../../consent/project-admission.ts';
import { commandLineOf } from '../../consent/project-surface.ts';
import { type ConfigIssue, jsonPath } from '../../core/issues.ts';
import { isPlainObject } from '../../core/plain-object.ts';
import type { AgentCommandHook, AgentHook, GateEntry, ToolCallRule } from '../../registry/hook-definition.ts';
import type { CompiledMatcher } from '../../registry/matcher.ts';
import type { AgentSourceSpec } from '../../sources/agent-config.ts';
import type { RawHandler } from '../../sources/agent-settings.ts';
import { claudeHook } from '../agent/claude-handler.ts';
import { type AgentLoadOut, consentOf, readAgentSources } from '../agent/source-loop.ts';
import type { CursorEventName } from './events.ts';

/** [A-CUR-1] Claude Code's event names as Cursor runs them [TP]. */
const CLAUDE_EVENT_MAP: Readonly<Record<string, CursorEventName>> = Object.freeze({
  PreToolUse: 'preToolUse',
  PostToolUse: 'postToolUse',
  UserPromptSubmit: 'beforeSubmitPrompt',
  Stop: 'stop',
  SubagentStop: 'subagentStop',
  SessionStart: 'sessionStart',
  SessionEnd: 'sessionEnd',
  PreCompact: 'preCompact',
});

/** Claude events Cursor's page names as unsupported [TP]. */
const UNSUPPORTED_EVENTS: ReadonlySet<string> = new Set(['Notification', 'PermissionRequest']);

/**
 * [A-CUR-1] Claude Code's tool names as Cursor's tool types [TP, newer page]: `Edit` is a `Write`,
 * `Glob` has no Cursor counterpart, `WebFetch` / `WebSearch` are themselves.
 */
const CLAUDE_TOOL_MAP: Readonly<Record<string, string>> = Object.freeze({
  Bash: 'Shell',
  Read: 'Read',
  Write: 'Write',
  Edit: 'Write',
  Grep: 'Grep',
  Task: 'Task',
  WebFetch: 'WebFetch',
  WebSearch: 'WebSearch',
});

/** Cursor tool type → the Claude names that mean it (`Write` → Write, Edit). */
const CLAUDE_NAMES_OF: ReadonlyMap<string, readonly string[]> = (() => {
  const out = new Map<string, string[]>();
  for (const [claude, cursor] of Object.entries(CLAUDE_TOOL_MAP)) {
    const names = out.get(cursor) ?? [];
    names.push(claude);
    out.set(cursor, names);
  }
  return out;
})();

/** The names a Claude matcher or `if` rule is tried with for a Cursor tool type: its own, then Claude's. */
function namesFor(cursorTool: string): readonly string[] {
  return [cursorTool, ...(CLAUDE_NAMES_OF.get(cursorTool) ?? []).filter((n) => n !== cursorTool)];
}

/** A Claude matcher that meets Cursor's tool types: `Bash` (or Cursor's own `Shell`) matches `Shell`. */
function viaToolMap(matcher: CompiledMatcher): CompiledMatcher {
  return {
    ...matcher,
    test: (value) => value === undefined || namesFor(value).some((name) => matcher.test(name)),
  };
}

/** A Claude `if` rule (`Bash(rm *)`) that meets Cursor's tool types. */
function ruleViaToolMap(rule: ToolCallRule): ToolCallRule {
  return {
    rule: rule.rule,
    admits: (tool, input) =>
      tool === undefined ? rule.admits(tool, input) : namesFor(tool).some((name) => rule.admits(name, input)),
  };
}

/** [A-CUR-1] The Claude files Cursor reads, in its priority order (below the Cursor files). */
function claudeFileSpecs(projectDir: string, home: string): AgentSourceSpec[] {
  return [
    {
      scope: 'local',
      file: path.join(projectDir, '.claude', 'settings.local.json'),
      label: 'Claude local settings',
      project: true,
    },
    {
      scope: 'project',
      file: path.join(projectDir, '.claude', 'settings.json'),
      label: 'Claude project settings',
      project: true,
    },
    {
      scope: 'user',
      file: path.join(home, '.claude', 'settings.json'),
      label: 'Claude user settings',
      project: false,
    },
  ];
}

/** What the Claude files add to a Cursor load. */
interface ClaudeFilesLoad {
  projectDir: string;
  home: string;
  admission: Admission;
  env: Readonly<Record<string, string>>;
  parentEnv: NodeJS.ProcessEnv;
  /** The order the next hook gets. */
  order: number;
  out: AgentLoadOut;
}

/**
 * [A-CUR-1, A-ALL-1] Reads the Claude files into `out` after the Cursor files' hooks: each handler
 * through Claude's own loader, then as Cursor runs it. A command a Cursor hook already runs gets
 * that hook's `dedupeKey`, so the two run once (the Cursor file's, higher in priority, wins).
 */
export function loadClaudeFilesForCursor(load: ClaudeFilesLoad): number {
  const { out, admission } = load;
  const cursorKeys = new Map<string, string>();
  for (const entry of out.entries) {
    if (entry.kind !== 'process' || entry.dialect !== 'cursor') continue;
    const key = keyOf(entry.event, entry.command);
    if (!cursorKeys.has(key)) cursorKeys.set(key, entry.dedupeKey);
  }
  const from = out.entries.length;
  const order = readAgentSources(
    claudeFileSpecs(load.projectDir, load.home),
    {
      dialect: 'cursor',
      admission,
      out,
      hook: (raw, spec, at) => {
        const ctx = {
          file: spec.file,
          scope: spec.scope,
          projectDir: load.projectDir,
          home: load.home,
          env: load.env,
          parentEnv: load.parentEnv,
          warnings: out.warnings,
          ...consentOf(spec, admission),
        };
        return asCursorHook(raw, (r) => claudeHook(r, ctx, at), spec.file, cursorKeys, out.warnings);
      },
    },
    load.order,
  );
  unapprovedAsCursor(out.entries, from);
  return order;
}

const keyOf = (event: string, line: string) => `${event}\0${line.trim()}`;

/** A handler Claude's loader read, as Cursor runs it; undefined where Cursor does not run it. */
function asCursorHook(
  raw: RawHandler,
  read: (raw: RawHandler) => AgentHook | undefined,
  file: string,
  cursorKeys: ReadonlyMap<string, string>,
  warnings: ConfigIssue[],
): AgentCommandHook | undefined {
  const warn = (message: string) =>
    warnings.push({ file, path: jsonPath(raw.at), message, level: 'warning' });
  const event = CLAUDE_EVENT_MAP[raw.event];
  if (event === undefined) {
    warn(
      UNSUPPORTED_EVENTS.has(raw.event)
        ? `Cursor does not support Claude's "${raw.event}" hooks: this hook never runs in Cursor`
        : `Cursor maps no event onto Claude's "${raw.event}": this hook never runs in Cursor`,
    );
    return undefined;
  }
  const hook = read(raw);
  if (hook === undefined) return undefined;
  if (hook.kind !== 'process') {
    warnings.push({
      file,
      path: jsonPath([...raw.at, 'type']),
      message: 'Cursor runs command hooks only; this http hook is skipped',
    });
    return undefined;
  }
  const line = keyOf(event, commandLineOf(hook.command, hook.args));
  const cursorHook: AgentCommandHook = {
    ...hook,
    dialect: 'cursor',
    event,
    // Cursor's tool types on the tool events; elsewhere the matcher as Claude reads it.
    matcher: event === 'preToolUse' || event === 'postToolUse' ? viaToolMap(hook.matcher) : hook.matcher,
    dedupeKey: cursorKeys.get(line) ?? hook.dedupeKey,
    // [A-CUR-1] Cursor waits for every hook: Claude's `async` is not one of its fields.
    async: false,
    ownCwd: true,
    cursorClaudeFile: true,
    // [A-CUR-1] `loop_limit` is native-only: a Claude Stop hook's follow-ups are not capped.
    cursorLoopLimit: null,
  };
  if (hook.ifRule !== undefined) cursorHook.ifRule = ruleViaToolMap(hook.ifRule);
  if (hook.async)
    warn('Cursor does not read "async": this hook runs as an ordinary one, and its answer counts');
  return cursorHook;
}

/**
 * [L-TRUST-3] An unapproved Claude file's handlers, listed from the bare JSON under Claude's event
 * names, are listed under Cursor's (those Cursor never runs are dropped: validate warns of them
 * once the file is approved). The entries from `from` on are the Claude files'.
 */
function unapprovedAsCursor(entries: GateEntry[], from: number): void {
  const listed = entries.splice(from);
  for (const entry of listed) {
    if (entry.kind !== 'unapproved') {
      entries.push(entry);
      continue;
    }
    const event = CLAUDE_EVENT_MAP[entry.event];
    if (event === undefined) continue;
    entry.event = event;
    entries.push(entry);
  }
}

// ---------------------------------------------------------------------------------------------
// Answers

const PERMISSIONS: ReadonlySet<unknown> = new Set(['allow', 'deny', 'ask']);

/**
 * [A-CUR-1] A Claude-format answer in Cursor's fields [TP]: `hookSpecificOutput.permissionDecision`
 * → `permission`, `permissionDecisionReason` → `user_message`, `updatedInput` → `updated_input`;
 * on stop / subagentStop `decision: "block"` + `reason` (nested or flat) → `followup_message`.
 * Beyond the page (a Claude hook means them, and Cursor has the field): `additionalContext` →
 * `additional_context`; a flat `decision: "block"` + `reason` refuses on preToolUse (`permission:
 * "deny"`) and on beforeSubmitPrompt (`continue: false`). Cursor's own fields, when given, win.
 */
export function claudeAnswerAsCursor(event: string, obj: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...obj };
  const nested = isPlainObject(obj.hookSpecificOutput) ? obj.hookSpecificOutput : {};
  const give = (key: string, value: unknown) => {
    if (value !== undefined && value !== null && (out[key] === undefined || out[key] === null))
      out[key] = value;
  };
  if (PERMISSIONS.has(nested.permissionDecision)) give('permission', nested.permissionDecision);
  give('user_message', nested.permissionDecisionReason);
  give('updated_input', nested.updatedInput);
  give('additional_context', nested.additionalContext);
  const decision = nested.decision ?? obj.decision;
  const reason = nested.reason ?? obj.reason;
  if (decision === 'block') {
    if (event === 'stop' || event === 'subagentStop') give('followup_message', reason);
    else if (event === 'preToolUse') {
      give('permission', 'deny');
      give('user_message', reason);
    } else if (event === 'beforeSubmitPrompt') {
      give('continue', false);
      give('user_message', reason);
    }
  }
  return out;
}
