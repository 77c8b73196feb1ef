/**
 * hookwerk's policy [R-POL-1]: `~/.hookwerk/policy.json` (the user's, trusted) and
 * `<project>/.hookwerk/policy.json` (the project's, run under its approval; `.hookwerk/policy/`
 * is pinned whole), in Claude Code's settings shape and read with every rule of §5. A policy
 * file's `"include": ["claude"]` also runs the project's and user's Claude Code files (their own
 * sources, the same one approval) — except when the agent asking is Claude Code, which runs them
 * itself.
 */
import type { AgentConfig } from '../../sources/agent-config.ts';
import { agentConfig } from '../../sources/agent-config.ts';
import {
  type ClaudeOptions,
  type ClaudeShapedSettings,
  loadClaudeConfig,
  loadClaudeShaped,
  type SourceSpec,
} from '../claude/source.ts';
import type { GateLoadBase } from '../gate-dialect.ts';
import { policyFile } from './files.ts';

export interface PolicyOptions {
  /** The agent whose call is decided (`hookwerk hook --agent`): `claude` never includes its own files. */
  agent?: string;
  /** Options of the Claude Code files an `include` runs. */
  claude?: ClaudeOptions;
}

function policySpecs(projectDir: string, home: string): SourceSpec[] {
  return [
    { scope: 'user', file: policyFile(home), label: 'user policy', project: false },
    { scope: 'project', file: policyFile(projectDir), label: 'project policy', project: true },
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
  const { config, settings, project } = loadClaudeShaped(base, 'policy', policySpecs);
  if (options.agent === 'claude' || !includes(settings, 'claude')) return config;
  const claude = loadClaudeConfig({
    ...base,
    project,
    ...(options.claude !== undefined ? { claude: options.claude } : {}),
  });
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
  });
}
