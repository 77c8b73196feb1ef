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
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { Admission, ConsentPolicy } from '../../consent/project-admission.ts';
import { commandLineOf, type ProjectRead } from '../../consent/project-surface.ts';
import { type ConfigIssue, jsonPath } from '../../core/issues.ts';
import type { AgentCommandHook, AgentHook, GateEntry } from '../../registry/hook-definition.ts';
import type { CompiledMatcher } from '../../registry/matcher.ts';
import {
  type AgentConfig,
  type AgentSource,
  type AgentSourceSpec,
  agentConfig,
  agentTimeoutMs,
  handlerOrigin,
  openAgentSource,
  sourceCompiled,
} from '../../sources/agent-config.ts';
import { type RawHandler, readHandler, walkAgentHooks } from '../../sources/agent-settings.ts';
import { startAgentLoad } from '../agent/load.ts';
import { bashOrSh, withOwnEnv } from '../gemini/source.ts';
import { COPILOT_SETTINGS, repoHookFiles } from '../surfaces/copilot.ts';
import {
  type CopilotEventName,
  type CopilotForm,
  copilotEventKeys,
  copilotEventOfKey,
  copilotMatchField,
} from './events.ts';
import { compileAnchoredMatcher } from './matcher.ts';
import { vscodeToolName } from './payload.ts';

/** [docs] `timeoutSec` defaults to 30 s. */
const COPILOT_DEFAULT_TIMEOUT_S = 30;
const DEFAULT_POLICY_DIR = '/etc/github-copilot/policy.d';

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

const noNul = (what: string) => z.string().refine((s) => !s.includes('\0'), `${what} contains a NUL byte`);

const entrySchema = z.object({
  type: z.literal('command'),
  bash: noNul('bash').optional(),
  command: noNul('command').optional(),
  powershell: z.string().optional(),
  exec: noNul('exec').min(1, 'exec must not be empty').optional(),
  args: z.array(noNul('an argument')).optional(),
  cwd: noNul('cwd').optional(),
  env: z.record(z.string(), z.string()).optional(),
  timeoutSec: z.number().positive('timeoutSec must be a positive number of seconds').optional(),
  timeout: z.number().positive('timeout must be a positive number of seconds').optional(),
  matcher: z.string().optional(),
  failMode: z.enum(['open', 'closed']).optional(),
  keepChildren: z.boolean().optional(),
});
const ENTRY_FIELDS = new Set([
  'type',
  'bash',
  'command',
  'powershell',
  'exec',
  'args',
  'cwd',
  'env',
  'timeoutSec',
  'timeout',
  'matcher',
  'failMode',
  'keepChildren',
]);

interface SourceSpec extends AgentSourceSpec {
  /** `.claude/settings.json`: every hook gets the VS Code form. */
  claudeFile?: boolean;
  /** `hooks/*.json` files carry `version`; settings files do not. */
  hookFile: boolean;
}

/** The `*.json` files of a folder, in Copilot CLI's order: by name, **descending** (see `byNameDescending`). */
function jsonFiles(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
  return byNameDescending(names.map((n) => path.join(dir, n)));
}

/**
 * [A-COP-1] Copilot CLI 1.0.102 runs the files of a hook folder in descending code-point order of
 * their names (`c, b, a`; `zz, mm, aa, Bb`), whatever their modification or creation times
 * (`npm run differential`, cases `pre-order-*`; the two orders copilot-facts.md reports fit it too).
 */
function byNameDescending(files: readonly string[]): string[] {
  return [...files].sort((a, b) => {
    const x = path.basename(a);
    const y = path.basename(b);
    return x < y ? 1 : x > y ? -1 : 0;
  });
}

/** `$COPILOT_HOME`, else `<home>/.copilot` [A-COP-1]. */
function copilotHomeOf(home: string, env: NodeJS.ProcessEnv, given?: string): string {
  const chosen = given ?? env.COPILOT_HOME;
  return chosen !== undefined && chosen !== '' ? path.resolve(chosen) : path.join(home, '.copilot');
}

