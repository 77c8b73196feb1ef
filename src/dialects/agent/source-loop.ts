/**
 * The loading loop every agent dialect shares (issue 31) [C-SRC-1..4, G-SRC-1, A-CDX-1, A-COP-1,
 * A-CUR-1]: each source file, in the dialect's order, is opened — admitted under consent or read
 * bounded, parsed, its handlers walked; an unapproved one listed, never evaluated [L-TRUST-3] —
 * then each handler is read by the dialect into a hook, and the file is marked with its count;
 * last the config is put together. What differs — the files, the reading of one handler, the
 * switches that turn hooks off — stays in the dialect's `source.ts`.
 */
import type { Admission } from '../../consent/project-admission.ts';
import type { HookConsent } from '../../consent/project-consent.ts';
import type { ProjectRead } from '../../consent/project-surface.ts';
import { type ConfigIssue, jsonPath } from '../../core/issues.ts';
import type { AgentDialectName, GateEntry, UnapprovedHook } from '../../registry/hook-definition.ts';
import {
  type AgentConfig,
  type AgentSource,
  type AgentSourceSpec,
  agentConfig,
  openAgentSource,
  type SourceParse,
  sourceCompiled,
} from '../../sources/agent-config.ts';
import type { RawHandler, walkAgentHooks } from '../../sources/agent-settings.ts';

/** What a load collects, source after source. */
export interface AgentLoadOut {
  sources: AgentSource[];
  issues: ConfigIssue[];
  warnings: ConfigIssue[];
  entries: GateEntry[];
}

export function emptyLoadOut(): AgentLoadOut {
  return { sources: [], issues: [], warnings: [], entries: [] };
}

/** How one source file is opened, when not as Claude Code's JSON settings. */
interface OpenOptions {
  /** Keys of the `hooks` map that are settings, not events. */
  settingKeys?: ReadonlySet<string>;
  /** How the `hooks` map is walked (default: Claude's `{EVENT: [{matcher?, hooks: [...]}]}`). */
  walk?: typeof walkAgentHooks;
  /** How the text becomes the settings value (default: the spec's, else JSON). */
  parse?: SourceParse;
}

/** What differs between the dialects' loops. */
export interface SourceLoop<S extends AgentSourceSpec> {
  dialect: AgentDialectName;
  admission: Admission;
  out: AgentLoadOut;
  open?: (spec: S) => OpenOptions;
  /**
   * The file's settings value, before its handlers are read (its switches, its version): `false`
   * reads none of them (the file is then as the dialect recorded it).
   */
  opened?: (spec: S, value: object) => boolean;
  /** One handler as a hook, or `undefined` (skipped; the dialect said why). */
  hook: (raw: RawHandler, spec: S, order: number) => GateEntry | undefined;
  /** After the file's handlers: how many became hooks. */
  compiled?: (spec: S, count: number) => void;
}

/**
 * Reads `specs` in order into `loop.out`; `order` is the place of the first hook read. Returns the
 * place after the last one, for a further loop over other files (Cursor's Claude files).
 */
export function readAgentSources<S extends AgentSourceSpec>(
  specs: readonly S[],
  loop: SourceLoop<S>,
  order = 0,
): number {
  let next = order;
  for (const spec of specs) {
    const how = loop.open?.(spec) ?? {};
    const opened = openAgentSource(
      loop.dialect,
      spec,
      loop.admission,
      loop.out,
      how.settingKeys,
      how.walk,
      how.parse,
    );
    if (opened.kind === 'done' || loop.opened?.(spec, opened.value) === false) continue;
    let count = 0;
    for (const raw of opened.raws) {
      const hook = loop.hook(raw, spec, next);
      if (hook === undefined) continue;
      loop.out.entries.push(hook);
      next++;
      count++;
    }
    sourceCompiled(loop.out.sources, spec.file, count);
    loop.compiled?.(spec, count);
  }
  return next;
}

/** The approval a project source's hooks run under [C-SRC-4]; none for the others. */
export function consentOf(
  spec: Pick<AgentSourceSpec, 'project'>,
  admission: Admission,
): { consent?: HookConsent } {
  const consent = admission.consent.consent;
  return spec.project && consent !== undefined ? { consent } : {};
}

/** Turns off each hook (never an unapproved listing) for which `reasonOf` gives a reason. */
export function turnOff(
  entries: readonly GateEntry[],
  reasonOf: (entry: Exclude<GateEntry, UnapprovedHook>) => string | undefined,
): void {
  for (const entry of entries) {
    if (entry.kind === 'unapproved') continue;
    const reason = reasonOf(entry);
    if (reason === undefined) continue;
    entry.enabled = false;
    entry.disabledReason = reason;
  }
}

/** The config of a load: what the loop collected, under the project as read and admitted. */
export function loadedConfig(
  dialect: AgentDialectName,
  start: { projectDir: string; home: string; project: ProjectRead; admission: Admission },
  out: AgentLoadOut,
): AgentConfig {
  return agentConfig({
    dialect,
    projectDir: start.projectDir,
    home: start.home,
    sources: out.sources,
    entries: out.entries,
    issues: out.issues,
    warnings: out.warnings,
    consent: start.admission.consent,
    project: start.project,
  });
}

/**
 * `warn(message, at, level?)` for the handlers of `file`: an issue at the JSON path `at`, a
 * `warning` (which fails nothing [G-FAIL-3]) when `level` says so.
 */
export function fileWarner(
  warnings: ConfigIssue[],
  file: string,
): (message: string, at: readonly PropertyKey[], level?: 'warning') => void {
  return (message, at, level) => {
    warnings.push({ file, path: jsonPath(at), message, ...(level !== undefined ? { level } : {}) });
  };
}
