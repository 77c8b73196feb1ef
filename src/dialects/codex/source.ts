/**
 * Codex CLI's hook files [A-CDX-1], read as Codex CLI 0.171 reads them (research/codex-facts.md;
 * `hooks/src/engine/discovery.rs`, `config/src/hook_config.rs`): each layer — user
 * (`$CODEX_HOME`, default `~/.codex`) then project (`<project>/.codex/`) — gives `hooks.json` and
 * the `[hooks]` table of `config.toml`, both loaded when both are there (with a warning, as Codex
 * warns); then each plugin folder's `hooks/hooks.json`. All add up, in that order; identical hooks
 * stay apart (Codex runs both).
 *
 * As strict as Codex where Codex is strict: a file Codex cannot deserialize (a handler of an
 * unknown `type`, no `command`, a `timeout` that is not a whole number of seconds, a `matcher` that
 * is not a string, an event that is not a list…) is skipped **whole**, with an issue naming the
 * file, the JSON path and the reason. As lenient where Codex is: unknown events and fields are
 * ignored (validate warns); `prompt`, `agent` and `mcp_tool` handlers, empty commands and the whole
 * group of a matcher that is not a valid regex are skipped with a warning.
 *
 * Codex's own switches are honoured from the config.toml files loaded: `[features] hooks = false`
 * (or the old `codex_hooks`; the project's overrides the user's) turns every hook off, and
 * `[hooks.state."<file>:<event>:<group>:<handler>"] enabled = false` turns that one off. Codex's
 * hook trust (`trusted_hash`) is not used: project sources run under hookwerk's consent pins
 * (C-SRC-4) instead; user ones are trusted (docs/codex.md says why).
 */
import path from 'node:path';
import { parse as parseToml, TomlError } from 'smol-toml';
import { z } from 'zod';
import { admitProject, type ConsentPolicy } from '../../consent/project-admission.ts';
import type { ProjectRead } from '../../consent/project-surface.ts';
import { pluginHooksFile } from '../../consent/project-surface.ts';
import { projectKey } from '../../consent/trust-store.ts';
import { inheritedEnv, lurusHookEnv, withoutInterpreterCaches } from '../../core/env-policy.ts';
import { errorMessage } from '../../core/errno.ts';
import { homeFolder } from '../../core/home.ts';
import { type ConfigIssue, jsonPath } from '../../core/issues.ts';
import { parseBoundedJson, parseJsonText } from '../../core/json-text.ts';
import { isPlainObject } from '../../core/plain-object.ts';
import { readSourceFile } from '../../core/read-source.ts';
import { isInside } from '../../core/real-path.ts';
import type { AgentCommandHook, GateEntry, HookScope } from '../../registry/hook-definition.ts';
import { compileMatcher } from '../../registry/matcher.ts';
import {
  type AgentConfig,
  type AgentSource,
  type AgentSourceSpec,
  agentConfig,
  MAX_AGENT_TIMEOUT_MS,
  openAgentSource,
  type SourceParse,
  sourceCompiled,
} from '../../sources/agent-config.ts';
import { type RawHandler, readHandler } from '../../sources/agent-settings.ts';
import { readGateProject } from '../surfaces/gate-project.ts';
import {
  CODEX_EVENT_NAMES,
  type CodexEventName,
  codexEventLabel,
  codexMatchField,
  isCodexEvent,
} from './events.ts';
import { compileCodexMatcher } from './matcher.ts';

const CODEX_DEFAULT_TIMEOUT_S = 600;

export interface CodexOptions {
  /** Plugin folders whose `hooks/hooks.json` is read (CLI `--plugin-dir`). */
  plugins?: readonly string[];
  /** (beyond) `allowlist`: command hooks get the Lurus allowlist environment instead of the engine's. */
  env?: 'inherit' | 'allowlist';
}

