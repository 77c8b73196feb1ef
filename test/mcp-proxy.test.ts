/**
 * [AD-MCP-1] The MCP gate proxy. In-process first (`McpProxy` between two in-memory transport
 * pairs: the SDK's `Client` → proxy → the tests' notes server), for what passes unchanged; then
 * `hookwerk mcp-proxy` as a real process with the SDK's `Client` on its stdio, in front of the
 * notes server it starts (`-- node notes-server.mjs`) or of one on streamable HTTP at 127.0.0.1
 * (`--url`), guarded by a project's Claude Code hooks (`--dialect claude`) approved with
 * `hookwerk trust --yes`. The policy the proxy reads by default: mcp-proxy-policy.test.ts.
 */

import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  CallToolResultSchema,
  CreateMessageRequestSchema,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { mcpProxyCommand, parseMcpProxyArgs } from '../src/cli/mcp-proxy.ts';
import type { HookEngine } from '../src/engine-api.ts';
import { createMcpGate, type McpGateMode, type McpRunRecord } from '../src/mcp/index.ts';
import { McpProxy } from '../src/mcp/mcp-proxy.ts';
import type { JournalEntry } from '../src/records/journal-entry.ts';
import { journalDir } from '../src/records/journal-segments.ts';
import { RunJournal } from '../src/records/run-journal.ts';
import { cleanEnv, REPO, runCli } from './cli-runner.ts';
import { openEngine } from './engine-harness.ts';
import { notesServer } from './fixtures/mcp/notes-server.mjs';
import { processAlive, tempDir } from './helpers.ts';
import {
  clientOn,
  closeAfter,
  directNotes,
  httpNotes,
  NOTES_SERVER,
  notesProject,
  ProxyProcess,
  pidsSchema,
  serverLog,
  wireLog,
} from './mcp-harness.ts';

/** Client → McpProxy → notes server, all in this process. */
async function inMemoryProxy(
  engine: HookEngine,
  opts: { name?: string; mode?: McpGateMode; server?: (side: InMemoryTransport) => Promise<void> } = {},
) {
  const file = path.join(tempDir('hw-mcp-log-'), 'calls.jsonl');
  const [clientSide, proxyDown] = InMemoryTransport.createLinkedPair();
  const [proxyUp, serverSide] = InMemoryTransport.createLinkedPair();
  // What each side sent, as it went on the wire.
  const fromClient: JSONRPCMessage[] = [];
  const toClient: JSONRPCMessage[] = [];
  const toServer: JSONRPCMessage[] = [];
  spySends(clientSide, fromClient);
  spySends(proxyDown, toClient);
  spySends(proxyUp, toServer);
  await (opts.server ?? ((side) => notesServer(file).connect(side)))(serverSide);
  const records: McpRunRecord[] = [];
  const lines: string[] = [];
  const mode = opts.mode ?? 'enforce';
  const proxy = new McpProxy({
    client: proxyDown,
    upstream: proxyUp,
    gate: (name) => createMcpGate(engine, { name, mode, record: (runs) => records.push(...runs) }),
    ...(opts.name !== undefined ? { name: opts.name } : {}),
    mode,
    log: (line) => lines.push(line),
  });
  await proxy.start();
  const client = await clientOn(clientSide);
  closeAfter(() => proxy.close());
  return { client, proxy, records, lines, fromClient, toClient, toServer, log: () => serverLog(file) };
}

function spySends(transport: InMemoryTransport, into: JSONRPCMessage[]): void {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    into.push(message);
    return send(message, options);
  };
}

function claudeEngine(project: string): Promise<HookEngine> {
  return openEngine({
    projectDir: project,
    home: tempDir('hw-mcp-home-'),
    gateDialect: 'claude',
    watch: false,
    trust: () => ({ trusted: true, reason: 'test' }),
  });
}

