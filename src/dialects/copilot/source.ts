/**
 * GitHub Copilot CLI's hook files [A-COP-1], read as Copilot CLI 1.0.102 reads them
 * (research/copilot-facts.md §1), in its run order:
 * 1. the policy folder (`copilot.policyDir`, default `/etc/github-copilot/policy.d`, `*.json` in
 *    the same order as the other folders) — no setting disables it (its place and order are
 *    hookwerk's choice: a root-owned `/etc` could not be observed);
 * 2. `$COPILOT_HOME/hooks/*.json` (default `~/.copilot`), by file name descending;
 * 3. inline `hooks` in `$COPILOT_HOME/settings.json`;
 * 4. `.github/hooks/*.json`, by file name descending (`c.json` before `a.json`), as 1.0.102 runs them;
 * 5. `.claude/settings.json` (Claude's shape; its hooks get the VS Code input form);
 * 6. inline `hooks` in `.github/copilot/settings.json`.
 * Entries are flat (`{type, bash | command | exec + args, powershell, cwd, env, timeoutSec,
 * matcher}`) or one `{matcher, hooks: [...]}` level. Lenient as Copilot CLI: a bad entry is
 * skipped with a warning, never the file; a file that is not JSON, or whose `version` is not 1,
 * is skipped whole. Project sources run under the project's approval [C-SRC-4].
 */
import path from 'node:path';
import type { Admission, ConsentPolicy } from '../../consent/project-admission.ts';
import { commandLineOf, type ProjectRead } from '../../consent/project-surface.ts';
import { type ConfigIssue, jsonPath } from '../../core/issues.ts';
import type { AgentCommandHook, AgentHook } from '../../registry/hook-definition.ts';
import { type AgentConfig, agentTimeoutMs, handlerOrigin } from '../../sources/agent-config.ts';
import { type RawHandler, readHandler, walkAgentHooks } from '../../sources/agent-settings.ts';
import { startAgentLoad } from '../agent/load.ts';
import { bashOrSh, withOwnEnv } from '../agent/own-env.ts';
import {
  type AgentLoadOut,
  consentOf,
  emptyLoadOut,
  fileWarner,
  loadedConfig,
  readAgentSources,
  turnOff,
} from '../agent/source-loop.ts';
import { COPILOT_SETTINGS } from '../surfaces/copilot.ts';
import { type CopilotEventName, type CopilotForm, copilotEventKeys, copilotEventOfKey } from './events.ts';
import { bareLineOf, ENTRY_FIELDS, entrySchema, matcherOf, runsOf, type Warn } from './hook-entry.ts';
import { type CopilotSourceSpec, copilotHomeOf, copilotSourceSpecs } from './source-specs.ts';

/** [docs] `timeoutSec` defaults to 30 s. */
const COPILOT_DEFAULT_TIMEOUT_S = 30;

export interface CopilotOptions {
  /** The machine's policy hook folder (default `/etc/github-copilot/policy.d`): every `*.json` in it. */
  policyDir?: string;
  /** Copilot's home (default `$COPILOT_HOME`, else `<home>/.copilot`). */
  copilotHome?: string;
  /** (beyond) `allowlist`: command hooks get the Lurus allowlist environment instead of the engine's. */
  env?: 'inherit' | 'allowlist';
}

interface LoadCopilotOptions {
  projectDir: string;
  home?: string;
  env?: NodeJS.ProcessEnv;
  copilot?: CopilotOptions;
  consent?: ConsentPolicy;
  project?: ProjectRead;
}

/** What a hook's key made of it: the input form it gets and the key as written (`hook_event_name`). */
interface CopilotHookForm {
  form: CopilotForm;
  key: string;
}

const forms = new WeakMap<AgentHook, CopilotHookForm>();

/** The input form of a Copilot hook (Copilot's own unless its key or file said otherwise). */
export function copilotHookForm(hook: AgentHook): CopilotHookForm | undefined {
  return forms.get(hook);
}

/** [A-COP-1] Copilot's `hooks` map: flat entries, or one `{matcher, hooks: [...]}` level. */
const walkCopilotHooks: typeof walkAgentHooks = (file, map, base, warnings) =>
  walkAgentHooks(file, map, base, warnings, undefined, { flat: true }).map((raw) => {
    // Named by what it runs, as consent lists it, even in a file nothing of which is evaluated.
    const name = bareLineOf(raw.handler);
    return name !== undefined ? { ...raw, name } : raw;
  });

