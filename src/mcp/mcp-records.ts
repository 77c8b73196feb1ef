/**
 * [R-HOOK-3, AD-MCP-1] How the calls through an MCP gate are recorded: every hook run of the call
 * with `agent: "mcp"`, the gate's session and the tool's `mcp__…` name (the journal's entry
 * shape), and one record of the gate's own verdict per call, so that a call no hook matched is
 * recorded too, and an audit-mode call says what enforce mode would have done.
 */
import type { RunRecord } from '../records/run-record.ts';

/** One run as the journal keeps it: a run record with the agent and the tool's name. */
export type McpRunRecord = RunRecord & { agent: string; toolName?: string };

/** The `hook` of the verdict records. */
export const GATE_HOOK = 'mcp-gate';

export function mcpRuns(runs: readonly RunRecord[], toolName: string, sessionId: string): McpRunRecord[] {
  return runs.map((run) => Object.assign({}, run, { agent: 'mcp', sessionId, toolName }));
}

/** What became of one call at PreToolUse. */
export interface CallVerdict {
  server: string;
  toolName: string;
  sessionId: string;
  dialect: string;
  at: string;
  durationMs: number;
  enforce: boolean;
  /** The hooks' reason to refuse it, or the gate's error. */
  deny?: string;
  rewritten: boolean;
  /** The gate itself failed (decide rejected). */
  gateError?: string;
}

export function verdictRecord(v: CallVerdict): McpRunRecord {
  const refused = v.enforce && v.deny !== undefined;
  const record: McpRunRecord = {
    hook: GATE_HOOK,
    source: `mcp:${v.server}`,
    event: 'PreToolUse',
    dialect: v.dialect,
    outcome: v.gateError !== undefined ? 'error' : refused ? 'deny' : 'ok',
    decision: refused ? 'deny' : 'allow',
    durationMs: v.durationMs,
    at: v.at,
    sessionId: v.sessionId,
    agent: 'mcp',
    toolName: v.toolName,
  };
  const reason = v.gateError ?? v.deny;
  if (reason !== undefined) record.reason = reason;
  if (v.gateError !== undefined) {
    record.cause = 'gate_error';
    record.failed = v.enforce ? 'closed' : 'open';
  } else if (!v.enforce && v.deny !== undefined) record.cause = 'audit_would_deny';
  else if (!v.enforce && v.rewritten) record.cause = 'audit_would_rewrite';
  return record;
}

/** A PostToolUse or PostToolUseFailure decide that failed: the result went back as the server gave it. */
export function afterErrorRecord(
  v: Pick<CallVerdict, 'server' | 'toolName' | 'sessionId' | 'dialect' | 'at' | 'durationMs'>,
  event: string,
  message: string,
): McpRunRecord {
  return {
    hook: GATE_HOOK,
    source: `mcp:${v.server}`,
    event,
    dialect: v.dialect,
    outcome: 'error',
    durationMs: v.durationMs,
    at: v.at,
    sessionId: v.sessionId,
    agent: 'mcp',
    toolName: v.toolName,
    cause: 'gate_error',
    failed: 'open',
    reason: message,
  };
}
