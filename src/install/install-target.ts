/** Which agent and which of its hook files `install` / `uninstall` are about [R-INST-1]. */
import { statSync } from 'node:fs';
import path from 'node:path';
import { InvalidOptionError } from '../core/errors.ts';
import { homeFolder } from '../core/home.ts';
import {
  HOOK_AGENT_NAMES,
  HOOK_AGENTS,
  type HookAgentName,
  isHookAgentName,
} from '../dialects/hook-agents.ts';
import { SYSTEM_INSTALLS_DIR, userInstallsDir } from './install-record.ts';

export interface InstallTargetOptions {
  /** `claude`, `gemini`, `codex`, `copilot` or `cursor`. */
  agent: string;
  /** The project whose hook file is meant (default: the current folder); not with `user`. */
  projectDir?: string;
  /** The agent's user hook file (`~/.claude/settings.json`, …) instead of the project's. */
  user?: boolean;
  /** [T-MGD-2] The agent's administrator-owned hook file (`/etc/…`) instead (run as root). */
  system?: boolean;
  /** Home folder (default: HOME): user hook files and the install records are under it. */
  home?: string;
  /** Where `CODEX_HOME` and `COPILOT_HOME` are read (default `process.env`). */
  env?: NodeJS.ProcessEnv;
}

export interface InstallTarget {
  readonly name: HookAgentName;
  readonly label: string;
  readonly install: (typeof HOOK_AGENTS)[HookAgentName]['install'];
  readonly scope: 'project' | 'user' | 'system';
  readonly file: string;
  /** The project folder (absolute) of a project install. */
  readonly projectDir: string | undefined;
  readonly home: string;
  /** Where install's records of the file are [R-INST-1]: the home's, or root's for `system` [T-MGD-2]. */
  readonly recordsDir: string;
  readonly env: NodeJS.ProcessEnv;
}

export function installTarget(opts: InstallTargetOptions): InstallTarget {
  if (!isHookAgentName(opts.agent))
    throw new InvalidOptionError(
      `unknown agent ${JSON.stringify(opts.agent)}; expected one of ${HOOK_AGENT_NAMES.join(', ')}`,
    );
  if ([opts.user === true, opts.projectDir !== undefined, opts.system === true].filter(Boolean).length > 1)
    throw new InvalidOptionError(
      'a project folder, the user files and the system files are three targets; give one of them',
    );
  const env = opts.env ?? process.env;
  const home = homeFolder(opts.home, env);
  const agent = HOOK_AGENTS[opts.agent];
  const recordsDir = userInstallsDir(home);
  if (opts.system === true) {
    const file = agent.install.systemFile;
    if (file === undefined)
      throw new InvalidOptionError(
        `${agent.label} has no administrator-owned hook file hookwerk can write (docs/managed.md says what it allows instead)`,
      );
    return {
      ...common(agent),
      scope: 'system',
      file,
      projectDir: undefined,
      home,
      recordsDir: SYSTEM_INSTALLS_DIR,
      env,
    };
  }
  if (opts.user === true)
    return {
      ...common(agent),
      scope: 'user',
      file: agent.install.userFile(home, env),
      projectDir: undefined,
      home,
      recordsDir,
      env,
    };
  const projectDir = path.resolve(opts.projectDir ?? '.');
  let isDir = false;
  try {
    isDir = statSync(projectDir).isDirectory();
  } catch {
    // reported below
  }
  // A typo must not become a new folder full of agent settings.
  if (!isDir) throw new InvalidOptionError(`project folder ${projectDir} does not exist`);
  return {
    ...common(agent),
    scope: 'project',
    file: agent.install.projectFile(projectDir),
    projectDir,
    home,
    recordsDir,
    env,
  };
}

function common(agent: (typeof HOOK_AGENTS)[HookAgentName]) {
  return { name: agent.name, label: agent.label, install: agent.install };
}
