/**
 * [R-MAP-1] An agent's tool names and input fields as Claude Code's, and back for `updatedInput`.
 * A tool with no entry keeps its name and fields; a field with no entry keeps its name. A mapped
 * field always wins over a field that already bears its new name: Copilot's `create` writes its
 * `path`, so a `file_path` the model added beside it is a decoy, never the `file_path` the policy
 * sees (issue 28) — and back, a hook's `file_path` is the `path` the tool gets.
 */
import { isPlainObject } from '../../core/plain-object.ts';

export interface ToolEntry {
  /** The agent's tool name (`run_shell_command`, `bash`, `Shell`). */
  readonly agent: string;
  /** Claude Code's (`Bash`). */
  readonly claude: string;
  /** Agent field → Claude Code field (`path` → `file_path`). */
  readonly fields?: Readonly<Record<string, string>>;
}

export interface ToolMapper {
  /** The Claude Code tool name for the agent's. */
  claudeName(agent: string): string;
  /** The agent's tool input with Claude Code's field names. */
  toClaude(agent: string, input: Record<string, unknown>): Record<string, unknown>;
  /** A Claude Code input (a hook's `updatedInput`) with the agent's field names again. */
  fromClaude(agent: string, input: Record<string, unknown>): Record<string, unknown>;
}

export function toolMapper(entries: readonly ToolEntry[]): ToolMapper {
  const byAgent = new Map(entries.map((e) => [e.agent, e]));
  const rename = (input: Record<string, unknown>, fields: Readonly<Record<string, string>> | undefined) => {
    if (fields === undefined) return { ...input };
    const out: Record<string, unknown> = {};
    // The unmapped fields first, then the mapped ones over them: a decoy never hides the real field.
    for (const [k, v] of Object.entries(input)) if (!Object.hasOwn(fields, k)) out[k] = v;
    for (const [k, v] of Object.entries(input)) if (Object.hasOwn(fields, k)) out[fields[k] ?? k] = v;
    return out;
  };
  return {
    claudeName: (agent) => byAgent.get(agent)?.claude ?? agent,
    toClaude: (agent, input) => rename(input, byAgent.get(agent)?.fields),
    fromClaude(agent, input) {
      const fields = byAgent.get(agent)?.fields;
      if (fields === undefined) return { ...input };
      const back = Object.fromEntries(Object.entries(fields).map(([a, c]) => [c, a]));
      return rename(input, back);
    },
  };
}

/** `value` if it is a plain object, else undefined. */
export function objectOf(value: unknown): Record<string, unknown> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = v;
  return out;
}

/** `value` if it is a non-empty string. */
export function textOf(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The tool arguments as an object, when they are one or a JSON string of one. */
export function toolArgsObject(value: unknown): Record<string, unknown> | undefined {
  if (isPlainObject(value)) return value;
  if (typeof value !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(value);
    return isPlainObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}
