/**
 * A hookwerk decision in the Claude Agent SDK's answer shape (`SyncHookJSONOutput`). The decision
 * is put into Claude Code's hook answer by the one piece of code that does so for every Claude
 * Code caller (`claudeAnswerJson`, also `hookwerk hook --agent claude`); this only reads that JSON
 * into the SDK's type, event by event, keeping the fields the SDK takes.
 */
import type { SyncHookJSONOutput } from '@anthropic-ai/claude-agent-sdk';
import { z } from 'zod';
import { HookwerkError } from '../../core/errors.ts';
import { claudeAnswerJson } from '../../dialects/agent/claude-shape.ts';
import type { AgentDecision } from '../../dispatch/agent-answer.ts';

const record = z.record(z.string(), z.unknown());

/** `hookSpecificOutput.additionalContext` alone: the events whose context reaches the model. */
const contextOnly = <E extends string>(event: E) =>
  z.object({ hookEventName: z.literal(event), additionalContext: z.string().optional() });

const hookSpecificOutput = z.discriminatedUnion('hookEventName', [
  z.object({
    hookEventName: z.literal('PreToolUse'),
    permissionDecision: z.enum(['allow', 'deny', 'ask', 'defer']).optional(),
    permissionDecisionReason: z.string().optional(),
    updatedInput: record.optional(),
    additionalContext: z.string().optional(),
  }),
  z.object({
    hookEventName: z.literal('PermissionRequest'),
    decision: z.discriminatedUnion('behavior', [
      z.object({ behavior: z.literal('allow'), updatedInput: record.optional() }),
      z.object({
        behavior: z.literal('deny'),
        message: z.string().optional(),
        interrupt: z.boolean().optional(),
      }),
    ]),
  }),
  contextOnly('PostToolUse'),
  contextOnly('PostToolUseFailure'),
  contextOnly('UserPromptSubmit'),
  contextOnly('SessionStart'),
  contextOnly('SubagentStart'),
]);

const sdkAnswer = z.object({
  continue: z.boolean().optional(),
  stopReason: z.string().optional(),
  systemMessage: z.string().optional(),
  decision: z.enum(['approve', 'block']).optional(),
  reason: z.string().optional(),
  hookSpecificOutput: hookSpecificOutput.optional(),
});

/** The SDK's answer to `event` for the engine's decision; `{}` is "no objection". */
export function claudeAgentAnswer(event: string, decision: AgentDecision): SyncHookJSONOutput {
  const parsed = sdkAnswer.safeParse(claudeAnswerJson(event, decision));
  // claudeAnswerJson writes only what this schema reads: a mismatch is a bug here, not bad input.
  if (!parsed.success)
    throw new HookwerkError('INTERNAL', `no Claude Agent SDK answer for ${event}: ${parsed.error.message}`);
  return parsed.data;
}