interface LoadCodexOptions {
  projectDir: string;
  home?: string;
  env?: NodeJS.ProcessEnv;
  codex?: CodexOptions;
  consent?: ConsentPolicy;
  project?: ProjectRead;
}

/** `$CODEX_HOME` (resolved), else `<home>/.codex`: where Codex keeps the user layer. */
function codexHome(home: string, env: NodeJS.ProcessEnv): string {
  const given = env.CODEX_HOME;
  return given !== undefined && given !== '' ? path.resolve(given) : path.join(home, '.codex');
}

interface SourceSpec extends AgentSourceSpec {
  /** The layer it belongs to: json and toml of one layer are checked for both being used. */
  layer: string;
  toml: boolean;
  pluginRoot?: string;
}

/** [A-CDX-1] The sources in Codex's order: user, project (each hooks.json then config.toml), plugins. */
function codexSourceSpecs(projectDir: string, userDir: string, plugins: readonly string[]): SourceSpec[] {
  const layer = (scope: HookScope, dir: string, project: boolean, label: string): SourceSpec[] => [
    {
      scope,
      file: path.join(dir, 'hooks.json'),
      label: `${label} hooks.json`,
      project,
      layer: label,
      toml: false,
    },
    {
      scope,
      file: path.join(dir, 'config.toml'),
      label: `${label} config.toml`,
      project,
      layer: label,
      toml: true,
    },
  ];
  return [
    ...layer('user', userDir, false, 'user'),
    ...layer('project', path.join(projectDir, '.codex'), true, 'project'),
    ...plugins.map((dir) => ({
      scope: 'plugin' as const,
      file: pluginHooksFile(dir),
      label: `plugin ${path.basename(dir)}`,
      project: true,
      layer: `plugin ${dir}`,
      toml: false,
      pluginRoot: dir,
    })),
  ];
}

