import path from 'node:path';
import { type ConfigIssue, fromZodIssues, jsonPath } from '../../core/issues.ts';
import { parseJsonText } from '../../core/json-text.ts';
import { readSourceFile } from '../../core/read-source.ts';
import { isInside, realPrefixPath } from '../../core/real-path.ts';
import { isPrxEvent } from '../../events/prx-events.ts';
import type { PrxShellHook } from '../../registry/hook-definition.ts';
import { compileMatcher } from '../../registry/matcher.ts';
import { type BwrapLookup, type BwrapSandbox, findBwrap } from '../../sandbox/bwrap.ts';
import {
  actionSettings,
  PRX_LIMITS,
  type PrxActionConfig,
  type PrxHooksFile,
  prxHooksFileSchema,
} from './schema.ts';

/** Observe hooks have no matcher: every action of an event runs. */
const ALWAYS = compileMatcher(undefined);

/** A validated, resolved shell hook action, ready to run: the hook model's PRX shell definition. */
export type PrxAction = PrxShellHook;

/** [P-SEC-7] Loader options. */
interface PrxLoadOptions {
  /** Finds bwrap; called at most once per load, and only when some action asks for it. Default: `findBwrap()`. */
  findBwrap?: () => BwrapLookup;
}

export type PrxLoadResult =
  | {
      ok: true;
      file: string;
      exists: boolean;
      actions: PrxAction[];
      raw: PrxHooksFile | undefined;
      text: string | undefined;
    }
  | { ok: false; file: string; issues: ConfigIssue[] };

export const PRX_HOOKS_FILE = 'hooks.json';

export function prxHooksPath(workspace: string): string {
  return path.join(workspace, PRX_HOOKS_FILE);
}

/**
 * Reads and validates `<workspace>/hooks.json` whole [P-CFG-1..4, P-SEC-1..6]. A missing file means
 * no hooks; anything but a regular file of at most the size limit is refused unread [L-TRUST-4].
 */
export function loadPrxConfig(workspace: string, opts: PrxLoadOptions = {}): PrxLoadResult {
  const file = prxHooksPath(workspace);
  const read = readSourceFile(file, PRX_LIMITS.maxFileBytes);
  if (read.kind === 'missing')
    return { ok: true, file, exists: false, actions: [], raw: undefined, text: undefined };
  if (read.kind === 'refused') return fail(file, '$', `file ${read.message}`);
  return parsePrxConfigText(workspace, file, read.text, opts);
}

/** Validates hooks.json text as it would be loaded from `file` (used by the loader and the API writer). */
export function parsePrxConfigText(
  workspace: string,
  file: string,
  text: string,
  opts: PrxLoadOptions = {},
): PrxLoadResult {
  const parsed = parseJsonText(file, text);
  if (!parsed.ok) return { ok: false, file, issues: [parsed.issue] };
  const result = prxHooksFileSchema.safeParse(parsed.value);
  if (!result.success) {
    return { ok: false, file, issues: fromZodIssues(file, result.error.issues, unknownKeyMessage) };
  }
  const compiled = compilePrxActions(workspace, file, result.data, opts);
  if (!compiled.ok) return { ok: false, file, issues: compiled.issues };
  return { ok: true, file, exists: true, actions: compiled.actions, raw: result.data, text };
}

function unknownKeyMessage(parent: ReadonlyArray<PropertyKey>, key: string): string {
  if (parent.length === 1 && parent[0] === 'hooks') {
    return `unknown event "${key}" (events: agent_start, agent_end, llm_request, llm_response, tool_call_start, tool_call, turn_complete, error)`;
  }
  return `unknown field "${key}"`;
}

function compilePrxActions(
  workspace: string,
  file: string,
  data: PrxHooksFile,
  opts: PrxLoadOptions,
): { ok: true; actions: PrxAction[] } | { ok: false; issues: ConfigIssue[] } {
  const issues: ConfigIssue[] = [];
  const actions: PrxAction[] = [];
  const ids = new Map<string, string>();
  const realWorkspace = realPrefixPath(workspace);
  const sandboxFor = sandboxResolver(workspace, file, data, opts);
  for (const [event, list] of Object.entries(data.hooks)) {
    if (list === undefined || !isPrxEvent(event)) continue;
    list.forEach((config, index) => {
      const at = (...rest: PropertyKey[]) => jsonPath(['hooks', event, index, ...rest]);
      if (config.id !== undefined) {
        const first = ids.get(config.id);
        if (first !== undefined)
          issues.push({ file, path: at('id'), message: `duplicate id "${config.id}" (first at ${first})` });
        else ids.set(config.id, at());
      }
      const cwd = resolveCwd(workspace, realWorkspace, config.cwd);
      if (typeof cwd !== 'string') {
        issues.push({ file, path: at('cwd'), message: cwd.error });
        return;
      }
      const command = resolveCommand(workspace, config.command);
      const sandbox = sandboxFor(config, command);
      if (sandbox !== undefined && 'error' in sandbox) {
        issues.push({ file, path: at(...sandbox.field), message: sandbox.error });
        return;
      }
      actions.push(prxAction(file, event, index, config, { command, cwd, sandbox }));
    });
  }
  if (actions.length > PRX_LIMITS.maxActions) {
    issues.push({
      file,
      path: '$.hooks',
      message: `${actions.length} actions; the limit is ${PRX_LIMITS.maxActions}`,
    });
  }
  return issues.length > 0 ? { ok: false, issues } : { ok: true, actions };
}

