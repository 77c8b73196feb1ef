/**
 * [G-PERM-1..4] The `permissions: {deny, ask, allow}` lists of the policy files in force, as one
 * gate layer (`dispatch/gate-layer.ts`) that runs on `PreToolUse` before any hook (and before the
 * guards): deny over ask over allow, across all policy files (user first, then project, each in
 * its order). A deny answers deny with `"<file>: permissions.deny: <rule>"` and nothing after it
 * runs; an ask answers ask; an allow is passed on as an explicit allow, which the merge keeps
 * only when no guard and no hook objects. Rules read the call's action view: `Bash(…)` each simple
 * command (G-PERM-2), and a deny or ask on `Bash` also a command that cannot be read (G-PERM-3);
 * path rules every path a file tool names (G-PERM-4). An allow covers a call only when every
 * command (every path) of it is allowed by some allow rule, and never one that cannot be read.
 */
import type { Access } from '../../action/file-access-table.ts';
import type { ActionView, SimpleCommand } from '../../action/view-types.ts';
import { tildePath } from '../../core/tilde-path.ts';
import type { GateLayer, LayerLine, LayerVerdict } from '../../dispatch/gate-layer.ts';
import type { HookScope } from '../../registry/hook-definition.ts';
import { type BashPattern, bashPatternMatches, compileBashPattern } from './bash-pattern.ts';
import { compilePathRule, type PathRule, pathRuleMatches } from './permission-paths.ts';
import { PERMISSION_LISTS, type PermissionList, parsePermissionRule } from './permission-rule.ts';

/** The event permission rules decide (Cursor's and Gemini's equivalents arrive as it, R-MAP-1). */
const EVENT = 'PreToolUse';
const READ_TOOLS: ReadonlySet<string> = new Set(['Read', 'Glob', 'Grep', 'LS', 'NotebookRead']);
const EDIT_TOOLS: ReadonlySet<string> = new Set([
  'Edit',
  'Write',
  'MultiEdit',
  'NotebookEdit',
  'apply_patch',
]);

type Rule =
  | { readonly kind: 'tool'; readonly tools: ReadonlySet<string> }
  | { readonly kind: 'mcp'; readonly server: string; readonly tool: string | undefined }
  | { readonly kind: 'bash'; readonly pattern: BashPattern }
  | {
      readonly kind: 'path';
      readonly tools: ReadonlySet<string>;
      readonly access: ReadonlySet<Access>;
      readonly path: PathRule;
    }
  | { readonly kind: 'domain'; readonly host: string };

interface Entry {
  readonly list: PermissionList;
  /** The rule as written. */
  readonly text: string;
  readonly rule: Rule;
  /** The file, home shown as `~` [G-FAIL-5]. */
  readonly shown: string;
  /** `file#/permissions/deny/0`. */
  readonly source: string;
}

/** A policy file in force, as the loader hands it over. */
export interface PermissionSource {
  readonly file: string;
  readonly scope: HookScope;
  readonly value: object;
}

function toolsOf(tool: string): ReadonlySet<string> {
  if (tool === 'Edit') return EDIT_TOOLS;
  if (tool === 'Read') return READ_TOOLS;
  return new Set([tool]);
}

function compileRule(
  text: string,
  bases: { projectDir: string; home: string; fileBase: string },
): Rule | undefined {
  const parsed = parsePermissionRule(text);
  if ('problem' in parsed) return undefined;
  switch (parsed.kind) {
    case 'tool':
      return { kind: 'tool', tools: toolsOf(parsed.tool) };
    case 'mcp':
      return parsed;
    case 'bash':
      return { kind: 'bash', pattern: compileBashPattern(parsed.pattern, bases.home) };
    case 'path':
      return {
        kind: 'path',
        tools: parsed.family === 'read' ? READ_TOOLS : EDIT_TOOLS,
        access: new Set<Access>(parsed.family === 'read' ? ['read'] : ['write', 'delete']),
        path: compilePathRule(parsed.specifier, bases),
      };
    case 'domain':
      return parsed;
  }
}

