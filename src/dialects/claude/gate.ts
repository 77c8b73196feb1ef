/** The Claude Code dialect [§5] as one object: its sources, input, matchers, answers and merge. */
import type { AgentDialectSpec } from '../agent/gate.ts';
import { agentGate } from '../agent/gate.ts';
import type { AgentGatePlugin } from '../gate-dialect.ts';
import { mergeClaudeAnswers, readClaudeAnswer } from './answer.ts';
import { claudeDemo } from './demo.ts';
import {
  claudeGetsEnvFile,
  claudeMatchField,
  claudeMatchTarget,
  claudeSendsPermissionMode,
} from './events.ts';
import { type ClaudeOptions, loadClaudeConfig } from './source.ts';

declare module '../../registry/hook-definition.ts' {
  interface AgentDialectNames {
    claude: true;
  }
}

declare module '../gate-dialect.ts' {
  interface DialectOptions {
    /** `gateDialect: 'claude'`: plugin folders, managed settings, environment [§5]. */
    claude?: ClaudeOptions;
  }
}

export const claudeSpec: AgentDialectSpec = {
  name: 'claude',
  label: 'Claude Code',
  sequentialDefinitions: false,
  load: (base, options) =>
    loadClaudeConfig({ ...base, ...(options.claude !== undefined ? { claude: options.claude } : {}) }),
  // Claude Code takes any event name [C-EV-1].
  unknownEvent: () => undefined,
  /**
   * [C-IN-1] `hook_event_name`, `session_id`, `cwd` (the project) and, only on the events where
   * Claude Code sends it, `permission_mode` (`default`). `transcript_path` only when known.
   */
  input(event, given, defaults) {
    const input: Record<string, unknown> = { ...given };
    input.hook_event_name = event;
    if (typeof input.session_id !== 'string') input.session_id = defaults.sessionId;
    if (typeof input.cwd !== 'string') input.cwd = defaults.projectDir;
    if (claudeSendsPermissionMode(event) && typeof input.permission_mode !== 'string')
      input.permission_mode = 'default';
    return input;
  },
  matchField: claudeMatchField,
  cliOptions: (flags) => ({ claude: { plugins: [...flags.pluginDirs] } }),
  matchTarget: claudeMatchTarget,
  readAnswer: readClaudeAnswer,
  envFile: claudeGetsEnvFile,
  prepare: (hook) => hook.command,
  merge: (event, answers) => mergeClaudeAnswers(event, answers),
  demo: claudeDemo,
};

export const claudeGate: AgentGatePlugin = agentGate(claudeSpec);
