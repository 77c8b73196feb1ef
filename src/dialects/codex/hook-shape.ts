/**
 * What Codex CLI 0.171 refuses in a hook file [A-CDX-1] (research/codex-facts.md): the file's text
 * (JSON, or `config.toml`'s `[hooks]` table), then the shape serde checks — a handler of an unknown
 * `type`, no `command`, a `timeout` that is not a whole number of seconds… makes Codex skip the
 * whole file. Keys of `hooks` that are no Codex event are passed over, with a warning.
 */
import { parse as parseToml, TomlError } from 'smol-toml';
import { errorMessage } from '../../core/errno.ts';
import { type ConfigIssue, jsonPath } from '../../core/issues.ts';
import { parseJsonText } from '../../core/json-text.ts';
import { isPlainObject } from '../../core/plain-object.ts';
import type { SourceParse } from '../../sources/agent-config.ts';
import { CODEX_EVENT_NAMES, isCodexEvent } from './events.ts';

/**
 * How one Codex source is opened: `toml` or JSON, a plugin's `hooks.json` read as plain JSON (its
 * shape is checked after, `shapeProblem`). Keys of `hooks` that are not Codex events are not
 * walked at all (Codex ignores them, whatever their shape): the parse, which runs before the walk,
 * adds them to the keys to pass over.
 */
export function codexOpen(
  spec: { toml: boolean; pluginRoot?: string },
  warnings: ConfigIssue[],
): { settingKeys: ReadonlySet<string>; parse: SourceParse } {
  // A plugin folder is shared with the Claude Code dialect (the same hooks/hooks.json): what
  // Codex cannot read there skips it for Codex only, so it is not an issue that stops `trust`.
  const read = spec.toml ? parseCodexToml : spec.pluginRoot !== undefined ? parseJsonText : parseCodexJson;
  const notEvents = new Set(['state']);
  const parse: SourceParse = (file, text) => {
    const parsed = read(file, text);
    if (parsed.ok)
      for (const event of otherKeys(parsed.value)) {
        notEvents.add(event);
        warnings.push({
          file,
          path: jsonPath(['hooks', event]),
          message: `"${event}" is not a Codex CLI event (${CODEX_EVENT_NAMES.join(', ')}): Codex ignores it, so does hookwerk`,
          level: 'warning',
        });
      }
    return parsed;
  };
  return { settingKeys: notEvents, parse };
}

/** The keys of a source's `hooks` that are neither Codex events nor `state` (config.toml's settings). */
function otherKeys(value: unknown): string[] {
  const hooks: unknown = isPlainObject(value) ? Reflect.get(value, 'hooks') : undefined;
  return isPlainObject(hooks) ? Object.keys(hooks).filter((k) => k !== 'state' && !isCodexEvent(k)) : [];
}

const parseCodexJson: SourceParse = (file, text) => {
  const parsed = parseJsonText(file, text);
  if (!parsed.ok || !isPlainObject(parsed.value)) return parsed;
  const problem = shapeProblem(Reflect.get(parsed.value, 'hooks'), ['hooks']);
  return problem === undefined ? parsed : { ok: false, issue: { file, ...problem } };
};

const parseCodexToml: SourceParse = (file, text) => {
  let value: unknown;
  try {
    value = parseToml(text);
  } catch (err) {
    const where = err instanceof TomlError ? ` (line ${err.line}, column ${err.column})` : '';
    const first = (errorMessage(err).split('\n')[0] ?? '').replace(/^Invalid TOML document: /, '');
    return { ok: false, issue: { file, path: '$', message: `invalid TOML: ${first}${where}` } };
  }
  const hooks: unknown = isPlainObject(value) ? Reflect.get(value, 'hooks') : undefined;
  const problem = shapeProblem(hooks, ['hooks']);
  if (problem !== undefined)
    return {
      ok: false,
      issue: { file, path: problem.path, message: `${problem.message} (Codex: failed to parse TOML hooks)` },
    };
  return { ok: true, value };
};

const HANDLER_TYPES = new Set(['command', 'prompt', 'agent', 'mcp_tool']);

/**
 * The first thing in a `hooks` map that Codex's deserializer refuses (which makes Codex skip the
 * whole file), or undefined. Unknown events and unknown fields are not problems (serde ignores them).
 */
export function shapeProblem(
  hooks: unknown,
  at: PropertyKey[],
): { path: string; message: string } | undefined {
  const fail = (where: PropertyKey[], message: string) => ({
    path: jsonPath(where),
    message: `${message}; Codex skips this whole file`,
  });
  if (hooks === undefined) return undefined;
  if (!isPlainObject(hooks)) return fail(at, 'hooks must be an object of events');
  for (const [event, groups] of Object.entries(hooks)) {
    if (!isCodexEvent(event)) continue;
    const eventAt = [...at, event];
    if (!Array.isArray(groups)) return fail(eventAt, 'must be a list of matcher groups');
    for (const [g, group] of groups.entries()) {
      const groupAt = [...eventAt, g];
      if (!isPlainObject(group)) return fail(groupAt, 'must be an object {matcher?, hooks: [...]}');
      const matcher: unknown = Reflect.get(group, 'matcher');
      if (matcher !== undefined && matcher !== null && typeof matcher !== 'string')
        return fail([...groupAt, 'matcher'], 'matcher must be a string');
      const handlers: unknown = Reflect.get(group, 'hooks');
      if (handlers === undefined) continue;
      if (!Array.isArray(handlers)) return fail([...groupAt, 'hooks'], 'must be a list of handlers');
      for (const [h, handler] of handlers.entries()) {
        const problem = handlerProblem(handler, [...groupAt, 'hooks', h]);
        if (problem !== undefined) return fail(problem.at, problem.message);
      }
    }
  }
  return undefined;
}

function handlerProblem(
  handler: unknown,
  at: PropertyKey[],
): { at: PropertyKey[]; message: string } | undefined {
  if (!isPlainObject(handler)) return { at, message: 'a handler must be an object' };
  const type: unknown = Reflect.get(handler, 'type');
  if (typeof type !== 'string' || !HANDLER_TYPES.has(type))
    return {
      at: [...at, 'type'],
      message: `unknown handler type ${JSON.stringify(type ?? null)} (Codex knows command, prompt, agent, mcp_tool)`,
    };
  if (type !== 'command') return undefined;
  const command: unknown = Reflect.get(handler, 'command');
  if (typeof command !== 'string') return { at: [...at, 'command'], message: 'command must be a string' };
  const timeout: unknown = Reflect.get(handler, 'timeout');
  if (timeout !== undefined && timeout !== null && !(Number.isSafeInteger(timeout) && Number(timeout) >= 0))
    return { at: [...at, 'timeout'], message: 'timeout must be a whole number of seconds (0 or more)' };
  const async: unknown = Reflect.get(handler, 'async');
  if (async !== undefined && typeof async !== 'boolean')
    return { at: [...at, 'async'], message: 'async must be true or false' };
  for (const key of ['statusMessage', 'commandWindows']) {
    const value: unknown = Reflect.get(handler, key);
    if (value !== undefined && value !== null && typeof value !== 'string')
      return { at: [...at, key], message: `${key} must be a string` };
  }
  return undefined;
}
