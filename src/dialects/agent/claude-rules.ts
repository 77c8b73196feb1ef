/**
 * Claude Code's rules [§5] (its input, matchers, answers and merge) without its sources: the
 * Claude Code dialect is these over Claude Code's settings files, the policy dialect these over
 * hookwerk's policy files [R-POL-1], so they live in the base every agent folder builds on.
 */

import { mergeClaudeAnswers, readClaudeAnswer } from './claude-answer.ts';
import {
  claudeGetsEnvFile,
  claudeMatchField,
  claudeMatchTarget,
  claudeSendsPermissionMode,
} from './claude-events.ts';
import type { AgentDialectSpec } from './gate.ts';

export const claudeRules = {
  sequentialDefinitions: false,
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
  matchTarget: claudeMatchTarget,
  readAnswer: readClaudeAnswer,
  envFile: claudeGetsEnvFile,
  prepare: (hook) => hook.command,
  merge: (event, answers) => mergeClaudeAnswers(event, answers),
} as const satisfies Omit<AgentDialectSpec, 'name' | 'label' | 'load'>;
