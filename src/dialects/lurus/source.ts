/**
 * The gate dialect's sources [L-SRC-1..5] turned into definitions, under consent [§2.6].
 *
 * Every source is read bounded [L-TRUST-4]. Global sources are trusted. Project sources:
 * - not approved: nothing of them is evaluated [L-TRUST-3]; their hooks are listed (to be
 *   recorded as `skipped_untrusted`) from the bare JSON, without compiling a matcher;
 * - approved: the approved text kept in the trust store is what is compiled and runs
 *   [L-TRUST-6], whatever the file holds now; each hook carries the approval, re-checked before
 *   each run.
 * Without a consent policy (`validate`, the `trust` review) the current text of every source is
 * compiled, with the linear-time matchers, so its problems can be shown.
 */
import path from 'node:path';
import type {
  Admission,
  AdmittedFile,
  ConsentPolicy,
  ConsentSummary,
} from '../../consent/project-admission.ts';
import type { ProjectSurface } from '../../consent/project-consent.ts';
import type { ProjectRead } from '../../consent/project-surface.ts';
import { lurusDir } from '../../consent/trust-store.ts';
import { lurusHookEnv } from '../../core/env-policy.ts';
import type { ConfigIssue } from '../../core/issues.ts';
import { parseJsonText } from '../../core/json-text.ts';
import { isLurusEvent, LURUS_EVENT_NAMES, type LurusEventName } from '../../events/lurus-events.ts';
import type { GateEntry, LurusCommandHook, LurusHttpHook } from '../../registry/hook-definition.ts';
import { startAgentLoad } from '../agent/load.ts';
import { type CompileContext, compileSource, withProjectDir } from './compile.ts';
import {
  type FileText,
  fileText,
  type LurusScope,
  type LurusSourceSpec,
  locateMap,
  lurusSourceSpecs,
  readGlobals,
  unapprovedHooks,
} from './source-files.ts';

export type { LurusScope };
export { lurusDir };

/** What became of one source. */
export type SourceState =
  /** Its hooks are in force (from the file, or for an approved project from the approved text). */
  | 'ok'
  /** Skipped whole: unreadable, invalid JSON, or an invalid definition (see `issues`). */
  | 'invalid'
  /** A project source without consent: listed, never evaluated. */
  | 'unapproved'
  /** The source is absent (or has no such key). */
  | 'absent';

export interface LurusSource extends LurusSourceSpec {
  /** `hooks.json`, or `settings.json globalHooks`: how errors and reviews name it. */
  label: string;
  exists: boolean;
  state: SourceState;
  /** Whether its hooks are in force (false when invalid or unapproved). */
  ok: boolean;
  hookCount: number;
  /** Project sources of an approved project: the file differs from the approved text, which runs. */
  newerVersionPending?: boolean;
  /** The event map as parsed (before validation), for `validate`'s complete walk. */
  raw?: unknown;
  /** JSON path segments of the map inside its file (`[]` or `['globalHooks']`). */
  base?: PropertyKey[];
}

export type LurusHook = LurusCommandHook | LurusHttpHook;

export type { ConsentPolicy, ConsentSummary };

export interface LurusConfig {
  projectDir: string;
  home: string;
  sources: LurusSource[];
  /** Every entry in merged order [L-SRC-3]: compiled hooks, and unapproved ones to list. */
  entries: GateEntry[];
  /** The compiled hooks alone, in merged order. */
  hooks: LurusHook[];
  /** Problems that made a source be skipped. */
  issues: ConfigIssue[];
  /** Problems that do not stop loading but that `validate` reports (uncompilable matchers). */
  warnings: ConfigIssue[];
  consent: ConsentSummary;
  /** What an approval of this project covers (for the `trust` review). */
  surface: ProjectSurface;
  /** The current text of each existing project source, of every dialect (what an approval would keep). */
  projectTexts: Record<string, string>;
}

interface LoadLurusOptions {
  projectDir: string;
  /** Home folder holding `.lurus/` (default: the account's home, see core/home.ts). */
  home?: string;
  /** Parent environment of command hooks [L-RUN-3]; default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Omit for review mode (validate, trust): every current text is compiled. */
  consent?: ConsentPolicy;
  /** The project as already read (the engine reads it once for every dialect). */
  project?: ProjectRead;
}

