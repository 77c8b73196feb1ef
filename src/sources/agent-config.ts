/** What the Claude Code and Gemini CLI loaders produce: sources, definitions, problems, consent. */
import type { Admission, AdmittedFile, ConsentSummary } from '../consent/project-admission.ts';
import type { ProjectSurface } from '../consent/project-consent.ts';
import type { ProjectRead } from '../consent/project-surface.ts';
import { MAX_SOURCE_BYTES } from '../consent/project-surface.ts';
import type { ConfigIssue } from '../core/issues.ts';
import { jsonPath } from '../core/issues.ts';
import { parseJsonText } from '../core/json-text.ts';
import { readSourceFile } from '../core/read-source.ts';
import type { GateLayer } from '../dispatch/gate-layer.ts';
import type {
  AgentDialectName,
  AgentHook,
  GateEntry,
  HookOrigin,
  HookScope,
  UnapprovedHook,
} from '../registry/hook-definition.ts';
import { ruleName } from '../rules/rule-name.ts';
import { type RawHandler, walkAgentHooks } from './agent-settings.ts';

/** What became of one source file. */
/** A longer hook timeout is cut to this: a gate that waits an hour is a hung gate. */
export const MAX_AGENT_TIMEOUT_MS = 3_600_000;

/** Where a handler found at `at` in `file` came from (`file#/json/pointer`, its JSONPath). */
export function handlerOrigin(file: string, scope: HookScope, at: readonly PropertyKey[]): HookOrigin {
  return { source: `${file}#/${at.map(String).join('/')}`, scope, file, path: jsonPath(at) };
}

/** A timeout in ms, made whole, at least 1, at most MAX_AGENT_TIMEOUT_MS. */
export function agentTimeoutMs(ms: number): number {
  return Math.min(MAX_AGENT_TIMEOUT_MS, Math.max(1, Math.round(ms)));
}

export interface AgentSource {
  dialect: AgentDialectName;
  scope: HookScope;
  file: string;
  label: string;
  exists: boolean;
  /** `ok`, `invalid` (skipped whole: unreadable or not JSON), `unapproved` (listed, never evaluated), `absent`. */
  state: 'ok' | 'invalid' | 'unapproved' | 'absent';
  /** Its hooks are in force. */
  ok: boolean;
  hookCount: number;
  /**
   * [G-PERM-1] Rules of the file that are no hook (a policy's permission rules and guards), in
   * force or waiting for approval: a project file holding them needs consent as hooks do.
   */
  ruleCount?: number;
  /** The file differs from the approved text, which is what runs [L-TRUST-6]. */
  newerVersionPending?: boolean;
}

export interface AgentConfig {
  dialect: AgentDialectName;
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
  /**
   * [G-FAIL-1] Files that exist but cannot be used and must not leave the gate open (hookwerk's
   * policy files): the gate denies on its gate events while any is listed, unless `open`.
   */
  unusable?: UnusableSources;
  /**
   * [G-PERM-1] Layers of verdicts that run before the hooks, in order (the policy's
   * permission rules, then its guards); none for the agents' own files.
   */
  layers?: readonly GateLayer[];
  /**
   * [L-TRUST-11] One line per project source whose rules do not run for want of approval and that
   * no skipped run would name (a policy file of permission rules or guards holds no hook): the
   * engine's logger warns each once, naming the file and how to approve it.
   */
  unapproved?: readonly string[];
  consent: ConsentSummary;
  surface: ProjectSurface;
  projectTexts: Record<string, string>;
}

/** One unusable file as a record names it: `file` (home as `~`), `file#$.path`, and the one-line reason. */
export interface UnusableLine {
  readonly file: string;
  readonly source: string;
  readonly text: string;
}

/** [G-FAIL-1] The problems that make files unusable, and whether the user asked to stay open anyway. */
export interface UnusableSources {
  readonly issues: readonly ConfigIssue[];
  /** One per file: what the agent, stderr and the journal are told (its first problem). */
  readonly lines: readonly UnusableLine[];
  /** `HOOKWERK_POLICY_ERRORS=open` in the agent's environment: no objection instead of a deny. */
  readonly open: boolean;
}