/** Reads every Codex CLI source; see the file comment. */
export function loadCodexConfig(opts: LoadCodexOptions): AgentConfig {
  const projectDir = projectKey(opts.projectDir);
  const home = homeFolder(opts.home);
  const parent = opts.env ?? process.env;
  const userDir = codexHome(home, parent);
  const codex = opts.codex ?? {};
  const plugins = (codex.plugins ?? []).map((p) => projectKey(p));
  // A CODEX_HOME inside the project would make project files user files, run without consent.
  const userInProject = userDir !== path.join(home, '.codex') && isInside(projectDir, projectKey(userDir));
  const specs = codexSourceSpecs(projectDir, userDir, plugins).filter(
    (s) => !userInProject || s.scope !== 'user',
  );
  const project = opts.project ?? readGateProject(projectDir, home, plugins);
  const admission = admitProject(opts.consent, home, project.surface, project.reads);
  // Codex's environment as it is: no CLAUDE_PROJECT_DIR, no variable of its own (codex-facts.md).
  const baseEnv = Object.freeze(
    withoutInterpreterCaches(codex.env === 'allowlist' ? lurusHookEnv(parent) : inheritedEnv(parent)),
  );
  // `$SHELL -lc` (a login shell), `/bin/sh` when SHELL is unset, as Codex's command runner.
  const shell = parent.SHELL !== undefined && path.isAbsolute(parent.SHELL) ? parent.SHELL : '/bin/sh';
  const warnings: ConfigIssue[] = [];
  const issues: ConfigIssue[] = [];
  const sources: AgentSource[] = [];
  const entries: GateEntry[] = [];
  const out = { sources, issues, warnings, entries };
  if (userInProject)
    warnings.push({
      file: userDir,
      path: '$',
      message: `CODEX_HOME is inside the project ${projectDir}: its files are not read as the user layer (they would run without consent)`,
    });
  const withHooks = new Map<string, string[]>();
  const state = new Map<string, string>();
  let feature: { on: boolean; file: string } | undefined;
  let order = 0;

  for (const spec of specs) {
    // A plugin folder is shared with the Claude Code dialect (the same hooks/hooks.json): what
    // Codex cannot read there skips it for Codex only, so it is not an issue that stops `trust`.
    const read = spec.toml ? parseCodexToml : spec.pluginRoot !== undefined ? parseJsonText : parseCodexJson;
    // Keys of `hooks` that are not Codex events are not walked at all (Codex ignores them, whatever
    // their shape): the parse, which runs before the walk, adds them to the keys to pass over.
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
    const opened = openAgentSource('codex', spec, admission, out, notEvents, undefined, parse);
    if (opened.kind === 'done') continue;
    if (spec.pluginRoot !== undefined) {
      const problem = shapeProblem(Reflect.get(opened.value, 'hooks'), ['hooks']);
      if (problem !== undefined) {
        warnings.push({ file: spec.file, ...problem });
        sourceCompiled(sources, spec.file, 0);
        continue;
      }
    }
    if (spec.toml) {
      const flag = featureFlag(opened.value);
      if (flag !== undefined) feature = { on: flag, file: spec.file };
      for (const [key, why] of disabledStates(opened.value, spec.file)) state.set(key, why);
    }
    const ctx: HandlerContext = {
      spec,
      projectDir,
      env: baseEnv,
      shell,
      warnings,
      ...(spec.project && admission.consent.consent !== undefined
        ? { consent: admission.consent.consent }
        : {}),
      ...(spec.pluginRoot !== undefined
        ? { pluginRoot: spec.pluginRoot, pluginData: codexPluginDataDir(userDir, spec.pluginRoot) }
        : {}),
    };
    let count = 0;
    const badGroups = new Set<string>();
    for (const raw of opened.raws) {
      const hook = codexHook(raw, ctx, order, badGroups);
      if (hook === undefined) continue;
      order++;
      count++;
      entries.push(hook);
    }
    sourceCompiled(sources, spec.file, count);
    if (count > 0) withHooks.set(spec.layer, [...(withHooks.get(spec.layer) ?? []), spec.file]);
  }

  for (const files of withHooks.values()) {
    const [json, toml] = files;
    if (json !== undefined && toml !== undefined)
      warnings.push({
        file: toml,
        path: '$.hooks',
        message: `loading hooks from both ${json} and ${toml}; prefer a single representation for this layer (Codex loads both)`,
        level: 'warning',
      });
  }
  for (const entry of entries) {
    if (entry.kind === 'unapproved') continue;
    if (feature?.on === false) {
      entry.enabled = false;
      entry.disabledReason = `[features] hooks = false in ${feature.file}`;
      continue;
    }
    const key = entry.origin.scope !== 'plugin' ? stateKeyOf(entry) : undefined;
    const why = key !== undefined ? state.get(key) : undefined;
    if (why !== undefined) {
      entry.enabled = false;
      entry.disabledReason = why;
    }
  }
  return agentConfig({
    dialect: 'codex',
    projectDir,
    home,
    sources,
    entries,
    issues,
    warnings,
    consent: admission.consent,
    project,
  });
}