/** Reads every source [L-SRC-1..4]. An unreadable or invalid source is skipped whole and reported. */
export function loadLurusConfig(opts: LoadLurusOptions): LurusConfig {
  // The real path (consent and script paths are keyed by it), the account's home [L-TRUST-12].
  const { projectDir, home, project, admission } = startAgentLoad(opts, 'allowlist');
  const specs = lurusSourceSpecs(projectDir, home);
  const load: LurusLoad = {
    globals: readGlobals(specs),
    admission,
    ctx: {
      projectDir,
      home,
      env: withProjectDir(lurusHookEnv(opts.env ?? process.env), projectDir),
      warnings: [],
    },
    issues: [],
    entries: [],
    parsed: new Map(),
  };
  const sources = specs.map((spec) => readSource(spec, load));
  // Stable by event, keeping the source order inside each event [L-SRC-3].
  const order = new Map(LURUS_EVENT_NAMES.map((e, i) => [e, i]));
  const merged = load.entries
    .map((e, i) => ({ e, i }))
    .sort((a, b) => (order.get(eventOf(a.e)) ?? 0) - (order.get(eventOf(b.e)) ?? 0) || a.i - b.i)
    .map((x) => x.e);
  const hooks = merged.filter((e): e is LurusHook => e.kind === 'process' || e.kind === 'http');
  const consent = admission.consent;
  if (!sources.some((s) => s.scope === 'project' && s.hookCount > 0)) {
    consent.none = true;
    if (!consent.trusted || consent.reason === 'review') {
      consent.trusted = true;
      consent.reason = 'no project hooks';
    }
  }
  return {
    projectDir,
    home,
    sources,
    entries: merged,
    hooks,
    issues: load.issues,
    warnings: load.ctx.warnings,
    consent,
    surface: project.surface,
    projectTexts: project.texts,
  };
}

/** What reading the sources shares: the files read, the admission, and what they add up to. */
interface LurusLoad {
  globals: Map<string, FileText>;
  admission: Admission;
  ctx: CompileContext;
  issues: ConfigIssue[];
  entries: GateEntry[];
  /** Each file parsed once, however many sources it holds. */
  parsed: Map<string, { ok: true; value: unknown } | { ok: false; issue: ConfigIssue }>;
}

/** One source: read (admitted), parsed, its map found, then listed or compiled into `load`. */
function readSource(spec: LurusSourceSpec, load: LurusLoad): LurusSource {
  const label = spec.key === null ? path.basename(spec.file) : `${path.basename(spec.file)} ${spec.key}`;
  const source: LurusSource = { ...spec, label, exists: false, state: 'absent', ok: false, hookCount: 0 };
  const consent = load.admission.consent;
  const admitted: AdmittedFile | FileText | undefined =
    spec.scope === 'project' ? load.admission.file(spec.file) : load.globals.get(spec.file);
  if (spec.scope === 'project' && consent.pending.includes(spec.file)) source.newerVersionPending = true;
  const read = fileText(admitted);
  if (!read.exists) return source;
  source.exists = true;
  const invalid = (...issues: ConfigIssue[]): LurusSource => {
    load.issues.push(...issues);
    source.state = 'invalid';
    return source;
  };
  // An unreadable file is reported once, however many sources it holds.
  if ('error' in read) return spec.key === null || spec.key === 'hooks' ? invalid(read.error) : invalid();
  let json = load.parsed.get(spec.file);
  if (json === undefined) {
    json = parseJsonText(spec.file, read.text);
    load.parsed.set(spec.file, json);
    if (!json.ok) load.issues.push(json.issue);
  }
  if (!json.ok) return invalid();
  const located = locateMap(spec, json.value);
  if (located === undefined) {
    source.exists = spec.key === null;
    return source;
  }
  if ('issue' in located) return invalid(located.issue);
  source.raw = located.map;
  source.base = located.base;
  if (admitted !== undefined && 'kind' in admitted && admitted.kind === 'unapproved') {
    // [L-TRUST-3] Listed from the bare JSON: no schema, no matcher, nothing resolved.
    const listed = unapprovedHooks(spec, located.map, located.base, admitted.reason);
    source.state = 'unapproved';
    source.hookCount = listed.length;
    load.entries.push(...listed);
    return source;
  }
  const result = compileSource(spec, located.map, located.base, load.ctx, consent.consent);
  if (!result.ok) return invalid(...result.issues);
  source.state = 'ok';
  source.ok = true;
  source.hookCount = result.hooks.length;
  load.entries.push(...result.hooks);
  return source;
}

function eventOf(e: GateEntry): LurusEventName {
  return isLurusEvent(e.event) ? e.event : 'SessionStart';
}
