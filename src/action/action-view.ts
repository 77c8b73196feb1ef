/**
 * [G-ACT-1, G-ACT-2] The action view of one Claude-shaped call (after R-MAP-1): `tool_name`,
 * `tool_input`, `cwd`, read into commands, paths, hosts and the MCP tool — once per call
 * (`actionViewOf` keeps it with the input object), in-process, without spawning anything, in at
 * most 64 KiB of command line. The pieces: `simple-commands.ts` (the command line),
 * `tool-paths.ts` (file tools' fields), `view-paths.ts` (absolute, real, inside the project).
 */
import path from 'node:path';
import { isPlainObject } from '../core/plain-object.ts';
import { resolvedPath } from '../core/resolved-path.ts';
import { hostOfUrl } from './hosts.ts';
import { parseMcpToolName } from './mcp-tool-name.ts';
import { walkCommandLine } from './simple-commands.ts';
import { toolPaths } from './tool-paths.ts';
import { MAX_PATHS, resolvePaths } from './view-paths.ts';
import type { ActionView } from './view-types.ts';

/** A command line longer than this is unreadable; what fits is still read. */
export const MAX_COMMAND_BYTES = 64 * 1024;

export interface ViewContext {
  /** The project the call is made in: `inProject` is against its real path. */
  readonly projectDir: string;
  /** The account's home: `~`, `$HOME`. */
  readonly home: string;
}

/** The shell tools' names once mapped (R-MAP-1 maps every agent's shell tool to `Bash`). */
const SHELL_TOOLS = new Set(['Bash']);

const NO_INPUT: Readonly<Record<string, unknown>> = Object.freeze({});

/** The tool's input as it is (only read, never kept or changed: no copy [G-PERF-1]). */
function objectOf(value: unknown): Readonly<Record<string, unknown>> {
  return isPlainObject(value) ? value : NO_INPUT;
}

/** A command given as an argv array (some agents' shell tools) as one shell line, each word quoted. */
function commandText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (!Array.isArray(value) || !value.every((w) => typeof w === 'string')) return undefined;
  return value.map((w: string) => `'${w.replaceAll("'", "'\\''")}'`).join(' ');
}

/** [G-ACT-1] The view of `input` (a Claude-shaped hook input) in `ctx`. Never throws. */
export function actionView(input: Readonly<Record<string, unknown>>, ctx: ViewContext): ActionView {
  const tool = typeof input.tool_name === 'string' ? input.tool_name : '';
  const toolInput = objectOf(input.tool_input);
  const given = input.cwd;
  const cwd =
    typeof given === 'string' && path.isAbsolute(given) ? resolvedPath(given) : resolvedPath(ctx.projectDir);
  const home = resolvedPath(ctx.home);
  let problem: string | undefined;
  let commands: ActionView['commands'] = [];
  let refs = toolPaths(tool, toolInput, cwd, home);
  let hosts: Set<string> | undefined;
  if (SHELL_TOOLS.has(tool)) {
    const command = commandText(toolInput.command);
    if (command !== undefined) {
      const walk = walkCommandLine(
        command,
        { home, projectDir: resolvedPath(ctx.projectDir), cwd },
        MAX_COMMAND_BYTES,
      );
      commands = walk.commands;
      if (refs.length === 0) refs = walk.paths;
      else refs.push(...walk.paths);
      hosts = walk.hosts;
      problem = walk.problem;
    }
  }
  if (tool === 'WebFetch' && typeof toolInput.url === 'string') {
    const host = hostOfUrl(toolInput.url);
    if (host !== undefined) hosts = new Set([host]);
  }
  if (refs.length > MAX_PATHS) problem ??= `the call names more than ${MAX_PATHS} paths`;
  const paths = resolvePaths(refs.length > MAX_PATHS ? refs.slice(0, MAX_PATHS) : refs, ctx.projectDir);
  const view: ActionView = {
    commands,
    unreadable: problem !== undefined,
    paths,
    hosts: hosts === undefined ? [] : [...hosts],
    mcp: parseMcpToolName(tool) ?? null,
  };
  return problem === undefined ? view : { ...view, unreadableReason: problem };
}

const computed = new WeakMap<object, { key: string; view: ActionView }>();

/**
 * The view of this input object, computed on first ask and kept with it: every rule, guard and
 * condition of one call reads the same view, and it is made once [G-ACT-1].
 */
export function actionViewOf(input: Readonly<Record<string, unknown>>, ctx: ViewContext): ActionView {
  const key = `${ctx.projectDir}\0${ctx.home}`;
  const kept = computed.get(input);
  if (kept !== undefined && kept.key === key) return kept.view;
  const view = actionView(input, ctx);
  computed.set(input, { key, view });
  return view;
}
