/**
 * The GitHub Copilot CLI dialect [A-COP-1] as one object: its sources, events, the two input
 * forms, environment, answers and merge — as Copilot CLI 1.0.102 runs hook files
 * (research/copilot-facts.md). Every event's hooks run one after another in configuration order;
 * a preToolUse deny stops the rest.
 */
import { HookInputError } from '../../core/errors.ts';
import type { AgentDialectSpec } from '../agent/gate.ts';
import { agentGate } from '../agent/gate.ts';
import type { AgentGatePlugin } from '../agent/gate-dialect.ts';
import { copilotStopsAfter, mergeCopilotAnswers, readCopilotAnswer } from './answer.ts';
import { type CopilotEventName, copilotEventKeys, copilotEventOfKey, copilotMatchField } from './events.ts';
import { copilotInput, copilotToolName, vscodeInput } from './payload.ts';
import { type CopilotOptions, copilotHookForm, loadCopilotConfig } from './source.ts';

declare module '../../registry/hook-definition.ts' {
  interface AgentDialectNames {
    copilot: true;
  }
}

declare module '../agent/gate-dialect.ts' {
  interface DialectOptions {
    /** `gateDialect: 'copilot'`: the policy folder, Copilot's home, environment [A-COP-1]. */
    copilot?: CopilotOptions;
  }
}

/** `preToolUse` or `PreToolUse` → the event; a HookInputError for any other name. */
function eventOf(name: string): CopilotEventName {
  const key = copilotEventOfKey(name);
  if (key === undefined)
    throw new HookInputError(
      'event',
      `unknown Copilot CLI event "${name}"; expected one of ${copilotEventKeys().join(', ')}`,
    );
  return key.event;
}

/** [A-COP-1] The value an event's matchers test, from either input form (`toolName` / `tool_name`). */
function matchTarget(event: string, input: Record<string, unknown>): string | undefined {
  const key = copilotEventOfKey(event);
  if (key === undefined) return undefined;
  const field = copilotMatchField(key.event);
  if (field === null) return undefined;
  const camel = input[field];
  if (typeof camel === 'string') return camel;
  const snake = input[field.replace(/([A-Z])/g, (c) => `_${c.toLowerCase()}`)];
  if (typeof snake !== 'string') return undefined;
  return field === 'toolName' ? copilotToolName(snake) : snake;
}

const copilot: AgentDialectSpec = {
  name: 'copilot',
  label: 'GitHub Copilot CLI',
  sequentialDefinitions: false,
  inOrder: true,
  canonicalEvent: (event) => copilotEventOfKey(event)?.event ?? event,
  stopsAfter: copilotStopsAfter,
  load: (base, options) =>
    loadCopilotConfig({ ...base, ...(options.copilot !== undefined ? { copilot: options.copilot } : {}) }),
  unknownEvent: (event) =>
    copilotEventOfKey(event) === undefined
      ? `unknown Copilot CLI event "${event}"; expected one of ${copilotEventKeys().join(', ')}`
      : undefined,
  input: (event, given, defaults) => copilotInput(eventOf(event), given, defaults),
  matchField: (event) => {
    const key = copilotEventOfKey(event);
    return key === undefined ? undefined : (copilotMatchField(key.event) ?? undefined);
  },
  matchTarget,
  readAnswer: (event, result, failMode, { hook }) =>
    readCopilotAnswer(eventOf(event), result, failMode, copilotHookForm(hook)?.form ?? 'copilot'),
  envFile: () => false,
  prepare: (hook) => hook.command,
  /** [A-COP-1] Camel keys get Copilot's form, PascalCase keys and `.claude/settings.json` VS Code's. */
  hookInput(hook, input) {
    const form = copilotHookForm(hook);
    return form?.form === 'vscode' ? vscodeInput(input, form.key) : input;
  },
  merge: (event, answers) => mergeCopilotAnswers(eventOf(event), answers),
};

export const copilotGate: AgentGatePlugin = agentGate(copilot);
