/**
 * What `install` tells the user beyond the change itself [R-INST-1]: what they must still do
 * before the agent runs the new entries (its own trust steps), and switches that keep them from
 * running. Each from the agent's research facts (research/*-facts.md, the Gemini CLI 0.61 code).
 */
import path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { MAX_SOURCE_BYTES } from '../consent/project-surface.ts';
import { isPlainObject } from '../core/plain-object.ts';
import { readSourceFile } from '../core/read-source.ts';
import { codexHomeDir } from '../dialects/codex/install.ts';
import type { HookAgentName } from '../dialects/hook-agents.ts';

export interface NoteContext {
  readonly scope: 'project' | 'user' | 'system';
  readonly file: string;
  /** The file's value after install. */
  readonly value: Record<string, unknown>;
  readonly projectDir: string | undefined;
  readonly home: string;
  readonly env: NodeJS.ProcessEnv;
}

export interface AgentNotes {
  readonly notes: string[];
  readonly warnings: string[];
}

const NOTES: Record<HookAgentName, (ctx: NoteContext) => AgentNotes> = {
  claude: (ctx) => ({
    notes: [
      'Claude Code runs hooks only after its trust dialog for the folder was accepted (claude -p counts the folder as trusted).',
    ],
    warnings:
      ctx.value.disableAllHooks === true
        ? [
            `${ctx.file} sets "disableAllHooks": true: Claude Code runs none of these hooks until it is removed`,
          ]
        : [],
  }),
  gemini: (ctx) => ({
    notes: [
      // Gemini CLI 0.61 (hookRegistry.processHooksFromConfig) loads no hook, user hooks included, in a folder it does not trust.
      'Gemini CLI runs hooks, user hooks too, only in a folder it trusts: trust the folder when it asks (or in /permissions); for headless runs set GEMINI_CLI_TRUST_WORKSPACE=true.',
    ],
    warnings: geminiSwitches(ctx),
  }),
  codex: (ctx) =>
    ctx.scope === 'system'
      ? codexRequirementsNotes(ctx)
      : {
          notes: [
            ...(ctx.scope === 'project'
              ? [
                  `Codex reads ${path.join(ctx.projectDir ?? '.', '.codex')} only in a trusted project: run codex there and choose "Trust and continue" (or run codex exec --trust there once).`,
                ]
              : []),
            'Codex runs a hook only after you trusted it: start codex and, at "Hooks need review", choose "Trust all and continue" (or review them in /hooks); codex exec skips untrusted hooks silently. A changed command (install run again after the native client was built) needs that review again.',
          ],
          warnings: codexSwitches(ctx),
        },
  copilot: (ctx) => ({
    notes:
      ctx.scope === 'project'
        ? [
            'Copilot CLI loads repository hooks only in a folder you trusted (it asks at the first start there); for copilot -p, trust the folder or set GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true.',
          ]
        : [],
    warnings:
      ctx.scope === 'project' && ctx.projectDir !== undefined
        ? disableAllHooks(path.join(ctx.projectDir, '.github', 'copilot', 'settings.json'), 'Copilot CLI')
        : [],
  }),
  cursor: (ctx) => ({
    notes: ctx.scope === 'project' ? ['Cursor runs project hooks only in a trusted workspace.'] : [],
    warnings: [],
  }),
};

export function agentNotes(agent: HookAgentName, ctx: NoteContext): AgentNotes {
  return NOTES[agent](ctx);
}

/** `hooksConfig.enabled: false` (or the older `hooks.enabled`), and our name in a `disabled` list. */
function geminiSwitches(ctx: NoteContext): string[] {
  const out: string[] = [];
  for (const key of ['hooksConfig', 'hooks']) {
    const owner = ctx.value[key];
    if (!isPlainObject(owner)) continue;
    if (owner.enabled === false)
      out.push(`${ctx.file} sets ${key}.enabled to false: Gemini CLI runs no hook until it is true`);
    if (Array.isArray(owner.disabled) && owner.disabled.includes('hookwerk'))
      out.push(
        `${ctx.file} lists "hookwerk" in ${key}.disabled: Gemini CLI skips these hooks until it is removed`,
      );
  }
  return out;
}

/**
 * [T-MGD-2] Codex's requirements file: its hooks need no trust review, but a user's
 * `[features] hooks = false` or `codex --disable hooks` turns them off unless the file pins the
 * feature on, and user hooks run beside them without `allow_managed_hooks_only` (both seen with
 * codex-cli 0.171: docs/managed.md).
 */
function codexRequirementsNotes(ctx: NoteContext): AgentNotes {
  const notes = [
    'Codex runs the hooks of its requirements file for every user without its hook trust review (managed hooks).',
  ];
  if (ctx.value.allow_managed_hooks_only !== true)
    notes.push(
      `user, project and plugin hooks run beside these: allow_managed_hooks_only = true in ${ctx.file} runs managed hooks only`,
    );
  const features = ctx.value.features;
  const pinned = isPlainObject(features) ? features.hooks : undefined;
  const warnings =
    pinned === false
      ? [`${ctx.file} sets hooks = false under [features]: Codex runs none of these hooks until it is true`]
      : pinned === true
        ? []
        : [
            `a user turns these hooks off with hooks = false under [features] in their config.toml, or codex --disable hooks: add hooks = true under [features] in ${ctx.file} to keep them on for everyone`,
          ];
  return { notes, warnings };
}

/** `[features] hooks = false` (or the old `codex_hooks`) in a config.toml Codex loads for these hooks. */
function codexSwitches(ctx: NoteContext): string[] {
  const files = [path.join(codexHomeDir(ctx.home, ctx.env), 'config.toml')];
  if (ctx.scope === 'project' && ctx.projectDir !== undefined)
    files.push(path.join(ctx.projectDir, '.codex', 'config.toml'));
  return files.flatMap((file) => {
    const read = readSourceFile(file, MAX_SOURCE_BYTES);
    if (read.kind !== 'text') return [];
    let value: unknown;
    try {
      value = parseToml(read.text);
    } catch {
      return [];
    }
    const features = isPlainObject(value) ? value.features : undefined;
    if (!isPlainObject(features)) return [];
    const off = features.hooks === false || (features.hooks === undefined && features.codex_hooks === false);
    return off
      ? [`${file} turns hooks off ([features] hooks = false): Codex runs none until it is true`]
      : [];
  });
}

function disableAllHooks(file: string, label: string): string[] {
  const read = readSourceFile(file, MAX_SOURCE_BYTES);
  if (read.kind !== 'text') return [];
  let value: unknown;
  try {
    value = JSON.parse(read.text);
  } catch {
    return [];
  }
  return isPlainObject(value) && value.disableAllHooks === true
    ? [`${file} sets "disableAllHooks": true: ${label} runs none of these hooks until it is removed`]
    : [];
}
