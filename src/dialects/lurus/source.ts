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
import {
  type AdmittedFile,
  admitProject,
  type ConsentPolicy,
  type ConsentSummary,
} from '../../consent/project-admission.ts';
import type { HookConsent, ProjectSurface } from '../../consent/project-consent.ts';
import type { ProjectRead } from '../../consent/project-surface.ts';
import { lurusDir, projectKey } from '../../consent/trust-store.ts';
import { primaryScriptOf } from '../../core/command-words.ts';
import { lurusHookEnv, withoutInterpreterCaches } from '../../core/env-policy.ts';
import { homeFolder } from '../../core/home.ts';
import { type ConfigIssue, fromZodIssues, jsonPath } from '../../core/issues.ts';
import { parseJsonText } from '../../core/json-text.ts';
import { isPlainObject } from '../../core/plain-object.ts';
import { readSourceFile } from '../../core/read-source.ts';
import { isLurusEvent, LURUS_EVENT_NAMES, type LurusEventName } from '../../events/lurus-events.ts';
import type {
  GateEntry,
  LurusCommandHook,
  LurusHttpHook,
  UnapprovedHook,
} from '../../registry/hook-definition.ts';
import { compileMatcher } from '../../registry/matcher.ts';
import { literalHostProblem } from '../../runners/blocked-address.ts';
import { headerProblems, methodProblem, normalizeMethod, urlProblem } from '../../runners/http-headers.ts';
import { readGateProject } from '../surfaces/gate-project.ts';
import {
  LURUS_LIMITS,
  type LurusEventMap,
  type LurusHookConfig,
  lurusEventMapSchema,
  lurusHooksFileSchema,
} from './schema.ts';

export { lurusDir };

export type LurusScope = 'global' | 'project';

/** Where an event map lives: a whole `hooks.json`, or one key of a `settings.json`. */
interface LurusSourceSpec {
  scope: LurusScope;
  file: string;
  /** `null`: the file is the event map; otherwise the settings key holding it. */
  key: null | 'hooks' | 'globalHooks' | 'projectHooks';
}

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

/** [L-SRC-1..3] The six sources, in the order their arrays are concatenated. */
function lurusSourceSpecs(projectDir: string, home: string): LurusSourceSpec[] {
  const g = lurusDir(home);
  const p = lurusDir(projectDir);
  return [
    { scope: 'global', file: path.join(g, 'hooks.json'), key: null },
    { scope: 'global', file: path.join(g, 'settings.json'), key: 'hooks' },
    { scope: 'global', file: path.join(g, 'settings.json'), key: 'globalHooks' },
    { scope: 'project', file: path.join(p, 'hooks.json'), key: null },
    { scope: 'project', file: path.join(p, 'settings.json'), key: 'hooks' },
    { scope: 'project', file: path.join(p, 'settings.json'), key: 'projectHooks' },
  ];
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

type FileText = { exists: false } | { exists: true; text: string } | { exists: true; error: ConfigIssue };

/** Reads every source [L-SRC-1..4]. An unreadable or invalid source is skipped whole and reported. */
export function loadLurusConfig(opts: LoadLurusOptions): LurusConfig {
  // The real path: consent and script paths are keyed by it, whatever symlink led here.
  const projectDir = projectKey(opts.projectDir);
  // [L-TRUST-12] The account's home, never `/`; none stops here with a one-line error.
  const home = homeFolder(opts.home);
  const specs = lurusSourceSpecs(projectDir, home);
  const globals = readGlobals(specs);
  const project = opts.project ?? readGateProject(projectDir, home);
  const admission = admitProject(opts.consent, home, project.surface, project.reads);
  const consent = admission.consent;
  const ctx: CompileContext = {
    projectDir,
    home,
    env: withProjectDir(lurusHookEnv(opts.env ?? process.env), projectDir),
    warnings: [],
  };
  const sources: LurusSource[] = [];
  const issues: ConfigIssue[] = [];
  const entries: GateEntry[] = [];
  const parsed = new Map<string, { ok: true; value: unknown } | { ok: false; issue: ConfigIssue }>();

  for (const spec of specs) {
    const label = spec.key === null ? path.basename(spec.file) : `${path.basename(spec.file)} ${spec.key}`;
    const source: LurusSource = { ...spec, label, exists: false, state: 'absent', ok: false, hookCount: 0 };
    sources.push(source);
    const admitted: AdmittedFile | FileText | undefined =
      spec.scope === 'project' ? admission.file(spec.file) : globals.get(spec.file);
    if (spec.scope === 'project' && consent.pending.includes(spec.file)) source.newerVersionPending = true;
    const read = fileText(admitted);
    if (!read.exists) continue;
    source.exists = true;
    if ('error' in read) {
      // Reported once per file, however many sources it holds.
      if (spec.key === null || spec.key === 'hooks') issues.push(read.error);
      source.state = 'invalid';
      continue;
    }
    let json = parsed.get(spec.file);
    if (json === undefined) {
      json = parseJsonText(spec.file, read.text);
      parsed.set(spec.file, json);
      if (!json.ok) issues.push(json.issue);
    }
    if (!json.ok) {
      source.state = 'invalid';
      continue;
    }
    const located = locateMap(spec, json.value);
    if (located === undefined) {
      source.exists = spec.key === null;
      continue;
    }
    if ('issue' in located) {
      issues.push(located.issue);
      source.state = 'invalid';
      continue;
    }
    source.raw = located.map;
    source.base = located.base;
    if (admitted !== undefined && 'kind' in admitted && admitted.kind === 'unapproved') {
      // [L-TRUST-3] Listed from the bare JSON: no schema, no matcher, nothing resolved.
      const listed = unapprovedHooks(spec, located.map, located.base, admitted.reason);
      source.state = 'unapproved';
      source.hookCount = listed.length;
      entries.push(...listed);
      continue;
    }
    const result = compileSource(spec, located.map, located.base, ctx, consent.consent);
    if (!result.ok) {
      issues.push(...result.issues);
      source.state = 'invalid';
      continue;
    }
    source.state = 'ok';
    source.ok = true;
    source.hookCount = result.hooks.length;
    entries.push(...result.hooks);
  }

  // Stable by event, keeping the source order inside each event [L-SRC-3].
  const order = new Map(LURUS_EVENT_NAMES.map((e, i) => [e, i]));
  const merged = entries
    .map((e, i) => ({ e, i }))
    .sort((a, b) => (order.get(eventOf(a.e)) ?? 0) - (order.get(eventOf(b.e)) ?? 0) || a.i - b.i)
    .map((x) => x.e);
  const hooks = merged.filter((e): e is LurusHook => e.kind === 'process' || e.kind === 'http');
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
    issues,
    warnings: ctx.warnings,
    consent,
    surface: project.surface,
    projectTexts: project.texts,
  };
}

