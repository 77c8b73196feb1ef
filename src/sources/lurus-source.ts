import { readFileSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { isLurusEvent, type LurusEventName } from '../events/lurus-events.ts';
import { type CompiledMatcher, compileMatcher } from '../registry/matcher.ts';
import { headerProblems, methodProblem, normalizeMethod, urlProblem } from '../runners/http-headers.ts';
import type { HttpMethod } from '../runners/http-types.ts';
import { type ConfigIssue, fromZodIssues, jsonPath, parseJsonText } from './issues.ts';
import {
  LURUS_LIMITS,
  type LurusEventMap,
  type LurusHookConfig,
  lurusEventMapSchema,
  lurusHooksFileSchema,
} from './lurus-schema.ts';

export type LurusScope = 'global' | 'project';

/** Where an event map lives: a whole `hooks.json`, or one key of a `settings.json`. */
export interface LurusSourceSpec {
  scope: LurusScope;
  file: string;
  /** `null`: the file is the event map; otherwise the settings key holding it. */
  key: null | 'hooks' | 'globalHooks' | 'projectHooks';
}

export interface LurusSource extends LurusSourceSpec {
  /** `hooks.json`, or `settings.json globalHooks`: how errors and reviews name it. */
  label: string;
  exists: boolean;
  /** Whether its hooks are in force (false when invalid: skipped whole). */
  ok: boolean;
  hookCount: number;
  /** The event map as parsed (before validation), for `validate`'s complete walk. */
  raw?: unknown;
  /** JSON path segments of the map inside its file (`[]` or `['globalHooks']`). */
  base?: PropertyKey[];
}

export type LurusHookSpec =
  | { kind: 'command'; command: string }
  | { kind: 'http'; url: string; method: HttpMethod; headers: Readonly<Record<string, string>> };

/** One configured gate hook, validated, with its matcher compiled and its origin remembered. */
export type LurusHook = LurusHookSpec & {
  event: LurusEventName;
  scope: LurusScope;
  /** Human name in records: the command, or `METHOD url`. */
  name: string;
  /** `file#/Event/0/hooks/1` */
  source: string;
  file: string;
  /** `$.PreToolUse[0].hooks[1]` inside the file. */
  path: string;
  matcher: CompiledMatcher;
  timeoutMs: number;
  failMode: 'open' | 'closed';
};

export interface LurusConfig {
  projectDir: string;
  home: string;
  sources: LurusSource[];
  /** In force, per event, in merged order [L-SRC-3]. */
  byEvent: ReadonlyMap<LurusEventName, readonly LurusHook[]>;
  all: readonly LurusHook[];
  /** Problems that made a source be skipped. */
  issues: ConfigIssue[];
  /** Problems that do not stop loading but that `validate` reports (invalid matcher regex). */
  warnings: ConfigIssue[];
}

export function lurusDir(base: string): string {
  return path.join(base, '.lurus');
}

/** [L-SRC-1..3] The six sources, in the order their arrays are concatenated. */
export function lurusSourceSpecs(projectDir: string, home: string): LurusSourceSpec[] {
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

export interface LoadLurusOptions {
  projectDir: string;
  /** Home folder holding `.lurus/` (default `$HOME`). */
  home?: string;
}

type FileRead = { exists: false } | { exists: true; text: string } | { exists: true; error: ConfigIssue };

/** Reads every source [L-SRC-1..4]. An unreadable or invalid source is skipped whole and reported. */
export function loadLurusConfig(opts: LoadLurusOptions): LurusConfig {
  // The real path: consent pins and script paths are keyed by it, whatever symlink led here.
  const projectDir = realOrResolved(opts.projectDir);
  const home = path.resolve(opts.home ?? process.env.HOME ?? homedir());
  const files = new Map<string, FileRead>();
  const parsedFiles = new Map<string, { ok: true; value: unknown } | { ok: false; issue: ConfigIssue }>();
  const sources: LurusSource[] = [];
  const issues: ConfigIssue[] = [];
  const warnings: ConfigIssue[] = [];
  const all: LurusHook[] = [];

  for (const spec of lurusSourceSpecs(projectDir, home)) {
    const label = spec.key === null ? path.basename(spec.file) : `${path.basename(spec.file)} ${spec.key}`;
    const source: LurusSource = { ...spec, label, exists: false, ok: true, hookCount: 0 };
    sources.push(source);
    let read = files.get(spec.file);
    if (read === undefined) {
      read = readSource(spec.file);
      files.set(spec.file, read);
    }
    if (!read.exists) continue;
    source.exists = true;
    if ('error' in read) {
      // Reported once per file, however many sources it holds.
      if (spec.key === null || spec.key === 'hooks') issues.push(read.error);
      source.ok = false;
      continue;
    }
    let parsed = parsedFiles.get(spec.file);
    if (parsed === undefined) {
      parsed = parseJsonText(spec.file, read.text);
      parsedFiles.set(spec.file, parsed);
      if (!parsed.ok) issues.push(parsed.issue);
    }
    if (!parsed.ok) {
      source.ok = false;
      continue;
    }
    const located = locateMap(spec, parsed.value);
    if (located === undefined) {
      source.exists = spec.key === null;
      continue;
    }
    if ('issue' in located) {
      issues.push(located.issue);
      source.ok = false;
      continue;
    }
    source.raw = located.map;
    source.base = located.base;
    const result = compileSource(spec, located.map, located.base, warnings);
    if (!result.ok) {
      issues.push(...result.issues);
      source.ok = false;
      continue;
    }
    source.hookCount = result.hooks.length;
    all.push(...result.hooks);
  }

  // Stable sort by event keeps the source order inside each event [L-SRC-3].
  const byEvent = new Map<LurusEventName, LurusHook[]>();
  for (const hook of all) {
    const list = byEvent.get(hook.event);
    if (list) list.push(hook);
    else byEvent.set(hook.event, [hook]);
  }
  return { projectDir, home, sources, byEvent, all, issues, warnings };
}

function readSource(file: string): FileRead {
  try {
    const size = statSync(file).size;
    if (size > LURUS_LIMITS.maxFileBytes) {
      return {
        exists: true,
        error: {
          file,
          path: '$',
          message: `file is ${size} bytes; the limit is ${LURUS_LIMITS.maxFileBytes}`,
        },
      };
    }
    return { exists: true, text: readFileSync(file, 'utf8') };
  } catch (err) {
    const code = typeof err === 'object' && err !== null && 'code' in err ? err.code : undefined;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { exists: false };
    return {
      exists: true,
      error: { file, path: '$', message: `cannot read: ${err instanceof Error ? err.message : String(err)}` },
    };
  }
}

/** Finds the event map of a source inside its parsed file; `undefined` when a settings key is absent. */
function locateMap(
  spec: LurusSourceSpec,
  value: unknown,
): { map: unknown; base: PropertyKey[] } | { issue: ConfigIssue } | undefined {
  if (spec.key === null) return { map: value, base: [] };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return spec.key === 'hooks'
      ? { issue: { file: spec.file, path: '$', message: 'settings must be a JSON object' } }
      : undefined;
  }
  if (!Object.hasOwn(value, spec.key)) return undefined;
  const map: unknown = Reflect.get(value, spec.key);
  return { map, base: [spec.key] };
}

function compileSource(
  spec: LurusSourceSpec,
  raw: unknown,
  base: PropertyKey[],
  warnings: ConfigIssue[],
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
        warnings.push({
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
        hooks.push({
          ...toSpec(hook),
          event,
          scope: spec.scope,
          name: hook.type === 'command' ? hook.command : `${hook.method.toUpperCase()} ${hook.url}`,
          source: `${spec.file}#/${at.map(String).join('/')}`,
          file: spec.file,
          path: jsonPath(at),
          matcher,
          timeoutMs: hook.timeout,
          failMode: hook.failMode,
        });
      });
    });
  }
  return issues.length > 0 ? { ok: false, issues } : { ok: true, hooks };
}