/** [A-COP-1] The sources in Copilot CLI's run order (see the file comment). */
function copilotSourceSpecs(
  projectDir: string,
  copilotHome: string,
  projectSources: readonly string[],
  opts: CopilotOptions,
): SourceSpec[] {
  const policy = jsonFiles(opts.policyDir ?? DEFAULT_POLICY_DIR).map(
    (file): SourceSpec => ({
      scope: 'managed',
      file,
      label: `policy hooks ${path.basename(file)}`,
      project: false,
      hookFile: true,
    }),
  );
  const user = jsonFiles(path.join(copilotHome, 'hooks')).map(
    (file): SourceSpec => ({
      scope: 'user',
      file,
      label: `user hooks ${path.basename(file)}`,
      project: false,
      hookFile: true,
    }),
  );
  // The repo's hook files as consent admits them.
  const repo = byNameDescending(repoHookFiles(projectDir, projectSources)).map(
    (file): SourceSpec => ({
      scope: 'project',
      file,
      label: `repo hooks ${path.relative(projectDir, file)}`,
      project: true,
      hookFile: true,
    }),
  );
  return [
    ...policy,
    ...user,
    {
      scope: 'user',
      file: path.join(copilotHome, 'settings.json'),
      label: 'user settings',
      project: false,
      hookFile: false,
    },
    ...repo,
    {
      scope: 'project',
      file: path.join(projectDir, '.claude', 'settings.json'),
      label: 'Claude project settings',
      project: true,
      claudeFile: true,
      hookFile: false,
    },
    {
      scope: 'project',
      file: path.join(projectDir, ...COPILOT_SETTINGS),
      label: 'repo settings',
      project: true,
      hookFile: false,
    },
  ];
}

/** [A-COP-1] Copilot's `hooks` map: flat entries, or one `{matcher, hooks: [...]}` level. */
const walkCopilotHooks: typeof walkAgentHooks = (file, map, base, warnings) =>
  walkAgentHooks(file, map, base, warnings, undefined, { flat: true }).map((raw) => {
    // Named by what it runs, as consent lists it, even in a file nothing of which is evaluated.
    const line = ['bash', 'command', 'exec'].map((key) => Reflect.get(raw.handler, key));
    const name = line.find((v): v is string => typeof v === 'string');
    return name !== undefined ? { ...raw, name } : raw;
  });

