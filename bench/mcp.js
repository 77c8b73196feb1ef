// [AD-MCP-1] What the MCP gate proxy adds to one allowed tools/call, measured against the same call
// without it, in the same run, interleaved call by call (both sides see the same drift).
//
//   in-process  the SDK's Client → McpProxy (the proxy `hookwerk mcp-proxy` runs, with a gate whose
//               engine has ONE in-process PreToolUse hook that allows, matcher mcp__bench__.*) → an
//               McpServer with an `echo` tool, over in-memory transports; vs the same Client →
//               McpServer directly over one in-memory pair. The difference is the proxy's own work:
//               the message routing, PreToolUse and PostToolUse decides, the records.
//   process     `hookwerk mcp-proxy -- node <server>` as a real process on stdio (no project hooks:
//               an in-process hook cannot reach it) vs the same server spawned directly on stdio:
//               the extra process hop (two pipes, a JSON parse and write each way) plus the gate.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { createHookEngine } from '../dist/index.js';
import { createMcpGate } from '../dist/mcp/index.js';
import { McpProxy } from '../dist/mcp/mcp-proxy.js';
import { fmtUs, median, nowUs, progress, quietLogger, verdict } from './lib.js';

/** The goal: what the proxy adds to one allowed call, median of the paired rounds. */
const TARGET_ADDED_US = 1000;
const BIN = fileURLToPath(new URL('../bin/hookwerk.js', import.meta.url));

/** The server both sides call: one tool that answers at once. */
function echoServer() {
  const server = new McpServer({ name: 'bench', version: '1.0.0' });
  server.registerTool('echo', { inputSchema: { text: z.string() } }, async ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  return server;
}

// The same server as a file of its own, for the stdio rows; it imports what this file resolves.
const ECHO_SERVER_SOURCE = `import { McpServer } from '${import.meta.resolve('@modelcontextprotocol/sdk/server/mcp.js')}';
import { StdioServerTransport } from '${import.meta.resolve('@modelcontextprotocol/sdk/server/stdio.js')}';
import { z } from '${import.meta.resolve('zod')}';
const server = new McpServer({ name: 'bench', version: '1.0.0' });
server.registerTool('echo', { inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: 'text', text }] }));
await server.connect(new StdioServerTransport());
`;

async function connected(transport) {
  const client = new Client({ name: 'bench-client', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

const ARGS = { name: 'echo', arguments: { text: 'hello' } };

function call(client) {
  return async () => {
    const r = await client.callTool(ARGS);
    if (r.content?.[0]?.text !== 'hello') throw new Error(`unexpected answer: ${JSON.stringify(r)}`);
  };
}

/** Interleaves the two sides call by call; per round the mean of each; returns the paired differences. */
async function paired(proxied, direct, { n, rounds, warmup }) {
  for (let i = 0; i < warmup; i++) {
    await proxied();
    await direct();
  }
  const a = [];
  const b = [];
  const added = [];
  for (let r = 0; r < rounds; r++) {
    const sum = { a: 0, b: 0 };
    for (let i = 0; i < n; i++) {
      const first = r % 2 === 0;
      for (const side of first ? ['a', 'b'] : ['b', 'a']) {
        const t0 = nowUs();
        await (side === 'a' ? proxied() : direct());
        sum[side] += nowUs() - t0;
      }
    }
    a.push(sum.a / n);
    b.push(sum.b / n);
    added.push((sum.a - sum.b) / n);
  }
  return { proxied: median(a), direct: median(b), added: median(added), rounds: added };
}

function row(name, benchmark, r, baselineIs) {
  progress(`mcp/${name}: added per round ${r.rounds.map((x) => x.toFixed(0)).join(' ')} µs`);
  return {
    benchmark,
    hookwerk: fmtUs(r.proxied),
    baseline: `${fmtUs(r.direct)} (${baselineIs})`,
    ratio: `+${fmtUs(r.added)}`,
    target: `≤ ${TARGET_ADDED_US / 1000} ms added (median of paired rounds)`,
    verdict: verdict(r.added <= TARGET_ADDED_US),
  };
}

export async function run() {
  const rows = [];
  const home = mkdtempSync(path.join(tmpdir(), 'hookwerk-bench-mcp-home-'));
  const dir = mkdtempSync(path.join(tmpdir(), 'hookwerk-bench-mcp-'));
  try {
    // In-process: the proxy with one in-process hook vs the direct call.
    {
      const engine = await createHookEngine({
        projectDir: dir,
        home,
        gateDialect: 'claude',
        watch: false,
        logger: quietLogger,
        trust: () => ({ trusted: true, reason: 'bench' }),
      });
      engine.use('PreToolUse', { matcher: 'mcp__bench__.*' }, () => ({ decision: 'allow' }));
      const [clientSide, proxyDown] = InMemoryTransport.createLinkedPair();
      const [proxyUp, serverSide] = InMemoryTransport.createLinkedPair();
      await echoServer().connect(serverSide);
      let runs = 0;
      const proxy = new McpProxy({
        client: proxyDown,
        upstream: proxyUp,
        gate: (name) => createMcpGate(engine, { name, record: (r) => (runs += r.length) }),
        mode: 'enforce',
        log: (line) => progress(`proxy: ${line}`),
      });
      await proxy.start();
      const viaProxy = await connected(clientSide);
      const [directSide, directServer] = InMemoryTransport.createLinkedPair();
      await echoServer().connect(directServer);
      const direct = await connected(directSide);
      try {
        await call(viaProxy)();
        if (runs !== 2)
          throw new Error(`expected the hook's run and the gate's verdict recorded, got ${runs}`);
        const r = await paired(call(viaProxy), call(direct), { n: 200, rounds: 21, warmup: 2000 });
        rows.push(
          row(
            'in-process',
            'mcp proxy: one allowed tools/call, one in-process PreToolUse hook (in-memory transports; 21 rounds × 200, interleaved)',
            r,
            'the same call straight to the server',
          ),
        );
      } finally {
        await viaProxy.close();
        await direct.close();
        await proxy.close();
        await engine.close();
      }
    }

    // The real process on stdio vs the server on stdio.
    {
      const server = path.join(dir, 'echo-server.mjs');
      writeFileSync(server, ECHO_SERVER_SOURCE);
      const env = { PATH: process.env.PATH ?? '', HOME: home };
      const viaProxy = await connected(
        new StdioClientTransport({
          command: process.execPath,
          args: [BIN, 'mcp-proxy', '--project', dir, '--', process.execPath, server],
          env,
          stderr: 'inherit',
        }),
      );
      const direct = await connected(
        new StdioClientTransport({ command: process.execPath, args: [server], env, stderr: 'inherit' }),
      );
      try {
        const r = await paired(call(viaProxy), call(direct), { n: 100, rounds: 21, warmup: 500 });
        rows.push(
          row(
            'process',
            'hookwerk mcp-proxy process: one allowed tools/call, no project hook (stdio; 21 rounds × 100, interleaved)',
            r,
            'the same server spawned directly, stdio',
          ),
        );
      } finally {
        await viaProxy.close();
        await direct.close();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
  return rows;
}
