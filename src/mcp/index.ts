/**
 * `hookwerk/mcp` [AD-MCP-1]: the MCP gate for hosts that hold their own MCP client. The CLI's
 * `hookwerk mcp-proxy` is built on it. The package's main entry does not import this one.
 */

export { mcpToolName } from '../action/mcp-tool-name.ts';
export type { McpCallOptions, McpForward, McpGate, McpGateMode, McpGateOptions } from './mcp-gate.ts';
export { createMcpGate } from './mcp-gate.ts';
export type { McpRunRecord } from './mcp-records.ts';
export type { McpGateDialect } from './tool-events.ts';
export type { McpToolResult } from './tool-result.ts';
