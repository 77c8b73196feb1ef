/**
 * [AD-OAI-1] An OpenAI Agents agent gated as a whole: the hookwerk guardrails on every function
 * tool (so a deny rejects the call, a rewrite is run, PostToolUse sees the output), the observe
 * events from the agent's lifecycle (`agent_tool_start` / `agent_tool_end`) and from its model
 * (wrapped: the SDK has no model-call event), and the same for every agent it hands off to.
 */
import type { Agent, FunctionTool, Handoff, Tool } from '@openai/agents';
import type { HookEngine } from '../../engine-api.ts';
import { emitToolEnd, emitToolStart } from '../tool-events.ts';
import { CallLedger } from './call-ledger.ts';
import { type ObservedModelOptions, observedModel } from './observed-model.ts';
import { inputGuardrail, outputGuardrail, parseArguments } from './tool-guardrails.ts';

export interface GateAgentOptions extends Pick<ObservedModelOptions, 'provider' | 'model'> {
  /** The session hooks see and observe events carry; default the engine's. */
  sessionId?: string;
  /** Gate the agents it hands off to as well (and theirs). Default true: a handoff must not be a way around the gate. */
  handoffs?: boolean;
  /** The guardrails' name. Default `hookwerk`. */
  name?: string;
}

// Gating is once per object: a tool shared by agents (or an agent gated twice) is gated once,
// so what its guardrails note must be where every gated agent's lifecycle looks: one ledger.
const gatedAgents = new WeakSet<object>();
const gatedTools = new WeakSet<object>();
const ledger = new CallLedger();

// biome-ignore lint/suspicious/noExplicitAny: the SDK's own default for an agent of any context and output.
type AnyAgent = Agent<any, any>;

/** Gates the agent in place (its tools, its model, its handoffs' agents) and returns it. */
export function gateAgent<A extends AnyAgent>(agent: A, engine: HookEngine, opts: GateAgentOptions = {}): A {
  const pending: AnyAgent[] = [agent];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (gatedAgents.has(next)) continue;
    gatedAgents.add(next);
    gateOne(next, engine, opts);
    if (opts.handoffs !== false) for (const h of next.handoffs) pending.push(handoffAgent(h));
  }
  return agent;
}

// biome-ignore lint/suspicious/noExplicitAny: as AnyAgent.
function handoffAgent(h: AnyAgent | Handoff<any, any>): AnyAgent {
  return 'onInvokeHandoff' in h ? h.agent : h;
}

function gateOne(agent: AnyAgent, engine: HookEngine, opts: GateAgentOptions): void {
  const guardOpts = {
    ...(opts.sessionId !== undefined ? { sessionId: opts.sessionId } : {}),
    ...(opts.name !== undefined ? { name: opts.name } : {}),
  };
  const before = inputGuardrail(engine, guardOpts, ledger);
  const after = outputGuardrail(engine, guardOpts, ledger);
  for (const tool of agent.tools) {
    if (tool.type !== 'function' || gatedTools.has(tool)) continue;
    gatedTools.add(tool);
    // Last: the host's own guardrails judge the call first, so an allow here means it runs.
    tool.inputGuardrails = [...(tool.inputGuardrails ?? []), before];
    tool.outputGuardrails = [...(tool.outputGuardrails ?? []), after];
    runRewrites(tool);
  }
  // A model named by a string is resolved by the run's provider: see observedModelProvider.
  if (typeof agent.model !== 'string') {
    agent.model = observedModel(engine, agent.model, {
      ...(opts.provider !== undefined ? { provider: opts.provider } : {}),
      ...(opts.model !== undefined ? { model: opts.model } : {}),
      ...(opts.sessionId !== undefined ? { sessionId: opts.sessionId } : {}),
    });
  }
  agent.on('agent_tool_start', (_ctx, tool, { toolCall }) => {
    const call = lifecycleCall(tool, toolCall, opts.sessionId);
    if (call !== undefined) emitToolStart(engine, call);
  });
  agent.on('agent_tool_end', (_ctx, tool, result, { toolCall }) => {
    const call = lifecycleCall(tool, toolCall, opts.sessionId);
    if (call !== undefined) emitToolEnd(engine, call, true, result);
    if ('callId' in toolCall) ledger.end(toolCall.callId);
  });
}

/** The tool's `invoke` runs with the arguments a hook gave, when one did. */
function runRewrites(tool: FunctionTool<unknown>): void {
  const invoke = tool.invoke;
  tool.invoke = (runContext, input, details) =>
    invoke.call(tool, runContext, ledger.rewritten(details?.toolCall?.callId) ?? input, details);
}

/** The observed call of a lifecycle event; undefined for a gated tool's call the guardrails did not let through. */
function lifecycleCall(
  tool: Tool<unknown>,
  toolCall: { type: string } & Record<string, unknown>,
  sessionId: string | undefined,
): { tool: string; input: unknown; callId?: string; sessionId?: string } | undefined {
  const callId = typeof toolCall.callId === 'string' ? toolCall.callId : undefined;
  if (gatedTools.has(tool) && (callId === undefined || !ledger.allowed(callId))) return undefined;
  const args = ledger.rewritten(callId) ?? (typeof toolCall.arguments === 'string' ? toolCall.arguments : '');
  const parsed = parseArguments(args);
  return {
    tool: tool.name,
    input: parsed.ok ? parsed.value : { arguments: args },
    ...(callId !== undefined ? { callId } : {}),
    ...(sessionId !== undefined ? { sessionId } : {}),
  };
}
