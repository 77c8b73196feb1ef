/**
 * hookwerk's policy [R-POL-1]: `~/.hookwerk/policy.json` (the user's, trusted) and
 * `<project>/.hookwerk/policy.json` (the project's, run under its approval; `.hookwerk/policy/`
 * is pinned whole), in Claude Code's settings shape and read with every rule of §5. A policy
 * file's `"include": ["claude"]` also runs the project's and user's Claude Code files (their own
 * sources, the same one approval) — except when the agent asking is Claude Code, which runs them
 * itself.
 *
 * [T-MGD-1] Before both, for every user: the managed policy `/etc/hookwerk/policy.json`
 * (`managed-policy.ts`). Its hooks, rules and guards run whatever the other files say (they only
 * add: guards.ts, permissions.ts, `disableAllHooks` keeps managed hooks); with `"managedOnly":
 * true` the other files are not read at all.
 *
 * [G-FAIL-1] Unlike the agents' files, a policy file is JSONC and strict (`strict.ts`): one that
 * exists but cannot be used runs nothing at all — not its hooks, not its `include` — and is listed
 * as `unusable`, which makes the gate deny instead of silently letting every call through.
 */
import path from 'node:path';
import type { ProjectRead } from '../../consent/project-surface.ts';

import type { ConfigIssue } from '../../core/issues.ts';
import { parseJsoncText } from '../../core/json-text.ts';
import { tildePath } from '../../core/tilde-path.ts';
import type { AgentConfig, AgentSource, UnusableLine } from '../../sources/agent-config.ts';
import { agentConfig } from '../../sources/agent-config.ts';
import {
  type ClaudeOptions,
  type ClaudeShapedSettings,
  loadClaudeConfig,
  loadClaudeShaped,
  type SourceSpec,
} from '../agent/claude-shaped.ts';
import type { GateLoadBase } from '../agent/gate-dialect.ts';
import { fleetPolicyFile, MANAGED_POLICY_FILE, policyFile } from '../surfaces/policy-files.ts';
import { guardMergeWarnings, guardsLayer } from './guards.ts';
import { managedOnly, managedOnlyConfig } from './managed-only.ts';
import { managedPolicyRefusal } from './managed-policy.ts';
import { permissionsLayer } from './permissions.ts';
import { policyRuleCount } from './rule-count.ts';
import { policyRuleHook } from './rule-handler.ts';
import { policyProblems } from './strict.ts';

export interface PolicyOptions {
  /** The agent whose call is decided (`hookwerk hook --agent`): `claude` never includes its own files. */
  agent?: string;
  /** Options of the Claude Code files an `include` runs. */
  claude?: ClaudeOptions;
  /**
   * [G-TEST-1] These files are the policy, instead of the user's and the project's (`hookwerk
   * test --policy FILE`: a file under edit). Each is read as the user's file is — trusted, so it
   * runs without `hookwerk trust` and without being installed — and as strictly (JSONC, G-FAIL-1).
   * What its `include` reads is still the project's, under the project's approval.
   */
  files?: readonly string[];
  /**
   * [T-MGD-3] The managed policy alone, without its `include` (the system daemon's layer): the
   * files an include names are the user's and the project's, and would run as the daemon's
   * account instead of the user's. `files` is then ignored.
   */
  managedLayer?: boolean;
}

/**
 * [G-LIB-3] The system temp folder of the agent's environment (its sub-paths are no one's
 * project): `TMPDIR` (else `TMP`, `TEMP`) when absolute, else `/tmp`.
 */
function tmpDirOf(env: NodeJS.ProcessEnv): string {
  const given = [env.TMPDIR, env.TMP, env.TEMP].find((t) => t !== undefined && path.isAbsolute(t));
  return given ?? '/tmp';
}

/** [G-FAIL-1] The agent's environment may ask for the old, open behaviour, by name. */
export const POLICY_ERRORS_ENV = 'HOOKWERK_POLICY_ERRORS';

/**
 * [T-MGD-1] The managed policy, first for every user; read only while root owns it and its folder
 * (`managed-policy.ts`), else a broken file that denies.
 */