/** [L-RUN-5] HTTP settings refused at load: method, URL, forbidden headers, CR/LF. */
export function hookProblems(
  hook: Pick<LurusHookConfig, 'type'> &
    Partial<{ url: string; method: string; headers: Record<string, string> }>,
): Array<{ field: string; message: string }> {
  if (hook.type !== 'http') return [];
  const out: Array<{ field: string; message: string }> = [];
  const url = hook.url === undefined ? undefined : urlProblem(hook.url);
  if (url !== undefined) out.push({ field: 'url', message: url });
  const method = hook.method === undefined ? undefined : methodProblem(hook.method);
  if (method !== undefined) out.push({ field: 'method', message: method });
  for (const message of headerProblems(hook.headers ?? {})) out.push({ field: 'headers', message });
  return out;
}

function toSpec(hook: LurusHookConfig): LurusHookSpec {
  if (hook.type === 'command') return { kind: 'command', command: hook.command };
  // Validated by hookProblems before we get here; POST is only the type-level fallback.
  return {
    kind: 'http',
    url: hook.url,
    method: normalizeMethod(hook.method) ?? 'POST',
    headers: hook.headers,
  };
}

function realOrResolved(dir: string): string {
  const resolved = path.resolve(dir);
  try {
    return realpathSync(resolved);
  } catch {
    return resolved;
  }
}