describe('[AD-MCP-1] McpProxy: every message passes unchanged, tools/call through the gate', () => {
  it('tools/list, resources and prompts answer exactly what the server answers directly', async () => {
    const { client } = await inMemoryProxy(await claudeEngine(notesProject()));
    const direct = await directNotes(path.join(tempDir('hw-mcp-log-'), 'direct.jsonl'));
    expect(await client.listTools()).toEqual(await direct.listTools());
    expect(await client.listResources()).toEqual(await direct.listResources());
    expect(await client.readResource({ uri: 'notes://readme' })).toEqual(
      await direct.readResource({ uri: 'notes://readme' }),
    );
    expect(await client.listPrompts()).toEqual(await direct.listPrompts());
    const ask = { name: 'summarize', arguments: { topic: 'cats' } };
    expect(await client.getPrompt(ask)).toEqual(await direct.getPrompt(ask));
    expect(client.getServerVersion()).toEqual(direct.getServerVersion());
  });

  it("the server's own requests reach the client and its answers come back (sampling); progress passes", async () => {
    const { client, records } = await inMemoryProxy(await claudeEngine(notesProject()));
    expect(await client.callTool({ name: 'ask_model', arguments: {} })).toEqual({
      content: [{ type: 'text', text: 'the model said blue' }],
    });
    const progress: number[] = [];
    const counted = await client.callTool({ name: 'count', arguments: {} }, CallToolResultSchema, {
      onprogress: (p) => progress.push(p.progress),
    });
    expect(counted).toEqual({ content: [{ type: 'text', text: 'counted to 3' }] });
    expect(progress).toEqual([1, 2, 3]);
    expect(records.filter((r) => r.hook === 'mcp-gate').map((r) => r.toolName)).toEqual([
      'mcp__notes__ask_model',
      'mcp__notes__count',
    ]);
  });

  it('the denied call never reaches the server; the rewritten one arrives rewritten', async () => {
    const { client, log } = await inMemoryProxy(await claudeEngine(notesProject()));
    expect(await client.callTool({ name: 'delete_all', arguments: {} })).toEqual({
      content: [{ type: 'text', text: 'no deleting: notes are kept' }],
      isError: true,
    });
    await client.callTool({ name: 'write_note', arguments: { title: 'a', body: 'b' } });
    expect(log()).toEqual([{ tool: 'write_note', args: { title: '[reviewed] a', body: 'b' } }]);
  });

  it('a call the client cancels while it is at the gate never reaches the server, and gets no answer', async () => {
    const engine = await claudeEngine(tempDir('hw-mcp-empty-'));
    let release: () => void = () => {};
    let atGate: () => void = () => {};
    const reached = new Promise<void>((resolve) => {
      atGate = resolve;
    });
    engine.use('PreToolUse', { matcher: 'mcp__notes__delete_all' }, async () => {
      atGate();
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      return undefined;
    });
    const { client, log, fromClient, toClient } = await inMemoryProxy(engine);
    const stop = new AbortController();
    const cancelled = client.callTool({ name: 'delete_all', arguments: {} }, CallToolResultSchema, {
      signal: stop.signal,
    });
    await reached;
    stop.abort('changed my mind');
    await expect(cancelled).rejects.toThrow();
    release();
    // A later call goes through the same two transports, in order, after the cancelled one's turn.
    await client.callTool({ name: 'write_note', arguments: { title: 'a', body: 'b' } });
    expect(log().map((c) => c.tool)).toEqual(['write_note']);
    const call = fromClient.find((m) => 'method' in m && m.method === 'tools/call');
    const id = call !== undefined && 'id' in call ? call.id : undefined;
    expect(id).toBeDefined();
    expect(fromClient.some((m) => 'method' in m && m.method === 'notifications/cancelled')).toBe(true);
    expect(toClient.filter((m) => 'id' in m && m.id === id)).toEqual([]);
  });

  it('a call cancelled after it reached the server: the cancel goes on to it, PostToolUseFailure says is_interrupt', async () => {
    const engine = await claudeEngine(tempDir('hw-mcp-empty-'));
    const failure = new Promise<unknown>((resolve) => {
      engine.use('PostToolUseFailure', {}, (input) => {
        resolve({ error: input.error, is_interrupt: input.is_interrupt });
        return undefined;
      });
    });
    const { client, toClient, toServer } = await inMemoryProxy(engine);
    // ask_model waits for the client's model: the call is at the server until the test lets go.
    let answer: () => void = () => {};
    let asked: () => void = () => {};
    const sampling = new Promise<void>((resolve) => {
      asked = resolve;
    });
    client.setRequestHandler(CreateMessageRequestSchema, async () => {
      asked();
      await new Promise<void>((resolve) => {
        answer = resolve;
      });
      return { role: 'assistant', content: { type: 'text', text: 'late' }, model: 'test-model' };
    });
    const stop = new AbortController();
    const call = client.callTool({ name: 'ask_model', arguments: {} }, CallToolResultSchema, {
      signal: stop.signal,
    });
    await sampling;
    stop.abort('changed my mind');
    await expect(call).rejects.toThrow();
    expect(toServer.filter((m) => 'method' in m && m.method === 'notifications/cancelled')).toHaveLength(1);
    expect(await failure).toEqual({ error: 'the client cancelled the call', is_interrupt: true });
    answer();
    await client.listTools();
    const id = toServer.find((m) => 'method' in m && m.method === 'tools/call');
    expect(
      toClient.filter((m) => !('method' in m) && id !== undefined && 'id' in id && m.id === id.id),
    ).toEqual([]);
  });

  it('a JSON-RPC error answer to a call reaches the client exactly as the server sent it', async () => {
    const engine = await claudeEngine(tempDir('hw-mcp-empty-'));
    const failures: unknown[] = [];
    engine.use('PostToolUseFailure', {}, (input) => {
      failures.push(input.error);
      return undefined;
    });
    // A server of the bare protocol: it answers initialize, and every tools/call with an error.
    const bare = async (side: InMemoryTransport) => {
      side.onmessage = (m) => {
        if (!('method' in m) || !('id' in m)) return;
        const answer: JSONRPCMessage =
          m.method === 'initialize'
            ? {
                jsonrpc: '2.0',
                id: m.id,
                result: {
                  protocolVersion: '2025-06-18',
                  capabilities: { tools: {} },
                  serverInfo: { name: 'bare', version: '0' },
                },
              }
            : {
                jsonrpc: '2.0',
                id: m.id,
                error: { code: -32042, message: 'go to the URL first', data: { url: 'https://x' } },
              };
        void side.send(answer);
      };
      await side.start();
    };
    const { client, toClient } = await inMemoryProxy(engine, { server: bare });
    await expect(client.callTool({ name: 'anything', arguments: {} })).rejects.toThrow(/go to the URL first/);
    expect(toClient.at(-1)).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32042, message: 'go to the URL first', data: { url: 'https://x' } },
    });
    expect(failures).toEqual(['go to the URL first']);
  });

  it("the server's name comes from its initialize answer; --name replaces it in the hooks' tool names", async () => {
    const named = await inMemoryProxy(await claudeEngine(notesProject()), { name: 'archive' });
    expect(named.proxy.gate?.name).toBe('archive');
    // The notes project guards mcp__notes__…: under another name its deny does not match.
    expect(await named.client.callTool({ name: 'delete_all', arguments: {} })).toEqual({
      content: [{ type: 'text', text: 'deleted every note' }],
    });
    expect(named.records.find((r) => r.hook === 'mcp-gate')?.toolName).toBe('mcp__archive__delete_all');
    const plain = await inMemoryProxy(await claudeEngine(notesProject()));
    expect(plain.proxy.gate?.name).toBe('notes');
  });

  it('a tools/call whose params cannot be read is refused in enforce mode and passes in audit mode', async () => {
    const bad = { method: 'tools/call', params: { name: 'write_note', arguments: ['not', 'an', 'object'] } };
    const enforce = await inMemoryProxy(await claudeEngine(notesProject()));
    await expect(enforce.client.request(bad, CallToolResultSchema)).rejects.toThrow(
      /hookwerk mcp-proxy: tools\/call params must give the tool its name/,
    );
    const audit = await inMemoryProxy(await claudeEngine(notesProject()), { mode: 'audit' });
    // The server itself refuses it (its own validation): what matters is that it got to say so.
    const answer = await audit.client.request(bad, CallToolResultSchema).catch((e: Error) => e.message);
    expect(JSON.stringify(answer)).not.toMatch(/hookwerk/);
    expect(audit.lines).toContain(
      'audit: a call passes ungated: tools/call params must give the tool its name (a string) and its arguments as an object',
    );
  });
});

