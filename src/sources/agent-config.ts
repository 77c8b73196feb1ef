/** What the Claude Code and Gemini CLI loaders produce: sources, definitions, problems, consent. */
import type { AdmittedFile, ConsentSummary } from '../consent/project-admission.ts';
import type { ProjectSurface } from '../consent/project-consent.ts';
import type { ProjectRead } from '../consent/project-surface.ts';
import { MAX_SOURCE_BYTES } from '../consent/project-surface.ts';
import type { AgentHook, GateEntry, HookScope, UnapprovedHook } from '../registry/hook-definition.ts';
import type { RawHandler } from './agent-settings.ts';
import type { ConfigIssue } from './issues.ts';
import { jsonPath } from './issues.ts';
import { readSourceFile } from './read-source.ts';

/** What became of one source file. */
export interface AgentSource {
  dialect: 'claude' | 'gemini';
  scope: HookScope;
  file: string;
  label: string;
  exists: boolean;
  /** `ok`, `invalid` (skipped whole: unreadable or not JSON), `unapproved` (listed, never evaluated), `absent`. */
  state: 'ok' | 'invalid' | 'unapproved' | 'absent';
  /** Its hooks are in force. */
  ok: boolean;
  hookCount: number;
  /** The file differs from the approved text, which is what runs [L-TRUST-6]. */
  newerVersionPending?: boolean;
}

export interface AgentConfig {
  dialect: 'claude' | 'gemini';
  projectDir: string;
  home: string;
  sources: AgentSource[];
  /** Every entry in configuration order: compiled hooks, and unapproved ones to list. */
  entries: GateEntry[];
  /** The compiled hooks alone, in configuration order. */
  hooks: AgentHook[];
  /** Files skipped whole. */
  issues: ConfigIssue[];
  /** Handlers skipped, unknown fields, undocumented events, uncompilable matchers [C-SRC-3]. */
  warnings: ConfigIssue[];
  consent: ConsentSummary;
  surface: ProjectSurface;
  projectTexts: Record<string, string>;
}

export function agentConfig(parts: {
  dialect: 'claude' | 'gemini';
  projectDir: string;
  home: string;
  sources: AgentSource[];
  entries: GateEntry[];
  issues: ConfigIssue[];
  warnings: ConfigIssue[];
  consent: ConsentSummary;
  project: ProjectRead;
}): AgentConfig {
  const hooks = parts.entries.filter(
    (e): e is AgentHook => e.kind !== 'unapproved' && (e.dialect === 'claude' || e.dialect === 'gemini'),
  );
  const consent = parts.consent;
  if (
    !parts.sources.some(
      (s) => (s.scope === 'project' || s.scope === 'local' || s.scope === 'plugin') && s.hookCount > 0,
    )
  ) {
    consent.none = true;
    if (!consent.trusted || consent.reason === 'review') {
      consent.trusted = true;
      consent.reason = 'no project hooks';
    }
  }
  return {
    dialect: parts.dialect,
    projectDir: parts.projectDir,
    home: parts.home,
    sources: parts.sources,
    entries: parts.entries,
    hooks,
    issues: parts.issues,
    warnings: parts.warnings,
    consent,
    surface: parts.project.surface,
    projectTexts: parts.project.texts,
  };
}

/** [L-TRUST-3] The handlers of an unapproved file, named from the bare JSON, never evaluated. */
export function unapprovedEntries(
  dialect: 'claude' | 'gemini',
  file: string,
  scope: HookScope,
  raws: readonly RawHandler[],
  why: string,
): UnapprovedHook[] {
  return raws.map((raw) => {
    const command: unknown = Reflect.get(raw.handler, 'command');
    const url: unknown = Reflect.get(raw.handler, 'url');
    return {
      kind: 'unapproved',
      name:
        typeof command === 'string' ? command : typeof url === 'string' ? `POST ${url}` : jsonPath(raw.at),
      event: raw.event,
      dialect,
      origin: { source: `${file}#/${raw.at.map(String).join('/')}`, scope, file, path: jsonPath(raw.at) },
      reason: `project hooks are ${why}: run \`hookwerk trust\``,
    };
  });
}

/** Managed, user and system settings need no consent; they are read bounded all the same [L-TRUST-4]. */
export function readTrustedSource(file: string): AdmittedFile {
  const read = readSourceFile(file, MAX_SOURCE_BYTES);
  if (read.kind === 'missing') return { kind: 'absent' };
  if (read.kind === 'refused')
    return { kind: 'error', issue: { file, path: '$', message: `file ${read.message}` } };
  return { kind: 'text', text: read.text };
}
