/**
 * [G-PERM-1] One of Claude Code's permission rules, read: `Tool`, `Tool(specifier)`,
 * `mcp__server`, `mcp__server__tool` (and `mcp__server__*`), `Bash(PATTERN)`, `Read(PATH)`,
 * `Edit(PATH)`, `Write(PATH)`, `WebFetch(domain:HOST)`. A rule that does not read is an error of
 * its policy file [G-FAIL-1] (strict.ts): a guard that silently matched nothing would be worse.
 */
import { lexShell } from '../../core/shell-lexer.ts';

export type PermissionList = 'deny' | 'ask' | 'allow';
export const PERMISSION_LISTS: readonly PermissionList[] = ['deny', 'ask', 'allow'];

export type ParsedRule =
  /** A tool by name (`Edit` also Write, MultiEdit, NotebookEdit; `Read` also Glob, Grep, LS). */
  | { readonly kind: 'tool'; readonly tool: string }
  /** `mcp__server` (every tool of it), `mcp__server__tool`, `mcp__server__*`. */
  | { readonly kind: 'mcp'; readonly server: string; readonly tool: string | undefined }
  | { readonly kind: 'bash'; readonly pattern: string }
  | { readonly kind: 'path'; readonly family: 'read' | 'edit'; readonly specifier: string }
  | { readonly kind: 'domain'; readonly host: string };

const SHAPE = /^([A-Za-z][A-Za-z0-9_-]*\*?)(?:\(([\s\S]*)\))?$/;
const HOST = /^(\*\.)?[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$/;

/** The rule read, or why it cannot be. */
export function parsePermissionRule(text: string): ParsedRule | { problem: string } {
  const rule = text.trim();
  if (rule === '') return { problem: 'a permission rule must not be empty' };
  if (rule.includes('\0')) return { problem: 'a permission rule must not hold a NUL byte' };
  const m = SHAPE.exec(rule);
  if (m === null)
    return {
      problem: `cannot read permission rule ${JSON.stringify(text)}: expected Tool or Tool(specifier)`,
    };
  const tool = m[1]!;
  const specifier = m[2];
  if (tool.endsWith('*') && !/^mcp__[^*]+__\*$/.test(tool))
    return {
      problem: `cannot read permission rule ${JSON.stringify(text)}: only mcp__server__* ends with *`,
    };
  if (tool.startsWith('mcp__')) {
    if (specifier !== undefined)
      return { problem: `${JSON.stringify(text)}: an MCP rule takes no specifier` };
    const rest = tool.slice(5);
    const end = rest.indexOf('__');
    if (rest === '' || end === 0) return { problem: `${JSON.stringify(text)}: no MCP server named` };
    if (end < 0) return { kind: 'mcp', server: rest, tool: undefined };
    const name = rest.slice(end + 2);
    if (name === '') return { problem: `${JSON.stringify(text)}: no MCP tool named after the server` };
    return { kind: 'mcp', server: rest.slice(0, end), tool: name === '*' ? undefined : name };
  }
  if (specifier === undefined) return { kind: 'tool', tool };
  if (specifier.trim() === '')
    return { problem: `${JSON.stringify(text)}: an empty specifier (write ${tool} alone for every call)` };
  if (tool === 'Bash') {
    const pattern = specifier.trim();
    if (lexShell(pattern).unbalanced)
      return {
        problem: `${JSON.stringify(text)}: the pattern is unbalanced (an unclosed quote or parenthesis)`,
      };
    return { kind: 'bash', pattern };
  }
  if (tool === 'Read' || tool === 'Edit' || tool === 'Write') {
    if (/^~[^/]/.test(specifier)) return { problem: `${JSON.stringify(text)}: only ~/ names a home folder` };
    return { kind: 'path', family: tool === 'Read' ? 'read' : 'edit', specifier };
  }
  if (tool === 'WebFetch') {
    const host = specifier.startsWith('domain:') ? specifier.slice(7).trim() : undefined;
    if (host === undefined || !HOST.test(host))
      return {
        problem: `${JSON.stringify(text)}: WebFetch takes domain:HOST (example.com or *.example.com)`,
      };
    return { kind: 'domain', host: host.toLowerCase() };
  }
  return {
    problem: `${JSON.stringify(text)}: only Bash, Read, Edit, Write and WebFetch rules take a specifier (write ${tool} alone)`,
  };
}