export function agentConfig(parts: {
  dialect: AgentDialectName;
  projectDir: string;
  home: string;
  sources: AgentSource[];
  entries: GateEntry[];
  issues: ConfigIssue[];
  warnings: ConfigIssue[];
  consent: ConsentSummary;
  project: ProjectRead;
  unusable?: UnusableSources;
  layers?: readonly GateLayer[];
}): AgentConfig {
  const hooks = parts.entries.filter((e): e is AgentHook => e.kind !== 'unapproved' && e.dialect !== 'lurus');
  const consent = parts.consent;
  if (
    !parts.sources.some(
      (s) =>
        (s.scope === 'project' || s.scope === 'local' || s.scope === 'plugin') &&
        (s.hookCount > 0 || (s.ruleCount ?? 0) > 0),
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
    ...(parts.unusable !== undefined ? { unusable: parts.unusable } : {}),
    ...(parts.layers !== undefined && parts.layers.length > 0 ? { layers: parts.layers } : {}),
  };
}

/** [L-TRUST-3] The handlers of an unapproved file, named from the bare JSON, never evaluated. */
function unapprovedEntries(
  dialect: AgentDialectName,
  file: string,
  scope: HookScope,
  raws: readonly RawHandler[],
  why: string,
): UnapprovedHook[] {
  return raws.map((raw) => {
    const command: unknown = Reflect.get(raw.handler, 'command');
    const url: unknown = Reflect.get(raw.handler, 'url');
    const rule = Reflect.get(raw.handler, 'type') === 'rule';
    return {
      kind: 'unapproved',
      name:
        raw.name ??
        (rule
          ? ruleName(Reflect.get(raw.handler, 'name'), Reflect.get(raw.handler, 'when'))
          : typeof command === 'string'
            ? command
            : typeof url === 'string'
              ? `POST ${url}`
              : jsonPath(raw.at)),
      event: raw.event,
      dialect,
      origin: handlerOrigin(file, scope, raw.at),
      reason: `project hooks are ${why}: run \`hookwerk trust\``,
    };
  });
}

/** Managed, user and system settings need no consent; they are read bounded all the same [L-TRUST-4]. */
function readTrustedSource(file: string): AdmittedFile {
  const read = readSourceFile(file, MAX_SOURCE_BYTES);
  if (read.kind === 'missing') return { kind: 'absent' };
  if (read.kind === 'refused')
    return { kind: 'error', issue: { file, path: '$', message: `file ${read.message}` } };
  return { kind: 'text', text: read.text };
}

/** A source file's text parsed into its settings value, or the issue that skips the file. */
export type SourceParse = (file: string, text: string) => ReturnType<typeof parseJsonText>;

/** One source file to read: where, whose, and whether it needs the project's consent. */
export interface AgentSourceSpec {
  scope: HookScope;
  file: string;
  label: string;
  /** Project, local, plugin: admitted under consent. */
  project: boolean;
  /** How its text becomes its value, when not plain JSON (hookwerk's policy files are JSONC [G-FAIL-1]). */
  parse?: SourceParse;
  /** [G-PERM-1] How many rules besides hooks its value holds (a policy's permissions and guards). */
  rules?: (value: object) => number;
  /**
   * [T-MGD-1] Why the file must not be read even if it is there (the managed policy when root does
   * not own it): the file then counts as present and broken, with this reason.
   */
  refuse?: () => string | undefined;
}

/** A source file opened: its settings object and handlers, or nothing more to do with it. */
type OpenedSource = { kind: 'done' } | { kind: 'compile'; value: object; raws: RawHandler[] };

/**
 * The part of loading that is the same for Claude Code and Gemini CLI files: admit (or read) the
 * file, parse it (invalid JSON or a non-object skips it whole [C-SRC-3]), walk its handlers
 * leniently, and list an unapproved file's handlers without evaluating them [L-TRUST-3].
 * Records what became of the file in `sources`, `issues` and `entries`.
 */
export function openAgentSource(
  dialect: AgentDialectName,
  spec: AgentSourceSpec,
  admission: Admission,
  out: { sources: AgentSource[]; issues: ConfigIssue[]; warnings: ConfigIssue[]; entries: GateEntry[] },
  settingKeys?: ReadonlySet<string>,
  /** How the `hooks` map is walked: Claude's `{EVENT: [{matcher?, hooks: [...]}]}` unless given. */
  walk: typeof walkAgentHooks = walkAgentHooks,
  /** How the file's text becomes its settings value (default: JSON); a dialect's own format (Codex's TOML). */
  parse: SourceParse = spec.parse ?? parseJsonText,
): OpenedSource {
  const source: AgentSource = {
    dialect,
    scope: spec.scope,
    file: spec.file,
    label: spec.label,
    exists: false,
    state: 'absent',
    ok: false,
    hookCount: 0,
  };
  out.sources.push(source);
  if (spec.project && admission.consent.pending.includes(spec.file)) source.newerVersionPending = true;
  const fail = (issue: ConfigIssue): OpenedSource => {
    out.issues.push(issue);
    source.state = 'invalid';
    return { kind: 'done' };
  };
  const refused = spec.refuse?.();
  if (refused !== undefined) {
    source.exists = true;
    return fail({ file: spec.file, path: '$', message: refused });
  }
  const admitted = spec.project ? admission.file(spec.file) : readTrustedSource(spec.file);
  if (admitted.kind === 'absent') return { kind: 'done' };
  source.exists = true;
  if (admitted.kind === 'error') return fail(admitted.issue);
  const json = parse(spec.file, admitted.text);
  if (!json.ok) return fail(json.issue);
  if (typeof json.value !== 'object' || json.value === null || Array.isArray(json.value))
    return fail({ file: spec.file, path: '$', message: 'must be a JSON object' });
  const raws = walk(spec.file, Reflect.get(json.value, 'hooks'), ['hooks'], out.warnings, settingKeys);
  const rules = spec.rules?.(json.value) ?? 0;
  if (rules > 0) source.ruleCount = rules;
  if (admitted.kind === 'unapproved') {
    const listed = unapprovedEntries(dialect, spec.file, spec.scope, raws, admitted.reason);
    source.state = 'unapproved';
    source.hookCount = listed.length;
    out.entries.push(...listed);
    return { kind: 'done' };
  }
  return { kind: 'compile', value: json.value, raws };
}

/** Marks a source whose handlers were compiled. */
export function sourceCompiled(sources: readonly AgentSource[], file: string, hookCount: number): void {
  const source = sources.find((s) => s.file === file);
  if (source === undefined) return;
  source.state = 'ok';
  source.ok = true;
  source.hookCount = hookCount;
}
