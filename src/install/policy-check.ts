/**
 * [G-FAIL-3] Before `install` points an agent at the policy: the sources `hookwerk hook --agent A`
 * would read (the user's and the project's policy, and the Claude Code files a policy includes
 * for agents other than Claude Code), checked exactly as `validate` checks them. An install over
 * an error is refused (unless `--force`): the agent would otherwise be guarded by a policy that
 * denies every call, or by one that never runs the guard the user meant.
 */
import { homeFolder } from '../core/home.ts';
import { loadPolicyConfig } from '../dialects/policy/source.ts';
import { type SourceProblems, sourceProblems } from '../sources/source-problems.ts';

export function policyProblemsForInstall(opts: {
  agent: string;
  /** The project (a `--user` install: none, the home's policy alone). */
  projectDir?: string;
  home?: string;
}): SourceProblems {
  const home = homeFolder(opts.home);
  // Review mode: the current text of every file, approved or not, is what is checked.
  const config = loadPolicyConfig({ projectDir: opts.projectDir ?? home, home }, { agent: opts.agent });
  return sourceProblems(config);
}
