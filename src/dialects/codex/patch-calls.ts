/**
 * [R-MAP-1, SPEC §14.1] A Codex patch as the Claude Code calls the policy decides: one per file it
 * touches and tool (issue 28 item 9), read as Codex's own parser reads it (`patch-files.ts`).
 *
 * - `Write` for an added file (with its `content`), `Edit` for an updated one, `Edit` **and**
 *   `Write` for a file the patch removes (a delete, a move's source: changed and gone), `Write`
 *   for a move's target (new whole content) — so a guard on either name sees every removal.
 * - `file_path` is absolute: resolved against the input's `cwd` (where Codex resolves it) with
 *   `..` folded, so an `Edit(.env)` rule and its `**` glob form match `sub/../.env`.
 * - `command` keeps the whole patch (or shell command): command hooks still read all of it.
 * - The first call stands for the patch and the others are its `also` (src/hook/call-parts.ts).
 *
 * A shell command that runs `apply_patch <<'EOF' … EOF` (optionally after `cd DIR &&`) is applied
 * by Codex as a patch too: its `Bash` call keeps its place and each file of the patch is decided
 * beside it.
 */
import path from 'node:path';
import { type PatchChange, patchFiles, rustTrim } from '../../action/patch-files.ts';
import type { ClaudeCall } from '../agent/hook-agent.ts';
import { objectOf, textOf } from '../agent/tool-map.ts';

/** The Claude Code tools a file's change is decided as. */
const TOOLS_OF: Readonly<Record<PatchChange, readonly ('Edit' | 'Write')[]>> = {
  add: ['Write'],
  update: ['Edit'],
  delete: ['Edit', 'Write'],
  'move-from': ['Edit', 'Write'],
  'move-to': ['Write'],
};

/** How a file's change is named in a merged reason. */
const VERB: Readonly<Record<PatchChange, string>> = {
  add: 'add',
  update: 'update',
  delete: 'delete',
  'move-from': 'move of',
  'move-to': 'move to',
};

/** The folder Codex resolves a patch's relative paths against: the input's `cwd`. */
function patchBase(given: Record<string, unknown>, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of [textOf(given.cwd), textOf(env.CLAUDE_PROJECT_DIR), textOf(env.PWD)])
    if (dir !== undefined && path.isAbsolute(dir)) return dir;
  return undefined;
}

/** One Claude call per file of `patch` and tool, in patch order, each once. */
function fileCalls(
  call: ClaudeCall,
  input: Record<string, unknown>,
  patch: string,
  base: string | undefined,
): ClaudeCall[] {
  const seen = new Set<string>();
  const parts: ClaudeCall[] = [];
  for (const file of patchFiles(patch).files) {
    const filePath = base !== undefined ? path.resolve(base, file.path) : path.normalize(file.path);
    for (const tool of TOOLS_OF[file.change]) {
      const key = `${tool}\0${filePath}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const toolInput = {
        ...input,
        file_path: filePath,
        ...(file.content !== undefined ? { content: file.content } : {}),
      };
      parts.push({
        ...call,
        input: { ...call.input, tool_name: tool, tool_input: toolInput },
        toolName: tool,
        agentTool: 'apply_patch',
        subject: `apply_patch ${VERB[file.change]} ${file.path}`,
      });
    }
  }
  return parts;
}

/**
 * `apply_patch` as Claude Code calls: the first file's, with the others as its `also`; one `Edit`
 * with no `file_path` when the patch names no file (Codex refuses such a patch).
 */
export function patchCalls(
  call: ClaudeCall,
  given: Record<string, unknown>,
  env: NodeJS.ProcessEnv,
): ClaudeCall {
  const input = objectOf(given.tool_input) ?? {};
  const patch = textOf(input.command) ?? textOf(input.patch) ?? textOf(input.input) ?? '';
  const [first, ...also] = fileCalls(call, input, patch, patchBase(given, env));
  if (first === undefined)
    return {
      ...call,
      input: { ...call.input, tool_name: 'Edit', tool_input: input },
      toolName: 'Edit',
      agentTool: 'apply_patch',
    };
  return also.length === 0 ? first : { ...first, also };
}

/** `cd DIR &&` before `apply_patch` (a word, or a quoted one, as Codex accepts it). */
const CD_PREFIX = /^\s*cd\s+(?:'([^']*)'|"([^"]*)"|([^\s'"&;|]+))\s*&&/;

/**
 * A `Bash` call whose command holds a patch (a line `*** Begin Patch`): the call as it is, with
 * each file of the patch beside it. Any shell command that carries a patch is read so, not only
 * the forms Codex intercepts: a guard errs on the side of seeing too much.
 */
export function shellPatchCalls(
  call: ClaudeCall,
  given: Record<string, unknown>,
  env: NodeJS.ProcessEnv,
): ClaudeCall {
  const input = objectOf(given.tool_input) ?? {};
  const command = textOf(input.command);
  if (command === undefined || !command.includes('*** Begin Patch')) return call;
  const lines = command.split('\n');
  const begin = lines.findIndex((l) => rustTrim(l) === '*** Begin Patch');
  if (begin < 0) return call;
  const end = lines.findLastIndex((l) => rustTrim(l) === '*** End Patch');
  const patch = lines.slice(begin, end > begin ? end + 1 : undefined).join('\n');
  const cd = CD_PREFIX.exec(command);
  const dir = cd?.[1] ?? cd?.[2] ?? cd?.[3];
  const base = patchBase(given, env);
  const root = dir === undefined ? base : base !== undefined ? path.resolve(base, dir) : dir;
  const files = fileCalls(call, input, patch, root);
  return files.length === 0 ? call : { ...call, also: files };
}
