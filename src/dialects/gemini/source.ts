/**
 * Gemini CLI's hook files [G-SRC-1]: system, user and project `settings.json`, read leniently as
 * Claude Code's are [C-SRC-3]. Run order follows Gemini CLI's precedence (project, user, system);
 * the same hook (name and command) in several files runs once, the project's copy. Project
 * sources run under the project's approval [C-SRC-4].
 */
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { admitProject, type ConsentPolicy } from '../../consent/project-admission.ts';
import type { ProjectRead } from '../../consent/project-surface.ts';
import { projectKey } from '../../consent/trust-store.ts';
import {
  inheritedEnv,
  isCodeInjectingEnv,
  lurusHookEnv,
  withoutInterpreterCaches,
} from '../../core/env-policy.ts';
import { homeFolder } from '../../core/home.ts';
import { type ConfigIssue, jsonPath } from '../../core/issues.ts';
import type { AgentCommandHook, GateEntry } from '../../registry/hook-definition.ts';
import { compileGeminiMatcher } from '../../registry/matcher.ts';
import {
  type AgentConfig,
  type AgentSource,
  type AgentSourceSpec,
  agentConfig,
  MAX_AGENT_TIMEOUT_MS,
  openAgentSource,
  sourceCompiled,
} from '../../sources/agent-config.ts';
import { readHandler } from '../../sources/agent-settings.ts';
import { readGateProject } from '../gate-project.ts';
import { GEMINI_HOOKS_SETTING_KEYS, geminiIsToolEvent, isGeminiEvent } from './events.ts';
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
  command: z
    .string()
    .min(1, 'command must not be empty')
    .refine((s) => !s.includes('\0'), 'command contains a NUL byte'),
  name: z.string().optional(),
  description: z.string().optional(),
  timeout: z.number().positive('timeout must be a positive number of milliseconds').optional(),
  env: z.record(z.string(), z.string()).optional(),
  failMode: z.enum(['open', 'closed']).optional(),
  keepChildren: z.boolean().optional(),
});
const COMMAND_FIELDS = new Set([
  'type',
  'command',
  'name',
  'description',
  'timeout',
  'env',
  'failMode',
  'keepChildren',
]);
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
  const projectDir = projectKey(opts.projectDir);
  // [L-TRUST-12] The account's home, never `/`; none stops here with a one-line error.
  const home = homeFolder(opts.home);
  const gemini = opts.gemini ?? {};
  const specs = geminiSourceSpecs(projectDir, home, gemini);
  const project = opts.project ?? readGateProject(projectDir, home);
  const admission = admitProject(opts.consent, home, project.surface, project.reads);
  const parent = opts.env ?? process.env;
  const baseEnv = withoutInterpreterCaches(
    gemini.env === 'allowlist' ? lurusHookEnv(parent) : inheritedEnv(parent),
  );
  baseEnv.CLAUDE_PROJECT_DIR = projectDir;
  baseEnv.GEMINI_PROJECT_DIR = projectDir;
  // [G-RUN-1] Found once per load, as Gemini CLI finds it once per session.
  const geminiTempDir = geminiProjectTempDir(home, projectDir);
  const shell = bashOrSh();
  const warnings: ConfigIssue[] = [];
  const issues: ConfigIssue[] = [];
  const sources: AgentSource[] = [];
  const entries: GateEntry[] = [];
  const badMatchers = new Set<string>();
  let allOff: string | undefined;
  const disabledNames = new Set<string>();
  let order = 0;

  const out = { sources, issues, warnings, entries };
  for (const spec of specs) {
    const opened = openAgentSource('gemini', spec, admission, out, SETTING_KEYS);
    if (opened.kind === 'done') continue;
    const { value, raws } = opened;
    const hooksValue: unknown = Reflect.get(value, 'hooks');
    // Settings, not events: `hooksConfig.enabled`, `hooks.enabled`, `hooksConfig.disabled` and
    // `hooks.disabled` (names).
    const config: unknown = Reflect.get(value, 'hooksConfig');
    for (const [owner, at] of [
      [config, 'hooksConfig'],
      [hooksValue, 'hooks'],
    ] as const) {
      if (typeof owner !== 'object' || owner === null) continue;
      if (Reflect.get(owner, 'enabled') === false) allOff ??= `${at}.enabled is false in ${spec.label}`;
    }
    // Gemini CLI reads `hooksConfig.disabled` (where `/hooks disable` writes); `hooks.disabled` is
    // its older place. Both are unions over every settings file.
    for (const owner of [config, hooksValue]) {
      const disabled: unknown =
        typeof owner === 'object' && owner !== null ? Reflect.get(owner, 'disabled') : undefined;
      if (Array.isArray(disabled))
        for (const name of disabled) if (typeof name === 'string') disabledNames.add(name);
    }

    let count = 0;
    for (const raw of raws) {
      const warn = (message: string, at: PropertyKey[] = raw.at) =>
        warnings.push({ file: spec.file, path: jsonPath(at), message });
      const type: unknown = Reflect.get(raw.handler, 'type');
      if (type !== 'command') {
        warn(
          `handler type ${JSON.stringify(type ?? null)} is not supported (command is); this handler is skipped`,
        );
        continue;
      }
      const h = readHandler(spec.file, raw, commandHandler, COMMAND_FIELDS, warnings);
      if (h === undefined) continue;
      if (!isGeminiEvent(raw.event)) {
        warnings.push({
          file: spec.file,
          path: jsonPath(['hooks', raw.event]),
          message: `"${raw.event}" is not a Gemini CLI event: its hooks never run`,
          level: 'warning',
        });
      }
      // [G-SRC-1] The same name and command runs once per event: as Gemini CLI's planner, among the
      // hooks whose matcher matched, the first in run order (the project's). The gate does that
      // with `dedupeKey`; dropping copies here would lose a copy whose matcher differs, and the
      // same hook configured for another event.
      const key = `${h.name ?? ''}\0${h.command}`;
      const tool = isGeminiEvent(raw.event) && geminiIsToolEvent(raw.event);
      const matcher = compileGeminiMatcher(raw.matcher, tool ? 'tool' : 'trigger');
      // [L-MATCH-3, L-MATCH-4] A regex that cannot run matches only exactly; validate says so.
      const matcherAt = jsonPath([...raw.at.slice(0, -2), 'matcher']);
      if (matcher.error !== undefined && !badMatchers.has(`${spec.file}\0${matcherAt}`)) {
        badMatchers.add(`${spec.file}\0${matcherAt}`);
        warnings.push({ file: spec.file, path: matcherAt, message: matcher.error });
      }
      const env = withOwnEnv(baseEnv, h.env, (name) =>
        warn(`env ${name} cannot be set (it would choose code for a loader or interpreter); ignored`, [
          ...raw.at,
          'env',
          name,
        ]),
      );
      const hook: AgentCommandHook = {
        kind: 'process',
        dialect: 'gemini',
        name: h.name ?? h.command,
        event: raw.event,
        origin: {
          source: `${spec.file}#/${raw.at.map(String).join('/')}`,
          scope: spec.scope,
          file: spec.file,
          path: jsonPath(raw.at),
        },
        matcher,
        timeoutMs: Math.min(
          MAX_AGENT_TIMEOUT_MS,
          Math.max(1, Math.round(h.timeout ?? GEMINI_DEFAULT_TIMEOUT_MS)),
        ),
        failMode: h.failMode ?? 'open',
        enabled: true,
        order: order++,
        dedupeKey: `command\0${key}`,
        async: false,
        command: h.command,
        shell,
        env: Object.freeze(env),
        cwd: projectDir,
        // [G-RUN-1] A hook's own `env` may set GEMINI_PLANS_DIR, as in Gemini CLI (it is spread last).
        ...(Object.hasOwn(h.env ?? {}, 'GEMINI_PLANS_DIR') ? {} : { geminiTempDir }),
        ...(raw.sequential ? { sequential: true } : {}),
        ...(h.keepChildren === true ? { keepChildren: true } : {}),
        ...(h.env !== undefined ? { ownEnv: Object.keys(h.env).filter((n) => !isCodeInjectingEnv(n)) } : {}),
        ...(spec.project && admission.consent.consent !== undefined
          ? { consent: admission.consent.consent }
          : {}),
      };
      entries.push(hook);
      count++;
    }
    sourceCompiled(sources, spec.file, count);
  }

  for (const entry of entries) {
    if (entry.kind === 'unapproved') continue;
    if (allOff !== undefined) {
      entry.enabled = false;
      entry.disabledReason = allOff;
    } else if (disabledNames.has(entry.name)) {
      entry.enabled = false;
      entry.disabledReason = `listed in hooks.disabled`;
    }
  }
  return agentConfig({
    dialect: 'gemini',
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

/**
 * `base` with a hook's own `env` laid over it, except the names that would choose code for a loader
 * or interpreter (each one passed to `refused`). Also Copilot CLI's entries' `env` [A-COP-1].
 */
export function withOwnEnv(
  base: Readonly<Record<string, string>>,
  own: Readonly<Record<string, string>> | undefined,
  refused: (name: string) => void,
): Record<string, string> {
  const env: Record<string, string> = { ...base };
  for (const [name, value] of Object.entries(own ?? {})) {
    if (isCodeInjectingEnv(name)) refused(name);
    else env[name] = value;
  }
  return env;
}

/** Gemini CLI (and Copilot CLI) run commands with `bash -c` on Unix; `/bin/sh` where there is no bash. */
export function bashOrSh(): string {
  for (const candidate of ['/bin/bash', '/usr/bin/bash']) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // next
    }
  }
  return '/bin/sh';
}
