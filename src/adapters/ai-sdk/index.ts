/**
 * `hookwerk/ai-sdk` [AD-AI-1]: the Vercel AI SDK's tools gated by the engine, and a middleware
 * that emits the model calls' observe events. `ai` is an optional peer: imported as types only.
 */
export type { GateDecision, HookEngine } from '../../engine-api.ts';
export { ToolDeniedError } from '../tool-denied-error.ts';
export { type GateToolsOptions, gateTools } from './gate-tools.ts';
export { hookStopped } from './hook-stopped.ts';
export { type HookwerkMiddlewareOptions, hookwerkMiddleware } from './hookwerk-middleware.ts';
