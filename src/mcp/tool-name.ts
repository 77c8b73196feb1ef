/**
 * [AD-MCP-1] The name a gated MCP tool has in the hooks: `mcp__<server>__<tool>`, as Claude Code
 * names the tools of its MCP servers, so the matchers a project wrote for Claude Code
 * (`mcp__notes__delete_all`, `mcp__notes__.*`) match the same calls through the proxy.
 */

/** Claude Code replaces every character outside `[A-Za-z0-9_-]` of either name with `_`. */
function normalized(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, '_');
}

export function mcpToolName(server: string, tool: string): string {
  return `mcp__${normalized(server)}__${normalized(tool)}`;
}
