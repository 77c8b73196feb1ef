/**
 * [G-CEL-1] The variables of a `rule` condition for one call, built once per call and shared by
 * every rule that runs for it: the event, the agent asking, the tool, its Claude-shaped
 * `tool_input`, the project, the folder and the session, and the action view [G-ACT-1] — what the
 * rule needs of it is `RuleView`, computed elsewhere (src/action/) once per call and handed in.
 * Values are copied into plain data (`RuleValue`), never the input's or the view's own objects.
 */
import { isPlainObject } from '../core/plain-object.ts';
import type { RuleValue, RuleVariables } from './rule-condition.ts';

/** One simple command of the view [G-ACT-1]. */
export interface RuleViewCommand {
  readonly name: string;
  readonly argv: readonly string[];
  /** The options present, normalised (`-rf` → `r`, `f`; `--force` → `force`…): a list or a set. */
  readonly options: Iterable<string>;
  readonly positionals: readonly string[];
  /** Each redirection target with its mode (`{path, mode}`), copied as plain data. */
  readonly redirects: readonly object[];
  readonly raw: string;
  readonly dynamic: boolean;
}

/** One file the call names [G-ACT-1]. */
export interface RuleViewPath {
  readonly path: string;
  readonly real: string;
  readonly inProject: boolean;
  readonly access: string;
}

/** What a rule reads of the action view. */
export interface RuleView {
  readonly commands: readonly RuleViewCommand[];
  readonly unreadable: boolean;
  readonly paths: readonly RuleViewPath[];
  readonly hosts: readonly string[];
  readonly mcp: { readonly server: string | null; readonly tool: string } | null | undefined;
}

/** What the gate knows of the call besides its input. */
export interface RuleCallFacts {
  readonly event: string;
  /** The agent asking (`hookwerk hook --agent`, `decide(…, {agent})`); none: `""`. */
  readonly agent: string | undefined;
  readonly project: string;
}

/** Every variable a condition may name; any other identifier is a compile error [G-CEL-3]. */
export const RULE_VARIABLES = [
  'event',
  'agent',
  'tool',
  'input',
  'project',
  'cwd',
  'session',
  'commands',
  'unreadable',
  'paths',
  'hosts',
  'mcp',
] as const;

/**
 * The variables for `input` (the Claude-shaped input object: `tool_name`, `tool_input`, `cwd`,
 * `session_id`) and `view`. A call with no tool has `tool == ""` and `input == {}`; with no view,
 * `commands`, `paths` and `hosts` are empty, `unreadable` is false and `mcp` is null.
 */
export function ruleActivation(
  input: Readonly<Record<string, unknown>>,
  facts: RuleCallFacts,
  view?: RuleView,
): RuleVariables {
  const toolInput = input.tool_input;
  return {
    event: facts.event,
    agent: facts.agent ?? '',
    tool: typeof input.tool_name === 'string' ? input.tool_name : '',
    input: isPlainObject(toolInput) ? ruleValue(toolInput, 0) : {},
    project: facts.project,
    cwd: typeof input.cwd === 'string' ? input.cwd : facts.project,
    session: typeof input.session_id === 'string' ? input.session_id : '',
    commands: view === undefined ? [] : view.commands.map(commandValue),
    unreadable: view?.unreadable ?? false,
    paths: view === undefined ? [] : view.paths.map(pathValue),
    hosts: view === undefined ? [] : [...view.hosts],
    mcp:
      view?.mcp === undefined || view.mcp === null ? null : { server: view.mcp.server, tool: view.mcp.tool },
  };
}

function commandValue(c: RuleViewCommand): RuleValue {
  return {
    name: c.name,
    argv: [...c.argv],
    options: [...c.options],
    positionals: [...c.positionals],
    redirects: c.redirects.map((r) => ruleValue(r, 1)),
    raw: c.raw,
    dynamic: c.dynamic,
  };
}

function pathValue(p: RuleViewPath): RuleValue {
  return { path: p.path, real: p.real, inProject: p.inProject, access: p.access };
}

/** Values nested deeper than this reach a condition as null (a JSON input may nest without bound). */
const MAX_VALUE_DEPTH = 100;

/**
 * A value as a condition reads it: JSON-like data copied as it is (a `__proto__` key stays a key);
 * a field that is undefined, a function or a symbol is left out (the map has no such key), and a
 * list element of that kind, or anything nested past MAX_VALUE_DEPTH, is null.
 */
export function ruleValue(value: unknown, depth: number): RuleValue {
  switch (typeof value) {
    case 'string':
    case 'number':
    case 'bigint':
    case 'boolean':
      return value;
    case 'object':
      break;
    default:
      return null;
  }
  if (value === null || depth >= MAX_VALUE_DEPTH) return null;
  if (value instanceof Uint8Array) return value;
  if (Array.isArray(value)) return value.map((v: unknown) => ruleValue(v, depth + 1));
  const entries: Array<[string, RuleValue]> = [];
  for (const [key, v] of Object.entries(value)) {
    if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
    entries.push([key, ruleValue(v, depth + 1)]);
  }
  return Object.fromEntries(entries);
}
