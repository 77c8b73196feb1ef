/**
 * The observe events of a tool call and a model call [P-EV-1], emitted by the adapters with the
 * engine's strict payload types: `tool_call_start` when a tool really starts (after the gate let
 * it), `tool_call` when it ended, `llm_request` / `llm_response` around a model call, `error`.
 */
import { isPlainObject } from '../core/plain-object.ts';
import type { HookEngine } from '../engine-api.ts';
import { outputText, type ToolCall } from './tool-gate.ts';

function sessionOf(sessionId: string | undefined): { sessionId?: string } {
  return sessionId !== undefined ? { sessionId } : {};
}

/** `arguments` must be an object [P-EV-1]: a tool whose input is not one gets it as `{input}`. */
function argumentsOf(input: unknown): Record<string, unknown> {
  if (isPlainObject(input)) return input;
  return input === undefined ? {} : { input };
}

export function emitToolStart(engine: HookEngine, call: ToolCall): void {
  engine.emit(
    'tool_call_start',
    { tool: call.tool, arguments: argumentsOf(call.input) },
    sessionOf(call.sessionId),
  );
}

export function emitToolEnd(engine: HookEngine, call: ToolCall, success: boolean, output: unknown): void {
  engine.emit(
    'tool_call',
    { tool: call.tool, success, output: outputText(output) },
    sessionOf(call.sessionId),
  );
}

export function emitError(
  engine: HookEngine,
  component: string,
  message: string,
  sessionId: string | undefined,
): void {
  engine.emit('error', { component, message }, sessionOf(sessionId));
}

/** What a model call is, for its two events. */
export interface ModelCall {
  readonly provider: string;
  readonly model: string;
  readonly messagesCount: number;
  readonly sessionId?: string | undefined;
}

/** How a model call ended when it did not succeed; `quiet`: no `error` event (the caller gave up). */
export interface ModelFailure {
  readonly message: string;
  readonly quiet?: boolean;
}

/**
 * Emits `llm_request` now; the returned function emits `llm_response` (with the time since) once,
 * and for a failure `error` too (component `llm`).
 */
export function startModelCall(engine: HookEngine, call: ModelCall): (failure?: ModelFailure) => void {
  const opts = sessionOf(call.sessionId);
  engine.emit(
    'llm_request',
    { provider: call.provider, model: call.model, messages_count: call.messagesCount },
    opts,
  );
  const started = performance.now();
  let ended = false;
  return (failure) => {
    if (ended) return;
    ended = true;
    engine.emit(
      'llm_response',
      {
        provider: call.provider,
        model: call.model,
        // Microseconds are enough; the clock's own digits beyond them are noise.
        duration_ms: Math.round((performance.now() - started) * 1000) / 1000,
        success: failure === undefined,
      },
      opts,
    );
    if (failure !== undefined && failure.quiet !== true)
      emitError(engine, 'llm', failure.message, call.sessionId);
  };
}