/** Reads every Copilot CLI source; see the file comment. */
export function loadCopilotConfig(opts: LoadCopilotOptions): AgentConfig {
  const copilot = opts.copilot ?? {};
  const start = startAgentLoad(opts, copilot.env);
  const { projectDir, home, admission, baseEnv } = start;
  const copilotHome = copilotHomeOf(home, opts.env ?? process.env, copilot.copilotHome);
  // The repo's hook files as admitted: an approved one renamed away still runs its approved text.
  const files = admission.surface.sourceFiles;
  const specs = copilotSourceSpecs(projectDir, copilotHome, files, copilot.policyDir);
  // [A-COP-1] What Copilot CLI adds to every hook's environment (COPILOT_HOOK_DIR per file).
  baseEnv.COPILOT_PROJECT_DIR = projectDir;
  baseEnv.COPILOT_CLI = '1';
  const out = emptyLoadOut();
  const ctx: HookContext = { projectDir, shell: bashOrSh(), baseEnv, warnings: out.warnings, admission };
  const named: NamedHandlers = { copilot: new Map(), claude: new Map() };
  let allOff: string | undefined;
  readAgentSources(specs, {
    dialect: 'copilot',
    admission,
    out,
    open: () => ({ walk: walkCopilotHooks }),
    opened: (spec, value) => {
      if (!versionReadable(spec, value, out)) return false;
      allOff = switchedOff(spec, value, projectDir, out.warnings) ?? allOff;
      return true;
    },
    hook: (raw, spec, order) => {
      const hook = copilotHook(raw, spec, ctx, order);
      if (hook !== undefined) hook.dedupeKey = onceAcrossFormats(named, hook, spec.claudeFile === true);
      return hook;
    },
  });
  turnOff(out.entries, (entry) => (entry.origin.scope === 'managed' ? undefined : allOff));
  return loadedConfig('copilot', start, out);
}

/** A hook file whose `version` is not 1 is skipped whole, as Copilot CLI refuses it. */
function versionReadable(spec: CopilotSourceSpec, value: object, out: AgentLoadOut): boolean {
  const version: unknown = Reflect.get(value, 'version');
  if (!spec.hookFile || version === undefined || version === 1) return true;
  out.issues.push({
    file: spec.file,
    path: '$.version',
    message: `version must be 1 (Copilot CLI: "Invalid hook config version"); the file is skipped`,
  });
  const source = out.sources.find((s) => s.file === spec.file);
  if (source !== undefined) source.state = 'invalid';
  return false;
}

/**
 * [A-COP-1] `disableAllHooks` in the repo's settings turns off repo and user hooks (not policy
 * hooks): the reason, when this file says so. In `$COPILOT_HOME/settings.json` Copilot CLI
 * 1.0.102 does not honour it (a warning says so).
 */
function switchedOff(
  spec: CopilotSourceSpec,
  value: object,
  projectDir: string,
  warnings: ConfigIssue[],
): string | undefined {
  if (Reflect.get(value, 'disableAllHooks') !== true) return undefined;
  if (spec.file === path.join(projectDir, ...COPILOT_SETTINGS))
    return 'disableAllHooks is true in .github/copilot/settings.json';
  if (!spec.project && spec.scope === 'user')
    warnings.push({
      file: spec.file,
      path: '$.disableAllHooks',
      message:
        'Copilot CLI 1.0.102 does not honour disableAllHooks here (only in .github/copilot/settings.json)',
      level: 'warning',
    });
  return undefined;
}

/** The handlers already read, by event and command line, from Copilot's files and from Claude's. */
interface NamedHandlers {
  copilot: Map<string, string>;
  claude: Map<string, string>;
}

/**
 * [A-ALL-1] Copilot CLI reads `.claude/settings.json` besides its own files, so a tool installed
 * into both would fire twice: a handler that a Copilot file and the Claude file both name (same
 * event, same command and arguments) takes the key of the first one read, and runs once; `explain`
 * marks the other a duplicate. Copies within Copilot's own files still run, as Copilot runs them.
 */
function onceAcrossFormats(named: NamedHandlers, hook: AgentCommandHook, claudeFile: boolean): string {
  const line = `${hook.event}\0${commandLineOf(hook.command, hook.exec?.args ?? [])}`;
  const other = (claudeFile ? named.copilot : named.claude).get(line);
  if (other !== undefined) return other;
  const own = claudeFile ? named.claude : named.copilot;
  if (!own.has(line)) own.set(line, hook.dedupeKey);
  return hook.dedupeKey;
}

