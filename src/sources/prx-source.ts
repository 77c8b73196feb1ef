import { readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { isPrxEvent, type PrxEventName } from '../events/prx-events.ts';
import { type BwrapLookup, type BwrapSandbox, findBwrap } from '../sandbox/bwrap.ts';
import { type ConfigIssue, fromZodIssues, jsonPath, parseJsonText } from './issues.ts';
import { PRX_LIMITS, type PrxActionConfig, type PrxHooksFile, prxHooksFileSchema } from './prx-schema.ts';

/** A validated, resolved shell hook action, ready to run. */
export interface PrxAction {
  /** Name in records: the `id`, else `event[index]`. */
  name: string;
  id?: string;
  event: PrxEventName;
  index: number;
  /** Absolute path, or a bare name looked up in the sanitized PATH at spawn. */
  command: string;
  args: readonly string[];
  env: Readonly<Record<string, string>>;
  cwd: string;
  timeoutMs: number;
  stdinJson: boolean;
  enabled: boolean;
  /** `file#/hooks/event/index`, for errors and records. */
  source: string;
  config: PrxActionConfig;
  /** [P-SEC-7] Set when the action runs under bubblewrap; absent means no sandbox. */
  sandbox?: BwrapSandbox;
}

/** [P-SEC-7] Loader options. */
export interface PrxLoadOptions {
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

/** Reads and validates `<workspace>/hooks.json` whole [P-CFG-1..4, P-SEC-1..6]. A missing file means no hooks. */
export function loadPrxConfig(workspace: string, opts: PrxLoadOptions = {}): PrxLoadResult {
  const file = prxHooksPath(workspace);
  let text: string;
  try {
    const size = statSync(file).size;
    if (size > PRX_LIMITS.maxFileBytes) {
      return fail(file, '$', `file is ${size} bytes; the limit is ${PRX_LIMITS.maxFileBytes}`);
    }
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if (isErrno(err, 'ENOENT'))
      return { ok: true, file, exists: false, actions: [], raw: undefined, text: undefined };
    return fail(file, '$', `cannot read: ${err instanceof Error ? err.message : String(err)}`);
  }
  return parsePrxConfigText(workspace, file, text, opts);
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
  const realWorkspace = realOrSelf(workspace);
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
      actions.push({
        name: config.id ?? `${event}[${index}]`,
        ...(config.id !== undefined ? { id: config.id } : {}),
        event,
        index,
        command,
        args: config.args,
        env: config.env,
        cwd,
        timeoutMs: config.timeout_ms,
        stdinJson: config.stdin_json,
        enabled: config.enabled,
        source: `${file}#/hooks/${event}/${index}`,
        config,
        ...(sandbox !== undefined ? { sandbox } : {}),
      });
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
  const real = realOrSelf(lexical);
  if (!isInside(realWorkspace, real)) {
    return { error: `cwd "${cwd}" leaves the workspace through a symlink (to ${real})` };
  }
  return lexical;
}

function isInside(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** realpath of the longest existing prefix, so a not-yet-created folder is still checked for symlink escapes. */
function realOrSelf(p: string): string {
  let current = p;
  const rest: string[] = [];
  for (;;) {
    try {
      return path.join(realpathSync(current), ...rest.reverse());
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return p;
      rest.push(path.basename(current));
      current = parent;
    }
  }
}

function fail(file: string, at: string, message: string): PrxLoadResult {
  return { ok: false, file, issues: [{ file, path: at, message }] };
}

function isErrno(err: unknown, code: string): boolean {
  return typeof err === 'object' && err !== null && 'code' in err && err.code === code;
}
