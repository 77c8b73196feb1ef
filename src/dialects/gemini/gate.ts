/** The Gemini CLI dialect [§6] as one object: its sources, events, input, variables, answers and merge. */
import { isPlainObject } from '../../core/plain-object.ts';
import { readClaudeAnswer } from '../agent/claude-answer.ts';
import { claudeMatchTarget } from '../agent/claude-events.ts';
import type { AgentDialectSpec } from '../agent/gate.ts';
import { agentGate } from '../agent/gate.ts';
import type { AgentGatePlugin } from '../agent/gate-dialect.ts';
import { applyGeminiOutputToInput, mergeGeminiAnswers, readGeminiAnswer } from './answer.ts';
import { geminiCommand } from './command.ts';
import { GEMINI_EVENT_NAMES, GEMINI_EVENTS, geminiMatchTarget, isGeminiEvent } from './events.ts';
import { geminiPlansDir } from './plans-dir.ts';
import { type GeminiOptions, loadGeminiConfig } from './source.ts';

declare module '../../registry/hook-definition.ts' {
  interface AgentDialectNames {
    gemini: true;
  }
}

declare module '../agent/gate-dialect.ts' {
  interface DialectOptions {
    /** `gateDialect: 'gemini'`: system settings, environment [§6]. */
    gemini?: GeminiOptions;
  }
}

const gemini: AgentDialectSpec = {
  name: 'gemini',
  label: 'Gemini CLI',
  sequentialDefinitions: true,
  load: (base, options) =>
    loadGeminiConfig({ ...base, ...(options.gemini !== undefined ? { gemini: options.gemini } : {}) }),
  unknownEvent: (event) =>
    isGeminiEvent(event)
      ? undefined
      : `unknown Gemini CLI event "${event}"; expected one of ${GEMINI_EVENT_NAMES.join(', ')}`,
  /** [G-RUN-1] As C-IN-1, plus `timestamp`, and never `permission_mode` (Gemini CLI sends none). */
  input(event, given, defaults) {
    const input: Record<string, unknown> = { ...given };
    input.hook_event_name = event;
    if (typeof input.session_id !== 'string') input.session_id = defaults.sessionId;
    if (typeof input.cwd !== 'string') input.cwd = defaults.projectDir;
    if (typeof input.timestamp !== 'string') input.timestamp = new Date().toISOString();
    return input;
  },
  matchField: (event) => (isGeminiEvent(event) ? (GEMINI_EVENTS[event].matchField ?? undefined) : undefined),
  // explain() may be asked about any name; only Gemini's own events have Gemini's matched fields.
  matchTarget: (event, input) =>
    isGeminiEvent(event) ? geminiMatchTarget(event, input) : claudeMatchTarget(event, input),
  // In-process hooks and HTTP answers are read as Claude Code reads them; commands as Gemini CLI.
  readAnswer: (event, result, failMode) =>
    result.kind === 'process' && isGeminiEvent(event)
      ? readGeminiAnswer(event, result, failMode)
      : readClaudeAnswer(event, result, failMode),
  envFile: () => false,
  /** [G-RUN-1, G-RUN-2] Gemini's variables in `env`; the shell expands them, never a value pasted in. */
  prepare(hook, input, env, cwd) {
    // As Gemini CLI 0.61, a hook's own `env` is laid over these (it spreads the hook's env last).
    const own = (name: string) => hook.ownEnv?.includes(name) === true;
    if (!own('GEMINI_CWD')) env.GEMINI_CWD = cwd;
    if (typeof input.session_id === 'string') {
      if (!own('GEMINI_SESSION_ID')) env.GEMINI_SESSION_ID = input.session_id;
      if (hook.geminiTempDir !== undefined && !own('GEMINI_PLANS_DIR'))
        env.GEMINI_PLANS_DIR = geminiPlansDir(hook.geminiTempDir, input.session_id);
    }
    return geminiCommand(hook.command, env);
  },
  merge: (event, answers, input) =>
    isGeminiEvent(event)
      ? mergeGeminiAnswers(event, answers, isPlainObject(input.tool_input) ? input.tool_input : undefined)
      : { decision: 'allow', blocked: false, continue: true },
  fold: (event, input, answer) =>
    isGeminiEvent(event) ? applyGeminiOutputToInput(event, input, answer) : input,
};

export const geminiGate: AgentGatePlugin = agentGate(gemini);