interface HookContext {
  projectDir: string;
  shell: string;
  baseEnv: Readonly<Record<string, string>>;
  warnings: ConfigIssue[];
  admission: Admission;
}

/** One entry, validated, or `undefined` (skipped with a warning) [A-COP-1]. */
function copilotHook(
  raw: RawHandler,
  spec: CopilotSourceSpec,
  ctx: HookContext,
  order: number,
): AgentCommandHook | undefined {
  const fileWarn = fileWarner(ctx.warnings, spec.file);
  const warn: Warn = (message, at = raw.at, level) => fileWarn(message, at, level);
  const key = eventKeyOf(raw, warn);
  if (key === undefined) return undefined;
  const h = readHandler(spec.file, raw, entrySchema, ENTRY_FIELDS, ctx.warnings);
  if (h === undefined) return undefined;
  const runs = runsOf(h, raw, warn);
  if (runs === undefined) return undefined;
  // [A-COP-1] `matcher: ""` is rejected by Copilot CLI ("matcher cannot be empty"): never runs.
  const matchers = [raw.matcher, h.matcher].filter((m): m is string => m !== undefined);
  if (matchers.includes('')) {
    warn('matcher cannot be empty (Copilot CLI never runs this hook); skipped');
    return undefined;
  }
  const form: CopilotForm = spec.claudeFile === true ? 'vscode' : key.form;
  const matcher = matcherOf(key.event, form, matchers, (m) => warn(m, [...raw.at, 'matcher']));
  // [A-COP-1] Copilot CLI passes `env` values literally (no `$VAR` expansion).
  const env = withOwnEnv({ ...ctx.baseEnv, COPILOT_HOOK_DIR: path.dirname(spec.file) }, h.env, (name) =>
    warn(`env ${name} cannot be set (it would choose code for a loader or interpreter); ignored`, [
      ...raw.at,
      'env',
      name,
    ]),
  );
  const hook: AgentCommandHook = {
    kind: 'process',
    dialect: 'copilot',
    name: runs.exec !== undefined ? [runs.exec.program, ...runs.exec.args].join(' ') : runs.command,
    event: key.event,
    origin: handlerOrigin(spec.file, spec.scope, raw.at),
    matcher,
    timeoutMs: agentTimeoutMs((h.timeoutSec ?? h.timeout ?? COPILOT_DEFAULT_TIMEOUT_S) * 1000),
    failMode: h.failMode ?? 'open',
    enabled: true,
    order,
    // Copilot CLI runs every entry it reads, copies included.
    dedupeKey: `copilot\0${spec.file}\0${jsonPath(raw.at)}`,
    async: false,
    command: runs.command,
    shell: ctx.shell,
    env: Object.freeze(env),
    // [A-COP-1] The repo root, or `cwd` resolved against it; never the input's cwd.
    cwd: h.cwd !== undefined ? path.resolve(ctx.projectDir, h.cwd) : ctx.projectDir,
    ownCwd: true,
    ...(h.keepChildren === true ? { keepChildren: true } : {}),
    ...consentOf(spec, ctx.admission),
  };
  if (runs.exec !== undefined) {
    hook.exec = runs.exec;
    hook.args = runs.exec.args;
  }
  forms.set(hook, { form, key: raw.event });
  return hook;
}

/** The entry's event key, when it is one Copilot CLI runs and its type one hookwerk runs. */
function eventKeyOf(raw: RawHandler, warn: Warn): { event: CopilotEventName; form: CopilotForm } | undefined {
  const key = copilotEventOfKey(raw.event);
  if (key === undefined) {
    warn(
      `"${raw.event}" is not a Copilot CLI event: its hooks never run (events: ${copilotEventKeys().join(', ')})`,
      ['hooks', raw.event],
      'warning',
    );
    return undefined;
  }
  const type: unknown = Reflect.get(raw.handler, 'type');
  if (type === 'prompt' || type === 'http') {
    // [G-FAIL-3] A warning: Copilot CLI runs these; only hookwerk's runs of the file leave them out.
    warn(
      type === 'prompt'
        ? 'type "prompt" (sessionStart text for interactive sessions) is not run by hookwerk; skipped'
        : 'type "http" is not supported by hookwerk\'s copilot dialect yet; skipped',
      raw.at,
      'warning',
    );
    return undefined;
  }
  return key;
}
