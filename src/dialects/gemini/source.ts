/**
 * Gemini CLI's hook files [G-SRC-1]: system, user and project `settings.json`, read leniently as
 * Claude Code's are [C-SRC-3]. Run order follows Gemini CLI's precedence (project, user, system);
 * the same hook (name and command) in several files runs once, the project's copy. Project
 * sources run under the project's approval [C-SRC-4].
 */

import path from 'node:path';
import { z } from 'zod';
import type { Admission, ConsentPolicy } from '../../consent/project-admission.ts';
import type { ProjectRead } from '../../consent/project-surface.ts';
import { isCodeInjectingEnv } from '../../core/env-policy.ts';
import { type ConfigIssue, jsonPath } from '../../core/issues.ts';
import type { AgentCommandHook } from '../../registry/hook-definition.ts';
import {
  type AgentConfig,
  type AgentSourceSpec,
  agentTimeoutMs,
  handlerOrigin,
} from '../../sources/agent-config.ts';
import { type RawHandler, readHandler } from '../../sources/agent-settings.ts';
import { commandText } from '../agent/handler-fields.ts';
import { startAgentLoad } from '../agent/load.ts';
import { bashOrSh, withOwnEnv } from '../agent/own-env.ts';
import {
  consentOf,
  emptyLoadOut,
  fileWarner,
  loadedConfig,
  readAgentSources,
  turnOff,
} from '../agent/source-loop.ts';
import { GEMINI_HOOKS_SETTING_KEYS, geminiIsToolEvent, isGeminiEvent } from './events.ts';
import { compileGeminiMatcher } from './matcher.ts';
import { geminiProjectTempDir } from './plans-dir.ts';

const GEMINI_DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_SYSTEM_SETTINGS = '/etc/gemini-cli/settings.json';

export interface GeminiOptions {
  /** System settings file (default `/etc/gemini-cli/settings.json`). */
  systemSettings?: string;
  /** (beyond) `allowlist`: command hooks get the Lurus allowlist environment instead of the engine's. */
  env?: 'inherit' | 'allowlist';
}

interface LoadGeminiOptions {
  projectDir: string;
  home?: string;
  env?: NodeJS.ProcessEnv;
  gemini?: GeminiOptions;
  consent?: ConsentPolicy;
  project?: ProjectRead;
}

const commandHandler = z.object({
  type: z.literal('command'),
  command: commandText,
  name: z.string().optional(),
  description: z.string().optional(),
  timeout: z.number().positive('timeout must be a positive number of milliseconds').optional(),
  env: z.record(z.string(), z.string()).optional(),
  failMode: z.enum(['open', 'closed']).optional(),
  keepChildren: z.boolean().optional(),
});
/** The fields it reads: any other is an unknown field (validate warns). */
const COMMAND_FIELDS: ReadonlySet<string> = new Set(Object.keys(commandHandler.shape));
/** Keys of the `hooks` object that are settings, not events. */
const SETTING_KEYS: ReadonlySet<string> = new Set(GEMINI_HOOKS_SETTING_KEYS);

type SourceSpec = AgentSourceSpec;

/** [G-SRC-1] The sources, in Gemini CLI's run order (project first). */
function geminiSourceSpecs(projectDir: string, home: string, opts: GeminiOptions = {}): SourceSpec[] {
  return [
    {
      scope: 'project',
      file: path.join(projectDir, '.gemini', 'settings.json'),
      label: 'project settings',
      project: true,
    },
    {
      scope: 'user',
      file: path.join(home, '.gemini', 'settings.json'),
      label: 'user settings',
      project: false,
    },
    {
      scope: 'system',
      file: opts.systemSettings ?? DEFAULT_SYSTEM_SETTINGS,
      label: 'system settings',
      project: false,
    },
  ];
}

/** Reads every Gemini CLI source; see the file comment. */
export function loadGeminiConfig(opts: LoadGeminiOptions): AgentConfig {
  const gemini = opts.gemini ?? {};
  const { projectDir, home, project, admission, baseEnv } = startAgentLoad(opts, gemini.env);
  const specs = geminiSourceSpecs(projectDir, home, gemini);
  baseEnv.GEMINI_PROJECT_DIR = projectDir;
  // [G-RUN-1] Found once per load, as Gemini CLI finds it once per session.
  const geminiTempDir = geminiProjectTempDir(home, projectDir);
  const out = emptyLoadOut();
  const switches: Switches = { allOff: undefined, disabledNames: new Set() };
  const ctx: HandlerContext = {
    projectDir,
    baseEnv,
    geminiTempDir,
    shell: bashOrSh(),
    admission,
    warnings: out.warnings,
    badMatchers: new Set(),
  };
  readAgentSources(specs, {
    dialect: 'gemini',
    admission,
    out,
    open: () => ({ settingKeys: SETTING_KEYS }),
    opened: (spec, value) => {
      readSwitches(value, spec.label, switches);
      return true;
    },
    hook: (raw, spec, order) => compileHandler(raw, spec, ctx, order),
  });
  turnOff(out.entries, (entry) =>
    switches.allOff !== undefined
      ? switches.allOff
      : switches.disabledNames.has(entry.name)
        ? 'listed in hooks.disabled'
        : undefined,
  );
  return loadedConfig('gemini', { projectDir, home, project, admission }, out);
}

