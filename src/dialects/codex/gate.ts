/**
 * The Codex CLI dialect [A-CDX-1] as one object: Codex CLI 0.171's hook files, events, input,
 * matchers, environment, answers and merge (research/codex-facts.md), on the shared agent gate.
 */
import type { AgentDialectSpec } from '../agent/gate.ts';
import { agentGate } from '../agent/gate.ts';
import type { AgentGatePlugin } from '../agent/gate-dialect.ts';
import { mergeCodexAnswers, readCodexAnswer } from './answer.ts';
import {
  CODEX_EVENT_NAMES,
  codexMatchField,
  codexMatchTarget,
  codexSendsPermissionMode,
  isCodexEvent,
} from './events.ts';
import { type CodexOptions, loadCodexConfig, withPluginPlaceholders } from './source.ts';

declare module '../../registry/hook-definition.ts' {
  interface AgentDialectNames {
    codex: true;
  }
}

declare module '../agent/gate-dialect.ts' {
  interface DialectOptions {
    /** `gateDialect: 'codex'`: plugin folders, environment [A-CDX-1]. */
    codex?: CodexOptions;
  }
}

const codex: AgentDialectSpec = {
  name: 'codex',
  label: 'Codex CLI',
  sequentialDefinitions: false,
  load: (base, options) =>
    loadCodexConfig({ ...base, ...(options.codex !== undefined ? { codex: options.codex } : {}) }),
  unknownEvent: (event) =>
    isCodexEvent(event)
      ? undefined
      : `unknown Codex CLI event "${event}"; expected one of ${CODEX_EVENT_NAMES.join(', ')}`,
  /**
   * As Codex builds its hooks' stdin: `hook_event_name`, `session_id`, `cwd` (default: the
   * project), `transcript_path` (`null` when unknown, as Codex sends it) and `permission_mode`
   * (`default`) on every event but SessionEnd and Interrupt. `model` and `turn_id` only when given.
   */
  input(event, given, defaults) {
    const input: Record<string, unknown> = { ...given };
    input.hook_event_name = event;
    if (typeof input.session_id !== 'string') input.session_id = defaults.sessionId;
    if (typeof input.cwd !== 'string') input.cwd = defaults.projectDir;
    if (!Object.hasOwn(input, 'transcript_path')) input.transcript_path = null;
    if (codexSendsPermissionMode(event) && typeof input.permission_mode !== 'string')
      input.permission_mode = 'default';
    return input;
  },
  matchField: codexMatchField,
  cliOptions: (flags) => ({ codex: { plugins: [...flags.pluginDirs] } }),
  matchTarget: codexMatchTarget,
  readAnswer: (event, result, failMode, run) => readCodexAnswer(event, result, failMode, run.input),
  // Codex 0.171 gives config-file hooks no env file and no variable of its own.
  envFile: () => false,
  /** Plugin hooks: `PLUGIN_ROOT` / `PLUGIN_DATA` next to the Claude names the runner sets. */
  prepare(hook, _input, env) {
    if (hook.pluginRoot !== undefined) env.PLUGIN_ROOT = hook.pluginRoot;
    if (hook.pluginData !== undefined) env.PLUGIN_DATA = hook.pluginData;
    return hook.pluginRoot !== undefined && hook.pluginData !== undefined
      ? withPluginPlaceholders(hook.command, hook.pluginRoot, hook.pluginData)
      : hook.command;
  },
  merge: mergeCodexAnswers,
};

export const codexGate: AgentGatePlugin = agentGate(codex);