describe('[AD-MCP-1] a tools/call sent as a notification (no id) never reaches the server ungated', () => {
  const notified = {
    jsonrpc: '2.0',
    method: 'tools/call',
    params: { name: 'delete_all', arguments: {} },
  } satisfies JSONRPCMessage;
  const isCall = (m: JSONRPCMessage) => 'method' in m && m.method === 'tools/call';
  const refusedLine =
    'hookwerk mcp-proxy: refused a tools/call of delete_all sent as a notification (no id): dropped, the server never sees it\n';

  it('in-process: enforce drops it and records it refused; audit lets it pass, saying so', async () => {
    const enforce = await inMemoryProxy(await claudeEngine(notesProject()));
    await enforce.client.notification({ method: 'tools/call', params: notified.params });
    await enforce.client.listTools();
    expect(enforce.toServer.filter(isCall)).toEqual([]);
    expect(enforce.lines).toEqual([
      'refused a tools/call of delete_all sent as a notification (no id): dropped, the server never sees it',
    ]);
    expect(enforce.records).toEqual([
      expect.objectContaining({
        hook: 'mcp-gate',
        toolName: 'mcp__notes__delete_all',
        outcome: 'deny',
        decision: 'deny',
      }),
    ]);
    const audit = await inMemoryProxy(await claudeEngine(notesProject()), { mode: 'audit' });
    await audit.client.notification({ method: 'tools/call', params: notified.params });
    await audit.client.listTools();
    expect(audit.toServer.filter(isCall)).toEqual([notified]);
    expect(audit.lines).toEqual([
      'audit: a tools/call of delete_all sent as a notification (no id) passes ungated',
    ]);
    expect(audit.records).toEqual([
      expect.objectContaining({ cause: 'audit_would_deny', decision: 'allow' }),
    ]);
  });

  it('stdio: the real proxy drops each one, says so on stderr once per call, records it; the server never saw it', async () => {
    const { project, home } = await approvedProject();
    const log = path.join(tempDir('hw-mcp-run-'), 'calls.jsonl');
    const proxy = new ProxyProcess(
      ['--dialect', 'claude', '--project', project, '--', process.execPath, NOTES_SERVER, log],
      {
        home,
      },
    );
    const client = await clientOn(proxy);
    await proxy.send(notified);
    await proxy.send(notified);
    // A request sent after them: once it is answered, the server got whatever came before it.
    expect((await client.listTools()).tools.length).toBe(6);
    expect(wireLog(log).filter(isCall)).toEqual([]);
    expect(wireLog(log).some((m) => 'method' in m && m.method === 'tools/list')).toBe(true);
    await client.close();
    expect((await proxy.exit).code).toBe(0);
    expect(proxy.stderr).toBe(refusedLine.repeat(2));
    expect(journalOf(home).map((e) => [e.hook, e.toolName, e.decision])).toEqual([
      ['mcp-gate', 'mcp__notes__delete_all', 'deny'],
      ['mcp-gate', 'mcp__notes__delete_all', 'deny'],
    ]);
  });

  it('--url: the same for a streamable-HTTP server', async () => {
    const { project, home } = await approvedProject();
    const log = path.join(tempDir('hw-mcp-run-'), 'calls.jsonl');
    const http = await httpNotes(log);
    const proxy = new ProxyProcess(['--dialect', 'claude', '--project', project, '--url', http.url.href], {
      home,
    });
    const client = await clientOn(proxy);
    await proxy.send(notified);
    expect(await client.callTool({ name: 'write_note', arguments: { title: 'a', body: 'b' } })).toMatchObject(
      {
        content: [{ type: 'text', text: 'wrote "[reviewed] a"' }, expect.anything()],
      },
    );
    await client.close();
    expect((await proxy.exit).code).toBe(0);
    expect(
      wireLog(log)
        .filter(isCall)
        .map((m) => ('id' in m ? m.id : 'no id')),
    ).toEqual([expect.any(Number)]);
    expect(serverLog(log).map((c) => c.tool)).toEqual(['write_note']);
    expect(proxy.stderr).toBe(refusedLine);
  });
});

