/**
 * Cursor's hook files [A-CUR-1] (research/cursor-facts.md §2, §3, §10): the enterprise file
 * (`cursor.enterpriseFile`, default the MDM path of the platform), `<project>/.cursor/hooks.json`
 * and `<home>/.cursor/hooks.json`, each `{version: 1, hooks: {EVENT: [{command, type?, matcher?,
 * timeout?, failClosed?, loop_limit?}]}}` with flat entries. Every hook of every file runs;
 * configuration order is Cursor's priority order (enterprise, project, user), which is how the
 * merge lets a higher source win a conflict. Project hooks run from the project root, user hooks
 * from `<home>/.cursor/`, enterprise hooks from the enterprise file's folder — whatever `cwd` the
 * input names. Lenient as Cursor and C-SRC-3: a bad entry is skipped with a warning, a file that
 * is not JSON is skipped whole; the project file runs under the project's approval [C-SRC-4].
 * Below them, unless `cursor.claudeFiles` is false, the Claude Code files Cursor also runs
 * (`claude-files.ts`) [A-CUR-1, A-ALL-1].
 */
import path from 'node:path';
import { z } from 'zod';
import type { Admission, ConsentPolicy } from '../../consent/project-admission.ts';
import type { ProjectRead } from '../../consent/project-surface.ts';
import { type ConfigIssue, jsonPath } from '../../core/issues.ts';
import { isPlainObject } from '../../core/plain-object.ts';
import type { AgentCommandHook } from '../../registry/hook-definition.ts';
import {
  type AgentConfig,
  type AgentSourceSpec,
  agentTimeoutMs,
  handlerOrigin,
} from '../../sources/agent-config.ts';
import { eachEventList, type RawHandler, readHandler } from '../../sources/agent-settings.ts';
import { commandText } from '../agent/handler-fields.ts';
import { startAgentLoad } from '../agent/load.ts';
import { consentOf, emptyLoadOut, fileWarner, loadedConfig, readAgentSources } from '../agent/source-loop.ts';
import { loadClaudeFilesForCursor } from './claude-files.ts';
import { isCursorEvent } from './events.ts';
import { compileSearchMatcher } from './matcher.ts';

/**
 * Cursor's docs call the default timeout "platform default" without a number; hookwerk uses 60 s
 * (public hook sets write 3–60 s).
 */
const CURSOR_DEFAULT_TIMEOUT_S = 60;

/** Cursor's enterprise (MDM) hooks file on this platform. */
export function defaultEnterpriseFile(platform: NodeJS.Platform = process.platform): string {
  if (platform === 'darwin') return '/Library/Application Support/Cursor/hooks.json';
  if (platform === 'win32') return 'C:\\ProgramData\\Cursor\\hooks.json';
  return '/etc/cursor/hooks.json';
}

export interface CursorOptions {
  /** The enterprise hooks file (default `/etc/cursor/hooks.json` on Linux). */
  enterpriseFile?: string;
  /** (beyond) `allowlist`: command hooks get the Lurus allowlist environment instead of the engine's. */
  env?: 'inherit' | 'allowlist';
  /**
   * [A-CUR-1] Cursor's "Third-party imports", on by default: the hooks of `.claude/settings.local.json`,
   * `.claude/settings.json` and `~/.claude/settings.json` run too. `false` turns them off.
   */
  claudeFiles?: boolean;
}

interface LoadCursorOptions {
  projectDir: string;
  home?: string;
  env?: NodeJS.ProcessEnv;
  cursor?: CursorOptions;
  consent?: ConsentPolicy;
  project?: ProjectRead;
}

const entrySchema = z.object({
  command: commandText,
  type: z.literal('command').optional(),
  matcher: z.string().optional(),
  timeout: z.number().positive('timeout must be a positive number of seconds').optional(),
  failClosed: z.boolean().optional(),
  loop_limit: z
    .number()
    .int()
    .nonnegative('loop_limit must be a whole number ≥ 0, or null')
    .nullable()
    .optional(),
  keepChildren: z.boolean().optional(),
});
/** The fields it reads: any other is an unknown field (validate warns). */
const ENTRY_FIELDS: ReadonlySet<string> = new Set(Object.keys(entrySchema.shape));

interface SourceSpec extends AgentSourceSpec {
  /** The folder its hooks run from. */
  runFrom: string;
}

/** [A-CUR-1] The sources in Cursor's priority order, highest first. */
function cursorSourceSpecs(projectDir: string, home: string, opts: CursorOptions): SourceSpec[] {
  const enterprise = opts.enterpriseFile ?? defaultEnterpriseFile();
  return [
    {
      scope: 'managed',
      file: enterprise,
      label: 'enterprise hooks',
      project: false,
      runFrom: path.dirname(enterprise),
    },
    {
      scope: 'project',
      file: path.join(projectDir, '.cursor', 'hooks.json'),
      label: 'project hooks',
      project: true,
      runFrom: projectDir,
    },
    {
      scope: 'user',
      file: path.join(home, '.cursor', 'hooks.json'),
      label: 'user hooks',
      project: false,
      runFrom: path.join(home, '.cursor'),
    },
  ];
}

/**
 * Cursor's `hooks` map, `{EVENT: [ENTRY…]}` with flat entries: each entry is one hook, its
 * `matcher` on the entry itself. What cannot be read is skipped with a warning, one entry at a time.
 */