/** What compiling one Gemini CLI handler needs from its load. */
interface HandlerContext {
  projectDir: string;
  baseEnv: Readonly<Record<string, string>>;
  geminiTempDir: string | undefined;
  shell: string;
  admission: Admission;
  warnings: ConfigIssue[];
  /** Matchers already reported (one warning per matcher, not per handler). */
  badMatchers: Set<string>;
}

/** One handler as a hook, or undefined (skipped, with a warning) [C-SRC-3, G-SRC-1]. */
function compileHandler(
  raw: RawHandler,
  spec: AgentSourceSpec,
  ctx: HandlerContext,
  order: number,
): AgentCommandHook | undefined {
  const warn = fileWarner(ctx.warnings, spec.file);
  const type: unknown = Reflect.get(raw.handler, 'type');
  if (type !== 'command') {
    warn(
      `handler type ${JSON.stringify(type ?? null)} is not supported (command is); this handler is skipped`,
      raw.at,
    );
    return undefined;
  }
  const h = readHandler(spec.file, raw, commandHandler, COMMAND_FIELDS, ctx.warnings);
  if (h === undefined) return undefined;
  if (!isGeminiEvent(raw.event))
    warn(`"${raw.event}" is not a Gemini CLI event: its hooks never run`, ['hooks', raw.event], 'warning');
  // [G-SRC-1] The same name and command runs once per event: as Gemini CLI's planner, among the
  // hooks whose matcher matched, the first in run order (the project's). The gate does that
  // with `dedupeKey`; dropping copies here would lose a copy whose matcher differs, and the
  // same hook configured for another event.
  const key = `${h.name ?? ''}\0${h.command}`;
  const matcher = matcherOf(raw, spec, ctx);
  const env = withOwnEnv(ctx.baseEnv, h.env, (name) =>
    warn(`env ${name} cannot be set (it would choose code for a loader or interpreter); ignored`, [
      ...raw.at,
      'env',
      name,
    ]),
  );
  return {
    kind: 'process',
    dialect: 'gemini',
    name: h.name ?? h.command,
    event: raw.event,
    origin: handlerOrigin(spec.file, spec.scope, raw.at),
    matcher,
    timeoutMs: agentTimeoutMs(h.timeout ?? GEMINI_DEFAULT_TIMEOUT_MS),
    failMode: h.failMode ?? 'open',
    enabled: true,
    order,
    dedupeKey: `command\0${key}`,
    async: false,
    command: h.command,
    shell: ctx.shell,
    env: Object.freeze(env),
    cwd: ctx.projectDir,
    // [G-RUN-1] A hook's own `env` may set GEMINI_PLANS_DIR, as in Gemini CLI (it is spread last).
    ...(Object.hasOwn(h.env ?? {}, 'GEMINI_PLANS_DIR') ? {} : { geminiTempDir: ctx.geminiTempDir }),
    ...(raw.sequential ? { sequential: true } : {}),
    ...(h.keepChildren === true ? { keepChildren: true } : {}),
    ...(h.env !== undefined ? { ownEnv: Object.keys(h.env).filter((n) => !isCodeInjectingEnv(n)) } : {}),
    ...consentOf(spec, ctx.admission),
  };
}

/**
 * The handler's matcher: on the tool name for tool events, the trigger for the others [G-SRC-1].
 * [L-MATCH-3, L-MATCH-4] A regex that cannot run matches only exactly; validate says so, once.
 */
function matcherOf(raw: RawHandler, spec: AgentSourceSpec, ctx: HandlerContext) {
  const tool = isGeminiEvent(raw.event) && geminiIsToolEvent(raw.event);
  const matcher = compileGeminiMatcher(raw.matcher, tool ? 'tool' : 'trigger');
  const matcherAt = jsonPath([...raw.at.slice(0, -2), 'matcher']);
  if (matcher.error !== undefined && !ctx.badMatchers.has(`${spec.file}\0${matcherAt}`)) {
    ctx.badMatchers.add(`${spec.file}\0${matcherAt}`);
    ctx.warnings.push({ file: spec.file, path: matcherAt, message: matcher.error });
  }
  return matcher;
}

/** Settings, not events: the switches that turn every hook or named hooks off. */
interface Switches {
  allOff: string | undefined;
  disabledNames: Set<string>;
}

/**
 * `hooksConfig.enabled` / `hooks.enabled` false turns every hook off. Gemini CLI reads
 * `hooksConfig.disabled` (where `/hooks disable` writes); `hooks.disabled` is its older place.
 * Both are unions over every settings file.
 */
function readSwitches(value: object, label: string, switches: Switches): void {
  const hooksValue: unknown = Reflect.get(value, 'hooks');
  const config: unknown = Reflect.get(value, 'hooksConfig');
  for (const [owner, at] of [
    [config, 'hooksConfig'],
    [hooksValue, 'hooks'],
  ] as const) {
    if (typeof owner !== 'object' || owner === null) continue;
    if (Reflect.get(owner, 'enabled') === false) switches.allOff ??= `${at}.enabled is false in ${label}`;
    const disabled: unknown = Reflect.get(owner, 'disabled');
    if (Array.isArray(disabled))
      for (const name of disabled) if (typeof name === 'string') switches.disabledNames.add(name);
  }
}