/** Reads every Copilot CLI source; see the file comment. */
export function loadCopilotConfig(opts: LoadCopilotOptions): AgentConfig {
  const copilot = opts.copilot ?? {};
  const { projectDir, home, project, admission, baseEnv } = startAgentLoad(opts, copilot.env);
  const copilotHome = copilotHomeOf(home, opts.env ?? process.env, copilot.copilotHome);
  // The repo's hook files as admitted: an approved one renamed away still runs its approved text.
  const specs = copilotSourceSpecs(projectDir, copilotHome, admission.surface.sourceFiles, copilot);
  // [A-COP-1] What Copilot CLI adds to every hook's environment (COPILOT_HOOK_DIR per file).
  baseEnv.COPILOT_PROJECT_DIR = projectDir;
  baseEnv.COPILOT_CLI = '1';
  const shell = bashOrSh();
  const warnings: ConfigIssue[] = [];
  const issues: ConfigIssue[] = [];
  const sources: AgentSource[] = [];
  const entries: GateEntry[] = [];
  let allOff: string | undefined;
  const named: NamedHandlers = { copilot: new Map(), claude: new Map() };
  let order = 0;

  const out = { sources, issues, warnings, entries };
  for (const spec of specs) {
    const opened = openAgentSource('copilot', spec, admission, out, undefined, walkCopilotHooks);
    if (opened.kind === 'done') continue;
    const { value, raws } = opened;
    const version: unknown = Reflect.get(value, 'version');
    if (spec.hookFile && version !== undefined && version !== 1) {
      issues.push({
        file: spec.file,
        path: '$.version',
        message: `version must be 1 (Copilot CLI: "Invalid hook config version"); the file is skipped`,
      });
      const source = sources.find((s) => s.file === spec.file);
      if (source !== undefined) source.state = 'invalid';
      continue;
    }
    // [A-COP-1] `disableAllHooks` in the repo's settings turns off repo and user hooks (not policy
    // hooks); in `$COPILOT_HOME/settings.json` Copilot CLI 1.0.102 does not honour it.
    if (
      spec.file === path.join(projectDir, ...COPILOT_SETTINGS) &&
      Reflect.get(value, 'disableAllHooks') === true
    )
      allOff = 'disableAllHooks is true in .github/copilot/settings.json';
    if (!spec.project && spec.scope === 'user' && Reflect.get(value, 'disableAllHooks') === true)
      warnings.push({
        file: spec.file,
        path: '$.disableAllHooks',
        message:
          'Copilot CLI 1.0.102 does not honour disableAllHooks here (only in .github/copilot/settings.json)',
        level: 'warning',
      });
    let count = 0;
    for (const raw of raws) {
      const hook = copilotHook(raw, spec, { projectDir, shell, baseEnv, warnings, admission }, order);
      if (hook === undefined) continue;
      if (hook.kind === 'process') hook.dedupeKey = onceAcrossFormats(named, hook, spec.claudeFile === true);
      order++;
      count++;
      entries.push(hook);
    }
    sourceCompiled(sources, spec.file, count);
  }
  if (allOff !== undefined)
    for (const entry of entries) {
      if (entry.kind === 'unapproved' || entry.origin.scope === 'managed') continue;
      entry.enabled = false;
      entry.disabledReason = allOff;
    }
  return agentConfig({
    dialect: 'copilot',
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
  spec: SourceSpec,
  ctx: HookContext,
  order: number,
): AgentHook | undefined {
  const warn = (message: string, at: PropertyKey[] = raw.at, level?: 'warning') =>
    ctx.warnings.push({
      file: spec.file,
      path: jsonPath(at),
      message,
      ...(level !== undefined ? { level } : {}),
    });
  const key = copilotEventOfKey(raw.event);
  if (key === undefined) {
    ctx.warnings.push({
      file: spec.file,
      path: jsonPath(['hooks', raw.event]),
      message: `"${raw.event}" is not a Copilot CLI event: its hooks never run (events: ${copilotEventKeys().join(', ')})`,
      level: 'warning',
    });
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
  const h = readHandler(spec.file, raw, entrySchema, ENTRY_FIELDS, ctx.warnings);
  if (h === undefined) return undefined;
  const shellCommand = h.bash ?? h.command;
  if (h.exec !== undefined && (shellCommand !== undefined || h.powershell !== undefined)) {
    warn(
      "specify either 'exec' (native executable) or 'bash'/'powershell'/'command' (shell), not both; skipped",
    );
    return undefined;
  }
  if (h.exec === undefined && shellCommand === undefined) {
    warn(
      h.powershell !== undefined
        ? 'only "powershell" is given: on Linux and macOS Copilot CLI runs "bash"; skipped'
        : 'no "bash", "command" or "exec" to run; skipped',
    );
    return undefined;
  }
  if (shellCommand !== undefined && shellCommand.trim() === '') {
    warn('the command is empty; skipped');
    return undefined;
  }
  if (h.args !== undefined && h.exec === undefined)
    warn('"args" only goes with "exec"; ignored', [...raw.at, 'args'], 'warning');
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
  const seconds = h.timeoutSec ?? h.timeout ?? COPILOT_DEFAULT_TIMEOUT_S;
  const timeoutMs = agentTimeoutMs(seconds * 1000);
  const command = shellCommand ?? h.exec ?? '';
  const hook: AgentCommandHook = {
    kind: 'process',
    dialect: 'copilot',
    name: h.exec !== undefined ? [h.exec, ...(h.args ?? [])].join(' ') : command,
    event: key.event,
    origin: handlerOrigin(spec.file, spec.scope, raw.at),
    matcher,
    timeoutMs,
    failMode: h.failMode ?? 'open',
    enabled: true,
    order,
    // Copilot CLI runs every entry it reads, copies included.
    dedupeKey: `copilot\0${spec.file}\0${jsonPath(raw.at)}`,
    async: false,
    command,
    shell: ctx.shell,
    env: Object.freeze(env),
    // [A-COP-1] The repo root, or `cwd` resolved against it; never the input's cwd.
    cwd: h.cwd !== undefined ? path.resolve(ctx.projectDir, h.cwd) : ctx.projectDir,
    ownCwd: true,
    ...(h.keepChildren === true ? { keepChildren: true } : {}),
    ...(spec.project && ctx.admission.consent.consent !== undefined
      ? { consent: ctx.admission.consent.consent }
      : {}),
  };
  if (h.exec !== undefined) {
    hook.exec = { program: h.exec, args: h.args ?? [] };
    hook.args = h.args ?? [];
  }
  forms.set(hook, { form, key: raw.event });
  return hook;
}

/**
 * [A-COP-1] The group's and the entry's matchers (both must match), anchored regexes on the
 * event's matched field — for the VS Code form, on the PascalCased tool name its hooks see
 * (`Bash`). On an event without a matched field Copilot CLI has nothing to test: all run.
 */
function matcherOf(
  event: CopilotEventName,
  form: CopilotForm,
  patterns: readonly string[],
  warn: (message: string) => void,
): CompiledMatcher {
  const field = copilotMatchField(event);
  if (patterns.length === 0) return compileAnchoredMatcher(undefined);
  const source = patterns.join(' & ');
  if (field === null) return { source, test: () => true };
  const compiled = patterns.map(compileAnchoredMatcher);
  for (const m of compiled) if (m.error !== undefined) warn(m.error);
  const shown = (v: string | undefined) =>
    v !== undefined && form === 'vscode' && field === 'toolName' ? vscodeToolName(v) : v;
  return { source, test: (value) => compiled.every((m) => m.test(shown(value))) };
}