function walkCursorHooks(
  file: string,
  map: unknown,
  base: PropertyKey[],
  warnings: ConfigIssue[],
): RawHandler[] {
  const out: RawHandler[] = [];
  const warn = (at: PropertyKey[], message: string) => warnings.push({ file, path: jsonPath(at), message });
  eachEventList(file, map, base, warnings, 'hooks', new Set(), (event, entries, eventAt) => {
    entries.forEach((entry: unknown, i) => {
      const at = [...eventAt, i];
      if (!isPlainObject(entry)) {
        warn(at, 'must be an object {command, matcher?, ...}; this hook is skipped');
        return;
      }
      if (Array.isArray(entry.hooks) && entry.command === undefined) {
        warn(
          at,
          'Cursor hooks are flat ({command, matcher?, ...}); a nested "hooks" list is Claude Code\'s shape; this entry is skipped',
        );
        return;
      }
      const matcher = entry.matcher;
      if (matcher !== undefined && typeof matcher !== 'string') {
        warn([...at, 'matcher'], 'matcher must be a string (a regular expression); this hook is skipped');
        return;
      }
      out.push({ event, group: i, index: 0, at, matcher, sequential: false, handler: entry });
    });
  });
  return out;
}

/** Reads every Cursor source; see the file comment. */
export function loadCursorConfig(opts: LoadCursorOptions): AgentConfig {
  const cursor = opts.cursor ?? {};
  const start = startAgentLoad(opts, cursor.env);
  const { projectDir, home, admission, baseEnv } = start;
  // [A-CUR-1] The workspace root, always, under both names (CLAUDE_PROJECT_DIR is set).
  baseEnv.CURSOR_PROJECT_DIR = projectDir;
  Object.freeze(baseEnv);
  const out = emptyLoadOut();
  const order = readAgentSources(cursorSourceSpecs(projectDir, home, cursor), {
    dialect: 'cursor',
    admission,
    out,
    open: () => ({ walk: walkCursorHooks }),
    opened: (spec, value) => {
      versionWarning(spec.file, Reflect.get(value, 'version'), out.warnings);
      return true;
    },
    hook: (raw, spec, at) => cursorHook(raw, spec, { env: baseEnv, admission, warnings: out.warnings }, at),
  });
  if (cursor.claudeFiles !== false)
    loadClaudeFilesForCursor({
      projectDir,
      home,
      admission,
      env: baseEnv,
      parentEnv: opts.env ?? process.env,
      order,
      out,
    });
  return loadedConfig('cursor', start, out);
}

/** Cursor 3.x expects `"version": 1`; another (or none) is read as 1, with a warning. */
function versionWarning(file: string, version: unknown, warnings: ConfigIssue[]): void {
  if (version === 1) return;
  warnings.push({
    file,
    path: '$.version',
    message:
      version === undefined
        ? 'version is missing (Cursor 3.x expects "version": 1); read as version 1'
        : `version ${JSON.stringify(version)} is not 1; read as version 1`,
    level: 'warning',
  });
}

/** One Cursor entry as a hook, or undefined (skipped, with a warning) [A-CUR-1]. */
function cursorHook(
  raw: RawHandler,
  spec: SourceSpec,
  ctx: { env: Readonly<Record<string, string>>; admission: Admission; warnings: ConfigIssue[] },
  order: number,
): AgentCommandHook | undefined {
  const warn = (message: string, level?: 'warning') =>
    fileWarner(ctx.warnings, spec.file)(message, raw.at, level);
  if (!isCursorEvent(raw.event)) {
    warn(`"${raw.event}" is not a Cursor hook event: this hook never runs`, 'warning');
    return undefined;
  }
  const type: unknown = Reflect.get(raw.handler, 'type');
  if (type === 'prompt') {
    warn('type "prompt" needs Cursor\'s model to evaluate it; hookwerk skips this hook');
    return undefined;
  }
  if (type !== undefined && type !== 'command') {
    warn(`type ${JSON.stringify(type)} is not a Cursor hook type (command, prompt); this hook is skipped`);
    return undefined;
  }
  const h = readHandler(spec.file, raw, entrySchema, ENTRY_FIELDS, ctx.warnings);
  if (h === undefined) return undefined;
  // Events without a matched value run every hook (the matcher meets no value).
  const matcher = compileSearchMatcher(h.matcher);
  if (matcher.error !== undefined)
    ctx.warnings.push({ file: spec.file, path: jsonPath([...raw.at, 'matcher']), message: matcher.error });
  return {
    kind: 'process',
    dialect: 'cursor',
    name: h.command,
    event: raw.event,
    origin: handlerOrigin(spec.file, spec.scope, raw.at),
    matcher,
    timeoutMs: agentTimeoutMs((h.timeout ?? CURSOR_DEFAULT_TIMEOUT_S) * 1000),
    failMode: h.failClosed === true ? 'closed' : 'open',
    enabled: true,
    order,
    // [A-CUR-1] Every hook of every source runs: none is folded into another.
    dedupeKey: `cursor\0${spec.file}\0${raw.at.map(String).join('/')}`,
    async: false,
    command: h.command,
    shell: '/bin/sh',
    env: ctx.env,
    cwd: spec.runFrom,
    // [A-CUR-1] Project hooks run from the project root, whatever `cwd` the input names.
    ownCwd: true,
    ...(h.loop_limit !== undefined ? { cursorLoopLimit: h.loop_limit } : {}),
    ...(h.keepChildren === true ? { keepChildren: true } : {}),
    ...consentOf(spec, ctx.admission),
  };
}