/** An admitted project file or a read global one, as text, error or absence. */
function fileText(admitted: AdmittedFile | FileText | undefined): FileText {
  if (admitted === undefined) return { exists: false };
  if (!('kind' in admitted)) return admitted;
  switch (admitted.kind) {
    case 'absent':
      return { exists: false };
    case 'error':
      return { exists: true, error: admitted.issue };
    case 'text':
    case 'unapproved':
      return { exists: true, text: admitted.text };
  }
}

function eventOf(e: GateEntry): LurusEventName {
  return isLurusEvent(e.event) ? e.event : 'SessionStart';
}

/** The global sources, read bounded [L-TRUST-4]; they need no consent [L-SRC-5]. */
function readGlobals(specs: readonly LurusSourceSpec[]): Map<string, FileText> {
  const files = new Map<string, FileText>();
  for (const { file, scope } of specs) {
    if (scope !== 'global' || files.has(file)) continue;
    const read = readSourceFile(file, LURUS_LIMITS.maxFileBytes);
    files.set(
      file,
      read.kind === 'missing'
        ? { exists: false }
        : read.kind === 'text'
          ? { exists: true, text: read.text }
          : { exists: true, error: { file, path: '$', message: `file ${read.message}` } },
    );
  }
  return files;
}

/** [L-TRUST-3] The hooks of an unapproved source, named from the bare JSON. */
function unapprovedHooks(
  spec: LurusSourceSpec,
  map: unknown,
  base: PropertyKey[],
  why: string,
): UnapprovedHook[] {
  const out: UnapprovedHook[] = [];
  if (!isPlainObject(map)) return out;
  for (const [event, defs] of Object.entries(map)) {
    if (!isLurusEvent(event) || !Array.isArray(defs)) continue;
    defs.forEach((def: unknown, d) => {
      const hooks: unknown = isPlainObject(def) ? Reflect.get(def, 'hooks') : undefined;
      if (!Array.isArray(hooks)) return;
      hooks.forEach((hook: unknown, h) => {
        const at = [...base, event, d, 'hooks', h];
        out.push({
          kind: 'unapproved',
          name: isPlainObject(hook) ? bareName(hook) : jsonPath(at),
          event,
          dialect: 'lurus',
          origin: {
            source: `${spec.file}#/${at.map(String).join('/')}`,
            scope: 'project',
            file: spec.file,
            path: jsonPath(at),
          },
          reason: `project hooks are ${why}: run \`hookwerk trust\``,
        });
      });
    });
  }
  return out;
}

function bareName(hook: object): string {
  const command: unknown = Reflect.get(hook, 'command');
  if (typeof command === 'string') return command;
  const url: unknown = Reflect.get(hook, 'url');
  const method: unknown = Reflect.get(hook, 'method');
  if (typeof url === 'string') return `${typeof method === 'string' ? method.toUpperCase() : 'POST'} ${url}`;
  return '(hook)';
}

/** Finds the event map of a source inside its parsed file; `undefined` when a settings key is absent. */
function locateMap(
  spec: LurusSourceSpec,
  value: unknown,
): { map: unknown; base: PropertyKey[] } | { issue: ConfigIssue } | undefined {
  if (spec.key === null) return { map: value, base: [] };
  if (!isPlainObject(value)) {
    return spec.key === 'hooks'
      ? { issue: { file: spec.file, path: '$', message: 'settings must be a JSON object' } }
      : undefined;
  }
  if (!Object.hasOwn(value, spec.key)) return undefined;
  const map: unknown = Reflect.get(value, spec.key);
  return { map, base: [spec.key] };
}

