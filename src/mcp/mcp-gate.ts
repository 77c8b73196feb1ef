/**
 * [AD-MCP-1] `createMcpGate(engine, { name, mode })`: gates one MCP `tools/call` in-process, for a
 * host that holds its own MCP client (and for `hookwerk mcp-proxy`, which forwards the call).
 *
 * PreToolUse decides first, with the tool named `mcp__<name>__<tool>` and the arguments as its
 * input: a deny answers a `CallToolResult` with `isError: true` and the reason, and the tool is
 * never called; `updatedInput` replaces the arguments. The call's result then goes through
 * PostToolUse (or PostToolUseFailure when the tool failed, as Claude Code counts it: `isError`
 * or a thrown error), whose block reason and `additionalContext` are added to the result as text,
 * the way Claude Code hands them to the model.
 *
 * `audit` mode runs the same hooks and records what they said, and changes nothing: no deny, no
 * rewrite, nothing added (SEP-1763's audit mode). Hooks that fail follow their own `failMode`
 * (open unless they say closed), as everywhere; a failure of the gate itself (the engine closed,
 * a decide that rejects) denies in enforce mode: a gateway that cannot check a call must not let
 * it through (fail-closed, as MCP gateways are by default).
 */
import { randomBytes } from 'node:crypto';
import { mcpToolName } from '../action/mcp-tool-name.ts';
import { errorMessage } from '../core/errno.ts';
import { InvalidOptionError } from '../core/errors.ts';
import type { HookEngine } from '../engine-api.ts';
import { isoNow } from '../events/prx-events.ts';
import type { RunRecord } from '../records/run-record.ts';
import { afterErrorRecord, type McpRunRecord, mcpRuns, verdictRecord } from './mcp-records.ts';
import {
  isMcpGateDialect,
  type McpGateDialect,
  type PostVerdict,
  type PreVerdict,
  postVerdict,
  preVerdict,
  TOOL_EVENTS,
  type ToolCall,
} from './tool-events.ts';
import { deniedResult, isErrorResult, type McpToolResult, resultText, withTexts } from './tool-result.ts';

export type McpGateMode = 'enforce' | 'audit';

export interface McpGateOptions {
  /** The server's name in tool names (`mcp__NAME__TOOL`): the name the host's config gives it. */
  name: string;
  /** `enforce` (default): denies, rewrites and feedback apply. `audit`: recorded only. */
  mode?: McpGateMode;
  /** `session_id` of the hooks' input and of the records; default one per gate, `mcp_…`. */
  sessionId?: string;
  /** Gets the runs of each call, as journal entries (`agent: "mcp"`) [R-HOOK-3]. Must not throw. */
  record?: (runs: readonly McpRunRecord[]) => void;
  /** One line for the user: hooks' `systemMessage`, audit-mode verdicts, the gate's own trouble. */
  notify?: (line: string) => void;
}

/** Calls the tool on the server with these arguments; resolves with its `CallToolResult`. */
export type McpForward = (args: Record<string, unknown>) => Promise<McpToolResult>;

export interface McpCallOptions {
  /** Aborted before the tool is called: it is not, and `call` rejects with the signal's reason. */
  signal?: AbortSignal;
}

export interface McpGate {
  readonly name: string;
  readonly mode: McpGateMode;
  readonly sessionId: string;
  /** The name hooks see for one of this server's tools: `mcp__<name>__<tool>`. */
  toolName(tool: string): string;
  /**
   * Gates one call of `tool` with `args`: `forward` is called (at most once) only when the hooks
   * let it run, with the arguments to use. Resolves with the result to hand the model (the
   * denial, or the server's result with the hooks' feedback added); rejects only when `forward`
   * does (after PostToolUseFailure) or the signal aborted.
   */
  call(
    tool: string,
    args: Record<string, unknown> | undefined,
    forward: McpForward,
    options?: McpCallOptions,
  ): Promise<McpToolResult>;
  /**
   * Records a call of `tool` that never reached the gate because it cannot be gated — a
   * `tools/call` sent as a JSON-RPC notification, which no answer can deny — as refused (enforce)
   * or as one audit mode would refuse: the journal keeps it beside the gated calls.
   */
  refused(tool: string, reason: string): void;
}

export function createMcpGate(engine: HookEngine, options: McpGateOptions): McpGate {
  return new Gate(engine, options);
}

class Gate implements McpGate {
  readonly name: string;
  readonly mode: McpGateMode;
  readonly sessionId: string;
  readonly #engine: HookEngine;
  readonly #dialect: McpGateDialect;
  readonly #record: ((runs: readonly McpRunRecord[]) => void) | undefined;
  readonly #notify: (line: string) => void;

  constructor(engine: HookEngine, options: McpGateOptions) {
    if (typeof options.name !== 'string' || options.name === '')
      throw new InvalidOptionError('createMcpGate: name must be a non-empty string');
    const mode = options.mode ?? 'enforce';
    if (mode !== 'enforce' && mode !== 'audit')
      throw new InvalidOptionError(`createMcpGate: mode must be "enforce" or "audit", got ${String(mode)}`);
    const dialect = engine.gate.dialect;
    if (!isMcpGateDialect(dialect))
      throw new InvalidOptionError(
        `createMcpGate: the engine's gate dialect is ${dialect}; an MCP gate speaks policy, claude or lurus`,
      );
    const sessionId = options.sessionId ?? `mcp_${randomBytes(6).toString('hex')}`;
    if (typeof sessionId !== 'string' || sessionId === '' || sessionId.includes('\0'))
      throw new InvalidOptionError('createMcpGate: sessionId must be a non-empty string without NUL bytes');
    this.name = options.name;
    this.mode = mode;
    this.sessionId = sessionId;
    this.#engine = engine;
    this.#dialect = dialect;
    this.#record = options.record;
    this.#notify = options.notify ?? (() => {});
  }

