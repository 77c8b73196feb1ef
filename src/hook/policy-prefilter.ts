/**
 * [R-HOOK-4] Before loading the engine: can any policy hook run for this call? Reads the policy
 * files (and, with `"include": ["claude"]`, Claude Code's) as bare JSON, nothing evaluated, so an
 * event no file names is answered at once with no engine loaded. Conservative: anything it cannot
 * rule out (a regex matcher, an unreadable file) counts as "may run", and the engine decides.
 * Also says whether a `failMode: "closed"` guard names the event [R-HOOK-2].
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { policyFile } from '../dialects/policy/files.ts';

/** The events whose matcher tests `tool_name` [C-MATCH-1]. */
const TOOL_EVENTS = new Set(['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'PermissionRequest']);
/** A matcher that is a plain list of tool names (`Bash`, `Edit|Write`): tested here exactly. */
const NAME_LIST = /^[A-Za-z0-9_]+(\|[A-Za-z0-9_]+)*$/;
/** A policy or settings file larger than this is left to the engine (which bounds it too). */
const MAX_SCAN_BYTES = 1024 * 1024;

export interface PolicyScan {
  /** Some hook may run for the call: the engine must decide. */
  mayRun: boolean;
  /** A handler with `failMode: "closed"` is configured for the event (matcher aside). */
  closedGuard: boolean;
}

type Read = { kind: 'absent' } | { kind: 'unknown' } | { kind: 'value'; value: Record<string, unknown> };

function readJsonObject(file: string): Read {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const code = e instanceof Error && 'code' in e ? e.code : undefined;
    return code === 'ENOENT' || code === 'ENOTDIR' ? { kind: 'absent' } : { kind: 'unknown' };
  }
  if (text.length > MAX_SCAN_BYTES) return { kind: 'unknown' };
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return { kind: 'unknown' };
    return { kind: 'value', value: Object.fromEntries(Object.entries(value)) };
  } catch {
    return { kind: 'unknown' };
  }
}

/** Claude Code's own files [C-SRC-1] that an `include` runs. */
function claudeFiles(projectDir: string, home: string): string[] {
  return [
    '/etc/claude-code/managed-settings.json',
    path.join(home, '.claude', 'settings.json'),
    path.join(projectDir, '.claude', 'settings.json'),
    path.join(projectDir, '.claude', 'settings.local.json'),
  ];
}

/** What one file's `hooks[event]` holds for this tool: may a hook run, is one closed. */
function scanFile(value: Record<string, unknown>, event: string, tool: string | undefined): PolicyScan {
  const hooks: unknown = value.hooks;
  if (hooks === undefined) return { mayRun: false, closedGuard: false };
  if (typeof hooks !== 'object' || hooks === null || Array.isArray(hooks))
    return { mayRun: true, closedGuard: false };
  const groups: unknown = Reflect.get(hooks, event);
  if (groups === undefined) return { mayRun: false, closedGuard: false };
  if (!Array.isArray(groups)) return { mayRun: true, closedGuard: false };
  let mayRun = false;
  let closedGuard = false;
  for (const group of groups) {
    if (typeof group !== 'object' || group === null) {
      mayRun = true;
      continue;
    }
    const handlers: unknown = Reflect.get(group, 'hooks');
    if (
      Array.isArray(handlers) &&
      handlers.some((h) => typeof h === 'object' && h !== null && Reflect.get(h, 'failMode') === 'closed')
    )
      closedGuard = true;
    if (Array.isArray(handlers) && handlers.length === 0) continue;
    if (matcherExcludes(Reflect.get(group, 'matcher'), event, tool)) continue;
    mayRun = true;
  }
  return { mayRun, closedGuard };
}

/** The group's matcher surely does not admit `tool` (a plain name list without it). */
function matcherExcludes(matcher: unknown, event: string, tool: string | undefined): boolean {
  if (!TOOL_EVENTS.has(event) || tool === undefined) return false;
  if (typeof matcher !== 'string' || matcher === '' || matcher === '*') return false;
  if (!NAME_LIST.test(matcher)) return false;
  return !matcher.split('|').includes(tool);
}

/** Scans the policy (and what it includes) for `event` and `tool`, for `agent`. */
export function scanPolicy(opts: {
  projectDir: string;
  home: string;
  agent: string;
  event: string;
  tool: string | undefined;
}): PolicyScan {
  const out: PolicyScan = { mayRun: false, closedGuard: false };
  let include = false;
  const take = (file: string) => {
    const read = readJsonObject(file);
    if (read.kind === 'absent') return;
    if (read.kind === 'unknown') {
      out.mayRun = true;
      return;
    }
    const list: unknown = read.value.include;
    if (Array.isArray(list) && list.includes('claude')) include = true;
    const scan = scanFile(read.value, opts.event, opts.tool);
    out.mayRun ||= scan.mayRun;
    out.closedGuard ||= scan.closedGuard;
  };
  take(policyFile(opts.home));
  take(policyFile(opts.projectDir));
  if (include && opts.agent !== 'claude')
    for (const file of claudeFiles(opts.projectDir, opts.home)) take(file);
  return out;
}