const MANAGED_SPEC: SourceSpec = {
  scope: 'managed',
  file: MANAGED_POLICY_FILE,
  label: 'managed policy',
  project: false,
  parse: parseJsoncText,
  rules: policyRuleCount,
  refuse: managedPolicyRefusal,
};

function policySpecs(projectDir: string, home: string, files?: readonly string[]): SourceSpec[] {
  return [MANAGED_SPEC, ...ownSpecs(projectDir, home, files)];
}

/** The user's and the project's policy files (or the files under test instead). */
function ownSpecs(projectDir: string, home: string, files?: readonly string[]): SourceSpec[] {
  if (files !== undefined)
    return files
      .filter((file) => file !== MANAGED_POLICY_FILE)
      .map((file) => ({
        scope: 'user',
        file,
        label: 'policy under test',
        project: false,
        parse: parseJsoncText,
      }));
  const user: SourceSpec = {
    scope: 'user',
    file: policyFile(home),
    label: 'user policy',
    project: false,
    parse: parseJsoncText,
    rules: policyRuleCount,
  };
  // [F-BUN-2] The team's bundle runs where the user's policy does, beside it.
  const fleet: SourceSpec = { ...user, file: fleetPolicyFile(home), label: 'fleet policy' };
  // An agent started in the home folder: its project policy is the user's, read once, trusted.
  if (projectDir === home) return [fleet, user];
  return [
    fleet,
    user,
    {
      scope: 'project',
      file: policyFile(projectDir),
      label: 'project policy',
      project: true,
      parse: parseJsoncText,
      rules: policyRuleCount,
    },
  ];
}

/** A policy file's `include` list names `name` (an array of strings; anything else is no include). */
function includes(settings: readonly ClaudeShapedSettings[], name: string): boolean {
  return settings.some((s) => {
    const list: unknown = Reflect.get(s.value, 'include');
    return Array.isArray(list) && list.includes(name);
  });
}

export function loadPolicyConfig(base: GateLoadBase, options: PolicyOptions = {}): AgentConfig {
  const config = loadPolicyFiles(base, options);
  const unapproved = unapprovedLines(config);
  if (unapproved.length > 0) config.unapproved = unapproved;
  return config;
}

function loadPolicyFiles(base: GateLoadBase, options: PolicyOptions): AgentConfig {
  const loaded = loadClaudeShaped(
    base,
    'policy',
    (projectDir, home) =>
      options.managedLayer === true ? [MANAGED_SPEC] : policySpecs(projectDir, home, options.files),
    policyRuleHook,
  );
  const project = loaded.project;
  const only = managedOnly(loaded.settings);
  const inForce = only ? managedOnlyConfig(loaded.config, project) : loaded.config;
  const read = only ? loaded.settings.filter((s) => s.scope === 'managed') : loaded.settings;
  const config = strictPolicy(inForce, read, project, base.env ?? process.env);
  const settings = read.filter((s) => !config.unusable?.issues.some((i) => i.file === s.file));
  // [G-PERM-1, G-LIB-2] The permission rules, then the guards, of the files in force (an unusable
  // file's are not: it denies).
  const bases = { projectDir: config.projectDir, home: config.home };
  const layers = [
    permissionsLayer(settings, bases),
    guardsLayer(settings, { ...bases, tmpDir: tmpDirOf(base.env ?? process.env) }),
  ].filter((l) => l !== undefined);
  if (layers.length > 0) config.layers = layers;
  config.warnings.push(...guardMergeWarnings(settings));
  if (options.agent === 'claude' || options.managedLayer === true || !includes(settings, 'claude'))
    return config;
  const included = loadClaudeConfig({
    ...base,
    project,
    ...(options.claude !== undefined ? { claude: options.claude } : {}),
  });
  // [T-MGD-1] Under `managedOnly`, an include runs Claude Code's managed settings alone.
  const claude = only ? managedOnlyConfig(included, project) : included;
  return agentConfig({
    dialect: 'policy',
    projectDir: config.projectDir,
    home: config.home,
    sources: [...config.sources, ...claude.sources],
    // Policy hooks first, then the included files', each in its own order [C-RUN-2].
    entries: [...config.entries, ...claude.entries],
    issues: [...config.issues, ...claude.issues],
    warnings: [...config.warnings, ...claude.warnings],
    consent: config.consent,
    project,
    ...(config.unusable !== undefined ? { unusable: config.unusable } : {}),
    ...(config.layers !== undefined ? { layers: config.layers } : {}),
  });
}

