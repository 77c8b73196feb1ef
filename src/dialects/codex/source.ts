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
import type { ConsentPolicy } from '../../consent/project-admission.ts';
import type { ProjectRead } from '../../consent/project-surface.ts';
import { pluginHooksFile } from '../../consent/project-surface.ts';
import { projectKey } from '../../consent/trust-store.ts';
import { inheritedEnv, lurusHookEnv, withoutInterpreterCaches } from '../../core/env-policy.ts';
import type { ConfigIssue } from '../../core/issues.ts';
import { isInside } from '../../core/real-path.ts';
import type { HookScope } from '../../registry/hook-definition.ts';
import { type AgentConfig, type AgentSourceSpec, sourceCompiled } from '../../sources/agent-config.ts';
import { startAgentLoad } from '../agent/load.ts';
import {
  type AgentLoadOut,
  consentOf,
  emptyLoadOut,
  loadedConfig,
  readAgentSources,
  turnOff,
} from '../agent/source-loop.ts';
import { codexHook, type HandlerContext } from './handler.ts';
import { codexOpen, shapeProblem } from './hook-shape.ts';
import { codexPluginDataDir } from './plugin-data.ts';
import { type CodexSwitches, readSwitches, stateKeyOf } from './switches.ts';

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
  const codex = opts.codex ?? {};
  const plugins = (codex.plugins ?? []).map((p) => projectKey(p));
  const start = startAgentLoad(opts, codex.env, plugins);
  const { projectDir, home, admission } = start;
  const parent = opts.env ?? process.env;
  const userDir = codexHome(home, parent);
  // A CODEX_HOME inside the project would make project files user files, run without consent.
  const userInProject = userDir !== path.join(home, '.codex') && isInside(projectDir, projectKey(userDir));
  const specs = codexSourceSpecs(projectDir, userDir, plugins).filter(
    (s) => !userInProject || s.scope !== 'user',
  );
  const out = emptyLoadOut();
  if (userInProject)
    out.warnings.push({
      file: userDir,
      path: '$',
      message: `CODEX_HOME is inside the project ${projectDir}: its files are not read as the user layer (they would run without consent)`,
    });
  const base = { projectDir, ...codexRun(codex, parent), warnings: out.warnings };
  const switches: CodexSwitches = { state: new Map() };
  const withHooks = new Map<string, string[]>();
  let ctx: HandlerContext | undefined;
  readAgentSources(specs, {
    dialect: 'codex',
    admission,
    out,
    open: (spec) => codexOpen(spec, out.warnings),
    opened: (spec, value) => {
      if (!pluginShapeFits(spec, value, out)) return false;
      if (spec.toml) readSwitches(spec.file, value, switches);
      ctx = {
        ...base,
        spec,
        badGroups: new Set(),
        ...consentOf(spec, admission),
        // The manifest is read once per plugin, not once per handler.
        ...(spec.pluginRoot !== undefined
          ? { pluginRoot: spec.pluginRoot, pluginData: codexPluginDataDir(userDir, spec.pluginRoot) }
          : {}),
      };
      return true;
    },
    hook: (raw, _spec, order) => (ctx !== undefined ? codexHook(raw, ctx, order) : undefined),
    compiled: (spec, count) => {
      if (count > 0) withHooks.set(spec.layer, [...(withHooks.get(spec.layer) ?? []), spec.file]);
    },
  });
  bothFormsWarnings(withHooks, out.warnings);
  turnOff(out.entries, (entry) => {
    if (switches.feature?.on === false) return `[features] hooks = false in ${switches.feature.file}`;
    const key = entry.origin.scope !== 'plugin' ? stateKeyOf(entry) : undefined;
    return key !== undefined ? switches.state.get(key) : undefined;
  });
  return loadedConfig('codex', start, out);
}

/** How Codex runs its hooks: the environment and the shell. */
function codexRun(codex: CodexOptions, parent: NodeJS.ProcessEnv) {
  return {
    // Codex's environment as it is: no CLAUDE_PROJECT_DIR, no variable of its own (codex-facts.md).
    env: Object.freeze(
      withoutInterpreterCaches(codex.env === 'allowlist' ? lurusHookEnv(parent) : inheritedEnv(parent)),
    ),
    // `$SHELL -lc` (a login shell), `/bin/sh` when SHELL is unset, as Codex's command runner.
    shell: parent.SHELL !== undefined && path.isAbsolute(parent.SHELL) ? parent.SHELL : '/bin/sh',
  };
}

/**
 * A plugin's `hooks.json` is read as plain JSON (the Claude Code dialect reads it too): a shape
 * Codex refuses skips it for Codex alone, with a warning, as a file of no hooks.
 */
function pluginShapeFits(spec: SourceSpec, value: object, out: AgentLoadOut): boolean {
  if (spec.pluginRoot === undefined) return true;
  const problem = shapeProblem(Reflect.get(value, 'hooks'), ['hooks']);
  if (problem === undefined) return true;
  out.warnings.push({ file: spec.file, ...problem });
  sourceCompiled(out.sources, spec.file, 0);
  return false;
}

/** Codex warns when one layer gives hooks in both its hooks.json and its config.toml (it loads both). */
function bothFormsWarnings(withHooks: ReadonlyMap<string, string[]>, warnings: ConfigIssue[]): void {
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
