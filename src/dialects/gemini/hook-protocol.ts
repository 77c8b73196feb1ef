/**
 * `hookwerk hook --agent gemini` [R-HOOK-1, R-MAP-1]: Gemini CLI's events and tools as Claude
 * Code's (its 0.61 tool inputs already use Claude's field names), and the policy's decision as a
 * Gemini CLI hook answers [G-ANS-1]: `decision` + `reason`, `hookSpecificOutput.tool_input` for a
 * rewrite, nothing for no opinion [R-HOOK-2].
 */

import { claudeCall, namedEvents, toolNameOf } from '../agent/claude-call.ts';
import type { EventMap } from '../agent/event-map.ts';
import type { HookAgentProtocol } from '../agent/hook-agent.ts';
import { jsonReply, policyVerdict, reasonOr, SILENT } from '../agent/policy-verdict.ts';
import { objectOf, textOf, toolMapper } from '../agent/tool-map.ts';

export const GEMINI_CLAUDE_EVENTS: EventMap = {
  BeforeTool: 'PreToolUse',
  AfterTool: 'PostToolUse',
  BeforeAgent: 'UserPromptSubmit',
  AfterAgent: 'Stop',
  SessionStart: 'SessionStart',
  SessionEnd: 'SessionEnd',
  PreCompress: 'PreCompact',
  Notification: 'Notification',
};

export const geminiTools = toolMapper([
  { agent: 'run_shell_command', claude: 'Bash' },
  { agent: 'write_file', claude: 'Write' },
  { agent: 'replace', claude: 'Edit' },
  { agent: 'read_file', claude: 'Read' },
  { agent: 'read_many_files', claude: 'Read' },
  { agent: 'glob', claude: 'Glob' },
  { agent: 'grep_search', claude: 'Grep' },
  { agent: 'search_file_content', claude: 'Grep' },
  { agent: 'web_fetch', claude: 'WebFetch' },
  { agent: 'google_web_search', claude: 'WebSearch' },
  { agent: 'list_directory', claude: 'LS' },
]);

/** Events on which Gemini CLI reads `hookSpecificOutput.additionalContext`. */
const CONTEXT_EVENTS = new Set(['BeforeAgent', 'AfterTool', 'SessionStart']);

export const geminiHookProtocol: HookAgentProtocol = {
  toClaude(given, named, env) {
    const events = namedEvents(given, named, GEMINI_CLAUDE_EVENTS);
    if ('problem' in events) return events;
    const { agentEvent, event } = events;
    const input: Record<string, unknown> = { ...given, hook_event_name: event };
    const tool = textOf(given.tool_name);
    if (tool !== undefined) {
      input.tool_name = geminiTools.claudeName(tool);
      const toolInput = objectOf(given.tool_input);
      if (toolInput !== undefined) input.tool_input = geminiTools.toClaude(tool, toolInput);
    }
    if (event === 'Stop') {
      if (typeof input.stop_hook_active !== 'boolean')
        input.stop_hook_active = given.stop_hook_active === true;
      const said = textOf(given.prompt_response);
      if (said !== undefined && input.last_assistant_message === undefined)
        input.last_assistant_message = said;
    }
    const projectDir = textOf(env.GEMINI_PROJECT_DIR) ?? textOf(env.CLAUDE_PROJECT_DIR) ?? textOf(given.cwd);
    return claudeCall(agentEvent, event, input, {
      projectDir,
      sessionId: textOf(given.session_id),
      toolName: toolNameOf(input),
      agentTool: tool,
    });
  },
  reply(call, decision) {
    const v = policyVerdict(decision);
    const out: Record<string, unknown> = {};
    const specific: Record<string, unknown> = {};
    if (v.permission === 'deny') {
      out.decision = 'deny';
      out.reason = reasonOr(v);
    } else if (call.agentEvent === 'BeforeTool' && v.permission !== undefined) {
      out.decision = v.permission;
      if (v.reason !== undefined) out.reason = v.reason;
    }
    if (call.agentEvent === 'BeforeTool' && v.updatedInput !== undefined && v.permission !== 'deny')
      specific.tool_input =
        call.agentTool !== undefined
          ? geminiTools.fromClaude(call.agentTool, v.updatedInput)
          : v.updatedInput;
    if (v.additionalContext !== undefined && CONTEXT_EVENTS.has(call.agentEvent))
      specific.additionalContext = v.additionalContext;
    if (v.stop !== undefined) {
      out.continue = false;
      if (v.stop.reason !== undefined) out.stopReason = v.stop.reason;
    }
    if (v.systemMessage !== undefined) out.systemMessage = v.systemMessage;
    if (Object.keys(specific).length > 0)
      out.hookSpecificOutput = { hookEventName: call.agentEvent, ...specific };
    return Object.keys(out).length === 0 ? { ...SILENT } : jsonReply(out);
  },
  readReply: async (call, reply) => (await import('./reply-verdict.ts')).readGeminiReply(call, reply),
};
