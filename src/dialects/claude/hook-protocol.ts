/**
 * `hookwerk hook --agent claude` [R-HOOK-1]: Claude Code's input is already the policy's, and the
 * policy's decision is answered as a Claude Code hook answers (C-ANS rules), printing nothing when
 * there is no opinion [R-HOOK-2].
 */
import { claudeAnswerJson, claudeShapedCall } from '../agent/claude-shape.ts';
import type { ClaudeCall, HookAgentProtocol, HookReply } from '../agent/hook-agent.ts';
import { jsonReply, SILENT } from '../agent/policy-verdict.ts';
import { textOf } from '../agent/tool-map.ts';

export const claudeHookProtocol: HookAgentProtocol = {
  toClaude: (given, named, env) =>
    claudeShapedCall(given, named, textOf(env.CLAUDE_PROJECT_DIR) ?? textOf(given.cwd)),
  reply(call: ClaudeCall, decision): HookReply {
    const out = claudeAnswerJson(call.event, decision);
    return Object.keys(out).length === 0 ? { ...SILENT } : jsonReply(out);
  },
  readReply: async (call, reply) => (await import('./reply-verdict.ts')).readClaudeReply(call, reply),
};
