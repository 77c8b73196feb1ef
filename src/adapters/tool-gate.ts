/**
 * One tool call put to the engine's gate, for every adapter that runs tools itself (the AI SDK,
 * OpenAI Agents) [AD-AI-1, AD-OAI-1]: before it runs (may it? with which arguments?), after it
 * ran (may the model see the output?) and after it failed. The words come from the engine's gate
 * dialect (tool-vocabulary.ts); the answer is read from the decision's shape, never its dialect.
 */
import { errorMessage } from '../core/errno.ts';
import type { ToolVocabulary } from '../dialects/agent/tool-vocabulary.ts';
import type { GateDecision, HookEngine } from '../engine-api.ts';
import { toolVocabulary } from './tool-vocabulary.ts';

export interface ToolCall {
  /** The tool's name as the model called it (the AI SDK's key, the OpenAI Agents tool's name). */
  readonly tool: string;
  /** The arguments, parsed. */
  readonly input: unknown;
  readonly callId?: string | undefined;
  readonly sessionId?: string | undefined;
}

export type ToolVerdict =
  | {
      readonly run: true;
      /** The arguments to run with: a hook's `updatedInput`, else the model's. */
      readonly input: unknown;
      readonly rewritten: boolean;
      readonly decision: GateDecision;
    }
  | {
      readonly run: false;
      /** What the model is told instead of the tool's output. */
      readonly reason: string;
      /** A hook said `continue: false`. */
      readonly stop: boolean;
      readonly decision: GateDecision;
    };

/** After the tool ran: `withheld` when a hook blocked its output (the model gets `reason` instead). */
export type AfterVerdict =
  | { readonly withheld: false }
  | { readonly withheld: true; readonly reason: string; readonly decision: GateDecision };

function callInput(v: ToolVocabulary, call: ToolCall): Record<string, unknown> {
  const input: Record<string, unknown> = { [v.name]: call.tool, [v.input]: call.input };
  if (call.callId !== undefined) input[v.callId] = call.callId;
  if (call.sessionId !== undefined) input[v.session] = call.sessionId;
  return input;
}

/**
 * Asks the gate before the tool runs. It runs only on an allow with no stop: a deny, an `ask` or a
 * `defer` (nobody can be asked inside a program's tool loop) and `continue: false` keep it from
 * running. Rejects as `decide` does (a closed engine, an event the dialect refuses): the caller
 * lets that through, so the tool never runs on a gate that could not answer.
 */
export async function askBeforeTool(engine: HookEngine, call: ToolCall): Promise<ToolVerdict> {
  const v = toolVocabulary(engine.gate.dialect);
  const decision = await engine.decide(v.pre, callInput(v, call));
  // `continue` and `updatedInput` exist only in the Claude-style decision [C-OUT-1].
  const stopped = 'continue' in decision && !decision.continue;
  if (decision.blocked || decision.decision !== 'allow' || stopped) {
    return { run: false, reason: refusalText(v, call.tool, decision, stopped), stop: stopped, decision };
  }
  const updated = 'updatedInput' in decision ? decision.updatedInput : undefined;
  return updated !== undefined
    ? { run: true, input: updated, rewritten: true, decision }
    : { run: true, input: call.input, rewritten: false, decision };
}

function refusalText(v: ToolVocabulary, tool: string, decision: GateDecision, stopped: boolean): string {
  const reason = decision.reason !== undefined && decision.reason !== '' ? decision.reason : undefined;
  if (stopped && !decision.blocked) {
    const stopReason = 'stopReason' in decision ? decision.stopReason : undefined;
    return stopReason ?? reason ?? `a ${v.pre} hook stopped the agent before ${tool}`;
  }
  if (decision.decision === 'ask' && !decision.blocked)
    return reason ?? `a ${v.pre} hook asks to confirm ${tool}, and no one can be asked here`;
  if (decision.decision === 'defer' && !decision.blocked)
    return reason ?? `a ${v.pre} hook deferred ${tool}, and nothing here can take it up`;
  return reason ?? `a ${v.pre} hook denied ${tool}`;
}

/** Tells the gate the tool's output; a hook that blocks withholds it from the model. */
export async function tellAfterTool(
  engine: HookEngine,
  call: ToolCall,
  output: unknown,
): Promise<AfterVerdict> {
  const v = toolVocabulary(engine.gate.dialect);
  const input = callInput(v, call);
  input[v.output] = v.outputAsText ? outputText(output) : (output ?? null);
  const decision = await engine.decide(v.post, input);
  if (!decision.blocked) return { withheld: false };
  const reason = decision.reason !== undefined && decision.reason !== '' ? decision.reason : undefined;
  return {
    withheld: true,
    reason: reason ?? `a ${v.post} hook withheld the output of ${call.tool}`,
    decision,
  };
}

/** Tells the gate the tool failed (where the dialect has such an event); its answer changes nothing. */
export async function tellToolFailed(engine: HookEngine, call: ToolCall, error: unknown): Promise<void> {
  const v = toolVocabulary(engine.gate.dialect);
  if (v.failure === undefined) return;
  const input = callInput(v, call);
  input[v.error] = errorMessage(error);
  await engine.decide(v.failure, input);
}

/** A tool's output as the text observe hooks and text-only dialects get. */
export function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (output === undefined) return '';
  try {
    return JSON.stringify(output) ?? String(output);
  } catch {
    return String(output);
  }
}
