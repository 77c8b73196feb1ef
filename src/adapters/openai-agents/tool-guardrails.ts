/**
 * [AD-OAI-1] OpenAI Agents tool guardrails that put a function tool's calls to the engine's gate:
 * the input guardrail before it runs (a deny is the SDK's own `rejectContent`: the model gets the
 * reason as the tool's output; `continue: false` is `throwException`, which ends the run), the
 * output guardrail after it ran (a PostToolUse block replaces the output with the reason). The SDK
 * gives the arguments as a JSON string; they are parsed before a hook sees them.
 */
import type {
  ToolGuardrailFunctionOutput,
  ToolInputGuardrailDefinition,
  ToolOutputGuardrailDefinition,
} from '@openai/agents';
import { errorMessage } from '../../core/errno.ts';
import type { HookEngine } from '../../engine-api.ts';
import { askBeforeTool, type ToolCall, tellAfterTool } from '../tool-gate.ts';
import type { CallLedger } from './call-ledger.ts';

export interface ToolGuardrailOptions {
  /** The session hooks see and observe events carry; default the engine's. */
  sessionId?: string;
  /** The guardrail's name in the SDK's results and traces. Default `hookwerk`. */
  name?: string;
}

type Parsed = { ok: true; value: unknown } | { ok: false; why: string };

/** The model's arguments: JSON text, `''` for a tool that takes none. */
export function parseArguments(text: string): Parsed {
  if (text.trim() === '') return { ok: true, value: {} };
  try {
    const value: unknown = JSON.parse(text);
    return { ok: true, value };
  } catch (err) {
    return { ok: false, why: errorMessage(err) };
  }
}

const allow = (outputInfo?: unknown): ToolGuardrailFunctionOutput => ({
  behavior: { type: 'allow' },
  ...(outputInfo !== undefined ? { outputInfo } : {}),
});
const reject = (message: string, outputInfo?: unknown): ToolGuardrailFunctionOutput => ({
  behavior: { type: 'rejectContent', message },
  ...(outputInfo !== undefined ? { outputInfo } : {}),
});

/**
 * Gates a tool's calls; put it in the tool's `inputGuardrails` (or let `gateAgent` put it on every
 * tool). A hook's `updatedInput` cannot be handed on by a guardrail alone: the call is refused
 * with that said, so a rewrite is never dropped silently; `gateAgent` applies it.
 */
export function toolInputGuardrail<TContext = unknown>(
  engine: HookEngine,
  opts: ToolGuardrailOptions = {},
): ToolInputGuardrailDefinition<TContext> {
  return inputGuardrail(engine, opts, undefined);
}

/** Tells the gate each output (PostToolUse); a hook that blocks replaces it with its reason. */
export function toolOutputGuardrail<TContext = unknown>(
  engine: HookEngine,
  opts: ToolGuardrailOptions = {},
): ToolOutputGuardrailDefinition<TContext> {
  return outputGuardrail(engine, opts, undefined);
}

export function inputGuardrail<TContext>(
  engine: HookEngine,
  opts: ToolGuardrailOptions,
  ledger: CallLedger | undefined,
): ToolInputGuardrailDefinition<TContext> {
  return {
    type: 'tool_input',
    name: opts.name ?? 'hookwerk',
    async run({ toolCall }) {
      const { name, callId } = toolCall;
      const parsed = parseArguments(toolCall.arguments);
      if (!parsed.ok) {
        return reject(`the arguments of ${name} are not JSON (${parsed.why}), so no hook could judge them`);
      }
      const call: ToolCall = { tool: name, input: parsed.value, callId, sessionId: opts.sessionId };
      const verdict = await askBeforeTool(engine, call);
      const info = { decision: verdict.decision.decision, reason: verdict.decision.reason };
      if (!verdict.run) {
        if (verdict.stop)
          return { behavior: { type: 'throwException' }, outputInfo: { ...info, stop: verdict.reason } };
        return reject(verdict.reason, info);
      }
      if (verdict.rewritten) {
        if (ledger === undefined) {
          return reject(
            `a hook rewrote the arguments of ${name}, which a tool input guardrail alone cannot hand on (gate the agent with gateAgent)`,
            info,
          );
        }
        ledger.rewrite(callId, JSON.stringify(verdict.input));
      }
      ledger?.allow(callId);
      return allow(info);
    },
  };
}

export function outputGuardrail<TContext>(
  engine: HookEngine,
  opts: ToolGuardrailOptions,
  ledger: CallLedger | undefined,
): ToolOutputGuardrailDefinition<TContext> {
  return {
    type: 'tool_output',
    name: opts.name ?? 'hookwerk',
    async run({ toolCall, output }) {
      const { name, callId } = toolCall;
      const parsed = parseArguments(ledger?.rewritten(callId) ?? toolCall.arguments);
      const input = parsed.ok ? parsed.value : toolCall.arguments;
      const after = await tellAfterTool(
        engine,
        { tool: name, input, callId, sessionId: opts.sessionId },
        output,
      );
      return after.withheld ? reject(after.reason) : allow();
    },
  };
}
