/**
 * Which files Copilot CLI 1.0.102 reads its hooks from, and in which order [A-COP-1]
 * (research/copilot-facts.md §1): the policy folder, `$COPILOT_HOME/hooks/*.json`, the inline
 * `hooks` of `$COPILOT_HOME/settings.json`, `.github/hooks/*.json`, `.claude/settings.json` and the
 * inline `hooks` of `.github/copilot/settings.json`. Kept apart from the loader, which reads them.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { AgentSourceSpec } from '../../sources/agent-config.ts';
import { COPILOT_SETTINGS, repoHookFiles } from '../surfaces/copilot.ts';

const DEFAULT_POLICY_DIR = '/etc/github-copilot/policy.d';

export interface CopilotSourceSpec extends AgentSourceSpec {
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
export function copilotHomeOf(home: string, env: NodeJS.ProcessEnv, given?: string): string {
  const chosen = given ?? env.COPILOT_HOME;
  return chosen !== undefined && chosen !== '' ? path.resolve(chosen) : path.join(home, '.copilot');
}

/** Each hook file of a folder list, as a source of `scope` named `<what> <name>`. */
function hookFileSpecs(
  files: readonly string[],
  scope: 'managed' | 'user' | 'project',
  labelOf: (file: string) => string,
): CopilotSourceSpec[] {
  return files.map((file) => ({
    scope,
    file,
    label: labelOf(file),
    project: scope === 'project',
    hookFile: true,
  }));
}

/**
 * [A-COP-1] The sources in Copilot CLI's run order (see the file comment). `projectSources` are the
 * project's files as consent admits them: an approved one renamed away still runs its approved text.
 */
export function copilotSourceSpecs(
  projectDir: string,
  copilotHome: string,
  projectSources: readonly string[],
  policyDir: string | undefined,
): CopilotSourceSpec[] {
  const policy = jsonFiles(policyDir ?? DEFAULT_POLICY_DIR);
  const user = jsonFiles(path.join(copilotHome, 'hooks'));
  const repo = byNameDescending(repoHookFiles(projectDir, projectSources));
  return [
    ...hookFileSpecs(policy, 'managed', (f) => `policy hooks ${path.basename(f)}`),
    ...hookFileSpecs(user, 'user', (f) => `user hooks ${path.basename(f)}`),
    {
      scope: 'user',
      file: path.join(copilotHome, 'settings.json'),
      label: 'user settings',
      project: false,
      hookFile: false,
    },
    ...hookFileSpecs(repo, 'project', (f) => `repo hooks ${path.relative(projectDir, f)}`),
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