  toolName(tool: string): string {
    return mcpToolName(this.name, tool);
  }

  async call(
    tool: string,
    args: Record<string, unknown> | undefined,
    forward: McpForward,
    options: McpCallOptions = {},
  ): Promise<McpToolResult> {
    const given: ToolCall = { toolName: this.toolName(tool), args: args ?? {}, sessionId: this.sessionId };
    const enforce = this.mode === 'enforce';
    const pre = await this.#before(given, enforce);
    if (pre.deny !== undefined) {
      if (enforce) return withTexts(deniedResult(pre.deny), pre.context) ?? deniedResult(pre.deny);
      this.#say(`audit: hooks would deny ${given.toolName}: ${pre.deny}`);
    }
    options.signal?.throwIfAborted();
    // Audit mode changes nothing: the server gets the arguments the client sent.
    const call = enforce && pre.updatedInput !== undefined ? { ...given, args: pre.updatedInput } : given;
    let result: McpToolResult;
    try {
      // The very `args` object when nothing rewrote it, so that a forwarding host can tell.
      result = await forward(call.args);
    } catch (err) {
      const io = TOOL_EVENTS[this.#dialect];
      await this.#after(
        call,
        'PostToolUseFailure',
        io.failure(call, errorMessage(err), options.signal?.aborted === true),
      );
      throw err;
    }
    const post = await this.#afterResult(call, result);
    if (!enforce) return result;
    const texts = [...pre.context, ...post.feedback];
    const out = withTexts(result, texts);
    if (out !== undefined) return out;
    this.#say(`the result of ${call.toolName} has no content list; the hooks' feedback was not added to it`);
    return result;
  }

  refused(tool: string, reason: string): void {
    this.#keep([
      verdictRecord({
        server: this.name,
        toolName: this.toolName(tool),
        sessionId: this.sessionId,
        dialect: this.#dialect,
        at: isoNow(),
        durationMs: 0,
        enforce: this.mode === 'enforce',
        deny: reason,
        rewritten: false,
      }),
    ]);
  }

  /** PreToolUse: the verdict, recorded; a gate that fails denies (enforce) or lets through (audit). */
  async #before(call: ToolCall, enforce: boolean): Promise<PreVerdict> {
    const at = isoNow();
    const t0 = performance.now();
    let verdict: PreVerdict;
    let runs: readonly RunRecord[] = [];
    let gateError: string | undefined;
    try {
      const decision = await this.#engine.decide('PreToolUse', TOOL_EVENTS[this.#dialect].pre(call));
      runs = decision.runs;
      verdict = preVerdict(decision, call.toolName);
    } catch (err) {
      gateError = `hookwerk could not gate ${call.toolName}: ${errorMessage(err)}`;
      this.#say(enforce ? `${gateError}; the call is denied` : `${gateError}; audit mode lets it through`);
      verdict = enforce ? { deny: gateError, context: [], notes: [] } : { context: [], notes: [] };
    }
    for (const note of verdict.notes) this.#say(note);
    const record = verdictRecord({
      server: this.name,
      toolName: call.toolName,
      sessionId: this.sessionId,
      dialect: this.#dialect,
      at,
      durationMs: performance.now() - t0,
      enforce,
      ...(verdict.deny !== undefined ? { deny: verdict.deny } : {}),
      rewritten: verdict.updatedInput !== undefined,
      ...(gateError !== undefined ? { gateError } : {}),
    });
    this.#keep([...mcpRuns(runs, call.toolName, this.sessionId), record]);
    return verdict;
  }

  /** A result the server answered: PostToolUse, or PostToolUseFailure when it says it failed. */
  #afterResult(call: ToolCall, result: McpToolResult): Promise<PostVerdict> {
    const io = TOOL_EVENTS[this.#dialect];
    return isErrorResult(result)
      ? this.#after(call, 'PostToolUseFailure', io.failure(call, resultText(result), false))
      : this.#after(call, 'PostToolUse', io.post(call, result));
  }

  /** After the call: never throws (the tool ran; its result goes back whatever the hooks do). */
  async #after(call: ToolCall, event: string, input: Record<string, unknown>): Promise<PostVerdict> {
    const at = isoNow();
    const t0 = performance.now();
    try {
      const decision = await this.#engine.decide(event, input);
      this.#keep(mcpRuns(decision.runs, call.toolName, this.sessionId));
      const verdict = postVerdict(decision);
      for (const note of verdict.notes) this.#say(note);
      return verdict;
    } catch (err) {
      const why = `hookwerk could not run the ${event} hooks of ${call.toolName}: ${errorMessage(err)}`;
      this.#say(`${why}; the result goes back as the server gave it`);
      this.#keep([
        afterErrorRecord(
          {
            server: this.name,
            toolName: call.toolName,
            sessionId: this.sessionId,
            dialect: this.#dialect,
            at,
            durationMs: performance.now() - t0,
          },
          event,
          why,
        ),
      ]);
      return { feedback: [], notes: [] };
    }
  }

  #keep(runs: readonly McpRunRecord[]): void {
    if (this.#record === undefined || runs.length === 0) return;
    try {
      this.#record(runs);
    } catch (err) {
      // The record is the audit trail, not the call: a full disk must not break the tool.
      this.#say(`could not record the runs of ${runs[0]?.toolName ?? 'a call'}: ${errorMessage(err)}`);
    }
  }

  #say(line: string): void {
    try {
      this.#notify(line);
    } catch {
      // A host's logger that throws must not turn into the tool's failure.
    }
  }
}
