/**
 * `hookwerk/openai-agents` [AD-OAI-1]: OpenAI Agents tool guardrails decided by the engine, and
 * `gateAgent`, which puts them on every tool of an agent and emits the run's observe events.
 * `@openai/agents` is an optional peer: imported as types only.
 */
export type { GateDecision, HookEngine } from '../../engine-api.ts';
export { type GateAgentOptions, gateAgent } from './gate-agent.ts';
export { type ObservedModelOptions, observedModel, observedModelProvider } from './observed-model.ts';
export { type ToolGuardrailOptions, toolInputGuardrail, toolOutputGuardrail } from './tool-guardrails.ts';
