import path from 'node:path';
import { consentStatus } from '../consent/project-consent.ts';
import { formatIssue } from '../core/issues.ts';
import { type AgentGateDialect, GATE_DIALECTS, loadAgentGateDialect } from '../dialects/gate-dialects.ts';
import { lurusProblems } from '../dialects/lurus/problems.ts';
import { loadLurusConfig } from '../dialects/lurus/source.ts';
import { loadPrxConfig } from '../dialects/prx/source.ts';
import type { GateDialect } from '../engine-api.ts';
import { installTimeoutWarnings } from '../install/install-timeout-warnings.ts';
import { PLUGINS_DIR, scanPlugins } from '../sources/plugin-scan.ts';
import { sourceProblems } from '../sources/source-problems.ts';
import { resolveWorkspace } from './cli-error.ts';

/**
 * `hookwerk validate` [P-CFG-4, L-VAL-1, G-FAIL-3]: every problem with file, JSON path and reason,
 * one per line in the bare `file: path: reason` shape (warnings as `warning: …`, which never
 * change the exit code); exit 1 on any error. With no flags it checks every source hookwerk would
 * read for the current folder and the home: the PRX workspace, the Lurus project, hookwerk's policy
 * files and every agent dialect's files that exist (each file's problems once, however many
 * dialects read it). `--workspace` alone checks only the PRX side, `--project DIR` alone that
 * project's gate sources (Lurus, the policy, every agent's files), `--dialect D` only that dialect. The current text of every source is checked, approved or
 * not; where an approved project's file differs from the approved text, it says that a newer
 * version waits for consent [L-TRUST-6].
 */
export async function validateCommand(
  opts: { workspace?: string; project?: string; home?: string; dialect?: GateDialect; pluginDir?: string[] },
  out: (line: string) => void,
  err: (line: string) => void,
): Promise<number> {
  // One line once: the policy's `include` and several dialects read the same Claude Code files.
  const said = new Set<string>();
  const once = (write: (line: string) => void) => (line: string) => {
    if (said.has(line)) return;
    said.add(line);
    write(line);
  };
  const [o, e] = [once(out), once(err)];
  const agent = opts.dialect !== undefined && opts.dialect !== 'lurus' ? opts.dialect : undefined;
  // `--workspace` with an agent dialect checks both: the PRX workspace and the agent's files.
  const workspaceFailed =
    opts.workspace !== undefined && agent !== undefined && validatePrx(opts.workspace, o, e);
  if (agent !== undefined)
    return (await validateAgent(agent, opts, o, e, false)) === 1 || workspaceFailed ? 1 : 0;
  const both = opts.workspace === undefined && opts.project === undefined;
  let failed = false;
  if (both || opts.workspace !== undefined) failed = validatePrx(opts.workspace, o, e);
  if (both || opts.project !== undefined) failed = validateLurus(opts, both, o, e) || failed;
  // [G-FAIL-3] Everything else hookwerk reads for the project: the policy first, then each agent's files.
  if (both || opts.project !== undefined)
    for (const dialect of AGENT_DIALECTS)
      failed = (await validateAgent(dialect, opts, o, e, true)) === 1 || failed;
  return failed ? 1 : 0;
}

/** The agent dialects, the policy first (it is what `hookwerk hook` runs). */
const AGENT_DIALECTS: readonly AgentGateDialect[] = [
  'policy',
  ...Object.keys(GATE_DIALECTS).filter((d): d is AgentGateDialect => d !== 'lurus' && d !== 'policy'),
];

function validateLurus(
  opts: { project?: string; home?: string },
  both: boolean,
  out: (line: string) => void,
  err: (line: string) => void,
): boolean {
  let failed = false;
  const projectDir = both ? resolveWorkspace(undefined) : resolveWorkspace(opts.project);
  const config = loadLurusConfig({ projectDir, ...(opts.home !== undefined ? { home: opts.home } : {}) });
  const problems = lurusProblems(config);
  for (const issue of problems) err(formatIssue(issue));
  if (problems.length > 0) failed = true;
  const troubled = new Set(problems.map((p) => p.file));
  for (const source of config.sources) {
    if (!source.exists || !source.ok || troubled.has(source.file)) continue;
    out(
      `ok: ${source.file}${source.key ? ` (${source.key})` : ''}: ${source.hookCount} hooks (${source.scope})`,
    );
  }
  const status = consentStatus(config.home, config.surface);
  // An approval counts even when the current text has no (valid) hooks: the approved text runs.
  if (config.hooks.some((h) => h.origin.scope === 'project') || status.approved !== undefined) {
    const where = path.join(config.projectDir, '.lurus');
    if (status.problem !== undefined) err(status.problem);
    if (status.approved === undefined) {
      out(`note: project hooks in ${where}: not approved (run \`hookwerk trust\`)`);
    } else {
      for (const file of status.pending)
        out(
          `note: ${file} changed since approval: a newer version waits for consent; the approved version runs (run \`hookwerk trust\`)`,
        );
      for (const file of status.changed)
        out(
          `note: ${file} changed since approval: project hooks do not run as approved (run \`hookwerk trust\`)`,
        );
      if (status.pending.length === 0 && status.changed.length === 0)
        out(`ok: project hooks in ${where}: approved ${status.approved.approvedAt}`);
    }
  }
  return failed;
}