/**
 * [G-FAIL-1] The policy as loaded leniently, made strict: every file with an error (it could not
 * be read or parsed, or `strict.ts` finds a problem in the text in force) keeps none of its
 * entries and is listed as unusable. An unapproved project file is not in force and not judged.
 */
function strictPolicy(
  config: AgentConfig,
  settings: readonly ClaudeShapedSettings[],
  project: ProjectRead,
  env: NodeJS.ProcessEnv,
): AgentConfig {
  const policyFiles = new Set(config.sources.map((s) => s.file));
  const errors: ConfigIssue[] = config.issues.filter((i) => policyFiles.has(i.file));
  const warnings: ConfigIssue[] = config.warnings.filter((w) => !policyFiles.has(w.file));
  for (const s of settings) {
    const problems = policyProblems(s.file, s.value, s.scope);
    const strictErrors = problems.filter((p) => p.level !== 'warning');
    // What the lenient reading skipped (an http hook's blocked address…) is an error here too,
    // unless the strict reading already named the file's errors.
    const lenient = config.warnings.filter((w) => w.file === s.file && w.level !== 'warning');
    errors.push(...(strictErrors.length > 0 ? strictErrors : lenient));
    warnings.push(...problems.filter((p) => p.level === 'warning'));
  }
  const broken = new Set(errors.map((e) => e.file));
  const sources: AgentSource[] = config.sources.map((s) =>
    broken.has(s.file) ? { ...s, state: 'invalid', ok: false, hookCount: 0 } : s,
  );
  return agentConfig({
    dialect: 'policy',
    projectDir: config.projectDir,
    home: config.home,
    sources,
    entries: config.entries.filter((e) => !broken.has(e.origin.file ?? '')),
    issues: [...config.issues.filter((i) => !policyFiles.has(i.file)), ...errors],
    warnings,
    consent: config.consent,
    project,
    ...(errors.length > 0
      ? {
          unusable: {
            issues: errors,
            lines: unusableLines(errors, config.home),
            // [T-MGD-1] The agent's environment never opens a broken managed policy.
            open: env[POLICY_ERRORS_ENV] === 'open' && !broken.has(MANAGED_POLICY_FILE),
          },
        }
      : {}),
  });
}

/**
 * [L-TRUST-11] A project policy that exists but is not approved runs nothing — its permission
 * rules and guards no more than its hooks — and rules leave no skipped run behind to say so:
 * this line does, once per load, through the engine's logger.
 */
function unapprovedLines(config: AgentConfig): string[] {
  const project = tildePath(config.projectDir, config.home);
  return config.sources
    .filter((s) => s.dialect === 'policy' && s.state === 'unapproved')
    .map(
      (s) =>
        `${tildePath(s.file, config.home)} is not approved: its permissions, guards and hooks do not run; ` +
        `review and approve it with \`hookwerk trust --project ${project}\``,
    );
}

/** [G-FAIL-1] Each broken file's first problem, as the one line everybody is told. */
function unusableLines(errors: readonly ConfigIssue[], home: string): UnusableLine[] {
  const byFile = new Map<string, ConfigIssue[]>();
  for (const e of errors) byFile.set(e.file, [...(byFile.get(e.file) ?? []), e]);
  return [...byFile.entries()].map(([file, issues]) => {
    const first = issues[0]!;
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
    const shown = tildePath(file, home);
    return {
      file: shown,
      source: `${file}#${first.path}`,
      text: `hookwerk: ${shown}: ${first.path}: ${first.message}${more} — fix it, or check it with hookwerk validate`,
    };
  });
}
