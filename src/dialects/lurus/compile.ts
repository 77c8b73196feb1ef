/**
 * One gate-dialect source's event map compiled into hooks [L-SRC-1..4, L-RUN-3, L-RUN-5]: validated
 * whole against the schema (an unknown event or field skips the source), each matcher compiled
 * (one that cannot run is a warning), each HTTP hook's method, URL and headers checked at load.
 */

import type { HookConsent } from '../../consent/project-consent.ts';
import { primaryScriptOf } from '../../core/command-words.ts';
import { withoutInterpreterCaches } from '../../core/env-policy.ts';
import { type ConfigIssue, fromZodIssues, jsonPath } from '../../core/issues.ts';
import { isLurusEvent } from '../../events/lurus-events.ts';
import type { LurusCommandHook, LurusHttpHook } from '../../registry/hook-definition.ts';
import { compileMatcher } from '../../registry/matcher.ts';
import { literalHostProblem } from '../../runners/blocked-address.ts';
import { headerProblems, methodProblem, normalizeMethod, urlProblem } from '../../runners/http-headers.ts';
import { handlerOrigin } from '../../sources/agent-config.ts';
import {
  type LurusEventMap,
  type LurusHookConfig,
  lurusEventMapSchema,
  lurusHooksFileSchema,
} from './schema.ts';
import type { LurusSourceSpec } from './source-files.ts';

type LurusHook = LurusCommandHook | LurusHttpHook;

export interface CompileContext {
  projectDir: string;
  home: string;
  /** [L-RUN-3] The environment every command hook of this load gets. */
  env: Readonly<Record<string, string>>;
  warnings: ConfigIssue[];
}

export function compileSource(
  spec: LurusSourceSpec,
  raw: unknown,
  base: PropertyKey[],
  ctx: CompileContext,
  consent: HookConsent | undefined,
): { ok: true; hooks: LurusHook[] } | { ok: false; issues: ConfigIssue[] } {
  const map = validMap(spec, raw, base);
  if (!map.ok) return map;
  const issues: ConfigIssue[] = [];
  const hooks: LurusHook[] = [];
  for (const [event, definitions] of Object.entries(map.map)) {
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
          origin: handlerOrigin(spec.file, spec.scope, at),
          matcher,
          timeoutMs: hook.timeout,
          failMode: hook.failMode,
          enabled: true,
          ...(consent !== undefined && spec.scope === 'project' ? { consent } : {}),
        };
        hooks.push(lurusHook(hook, common, ctx));
      });
    });
  }
  return issues.length > 0 ? { ok: false, issues } : { ok: true, hooks };
}

/** The source's map validated whole [L-SRC-4]: an unknown event or field skips the source. */
function validMap(
  spec: LurusSourceSpec,
  raw: unknown,
  base: PropertyKey[],
): { ok: true; map: LurusEventMap } | { ok: false; issues: ConfigIssue[] } {
  const schema = spec.key === null ? lurusHooksFileSchema : lurusEventMapSchema;
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { ok: true, map: parsed.data };
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

/** One validated hook: a command (with its script, L-RUN-3) or an HTTP call (L-RUN-5). */
function lurusHook(
  hook: LurusHookConfig,
  common: Omit<LurusCommandHook, 'kind' | 'name' | 'command' | 'env' | 'cwd' | 'script'>,
  ctx: CompileContext,
): LurusHook {
  if (hook.type === 'command')
    return commandHook(
      hook.command,
      hook.keepChildren === true ? { ...common, keepChildren: true } : common,
      ctx,
    );
  return {
    ...common,
    kind: 'http',
    name: `${hook.method.toUpperCase()} ${hook.url}`,
    url: hook.url,
    // Validated by hookProblems above; POST is only the type-level fallback.
    method: normalizeMethod(hook.method) ?? 'POST',
    headers: hook.headers,
    ...(hook.allowLinkLocal === true ? { allowLinkLocal: true } : {}),
  };
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
export function withProjectDir(
  env: Record<string, string>,
  projectDir: string,
): Readonly<Record<string, string>> {
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