/** [P-CFG-4, P-WASM-2] The PRX workspace: hooks.json and plugin manifests; true when any failed. */
function validatePrx(
  dir: string | undefined,
  out: (line: string) => void,
  err: (line: string) => void,
): boolean {
  let failed = false;
  const workspace = resolveWorkspace(dir);
  const loaded = loadPrxConfig(workspace);
  if (!loaded.ok) {
    for (const issue of loaded.issues) err(formatIssue(issue));
    failed = true;
  } else if (!loaded.exists) {
    out(`ok: ${loaded.file} does not exist (no shell hooks)`);
  } else {
    const enabled = loaded.actions.filter((a) => a.enabled).length;
    out(`ok: ${loaded.file}: ${loaded.actions.length} actions (${enabled} enabled)`);
  }
  // [P-WASM-2] Plugin manifests: a bad plugin is skipped at run time; validate reports it.
  const plugins = scanPlugins(path.join(workspace, PLUGINS_DIR));
  for (const issue of plugins.issues) err(formatIssue(issue));
  if (plugins.issues.length > 0) failed = true;
  for (const plugin of plugins.plugins)
    out(`ok: plugin ${plugin.name} (${path.join(plugin.dir, 'plugin.toml')})`);
  return failed;
}

/**
 * One agent dialect's sources [C-SRC-3, C-CLI-1, G-CLI-1, G-FAIL-1..3]: files skipped whole and
 * handlers skipped are errors (exit 1), as are matchers the linear-time engine cannot run
 * [L-MATCH-4], every error of a (strict) policy file, and a command whose script is missing;
 * unknown fields, undocumented events and over-long timeouts of the agents' own (lenient) files
 * are warnings (those tools run them too). `onlyPresent`: say nothing about a dialect none of whose
 * files exist (the no-flag check of every dialect).
 */
async function validateAgent(
  dialect: AgentGateDialect,
  opts: { project?: string; home?: string; pluginDir?: string[] },
  out: (line: string) => void,
  err: (line: string) => void,
  onlyPresent: boolean,
): Promise<number> {
  const projectDir = resolveWorkspace(opts.project);
  const home = opts.home !== undefined ? { home: opts.home } : {};
  const plugin = await loadAgentGateDialect(dialect);
  const flags = { pluginDirs: (opts.pluginDir ?? []).map((d) => resolveWorkspace(d)) };
  const config = plugin.load({ projectDir, ...home }, plugin.cliOptions(flags));
  if (onlyPresent && !config.sources.some((s) => s.exists)) return 0;
  const { errors, warnings } = sourceProblems(config);
  // [G-FAIL-4] The policy's own check also asks whether the installed entries still give it time.
  const late = dialect === 'policy' ? installTimeoutWarnings({ projectDir, ...home }) : [];
  for (const issue of errors) err(formatIssue(issue));
  for (const w of [...warnings, ...late]) err(`warning: ${formatIssue(w)}`);
  const troubled = new Set(errors.map((p) => p.file));
  for (const source of config.sources) {
    if (!source.exists || troubled.has(source.file)) continue;
    // [G-PERM-1] A policy file's permission rules and guards are counted beside its hooks.
    const rules = 'ruleCount' in source && source.ruleCount !== undefined ? source.ruleCount : 0;
    const ruleNote = rules > 0 ? `, ${rules} ${rules === 1 ? 'rule' : 'rules'}` : '';
    if (source.state === 'ok')
      out(`ok: ${source.file}: ${source.hookCount} hooks${ruleNote} (${source.scope})`);
  }
  const projectScopes = new Set(['project', 'local', 'plugin']);
  const status = consentStatus(config.home, config.surface);
  if (status.problem !== undefined) err(status.problem);
  const projectHooks = config.hooks.some((h) => projectScopes.has(h.origin.scope));
  const projectRules = config.sources.some(
    (s) => projectScopes.has(s.scope) && 'ruleCount' in s && (s.ruleCount ?? 0) > 0,
  );
  if (projectHooks || projectRules || status.approved !== undefined) {
    if (status.approved === undefined)
      out(
        `note: project ${projectHooks ? 'hooks' : 'rules'} of ${config.projectDir}: not approved (run \`hookwerk trust\`)`,
      );
    else {
      for (const file of status.pending)
        out(
          `note: ${file} changed since approval: a newer version waits for consent; the approved version runs`,
        );
      for (const file of status.changed)
        out(
          `note: ${file} changed since approval: project hooks do not run as approved (run \`hookwerk trust\`)`,
        );
      if (status.pending.length === 0 && status.changed.length === 0)
        out(`ok: project hooks of ${config.projectDir}: approved ${status.approved.approvedAt}`);
    }
  }
  return errors.length > 0 ? 1 : 0;
}