/** One action, validated and resolved: the hook model's PRX shell definition [P-CFG-2]. */
function prxAction(
  file: string,
  event: PrxAction['event'],
  index: number,
  config: PrxActionConfig,
  resolved: { command: string; cwd: string; sandbox: BwrapSandbox | undefined },
): PrxAction {
  const { command, cwd, sandbox } = resolved;
  return {
    kind: 'process',
    dialect: 'prx',
    name: config.id ?? `${event}[${index}]`,
    ...(config.id !== undefined ? { id: config.id } : {}),
    event,
    index,
    origin: {
      source: `${file}#/hooks/${event}/${index}`,
      scope: 'workspace',
      file,
      path: jsonPath(['hooks', event, index]),
    },
    matcher: ALWAYS,
    failMode: 'open',
    command,
    args: config.args,
    env: config.env,
    cwd,
    timeoutMs: config.timeout_ms,
    stdinJson: config.stdin_json,
    enabled: config.enabled,
    config: actionSettings(config),
    ...(config.keep_children === true ? { keepChildren: true } : {}),
    ...(sandbox !== undefined ? { sandbox } : {}),
  };
}

// --- sandbox [P-SEC-7] -------------------------------------------------------------------------

/** The API server's state folder in the workspace (`STATE_DIR` in server/store.ts): token, ids. */
const HOOKWERK_STATE_DIR = '.hookwerk';

/**
 * Resolves each action's sandbox: the action's `sandbox`, else the file's, else none. bwrap is
 * looked up once per load, the first time an action needs it; when it is missing every action
 * that asks for it is an error: never a silent run without the sandbox.
 */
function sandboxResolver(
  workspace: string,
  file: string,
  data: PrxHooksFile,
  opts: PrxLoadOptions,
): (
  config: PrxActionConfig,
  command: string,
) => BwrapSandbox | { field: string[]; error: string } | undefined {
  let lookup: BwrapLookup | undefined;
  return (config, command) => {
    const kind = config.sandbox ?? data.sandbox ?? 'none';
    if (kind === 'none') {
      if (config.sandbox_workspace === undefined) return undefined;
      return {
        field: ['sandbox_workspace'],
        error: 'sandbox_workspace only applies with sandbox "bwrap"; this action runs without a sandbox',
      };
    }
    lookup ??= (opts.findBwrap ?? findBwrap)();
    if (!lookup.ok) {
      return config.sandbox !== undefined
        ? { field: ['sandbox'], error: lookup.message }
        : { field: [], error: `${lookup.message} (set by the file-level "sandbox")` };
    }
    // `env -u PWD -- NAME=VALUE… COMMAND` would take a command with "=" for one more assignment.
    if (command.includes('=')) {
      return {
        field: ['command'],
        error: `with sandbox "bwrap" the command path must not contain "=" (${command})`,
      };
    }
    const ws = path.resolve(workspace);
    return {
      kind: 'bwrap',
      bwrap: lookup.path,
      workspace: ws,
      workspaceAccess: config.sandbox_workspace ?? 'rw',
      readOnly: [path.resolve(file)],
      hidden: [path.join(ws, HOOKWERK_STATE_DIR)],
    };
  };
}

// --- end sandbox ---------------------------------------------------------------------------------

/** [P-CFG-2] A command with a slash is a path (relative → workspace); a bare name is looked up in the sanitized PATH. */
function resolveCommand(workspace: string, command: string): string {
  if (!command.includes('/')) return command;
  return path.resolve(workspace, command);
}

/** [P-SEC-4b] Relative cwd must stay inside the workspace after `..` and symlinks; absolute cwd must not use `..`. */
function resolveCwd(
  workspace: string,
  realWorkspace: string,
  cwd: string | undefined,
): string | { error: string } {
  if (cwd === undefined) return workspace;
  if (path.isAbsolute(cwd)) {
    if (cwd.split('/').includes('..'))
      return { error: `absolute cwd "${cwd}" must not contain ".." components` };
    return cwd;
  }
  const lexical = path.resolve(workspace, cwd);
  if (!isInside(path.resolve(workspace), lexical)) {
    return { error: `cwd "${cwd}" resolves outside the workspace` };
  }
  const real = realPrefixPath(lexical);
  if (!isInside(realWorkspace, real)) {
    return { error: `cwd "${cwd}" leaves the workspace through a symlink (to ${real})` };
  }
  return lexical;
}

function fail(file: string, at: string, message: string): PrxLoadResult {
  return { ok: false, file, issues: [{ file, path: at, message }] };
}