/** A notes project approved with `hookwerk trust --yes` in a fresh HOME. */
async function approvedProject(): Promise<{ project: string; home: string }> {
  const project = notesProject();
  const home = tempDir('hw-mcp-home-');
  const trust = await runCli(['trust', '--yes', '--project', project], { home });
  expect(trust.code, trust.stderr).toBe(0);
  return { project, home };
}

describe('[AD-MCP-1] hookwerk mcp-proxy: the real process', () => {
  it('stdio: gates the calls, passes the rest, and leaves no process when the client goes', async () => {
    const { project, home } = await approvedProject();
    const dir = tempDir('hw-mcp-run-');
    const log = path.join(dir, 'calls.jsonl');
    const pids = path.join(dir, 'pids.json');
    const proxy = new ProxyProcess(
      ['--dialect', 'claude', '--project', project, '--', process.execPath, NOTES_SERVER, log, pids],
      {
        home,
      },
    );
    const errors: Error[] = [];
    proxy.onerror = (e) => errors.push(e);
    const client = await clientOn(proxy);
    expect(client.getServerVersion()).toEqual({ name: 'notes', version: '1.0.0' });
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual([
      'write_note',
      'delete_all',
      'fail',
      'ask_model',
      'count',
      'crash',
    ]);
    expect(await client.callTool({ name: 'delete_all', arguments: {} })).toEqual({
      content: [{ type: 'text', text: 'no deleting: notes are kept' }],
      isError: true,
    });
    expect(await client.callTool({ name: 'write_note', arguments: { title: 'a', body: 'b' } })).toEqual({
      content: [
        { type: 'text', text: 'wrote "[reviewed] a"' },
        { type: 'text', text: 'remember to tag the note' },
      ],
    });
    expect((await client.readResource({ uri: 'notes://readme' })).contents).toEqual([
      { uri: 'notes://readme', text: 'Notes are kept forever.' },
    ]);
    expect(serverLog(log)).toEqual([{ tool: 'write_note', args: { title: '[reviewed] a', body: 'b' } }]);
    const { server, child } = pidsSchema.parse(JSON.parse(readFileSync(pids, 'utf8')));
    expect(processAlive(server) && processAlive(child)).toBe(true);

    await client.close();
    expect(await proxy.exit).toEqual({ code: 0, signal: null });
    // The server and what it started (a child it never waits for) are gone with the proxy.
    expect([processAlive(server), processAlive(child)]).toEqual([false, false]);
    expect(errors).toEqual([]);
    expect(proxy.stdoutLines().length).toBeGreaterThanOrEqual(5);
    expect(proxy.stderr).toBe('');
    // [R-HOOK-3] Every call in the journal, as the agent "mcp": the gate's verdicts and the hooks' runs.
    const journal = journalOf(home);
    expect(journal.filter((e) => e.hook === 'mcp-gate').map((e) => [e.toolName, e.decision])).toEqual([
      ['mcp__notes__write_note', 'allow'],
      ['mcp__notes__delete_all', 'deny'],
    ]);
    expect(journal.every((e) => e.agent === 'mcp' && e.sessionId?.startsWith('mcp_'))).toBe(true);
    expect(journal.find((e) => e.event === 'PostToolUse')).toMatchObject({
      toolName: 'mcp__notes__write_note',
      decision: 'deny',
      source: expect.stringMatching(/settings\.json#\/hooks\/PostToolUse\/0\/hooks\/0$/),
    });
  });

  it('--mode audit: the denied call runs and the would-be deny is said on stderr', async () => {
    const { project, home } = await approvedProject();
    const log = path.join(tempDir('hw-mcp-run-'), 'calls.jsonl');
    const proxy = new ProxyProcess(
      [
        '--dialect',
        'claude',
        '--mode',
        'audit',
        '--project',
        project,
        '--',
        process.execPath,
        NOTES_SERVER,
        log,
      ],
      { home },
    );
    const client = await clientOn(proxy);
    expect(await client.callTool({ name: 'delete_all', arguments: {} })).toEqual({
      content: [{ type: 'text', text: 'deleted every note' }],
    });
    expect(serverLog(log)).toEqual([{ tool: 'delete_all', args: {} }]);
    await client.close();
    expect((await proxy.exit).code).toBe(0);
    expect(proxy.stderr).toBe(
      'hookwerk mcp-proxy: audit: hooks would deny mcp__notes__delete_all: no deleting: notes are kept\n',
    );
    expect(journalOf(home).find((e) => e.hook === 'mcp-gate')).toMatchObject({
      toolName: 'mcp__notes__delete_all',
      outcome: 'ok',
      decision: 'allow',
      cause: 'audit_would_deny',
      reason: 'no deleting: notes are kept',
    });
  });

  it('an unapproved project: its hooks do not run, and stderr says so once, at start', async () => {
    const project = notesProject();
    const log = path.join(tempDir('hw-mcp-run-'), 'calls.jsonl');
    const proxy = new ProxyProcess(
      ['--dialect', 'claude', '--project', project, '--', process.execPath, NOTES_SERVER, log],
      {
        home: tempDir('hw-mcp-home-'),
      },
    );
    const client = await clientOn(proxy);
    await client.callTool({ name: 'delete_all', arguments: {} });
    await client.callTool({ name: 'delete_all', arguments: {} });
    expect(serverLog(log).map((c) => c.tool)).toEqual(['delete_all', 'delete_all']);
    await client.close();
    expect((await proxy.exit).code).toBe(0);
    expect(proxy.stderr).toBe(
      `hookwerk mcp-proxy: the project hooks of ${project} are not approved and do not run: ` +
        `review them with \`hookwerk trust --project ${project}\`\n`,
    );
  });

  it('--url: a streamable-HTTP server on 127.0.0.1 is gated the same, and its session ends with the proxy', async () => {
    const { project, home } = await approvedProject();
    const log = path.join(tempDir('hw-mcp-run-'), 'calls.jsonl');
    const http = await httpNotes(log);
    const proxy = new ProxyProcess(['--dialect', 'claude', '--project', project, '--url', http.url.href], {
      home,
    });
    const client = await clientOn(proxy);
    expect(client.getServerVersion()?.name).toBe('notes');
    expect((await client.listTools()).tools.length).toBe(6);
    expect((await client.callTool({ name: 'delete_all', arguments: {} })).isError).toBe(true);
    await client.callTool({ name: 'write_note', arguments: { title: 'a', body: 'b' } });
    expect(await client.callTool({ name: 'ask_model', arguments: {} })).toEqual({
      content: [{ type: 'text', text: 'the model said blue' }],
    });
    expect(serverLog(log)).toEqual([
      { tool: 'write_note', args: { title: '[reviewed] a', body: 'b' } },
      { tool: 'ask_model', args: {} },
    ]);
    await client.close();
    expect(await proxy.exit).toEqual({ code: 0, signal: null });
    expect(http.ended()).toBe(1);
    expect(proxy.stdoutLines().length).toBeGreaterThanOrEqual(5);
    expect(proxy.stderr).toBe('');
  });

  it('the server dies: the proxy exits 1 with one line saying how, and its client sees the connection close', async () => {
    const { project, home } = await approvedProject();
    const log = path.join(tempDir('hw-mcp-run-'), 'calls.jsonl');
    const proxy = new ProxyProcess(
      ['--dialect', 'claude', '--project', project, '--', process.execPath, NOTES_SERVER, log],
      {
        home,
      },
    );
    const client = await clientOn(proxy);
    await expect(client.callTool({ name: 'crash', arguments: {} })).rejects.toThrow(/closed/i);
    expect(await proxy.exit).toEqual({ code: 1, signal: null });
    expect(proxy.stderr).toBe('hookwerk: mcp-proxy: the MCP server exited with code 3\n');
  });

  it('SIGTERM: the proxy stops the server and what it started, and exits 143', async () => {
    const { project, home } = await approvedProject();
    const dir = tempDir('hw-mcp-run-');
    const pids = path.join(dir, 'pids.json');
    const proxy = new ProxyProcess(
      [
        '--dialect',
        'claude',
        '--project',
        project,
        '--',
        process.execPath,
        NOTES_SERVER,
        path.join(dir, 'calls.jsonl'),
        pids,
      ],
      { home },
    );
    const client = await clientOn(proxy);
    await client.listTools();
    const { server, child } = pidsSchema.parse(JSON.parse(readFileSync(pids, 'utf8')));
    proxy.child.kill('SIGTERM');
    expect(await proxy.exit).toEqual({ code: 143, signal: null });
    expect([processAlive(server), processAlive(child)]).toEqual([false, false]);
  });

  it("examples/mcp-proxy/client.js: one call allowed, one denied by the example's policy [G-PERM-1]", async () => {
    const run = await runNode(
      [path.join(REPO, 'examples', 'mcp-proxy', 'client.js')],
      tempDir('hw-mcp-home-'),
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('connected to notes through hookwerk mcp-proxy');
    expect(run.stdout).toContain('write_note -> noted (1 notes)');
    expect(run.stdout).toContain(
      `delete_all -> DENIED: ${path.join(REPO, 'examples', 'mcp-proxy', '.hookwerk', 'policy.json')}: permissions.deny: mcp__notes__delete_all`,
    );
  });

  it('bad command lines are CliErrors naming the flag; from the CLI: one line on stderr, exit 1, nothing on stdout', async () => {
    const cases: [string[], RegExp][] = [
      [[], /give the MCP server to start after --, or --url URL/],
      [
        ['--dialect', 'gemini', '--', 'node', 's.js'],
        /--dialect must be policy, claude or lurus, got "gemini"/,
      ],
      [['--mode=loud', '--', 'node'], /--mode must be enforce or audit/],
      [['--url', 'ftp://127.0.0.1/'], /--url must be an http or https URL/],
      [['--url', 'http://127.0.0.1/', '--', 'node'], /either --url or a command, not both/],
      [['--nmae', 'x', '--', 'node'], /unknown option --nmae/],
      [['--name', 'a', '--name', 'b', '--', 'node'], /--name is given twice/],
      [['--name'], /--name needs a value/],
    ];
    for (const [args, pattern] of cases)
      expect(() => parseMcpProxyArgs(args), args.join(' ')).toThrow(pattern);
    // The server's own flags are its own: the first word that is not ours starts its command line.
    expect(parseMcpProxyArgs(['--name', 'n', 'node', 'server.js', '--port', '3'])).toEqual({
      name: 'n',
      mode: 'enforce',
      upstream: { command: 'node', args: ['server.js', '--port', '3'] },
    });
    const home = tempDir('hw-mcp-home-');
    await expect(
      mcpProxyCommand(['--project', path.join(home, 'missing'), '--', 'node'], {
        stdin: process.stdin,
        stdout: process.stdout,
        err: () => {},
        env: {},
      }),
    ).rejects.toThrow(/does not exist/);
    const [usage, missing] = await Promise.all([
      runCli(['mcp-proxy', '--mode', 'loud', '--', 'node'], { home }),
      runCli(['mcp-proxy', '--', path.join(home, 'no-such-server')], { home }),
    ]);
    expect(usage).toEqual({
      code: 1,
      stdout: '',
      stderr: 'hookwerk: mcp-proxy: --mode must be enforce or audit, got "loud"\n',
    });
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toMatch(/^hookwerk: mcp-proxy: cannot start .*no-such-server: spawn .* ENOENT\n$/);
  });
});

/** `node ARGS…` with HOME at `home`; its output once it exits. */
function runNode(
  args: string[],
  home: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env: { ...cleanEnv(), HOME: home }, cwd: REPO });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The journal of `home`, the MCP proxy's entries, newest first [R-HOOK-3]. */
function journalOf(home: string): JournalEntry[] {
  return new RunJournal(journalDir(home)).read({ agent: 'mcp' }).entries;
}
