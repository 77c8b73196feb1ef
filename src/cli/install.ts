/**
 * `hookwerk install --agent A [--project DIR | --user | --system] [--dry-run]` and `hookwerk uninstall …`
 * [R-INST-1]: parse, call `installAgent` / `uninstallAgent`, print what was done (stdout), and
 * warnings (stderr, exit 0 still). A file that cannot be changed safely is one line on stderr and
 * exit 1, with nothing written.
 */
import { InvalidOptionError } from '../core/errors.ts';
import { formatIssue } from '../core/issues.ts';
import { HOOK_AGENTS, isHookAgentName } from '../dialects/hook-agents.ts';
import { HookFileError } from '../install/hook-file-error.ts';
import { installAgent } from '../install/install-agent.ts';
import type { InstallResult, UninstallResult } from '../install/install-result.ts';
import { policyProblemsForInstall } from '../install/policy-check.ts';
import { systemClientProblem } from '../install/system-client.ts';
import { uninstallAgent } from '../install/uninstall-agent.ts';
import { CliError, resolveWorkspace } from './cli-error.ts';

export interface InstallCliOptions {
  agent: string;
  project?: string;
  user?: boolean;
  /** [T-MGD-2] The agent's administrator-owned hook file (as root). */
  system?: boolean;
  dryRun?: boolean;
  /** [G-FAIL-3] Install even when the policy has errors. */
  force?: boolean;
}

type Print = (line: string) => void;

export function installCommand(
  verb: 'install' | 'uninstall',
  opts: InstallCliOptions,
  out: Print,
  err: Print,
): number {
  const given = [
    opts.project !== undefined ? '--project' : '',
    opts.user === true ? '--user' : '',
    opts.system === true ? '--system' : '',
  ].filter((g) => g !== '');
  if (given.length > 1)
    throw new CliError(
      `${given.slice(0, -1).join(', ')} and ${given.at(-1)} are ${given.length === 2 ? 'two' : 'three'} targets; give one of them`,
    );
  if (opts.system === true && refusedSystem(verb, opts, err)) return 1;
  const target = {
    agent: opts.agent,
    ...(opts.system === true
      ? { system: true }
      : opts.user === true
        ? { user: true }
        : { projectDir: resolveWorkspace(opts.project) }),
    dryRun: opts.dryRun === true,
  };
  // [G-FAIL-3] Never point an agent at a policy that cannot be used, unless asked to.
  if (
    verb === 'install' &&
    opts.force !== true &&
    refusedOverProblems(opts.agent, 'projectDir' in target ? target.projectDir : undefined, err)
  )
    return 1;
  try {
    if (verb === 'install') printInstall(installAgent(target), out, err);
    else printUninstall(uninstallAgent(target), out, err);
  } catch (e) {
    if (e instanceof HookFileError || e instanceof InvalidOptionError) throw new CliError(e.message);
    throw e;
  }
  return 0;
}

/**
 * [T-MGD-2] A system install changes files every user's agent reads: only root writes them (a dry
 * run shows the change to anyone), and an install points only at a hookwerk no user can replace.
 */
function refusedSystem(verb: 'install' | 'uninstall', opts: InstallCliOptions, err: Print): boolean {
  const client = verb === 'install' ? systemClientProblem() : undefined;
  if (opts.dryRun === true) {
    if (client !== undefined) err(`hookwerk: warning: install --system would refuse: ${client}`);
    return false;
  }
  if (process.getuid?.() !== 0) {
    err(
      `hookwerk: ${verb} --system changes files every user's agent reads: run it as root, or see the change with --dry-run; nothing was written`,
    );
    return true;
  }
  if (client === undefined) return false;
  err(`hookwerk: install --system refused: ${client}; nothing was written`);
  return true;
}

/** Says every problem of the sources the agent's calls would read; true when any is an error. */
function refusedOverProblems(agent: string, projectDir: string | undefined, err: Print): boolean {
  const { errors, warnings } = policyProblemsForInstall({
    agent,
    ...(projectDir !== undefined ? { projectDir } : {}),
  });
  for (const w of warnings) err(`warning: ${formatIssue(w)}`);
  if (errors.length === 0) return false;
  for (const e of errors) err(formatIssue(e));
  err(
    `hookwerk: install refused: the policy has ${errors.length === 1 ? 'an error' : `${errors.length} errors`} (above); fix ${errors.length === 1 ? 'it' : 'them'} (hookwerk validate), or install anyway with --force; nothing was written`,
  );
  return true;
}

function labelOf(agent: string): string {
  return isHookAgentName(agent) ? HOOK_AGENTS[agent].label : agent;
}

function printInstall(r: InstallResult, out: Print, err: Print): void {
  const label = labelOf(r.agent);
  const would = r.dryRun ? 'would ' : '';
  if (r.dryRun && r.diff !== '') out(r.diff.trimEnd());
  if (!r.changed) out(`${r.file} already has hookwerk's hooks for ${label}: nothing to do`);
  else {
    const what = r.created ? `${would}create ${r.file}` : `${would}change ${r.file}`;
    out(`${capital(what)}: hookwerk's hooks for ${label}`);
    if (r.events.length > 0) out(`  events added: ${r.events.join(', ')}`);
    if (r.updated.length > 0) out(`  entries updated or replaced by install's own: ${r.updated.join(', ')}`);
    if (r.unchanged.length > 0) out(`  already there: ${r.unchanged.join(', ')}`);
  }
  const perEvent = isHookAgentName(r.agent) && HOOK_AGENTS[r.agent].install.needsEventFlag;
  out(`  each runs: ${r.command}${perEvent ? ' --event <its event>' : ''} --timeout <its timeout>`);
  out(`  timeouts (s): ${timeoutsLine(r.timeouts)}`);
  // [G-FAIL-4] An entry that was not install's own is never replaced silently.
  for (const line of r.replaced)
    err(
      `hookwerk: ${r.dryRun ? 'would replace' : 'replaced'} an entry calling hookwerk hook that is not what install writes, with install's own: ${line}`,
    );
  for (const w of r.warnings) err(`hookwerk: warning: ${w}`);
  for (const n of r.notes) out(`note: ${n}`);
  if (r.dryRun) out('dry run: nothing was written');
}

function printUninstall(r: UninstallResult, out: Print, err: Print): void {
  const label = labelOf(r.agent);
  const would = r.dryRun ? 'would ' : '';
  if (r.dryRun && r.diff !== '') out(r.diff.trimEnd());
  if (!r.changed) out(`${r.file} has no hookwerk hooks for ${label}: nothing to do`);
  else if (r.removed) out(capital(`${would}remove ${r.file} (install created it; nothing else is in it)`));
  else if (r.restored) out(capital(`${would}restore ${r.file} exactly as it was before install`));
  else out(capital(`${would}remove hookwerk's hooks for ${label} from ${r.file}; everything else stays`));
  if (r.changed && r.events.length > 0) out(`  events: ${r.events.join(', ')}`);
  for (const w of r.warnings) err(`hookwerk: warning: ${w}`);
  if (r.dryRun) out('dry run: nothing was written');
}

/** `PreToolUse 605, Stop 600, …`: events with the same timeout grouped, in the agent's order. */
function timeoutsLine(timeouts: Readonly<Record<string, number>>): string {
  const groups = new Map<number, string[]>();
  for (const [event, s] of Object.entries(timeouts)) groups.set(s, [...(groups.get(s) ?? []), event]);
  return [...groups].map(([s, events]) => `${s} ${events.join(', ')}`).join('; ');
}

function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
