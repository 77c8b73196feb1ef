// A tiny MCP server for the mcp-proxy example: two tools, `write_note` and `delete_all`, over stdio.
// Run by client.js through `hookwerk mcp-proxy`; it knows nothing of hookwerk.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const notes = [];
const server = new McpServer({ name: 'notes', version: '1.0.0' });
server.registerTool(
  'write_note',
  { description: 'Write a note', inputSchema: { text: z.string() } },
  async ({ text }) => {
    notes.push(text);
    return { content: [{ type: 'text', text: `noted (${notes.length} notes)` }] };
  },
);
server.registerTool('delete_all', { description: 'Delete every note' }, async () => {
  notes.length = 0;
  return { content: [{ type: 'text', text: 'deleted every note' }] };
});
await server.connect(new StdioServerTransport());