interface CompileContext {
  projectDir: string;
  home: string;
  /** [L-RUN-3] The environment every command hook of this load gets. */
  env: Readonly<Record<string, string>>;
  warnings: ConfigIssue[];
}

function compileSource(
  spec: LurusSourceSpec,
  raw: unknown,
  base: PropertyKey[],
  ctx: CompileContext,
  consent: HookConsent | undefined,
): { ok: true; hooks: LurusHook[] } | { ok: false; issues: ConfigIssue[] } {
  const schema = spec.key === null ? lurusHooksFileSchema : lurusEventMapSchema;
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    return {
      ok: false,
      issues: fromZodIssues(
        spec.file,
        parsed.error.issues,
        (parent, key) =>
          parent.length === base.length
            ? `unknown event "${key}" (events are case-sensitive)`
            : `unknown field "${key}"`,
        base,
      ),
    };
  }
  const map: LurusEventMap = parsed.data;
  const issues: ConfigIssue[] = [];
  const hooks: LurusHook[] = [];
  for (const [event, definitions] of Object.entries(map)) {
    if (definitions === undefined || !isLurusEvent(event)) continue;
    definitions.forEach((def, d) => {
      const matcher = compileMatcher(def.matcher);
      if (matcher.error !== undefined) {
        ctx.warnings.push({
          file: spec.file,
          path: jsonPath([...base, event, d, 'matcher']),
          message: matcher.error,
        });
      }
      def.hooks.forEach((hook, h) => {
        const at = [...base, event, d, 'hooks', h];
        const problems = hookProblems(hook);
        for (const p of problems)
          issues.push({ file: spec.file, path: jsonPath([...at, p.field]), message: p.message });
        if (problems.length > 0) return;
        const common = {
          event,
          dialect: 'lurus' as const,
          origin: {
            source: `${spec.file}#/${at.map(String).join('/')}`,
            scope: spec.scope,
            file: spec.file,
            path: jsonPath(at),
          },
          matcher,
          timeoutMs: hook.timeout,
          failMode: hook.failMode,
          enabled: true,
          ...(consent !== undefined && spec.scope === 'project' ? { consent } : {}),
        };
        hooks.push(
          hook.type === 'command'
            ? commandHook(
                hook.command,
                hook.keepChildren === true ? { ...common, keepChildren: true } : common,
                ctx,
              )
            : {
                ...common,
                kind: 'http',
                name: `${hook.method.toUpperCase()} ${hook.url}`,
                url: hook.url,
                // Validated by hookProblems above; POST is only the type-level fallback.
                method: normalizeMethod(hook.method) ?? 'POST',
                headers: hook.headers,
                ...(hook.allowLinkLocal === true ? { allowLinkLocal: true } : {}),
              },
        );
      });
    });
  }
  return issues.length > 0 ? { ok: false, issues } : { ok: true, hooks };
}

function commandHook(
  command: string,
  common: Omit<LurusCommandHook, 'kind' | 'name' | 'command' | 'env' | 'cwd' | 'script'>,
  ctx: CompileContext,
): LurusCommandHook {
  const script = primaryScriptOf(command, ctx.projectDir, ctx.home);
  return {
    ...common,
    kind: 'process',
    name: command,
    command,
    env: ctx.env,
    cwd: ctx.projectDir,
    ...(script !== undefined ? { script } : {}),
  };
}

/** [L-RUN-3] Hooks written for Claude Code find their files through CLAUDE_PROJECT_DIR. */
function withProjectDir(env: Record<string, string>, projectDir: string): Readonly<Record<string, string>> {
  env.CLAUDE_PROJECT_DIR = projectDir;
  return Object.freeze(withoutInterpreterCaches(env));
}

/**
 * [L-RUN-5] HTTP settings refused at load: method, URL (and, issue 11, a literal link-local or
 * metadata host unless `allowLinkLocal`), forbidden headers, CR/LF.
 */
export function hookProblems(
  hook: Pick<LurusHookConfig, 'type'> &
    Partial<{ url: string; method: string; headers: Record<string, string>; allowLinkLocal: boolean }>,
): Array<{ field: string; message: string }> {
  if (hook.type !== 'http') return [];
  const out: Array<{ field: string; message: string }> = [];
  const url =
    hook.url === undefined
      ? undefined
      : (urlProblem(hook.url) ?? (hook.allowLinkLocal === true ? undefined : literalHostProblem(hook.url)));
  if (url !== undefined) out.push({ field: 'url', message: url });
  const method = hook.method === undefined ? undefined : methodProblem(hook.method);
  if (method !== undefined) out.push({ field: 'method', message: method });
  for (const message of headerProblems(hook.headers ?? {})) out.push({ field: 'headers', message });
  return out;
}
