/**
 * The loading loop for files in Claude Code's shape [C-SRC-1..4]: Claude Code's own settings and
 * hookwerk's policy files [R-POL-1] read them alike, so it lives in the base (issue 31); each
 * dialect names only its files (`specsOf`).
 */
import path from 'node:path';
import type { ConsentPolicy } from '../../consent/project-admission.ts';
import { type ProjectRead, pluginHooksFile } from '../../consent/project-surface.ts';
import { projectKey } from '../../consent/trust-store.ts';
import type { AgentDialectName, HookScope } from '../../registry/hook-definition.ts';
import type { AgentConfig, AgentSourceSpec } from '../../sources/agent-config.ts';
import { claudeHook, type HandlerContext, type RuleHookReader } from './claude-handler.ts';
import { claudePluginDataDir } from './claude-plugin-data.ts';
import { startAgentLoad } from './load.ts';
import { consentOf, emptyLoadOut, loadedConfig, readAgentSources, turnOff } from './source-loop.ts';

export interface ClaudeOptions {
  /** Plugin folders whose `hooks/hooks.json` is read [C-SRC-1]. */
  plugins?: readonly string[];
  /** Managed settings file (default `/etc/claude-code/managed-settings.json`). */
  managedSettings?: string;
  /** (beyond) `allowlist`: command hooks get the Lurus allowlist environment instead of the engine's. */
  env?: 'inherit' | 'allowlist';
}

export interface LoadClaudeOptions {
  projectDir: string;
  home?: string;
  /** Parent environment of command hooks; default `process.env`. */
  env?: NodeJS.ProcessEnv;
  claude?: ClaudeOptions;
  /** Omit for review mode (validate, trust): every current text is read. */
  consent?: ConsentPolicy;
  project?: ProjectRead;
}

export interface SourceSpec extends AgentSourceSpec {
  pluginRoot?: string;
}

const DEFAULT_MANAGED_SETTINGS = '/etc/claude-code/managed-settings.json';

/** [C-SRC-1] The sources in merge order. */
function claudeSourceSpecs(projectDir: string, home: string, opts: ClaudeOptions): SourceSpec[] {
  return [
    {
      scope: 'managed',
      file: opts.managedSettings ?? DEFAULT_MANAGED_SETTINGS,
      label: 'managed settings',
      project: false,
    },
    {
      scope: 'user',
      file: path.join(home, '.claude', 'settings.json'),
      label: 'user settings',
      project: false,
    },
    {
      scope: 'project',
      file: path.join(projectDir, '.claude', 'settings.json'),
      label: 'project settings',
      project: true,
    },
    {
      scope: 'local',
      file: path.join(projectDir, '.claude', 'settings.local.json'),
      label: 'local settings',
      project: true,
    },
    ...(opts.plugins ?? []).map((dir) => ({
      scope: 'plugin' as const,
      file: pluginHooksFile(dir),
      label: `plugin ${path.basename(dir)}`,
      project: true,
      pluginRoot: dir,
    })),
  ];
}

/** Reads every Claude Code source; see the file comment. */
export function loadClaudeConfig(opts: LoadClaudeOptions): AgentConfig {
  return loadClaudeShaped(opts, 'claude', claudeSourceSpecs).config;
}

/** A settings file in Claude Code's shape, as loaded: its scope and its (admitted) value. */
export interface ClaudeShapedSettings {
  scope: HookScope;
  file: string;
  value: object;
}

/**
 * Reads Claude-shaped files (Claude Code's own, or hookwerk's policy [R-POL-1]) with every rule of
 * §5: `specsOf` names the files in merge order. Returns the settings values too (the policy reads
 * its `include` from them) and the project as read, for a second load to share.
 */
export function loadClaudeShaped(
  opts: LoadClaudeOptions,
  dialect: AgentDialectName,
  specsOf: (projectDir: string, home: string, claude: ClaudeOptions) => SourceSpec[],
  ruleHook?: RuleHookReader,
): { config: AgentConfig; settings: ClaudeShapedSettings[]; project: ProjectRead } {
  const claude = opts.claude ?? {};
  const plugins = (claude.plugins ?? []).map((p) => projectKey(p));
  const start = startAgentLoad(opts, claude.env, plugins);
  const { projectDir, home, project, admission, baseEnv } = start;
  const specs = specsOf(projectDir, home, { ...claude, plugins });
  Object.freeze(baseEnv);
  const out = emptyLoadOut();
  const settings: ClaudeShapedSettings[] = [];
  let ctx: HandlerContext | undefined;
  readAgentSources(specs, {
    dialect,
    admission,
    out,
    opened: (spec, value) => {
      settings.push({ scope: spec.scope, file: spec.file, value });
      ctx = {
        file: spec.file,
        scope: spec.scope,
        projectDir,
        home,
        env: baseEnv,
        parentEnv: opts.env ?? process.env,
        warnings: out.warnings,
        ...(ruleHook !== undefined ? { ruleHook } : {}),
        ...consentOf(spec, admission),
        // The manifest is read once per plugin, not once per handler.
        ...(spec.pluginRoot !== undefined
          ? { pluginRoot: spec.pluginRoot, pluginData: claudePluginDataDir(home, spec.pluginRoot) }
          : {}),
      };
      return true;
    },
    hook: (raw, _spec, order) => (ctx !== undefined ? claudeHook(raw, ctx, order) : undefined),
  });
  const disabled = switches(settings);
  turnOff(out.entries, (entry) =>
    disabled.keepManaged && entry.origin.scope === 'managed' ? undefined : disabled.reason,
  );
  const config = loadedConfig(dialect, start, out);
  return { config, settings, project };
}

/**
 * [C-SRC-2] `disableAllHooks: true` in managed settings turns every hook off; in user, project or
 * local settings (the last that sets it wins) every hook but managed ones. `allowManagedHooksOnly`
 * in managed settings lets only managed hooks run. Only admitted text counts: an unapproved
 * project cannot switch the user's hooks off.
 */
function switches(settings: ReadonlyArray<{ scope: HookScope; value: object }>): {
  reason?: string;
  keepManaged: boolean;
} {
  const managed = settings.find((s) => s.scope === 'managed')?.value;
  if (managed !== undefined && Reflect.get(managed, 'disableAllHooks') === true)
    return { reason: 'disableAllHooks is true in managed settings', keepManaged: false };
  if (managed !== undefined && Reflect.get(managed, 'allowManagedHooksOnly') === true)
    return { reason: 'allowManagedHooksOnly is true in managed settings', keepManaged: true };
  let last: { scope: HookScope; on: boolean } | undefined;
  for (const s of settings) {
    if (s.scope !== 'user' && s.scope !== 'project' && s.scope !== 'local') continue;
    const value: unknown = Reflect.get(s.value, 'disableAllHooks');
    if (typeof value === 'boolean') last = { scope: s.scope, on: value };
  }
  if (last?.on) return { reason: `disableAllHooks is true in ${last.scope} settings`, keepManaged: true };
  return { keepManaged: true };
}