// ---------------------------------------------------------------------------------------------
// Parsing: the file's text, then Codex's own shape check (what serde would refuse)

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
function shapeProblem(hooks: unknown, at: PropertyKey[]): { path: string; message: string } | undefined {
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

// ---------------------------------------------------------------------------------------------
// Codex's switches in config.toml

/** `[features] hooks` (or the deprecated `codex_hooks`), when the file sets it. */
function featureFlag(value: object): boolean | undefined {
  const features: unknown = Reflect.get(value, 'features');
  if (!isPlainObject(features)) return undefined;
  const hooks: unknown = Reflect.get(features, 'hooks');
  if (typeof hooks === 'boolean') return hooks;
  const old: unknown = Reflect.get(features, 'codex_hooks');
  return typeof old === 'boolean' ? old : undefined;
}

/** `[hooks.state."<key>"] enabled = false` entries: key → why the hook is off. */
function disabledStates(value: object, file: string): Array<[string, string]> {
  const hooks: unknown = Reflect.get(value, 'hooks');
  const states: unknown = isPlainObject(hooks) ? Reflect.get(hooks, 'state') : undefined;
  if (!isPlainObject(states)) return [];
  const out: Array<[string, string]> = [];
  for (const [key, s] of Object.entries(states))
    if (isPlainObject(s) && Reflect.get(s, 'enabled') === false)
      out.push([key, `enabled = false in [hooks.state."${key}"] of ${file}`]);
  return out;
}

/** Codex's key of a hook: `<absolute source file>:<event label>:<group index>:<handler index>`. */
function stateKeyOf(entry: { event: string; origin: { file?: string; path?: string } }): string | undefined {
  const m = /\[(\d+)\]\.hooks\[(\d+)\]$/.exec(entry.origin.path ?? '');
  if (m === null || entry.origin.file === undefined || !isCodexEvent(entry.event)) return undefined;
  return `${entry.origin.file}:${codexEventLabel(entry.event)}:${m[1]}:${m[2]}`;
}

// ---------------------------------------------------------------------------------------------
// Handlers

interface HandlerContext {
  spec: SourceSpec;
  projectDir: string;
  env: Readonly<Record<string, string>>;
  shell: string;
  warnings: ConfigIssue[];
  consent?: AgentCommandHook['consent'];
  pluginRoot?: string;
  pluginData?: string;
}

const commandHandler = z.object({
  type: z.literal('command'),
  command: z.string().refine((s) => !s.includes('\0'), 'command contains a NUL byte'),
  commandWindows: z.string().nullish(),
  timeout: z.number().int().nonnegative().nullish(),
  async: z.boolean().optional(),
  statusMessage: z.string().nullish(),
  failMode: z.enum(['open', 'closed']).optional(),
  keepChildren: z.boolean().optional(),
});
const COMMAND_FIELDS = new Set([
  'type',
  'command',
  'commandWindows',
  'timeout',
  'async',
  'statusMessage',
  'visibilityHint',
  'failMode',
  'keepChildren',
]);

/** One handler, or undefined (skipped with a warning, as Codex skips it). */
function codexHook(
  raw: RawHandler,
  ctx: HandlerContext,
  order: number,
  badGroups: Set<string>,
): AgentCommandHook | undefined {
  const file = ctx.spec.file;
  const warn = (message: string, at: PropertyKey[] = raw.at) =>
    ctx.warnings.push({ file, path: jsonPath(at), message });
  // Walked only for Codex events (see `otherKeys`).
  if (!isCodexEvent(raw.event)) return undefined;
  const type: unknown = Reflect.get(raw.handler, 'type');
  if (type === 'prompt' || type === 'agent' || type === 'mcp_tool') {
    warn(
      type === 'mcp_tool'
        ? "skipping mcp_tool hook: it calls a tool of the agent's own MCP servers, which hookwerk has no connection to (command hooks run)"
        : `skipping ${type} hook: ${type} hooks are not supported yet (as in Codex)`,
    );
    return undefined;
  }
  const matcher = matcherFor(raw, raw.event);
  const groupAt = raw.at.slice(0, -2);
  if (matcher.error !== undefined) {
    const key = jsonPath(groupAt);
    if (!badGroups.has(key)) {
      badGroups.add(key);
      warn(`${matcher.error}; Codex skips this matcher group`, [...groupAt, 'matcher']);
    }
    return undefined;
  }
  const h = readHandler(file, raw, commandHandler, COMMAND_FIELDS, ctx.warnings);
  if (h === undefined) return undefined;
  if (h.command.trim() === '') {
    warn('skipping empty hook command (as Codex)', [...raw.at, 'command']);
    return undefined;
  }
  const seconds = Math.max(1, h.timeout ?? CODEX_DEFAULT_TIMEOUT_S);
  let timeoutMs = seconds * 1000;
  if (timeoutMs > MAX_AGENT_TIMEOUT_MS) {
    // [G-FAIL-3] A warning, never an error: Codex runs such a file.
    ctx.warnings.push({
      file,
      path: jsonPath([...raw.at, 'timeout']),
      message: `timeout ${seconds} s is over hookwerk's 1 hour limit; 3600 s is used`,
      level: 'warning',
    });
    timeoutMs = MAX_AGENT_TIMEOUT_MS;
  }
  const hook: AgentCommandHook = {
    kind: 'process',
    dialect: 'codex',
    name: h.command,
    event: raw.event,
    origin: {
      source: `${file}#/${raw.at.map(String).join('/')}`,
      scope: ctx.spec.scope,
      file,
      path: jsonPath(raw.at),
    },
    matcher,
    timeoutMs,
    failMode: h.failMode ?? 'open',
    enabled: true,
    order,
    // Codex runs identical hooks as often as they are configured: no two keys are the same.
    dedupeKey: `codex\0${order}`,
    async: h.async === true,
    command: h.command,
    shell: ctx.shell,
    shellArgs: ['-lc'],
    env: ctx.env,
    cwd: ctx.projectDir,
    ...(ctx.consent !== undefined ? { consent: ctx.consent } : {}),
    ...(ctx.pluginRoot !== undefined && ctx.pluginData !== undefined
      ? { pluginRoot: ctx.pluginRoot, pluginData: ctx.pluginData }
      : {}),
  };
  if (h.statusMessage != null) hook.statusMessage = h.statusMessage;
  if (h.keepChildren === true) hook.keepChildren = true;
  return hook;
}

/** A matcher only where Codex reads one (tool events, SessionStart, Subagent*); ignored elsewhere. */
function matcherFor(raw: RawHandler, event: CodexEventName) {
  return codexMatchField(event) === undefined ? compileMatcher(undefined) : compileCodexMatcher(raw.matcher);
}

/**
 * Codex replaces `${PLUGIN_ROOT}`, `${CLAUDE_PLUGIN_ROOT}`, `${PLUGIN_DATA}`, `${CLAUDE_PLUGIN_DATA}`
 * in a plugin hook's command text before the shell sees it (the hook keeps its text as written).
 */
export function withPluginPlaceholders(command: string, root: string, data: string): string {
  return command
    .replaceAll(placeholder('PLUGIN_ROOT'), root)
    .replaceAll(placeholder('CLAUDE_PLUGIN_ROOT'), root)
    .replaceAll(placeholder('PLUGIN_DATA'), data)
    .replaceAll(placeholder('CLAUDE_PLUGIN_DATA'), data);
}

function placeholder(name: string): string {
  return `$\{${name}}`;
}

// ---------------------------------------------------------------------------------------------
// Plugin data

const MANIFEST = path.join('.codex-plugin', 'plugin.json');
const manifestName = z.object({ name: z.string().min(1) });

/**
 * A plugin folder's `PLUGIN_DATA`: `<CODEX_HOME>/plugins/data/<plugin name>` (the name from its
 * `.codex-plugin/plugin.json`, else the folder's name; characters outside `[A-Za-z0-9_.-]` made
 * `-`), created on demand when a hook runs.
 */
function codexPluginDataDir(userDir: string, pluginRoot: string): string {
  let name = path.basename(pluginRoot);
  const read = readSourceFile(path.join(pluginRoot, MANIFEST), 256 * 1024);
  if (read.kind === 'text') {
    const parsed = parseBoundedJson(read.text);
    const manifest = parsed.ok ? manifestName.safeParse(parsed.value) : undefined;
    if (manifest?.success) name = manifest.data.name;
  }
  return path.join(userDir, 'plugins', 'data', name.replace(/[^A-Za-z0-9_.-]/g, '-').replace(/^\.+/, '-'));
}
