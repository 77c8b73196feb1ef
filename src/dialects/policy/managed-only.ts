/**
 * [T-MGD-1] The managed policy's `"managedOnly": true`: only the managed sources are in force —
 * their hooks, rules, guards and errors — and each other source that exists is named in a warning.
 */
import type { ProjectRead } from '../../consent/project-surface.ts';
import type { ConfigIssue } from '../../core/issues.ts';
import { type AgentConfig, agentConfig } from '../../sources/agent-config.ts';
import { MANAGED_POLICY_FILE } from '../surfaces/policy-files.ts';

/** [T-MGD-1] The managed policy (in force, read) says `"managedOnly": true`. */
export function managedOnly(settings: ReadonlyArray<{ scope: string; value: object }>): boolean {
  return settings.some((s) => s.scope === 'managed' && Reflect.get(s.value, 'managedOnly') === true);
}

/**
 * [T-MGD-1] `managedOnly`: every source but the managed ones is left out — its hooks, rules,
 * guards and errors alike (a broken user file no longer denies: it is not read) — and each one
 * that exists is named in one warning, so `validate` says why it does nothing.
 */
export function managedOnlyConfig(config: AgentConfig, project: ProjectRead): AgentConfig {
  const left = new Set(config.sources.filter((s) => s.scope !== 'managed').map((s) => s.file));
  const ignored: ConfigIssue[] = config.sources
    .filter((s) => left.has(s.file) && s.exists)
    .map((s) => ({
      file: s.file,
      path: '$',
      message: `ignored: the managed policy ${MANAGED_POLICY_FILE} says "managedOnly": true`,
      level: 'warning',
    }));
  return agentConfig({
    dialect: config.dialect,
    projectDir: config.projectDir,
    home: config.home,
    sources: config.sources.filter((s) => !left.has(s.file)),
    entries: config.entries.filter((e) => e.origin.scope === 'managed'),
    issues: config.issues.filter((i) => !left.has(i.file)),
    warnings: [...config.warnings.filter((w) => !left.has(w.file)), ...ignored],
    consent: config.consent,
    project,
  });
}
