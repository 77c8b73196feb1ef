/**
 * [AD-MCP-1, R-MAP-1] The name a gated MCP tool has in the hooks: `mcp__<server>__<tool>`, as Claude
 * Code names the tools of its MCP servers, so the matchers a project wrote for Claude Code
 * (`mcp__notes__delete_all`, `mcp__notes__.*`) match the same calls through the proxy and from
 * Cursor. Used by `hookwerk mcp-proxy`, `createMcpGate` and `hookwerk hook --agent cursor`.
 *
 * Claude Code replaces every character outside `[A-Za-z0-9_-]` of either name with `_`. The tool's
 * name is the server's own word, so hookwerk adds one rule (issue 28): the built name names the
 * real server and no other. A server part that holds `__`, or starts or ends with `_`, has its
 * runs of `_` collapsed and its edges stripped (Claude Code does this for its claude.ai servers),
 * so the first `__` after `mcp__` ends it; a tool part that would make the name read as another
 * `mcp__<server>__…` anywhere (`mcp__github__wipe` from server `evil`) has its runs of `_`
 * collapsed, so no unanchored `mcp__github__.*` matcher or `mcp__github` rule sees it as GitHub's.
 * Every other name is exactly Claude Code's.
 */

/** Claude Code's own normalisation of an MCP server's or tool's name. */
function normalized(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, '_');
}

/** Runs of `_` as one, none at either end. */
function collapsed(name: string): string {
  return name.replace(/_+/g, '_').replace(/^_|_$/g, '');
}

/** Whether `name` holds, past its start, a `mcp__<server>__` of its own. */
function readsAsAnother(name: string): boolean {
  for (let i = name.indexOf('mcp__', 1); i >= 0; i = name.indexOf('mcp__', i + 1))
    if (name.indexOf('__', i + 6) >= 0) return true;
  return false;
}

export function mcpToolName(server: string, tool: string): string {
  const s = normalized(server);
  const serverPart = s.includes('__') || s.startsWith('_') || s.endsWith('_') ? collapsed(s) || '_' : s;
  const t = normalized(tool);
  const name = `mcp__${serverPart}__${t}`;
  return readsAsAnother(name) ? `mcp__${serverPart}__${t.replace(/_+/g, '_')}` : name;
}

/** The server and tool a hook-side MCP tool name names [G-ACT-1]: `server` null when it names none. */
export interface McpName {
  readonly server: string | null;
  readonly tool: string;
}

/**
 * [G-ACT-1] `mcp__SERVER__TOOL` read back: the server part ends at the first `__` after `mcp__`
 * (a name `mcpToolName` builds never holds `__` in its server part, so this is its inverse); a
 * name without a server part (`mcp__x`, `mcp____x`) keeps `server: null`. Undefined for a name
 * that is not an MCP tool's.
 */
export function parseMcpToolName(name: string): McpName | undefined {
  if (!name.startsWith('mcp__')) return undefined;
  const rest = name.slice(5);
  const end = rest.indexOf('__');
  if (end <= 0) return { server: null, tool: rest };
  return { server: rest.slice(0, end), tool: rest.slice(end + 2) };
}