/** The rules of the files in force, or undefined when they hold none. */
export function permissionsLayer(
  sources: readonly PermissionSource[],
  bases: { projectDir: string; home: string },
): GateLayer | undefined {
  const entries: Entry[] = [];
  for (const list of PERMISSION_LISTS) {
    for (const s of sources) {
      const permissions: unknown = Reflect.get(s.value, 'permissions');
      const rules: unknown =
        typeof permissions === 'object' && permissions !== null ? Reflect.get(permissions, list) : undefined;
      if (!Array.isArray(rules)) continue;
      const fileBase = s.scope === 'user' ? bases.home : bases.projectDir;
      rules.forEach((text: unknown, i) => {
        if (typeof text !== 'string') return;
        const rule = compileRule(text, { ...bases, fileBase });
        if (rule === undefined) return;
        entries.push({
          list,
          text: text.trim(),
          rule,
          shown: tildePath(s.file, bases.home),
          source: `${s.file}#/permissions/${list}/${i}`,
        });
      });
    }
  }
  return entries.length === 0 ? undefined : new Permissions(entries);
}

function hostMatches(rule: string, host: string): boolean {
  if (rule.startsWith('*.')) return host.endsWith(rule.slice(1)) && host.length > rule.length - 1;
  return host === rule;
}

/** Why a command cannot be read safely [G-PERM-3], or undefined. */
function unsafe(view: ActionView): string | undefined {
  if (view.unreadable) return view.unreadableReason ?? 'the call cannot be read whole';
  const dynamic = view.commands.find((c) => c.dynamic);
  return dynamic === undefined
    ? undefined
    : `the command ${JSON.stringify(dynamic.name)} is only known when it runs`;
}

/** The tool-named paths that fit a path rule's access. */
function toolPaths(view: ActionView, access: ReadonlySet<Access>) {
  return view.paths.filter((p) => p.from === 'tool' && access.has(p.access));
}

/**
 * A deny or ask rule against the call: undefined (no match), or the reason's tail ('' for a plain
 * match). `why`: the call's `unsafe` reason, asked by the first Bash rule and kept for the others.
 */
function objects(
  rule: Rule,
  tool: string,
  view: () => ActionView,
  why: () => string | undefined = () => unsafe(view()),
): string | undefined {
  switch (rule.kind) {
    case 'tool':
      return rule.tools.has(tool) ? '' : undefined;
    case 'mcp': {
      const mcp = view().mcp;
      return mcp?.server === rule.server && (rule.tool === undefined || mcp.tool === rule.tool)
        ? ''
        : undefined;
    }
    case 'domain':
      return tool === 'WebFetch' && view().hosts.some((h) => hostMatches(rule.host, h)) ? '' : undefined;
    case 'bash': {
      if (tool !== 'Bash') return undefined;
      const unsafeBecause = why();
      if (unsafeBecause !== undefined) return ` (cannot read this command safely: ${unsafeBecause})`;
      for (const c of view().commands) if (bashPatternMatches(rule.pattern, c, false)) return '';
      return undefined;
    }
    case 'path': {
      if (!rule.tools.has(tool)) return undefined;
      const v = view();
      if (v.unreadable) return ` (cannot read this call safely: ${v.unreadableReason ?? 'too many paths'})`;
      return toolPaths(v, rule.access).some((p) => pathRuleMatches(rule.path, p)) ? '' : undefined;
    }
  }
}

/** Whether an allow rule covers this one command / path / the whole call. */
function allowsCommand(rule: Rule, command: SimpleCommand): boolean {
  return rule.kind === 'bash' && bashPatternMatches(rule.pattern, command, true);
}

/** The lists that object, in the order they are checked: deny over ask. */
const DECIDING_LISTS = ['deny', 'ask'] as const;

class Permissions implements GateLayer {
  readonly kind = 'permission' as const;
  readonly events = [EVENT];
  readonly #entries: readonly Entry[];
  readonly #tools: readonly string[] | undefined;

  /** The allow rules, in order (kept: a call asks for them every time). */
  readonly #allows: readonly Entry[];

  constructor(entries: readonly Entry[]) {
    this.#entries = entries;
    this.#allows = entries.filter((e) => e.list === 'allow');
    const tools = new Set<string>();
    let any = false;
    for (const e of entries) {
      const r = e.rule;
      if (r.kind === 'mcp') any = true;
      else if (r.kind === 'bash') tools.add('Bash');
      else if (r.kind === 'domain') tools.add('WebFetch');
      else for (const t of r.tools) tools.add(t);
    }
    this.#tools = any ? undefined : [...tools].sort();
  }

  tools(event: string): readonly string[] | null | undefined {
    return event === EVENT ? this.#tools : null;
  }

  closes(event: string): boolean {
    return event === EVENT && this.#entries.some((e) => e.list !== 'allow');
  }

