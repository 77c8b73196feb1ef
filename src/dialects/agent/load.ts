/**
 * The start every Claude-style loader shares [C-SRC-4, G-SRC-1, A-CUR-1]: the project's key, the
 * account's home, the project as read for consent and its admission, and the environment command
 * hooks inherit (with `CLAUDE_PROJECT_DIR`), each dialect then adding its own variables.
 */
import { type Admission, admitProject } from '../../consent/project-admission.ts';
import type { ProjectRead } from '../../consent/project-surface.ts';
import { projectKey } from '../../consent/trust-store.ts';
import { inheritedEnv, lurusHookEnv, withoutInterpreterCaches } from '../../core/env-policy.ts';
import { homeFolder } from '../../core/home.ts';
import { readGateProject } from '../surfaces/gate-project.ts';
import type { GateLoadBase } from './gate-dialect.ts';

interface AgentLoadStart {
  projectDir: string;
  home: string;
  project: ProjectRead;
  admission: Admission;
  /** Not frozen: the dialect adds its variables. */
  baseEnv: Record<string, string>;
}

/**
 * `envMode: 'allowlist'` gives the Lurus allowlist environment instead of the engine's (beyond);
 * `plugins` (resolved folders) are read with the project, as Claude Code's plugin folders are.
 */
export function startAgentLoad(
  opts: GateLoadBase,
  envMode: 'inherit' | 'allowlist' | undefined,
  plugins: readonly string[] = [],
): AgentLoadStart {
  const projectDir = projectKey(opts.projectDir);
  // [L-TRUST-12] The account's home, never `/`; none stops here with a one-line error.
  const home = homeFolder(opts.home);
  const project = opts.project ?? readGateProject(projectDir, home, plugins);
  const admission = admitProject(opts.consent, home, project.surface, project.reads);
  const parent = opts.env ?? process.env;
  const baseEnv = withoutInterpreterCaches(
    envMode === 'allowlist' ? lurusHookEnv(parent) : inheritedEnv(parent),
  );
  baseEnv.CLAUDE_PROJECT_DIR = projectDir;
  return { projectDir, home, project, admission, baseEnv };
}
