/** The Cursor dialect [A-CUR-1] as one object: its sources, events, input, variables, answers and merge. */
import { randomUUID } from 'node:crypto';
import type { AgentDialectSpec } from '../agent/gate.ts';
import { agentGate } from '../agent/gate.ts';
import type { AgentGatePlugin } from '../agent/gate-dialect.ts';
import { mergeCursorAnswers, readCursorAnswer } from './answer.ts';
import { CURSOR_EVENT_NAMES, cursorMatchField, cursorMatchTarget, isCursorEvent } from './events.ts';
import { type CursorOptions, loadCursorConfig } from './source.ts';

declare module '../../registry/hook-definition.ts' {
  interface AgentDialectNames {
    cursor: true;
  }
  interface AgentCommandHook {
    /** Cursor's `loop_limit` (stop, subagentStop): follow-ups honoured while `loop_count` is below; null: no cap. */
    cursorLoopLimit?: number | null;
    /** [A-CUR-1] Read from a Claude Code settings file: its answers may be in Claude's format. */
    cursorClaudeFile?: boolean;
  }
}

declare module '../agent/gate-dialect.ts' {
  interface DialectOptions {
    /** `gateDialect: 'cursor'`: the enterprise hooks file, environment [A-CUR-1]. */
    cursor?: CursorOptions;
  }
}

/** Events whose input carries `session_id` (= `conversation_id`) in Cursor's payloads. */
const SESSION_ID_EVENTS: ReadonlySet<string> = new Set(['sessionStart', 'sessionEnd']);

const cursor: AgentDialectSpec = {
  name: 'cursor',
  label: 'Cursor',
  sequentialDefinitions: false,
  load: (base, options) =>
    loadCursorConfig({ ...base, ...(options.cursor !== undefined ? { cursor: options.cursor } : {}) }),
  unknownEvent: (event) =>
    isCursorEvent(event)
      ? undefined
      : `unknown Cursor hook event "${event}"; expected one of ${CURSOR_EVENT_NAMES.join(', ')}`,
  /**
   * [A-CUR-1] Cursor's snake_case input: the caller's fields as given, plus what Cursor always
   * sends and the caller left out — `hook_event_name`, `conversation_id` (the engine's session),
   * `generation_id` (one per decide), `model` (`default`), `workspace_roots` ([the project]),
   * `user_email` and `transcript_path` (null); `session_id` on sessionStart/sessionEnd;
   * `loop_count` 0 on stop/subagentStop. Never a top-level `cwd` (Cursor sends none).
   * `workspaceOpen` gets no conversation, generation, model or transcript fields, as in Cursor.
   */
  input(event, given, defaults) {
    const input: Record<string, unknown> = { ...given };
    input.hook_event_name = event;
    if (!Array.isArray(input.workspace_roots)) input.workspace_roots = [defaults.projectDir];
    if (!Object.hasOwn(input, 'user_email')) input.user_email = null;
    if (event === 'workspaceOpen') return input;
    if (typeof input.conversation_id !== 'string') input.conversation_id = defaults.sessionId;
    if (typeof input.generation_id !== 'string') input.generation_id = randomUUID();
    if (typeof input.model !== 'string') input.model = 'default';
    if (!Object.hasOwn(input, 'transcript_path')) input.transcript_path = null;
    if (SESSION_ID_EVENTS.has(event) && typeof input.session_id !== 'string')
      input.session_id = input.conversation_id;
    if ((event === 'stop' || event === 'subagentStop') && typeof input.loop_count !== 'number')
      input.loop_count = 0;
    return input;
  },
  matchField: cursorMatchField,
  matchTarget: cursorMatchTarget,
  readAnswer: readCursorAnswer,
  envFile: () => false,
  /** [A-CUR-1] The per-run variables Cursor documents, from the input when it names them. */
  prepare(hook, input, env) {
    if (typeof input.cursor_version === 'string') env.CURSOR_VERSION = input.cursor_version;
    if (typeof input.user_email === 'string') env.CURSOR_USER_EMAIL = input.user_email;
    if (typeof input.transcript_path === 'string') env.CURSOR_TRANSCRIPT_PATH = input.transcript_path;
    return hook.command;
  },
  merge: (event, answers) => mergeCursorAnswers(event, answers),
};

export const cursorGate: AgentGatePlugin = agentGate(cursor);
