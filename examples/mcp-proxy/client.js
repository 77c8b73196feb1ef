// The mcp-proxy example: an MCP client (the SDK's) talks to server.js through `hookwerk mcp-proxy`,
// which decides every tool call with this folder's policy (.hookwerk/policy.json). One call is
// allowed, one is denied by the policy's permission rule `mcp__notes__delete_all`.
//
//   node examples/mcp-proxy/client.js
//
// A project policy runs only once approved (`hookwerk trust`). So that trying the example leaves
// your own approvals alone, it approves this folder in a throwaway HOME, and removes it at the end.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const hookwerk = path.join(here, '..', '..', 'bin', 'hookwerk.js');
const home = mkdtempSync(path.join(tmpdir(), 'hookwerk-mcp-example-'));
const env = { PATH: process.env.PATH ?? '', HOME: home };

try {
  console.log(`approving ${here}'s policy in a throwaway HOME (${home})`);
  execFileSync(process.execPath, [hookwerk, 'trust', '--yes', '--project', here], { env, stdio: 'ignore' });

  // What an MCP host's config says: "command": "npx", "args": ["hookwerk", "mcp-proxy", "--", "node", "server.js"]
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [hookwerk, 'mcp-proxy', '--project', here, '--', process.execPath, path.join(here, 'server.js')],
    env,
    stderr: 'inherit',
  });
  const client = new Client({ name: 'example-client', version: '1.0.0' });
  await client.connect(transport);
  console.log(`connected to ${client.getServerVersion()?.name} through hookwerk mcp-proxy`);

  const allowed = await client.callTool({ name: 'write_note', arguments: { text: 'buy milk' } });
  console.log(`write_note -> ${allowed.content[0].text}`);
  const denied = await client.callTool({ name: 'delete_all', arguments: {} });
  console.log(`delete_all -> ${denied.isError ? 'DENIED' : 'ran'}: ${denied.content[0].text}`);

  await client.close();
} finally {
  rmSync(home, { recursive: true, force: true });
}