  decide(
    event: string,
    input: Readonly<Record<string, unknown>>,
    view: () => ActionView,
  ): LayerVerdict | undefined {
    if (event !== EVENT) return undefined;
    const tool = typeof input.tool_name === 'string' ? input.tool_name : '';
    // One reading of whether the command can be read safely, for every Bash rule [G-PERM-3].
    let asked = false;
    let unsafeBecause: string | undefined;
    const why = () => {
      if (!asked) {
        asked = true;
        unsafeBecause = unsafe(view());
      }
      return unsafeBecause;
    };
    for (const list of DECIDING_LISTS) {
      for (const e of this.#entries) {
        if (e.list !== list) continue;
        const tail = objects(e.rule, tool, view, why);
        if (tail !== undefined) return this.#verdict(list, [e], tail);
      }
    }
    const allowed = this.#allowedBy(tool, view);
    return allowed === undefined ? undefined : this.#verdict('allow', allowed, '');
  }

  #verdict(list: PermissionList, by: readonly Entry[], tail: string): LayerVerdict {
    const first = by[0]!;
    const rules = [...new Set(by.map((e) => e.text))].join(', ');
    return {
      decision: list,
      reason: `${first.shown}: permissions.${list}: ${rules}${tail}`,
      who: `permissions.${list}: ${rules}`,
      source: first.source,
    };
  }

  /** The allow rules that together cover every part of the call; undefined when they do not. */
  #allowedBy(tool: string, view: () => ActionView): Entry[] | undefined {
    const allows = this.#allows;
    if (allows.length === 0) return undefined;
    const whole = allows.find(
      (e) =>
        (e.rule.kind === 'tool' && e.rule.tools.has(tool) && tool !== 'Bash') ||
        (e.rule.kind === 'mcp' && objects(e.rule, tool, view) !== undefined),
    );
    if (whole !== undefined) return [whole];
    if (tool === 'Bash') {
      const v = view();
      if (unsafe(v) !== undefined || v.commands.length === 0) return undefined;
      const bare = allows.find((e) => e.rule.kind === 'tool' && e.rule.tools.has('Bash'));
      if (bare !== undefined) return [bare];
      return coverAll(v.commands, allows, (e, c) => allowsCommand(e.rule, c));
    }
    if (tool === 'WebFetch') {
      const hosts = view().hosts;
      if (hosts.length === 0) return undefined;
      return coverAll(hosts, allows, (e, h) => e.rule.kind === 'domain' && hostMatches(e.rule.host, h));
    }
    const v = view();
    if (v.unreadable) return undefined;
    const paths = v.paths.filter((p) => p.from === 'tool');
    if (paths.length === 0) return undefined;
    return coverAll(
      paths,
      allows,
      (e, p) =>
        e.rule.kind === 'path' &&
        e.rule.tools.has(tool) &&
        e.rule.access.has(p.access) &&
        pathRuleMatches(e.rule.path, p),
    );
  }

  explain(
    event: string,
    input: Readonly<Record<string, unknown>> | undefined,
    view: () => ActionView,
  ): LayerLine[] {
    if (event !== EVENT) return [];
    const tool = typeof input?.tool_name === 'string' ? input.tool_name : undefined;
    const allowed = tool === undefined ? undefined : this.#allowedBy(tool, view);
    const lines: LayerLine[] = [];
    for (const list of PERMISSION_LISTS)
      for (const e of this.#entries) {
        if (e.list !== list) continue;
        const who = `permissions.${list}: ${e.text}`;
        const what =
          list === 'deny'
            ? 'denies, and nothing after it runs'
            : list === 'ask'
              ? 'asks (deny where the agent cannot ask)'
              : 'allows, unless a guard or hook objects';
        if (tool === undefined) {
          lines.push({
            kind: 'permission',
            who,
            source: e.source,
            applies: true,
            detail: `${list} rule of ${e.shown}: checked before every hook on ${EVENT} (no tool call given)`,
          });
          continue;
        }
        const applies =
          list === 'allow' ? allowed?.includes(e) === true : objects(e.rule, tool, view) !== undefined;
        const detail = applies ? `matches this call: ${what}` : `does not match this call`;
        lines.push({
          kind: 'permission',
          who,
          source: e.source,
          applies,
          detail: `${list} rule of ${e.shown}; ${detail}`,
        });
      }
    return lines;
  }
}

/** The entries that together allow every item, each item by the first that does; undefined if one is left. */
function coverAll<T>(
  items: readonly T[],
  allows: readonly Entry[],
  covers: (e: Entry, item: T) => boolean,
): Entry[] | undefined {
  const used: Entry[] = [];
  for (const item of items) {
    const by = allows.find((e) => covers(e, item));
    if (by === undefined) return undefined;
    if (!used.includes(by)) used.push(by);
  }
  return used;
}
