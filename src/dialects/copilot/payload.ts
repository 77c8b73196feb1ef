/**
 * The two forms of input Copilot CLI 1.0.102 gives its hooks [A-COP-1] (copilot-facts.md §3):
 * - camelCase event keys get Copilot's own form: `{sessionId, timestamp (ms), cwd, toolName:
 *   "bash", toolArgs: {...}}`, no event name (permissionRequest: `hookName`, `toolInput`,
 *   `permissionSuggestions`);
 * - PascalCase keys and `.claude/settings.json` get the VS Code form: `{hook_event_name, session_id,
 *   timestamp (ISO), cwd, tool_name: "Bash", tool_input: {...}}`.
 * The caller's input may come in either form (or a mix); it is read into Copilot's form once per
 * decide, and each hook gets the form of its key.
 */
import { HookInputError } from '../../core/errors.ts';
import { isPlainObject } from '../../core/plain-object.ts';
import { toolArgsObject } from '../agent/tool-map.ts';
import type { CopilotEventName } from './events.ts';

type Input = Record<string, unknown>;

/** Events whose tool arguments are `toolArgs` (permissionRequest says `toolInput`). */
const TOOL_ARGS_EVENTS: ReadonlySet<string> = new Set([
  'preToolUse',
  'postToolUse',
  'postToolUseFailure',
  'preMcpToolCall',
]);

/** `Bash` → `bash`, `WebFetch` → `web_fetch`; other names (MCP `server/tool`, already camel) as they are. */
export function copilotToolName(name: string): string {
  if (!/^[A-Z][A-Za-z0-9]*$/.test(name)) return name;
  return name.replace(/(?!^)([A-Z])/g, '_$1').toLowerCase();
}

/** `bash` → `Bash`, `web_fetch` → `WebFetch` (only `bash` → `Bash` was observed); others as they are. */
export function vscodeToolName(name: string): string {
  if (!/^[a-z][a-z0-9_]*$/.test(name)) return name;
  return name
    .split('_')
    .filter((part) => part !== '')
    .map((part) => part[0]?.toUpperCase() + part.slice(1))
    .join('');
}

const toCamel = (key: string) => key.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
const toSnake = (key: string) => key.replace(/([A-Z])/g, (c) => `_${c.toLowerCase()}`);

/** Keys of a tool result object, one level, in the other casing. */
function recase(value: unknown, how: (key: string) => string): unknown {
  if (!isPlainObject(value)) return value;
  const out: Input = {};
  for (const [k, v] of Object.entries(value)) out[how(k)] = v;
  return out;
}

/** A timestamp given as ms or as an ISO string, in ms; undefined when neither. */
function millis(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string') {
    const ms = Date.parse(value);
    if (Number.isFinite(ms)) return ms;
  }
  return undefined;
}

/**
 * [A-COP-1] The caller's input read into Copilot's own form, with what Copilot CLI fills in:
 * `sessionId`, `timestamp` (now, in ms), `cwd` (the project); permissionRequest `hookName` and
 * `permissionSuggestions: []`; agentStop/subagentStop `stop_hook_active: false`. A `toolArgs`
 * given as a JSON string (Copilot's docs) is kept as given: the caller's agent sent it so.
 */
export function copilotInput(
  event: CopilotEventName,
  given: object,
  defaults: { sessionId: string; projectDir: string },
): Input {
  const args =
    event === 'permissionRequest' ? 'toolInput' : TOOL_ARGS_EVENTS.has(event) ? 'toolArgs' : undefined;
  const read: Input = {};
  const put = (key: string, value: unknown, camel: boolean) => {
    let k = key;
    let v = value;
    if (k === 'hook_event_name' || k === 'hookEventName' || k === 'hookName') return;
    if (!camel) {
      if (k === 'tool_input') k = args ?? 'toolInput';
      else if (k === 'tool_result') {
        k = 'toolResult';
        v = recase(v, toCamel);
      } else if (k === 'tool_name') {
        k = 'toolName';
        if (typeof v === 'string') v = copilotToolName(v);
      } else if (k !== 'stop_hook_active') k = toCamel(k);
    } else if (args !== undefined && (k === 'toolArgs' || k === 'toolInput')) k = args;
    if (camel || !Object.hasOwn(read, k)) read[k] = v;
  };
  const entries = Object.entries(given);
  // snake_case first, then camelCase over it: the agent's own form wins where both are given.
  for (const [k, v] of entries) if (k.includes('_')) put(k, v, false);
  for (const [k, v] of entries) if (!k.includes('_')) put(k, v, true);

  const input: Input = {};
  if (event === 'permissionRequest') input.hookName = 'permissionRequest';
  input.sessionId = typeof read.sessionId === 'string' ? read.sessionId : defaults.sessionId;
  input.timestamp = millis(read.timestamp) ?? Date.now();
  input.cwd = typeof read.cwd === 'string' ? read.cwd : defaults.projectDir;
  for (const field of ['sessionId', 'cwd'] as const) {
    const value = input[field];
    if (typeof value === 'string' && value.includes('\0'))
      throw new HookInputError(`context.${field}`, `${field} contains a NUL byte`);
  }
  for (const [k, v] of Object.entries(read)) if (!Object.hasOwn(input, k)) input[k] = v;
  if (event === 'permissionRequest' && !Object.hasOwn(input, 'permissionSuggestions'))
    input.permissionSuggestions = [];
  if ((event === 'agentStop' || event === 'subagentStop') && typeof input.stop_hook_active !== 'boolean')
    input.stop_hook_active = false;
  return input;
}

/**
 * [A-COP-1] Copilot's form as the VS Code form a PascalCase key (or `.claude/settings.json`) gets:
 * `hook_event_name` (the key as written), `session_id`, ISO `timestamp`, `cwd`, `tool_name`
 * PascalCased (`Bash`), `tool_input` an object, the other fields in snake_case.
 */
export function vscodeInput(input: Input, key: string): Input {
  const out: Input = { hook_event_name: key };
  out.session_id = input.sessionId;
  const ms = millis(input.timestamp);
  out.timestamp = ms !== undefined ? new Date(ms).toISOString() : input.timestamp;
  out.cwd = input.cwd;
  for (const [k, v] of Object.entries(input)) {
    if (k === 'sessionId' || k === 'timestamp' || k === 'cwd' || k === 'hookName') continue;
    if (k === 'toolName') out.tool_name = typeof v === 'string' ? vscodeToolName(v) : v;
    else if (k === 'toolArgs' || k === 'toolInput') out.tool_input = toolArgsObject(v) ?? v;
    else if (k === 'toolResult') out.tool_result = recase(v, toSnake);
    else out[k.includes('_') ? k : toSnake(k)] = v;
  }
  return out;
}
