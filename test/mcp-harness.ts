/**
 * What the [AD-MCP-1] tests share: the notes server (test/fixtures/mcp/notes-server.mjs) on
 * stdio, in memory or on streamable HTTP, a project whose Claude Code hooks guard it, and the
 * proxy as a real process with an MCP client on its stdio.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CreateMessageRequestSchema,
  type JSONRPCMessage,
  JSONRPCMessageSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterEach } from 'vitest';
import { z } from 'zod';
import { BIN, cleanEnv, REPO } from './cli-runner.ts';
import { logWire, notesServer } from './fixtures/mcp/notes-server.mjs';
import { tempDir, writeScript } from './helpers.ts';

export const NOTES_SERVER = path.join(REPO, 'test', 'fixtures', 'mcp', 'notes-server.mjs');

/** The calls that reached the notes server, in order. */
export function serverLog(file: string): { tool: string; args: Record<string, unknown> }[] {
  if (!existsSync(file)) return [];
  const line = z.object({ tool: z.string(), args: z.record(z.string(), z.unknown()) });
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => line.parse(JSON.parse(l)));
}

/** Every message that reached the notes server (stdio or HTTP), as it came. */
export function wireLog(log: string): JSONRPCMessage[] {
  const file = `${log}.wire.jsonl`;
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSONRPCMessageSchema.parse(JSON.parse(l)));
}

/**
 * The guards of the tests, written for Claude Code's names of the notes server's tools:
 * `mcp__notes__delete_all` is denied (exit 2, the reason on stderr), every `mcp__notes__.*`
 * call with a `title` gets it prefixed with `[reviewed] ` (updatedInput), and a written note gets
 * PostToolUse feedback (a block's reason: the tool already ran).
 */
export function notesProject(): string {
  const dir = tempDir('hw-mcp-project-');
  const hooks = path.join(dir, '.claude', 'hooks');
  mkdirSync(hooks, { recursive: true });
  writeScript(hooks, 'deny.sh', 'cat >/dev/null\necho "no deleting: notes are kept" >&2\nexit 2');
  writeFileSync(
    path.join(hooks, 'review.cjs'),
    `let text = '';
process.stdin.on('data', (c) => (text += c)).on('end', () => {
  const input = JSON.parse(text).tool_input;
  if (typeof input.title !== 'string') return;
  const updatedInput = { ...input, title: '[reviewed] ' + input.title };
  process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput } }));
});
`,
  );
  writeScript(
    hooks,
    'tag.sh',
    `cat >/dev/null\necho '{"decision":"block","reason":"remember to tag the note"}'`,
  );
  const command = (file: string) => ({
    type: 'command',
    command: `"$CLAUDE_PROJECT_DIR"/.claude/hooks/${file}`,
  });
  writeFileSync(
    path.join(dir, '.claude', 'settings.json'),
    JSON.stringify({
      hooks: {
        PreToolUse: [
          { matcher: 'mcp__notes__delete_all', hooks: [command('deny.sh')] },
          {
            matcher: 'mcp__notes__.*',
            hooks: [{ type: 'command', command: `node "$CLAUDE_PROJECT_DIR"/.claude/hooks/review.cjs` }],
          },
        ],
        PostToolUse: [{ matcher: 'mcp__notes__write_note', hooks: [command('tag.sh')] }],
      },
    }),
  );
  return dir;
}

/** A client and the notes server on an in-memory transport pair, for the host side of a gate. */
export async function directNotes(log: string): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await notesServer(log).connect(serverSide);
  const client = new Client({ name: 'test-host', version: '1.0.0' });
  await client.connect(clientSide);
  closeAfter(() => client.close());
  return client;
}

const cleanups: (() => Promise<unknown> | unknown)[] = [];

/** Runs `fn` after the test (clients, servers, processes). */
export function closeAfter(fn: () => Promise<unknown> | unknown): void {
  cleanups.push(fn);
}

afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

/** The notes server on streamable HTTP at 127.0.0.1 (one session per client), as a test starts it. */
export async function httpNotes(log: string): Promise<{ url: URL; ended: () => number }> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  let ended = 0;
  const server = createServer((req, res) => {
    const id = req.headers['mcp-session-id'];
    const known = typeof id === 'string' ? sessions.get(id) : undefined;
    const handle = async () => {
      let transport = known;
      if (transport === undefined) {
        const fresh: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (sid: string) => {
            sessions.set(sid, fresh);
          },
          onsessionclosed: (sid: string) => {
            sessions.delete(sid);
            ended++;
          },
        });
        transport = fresh;
        await notesServer(log).connect(fresh);
        logWire(fresh, log);
      }
      await transport.handleRequest(req, res);
    };
    handle().catch((err: unknown) => {
      res.statusCode = 500;
      res.end(String(err));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  closeAfter(async () => {
    for (const t of sessions.values()) await t.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return { url: new URL(`http://127.0.0.1:${port}/mcp`), ended: () => ended };
}

/** `hookwerk mcp-proxy …` as a process, and an MCP client's transport on its stdio. */
export class ProxyProcess implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: Transport['onmessage'];
  readonly child: ChildProcess;
  /** Every byte the proxy wrote to stdout, and to stderr. */
  stdout = '';
  stderr = '';
  readonly exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  readonly #buffer = new ReadBuffer();

  constructor(args: readonly string[], opts: { home: string; cwd?: string }) {
    const env = cleanEnv();
    env.HOME = opts.home;
    this.child = spawn(process.execPath, [BIN, 'mcp-proxy', ...args], {
      env,
      cwd: opts.cwd ?? REPO,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child.stdout?.on('data', (chunk: Buffer) => {
      this.stdout += chunk.toString('utf8');
      this.#buffer.append(chunk);
      for (;;) {
        let message: JSONRPCMessage | null;
        try {
          message = this.#buffer.readMessage();
        } catch (err) {
          this.onerror?.(err instanceof Error ? err : new Error(String(err)));
          continue;
        }
        if (message === null) break;
        this.onmessage?.(message);
      }
    });
    this.child.stderr?.setEncoding('utf8').on('data', (d: string) => {
      this.stderr += d;
    });
    this.exit = new Promise((resolve) =>
      this.child.once('close', (code, signal) => {
        this.onclose?.();
        resolve({ code, signal });
      }),
    );
    closeAfter(async () => {
      if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
      await this.exit;
    });
  }

  async start(): Promise<void> {}

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      this.child.stdin?.write(serializeMessage(message), (err) => (err ? reject(err) : resolve()));
    });
  }

  /** The client hangs up: EOF on the proxy's stdin. */
  async close(): Promise<void> {
    this.child.stdin?.end();
  }

  /** Every line of stdout is a JSON-RPC message (nothing else ever reaches it). */
  stdoutLines(): JSONRPCMessage[] {
    return this.stdout
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSONRPCMessageSchema.parse(JSON.parse(l)));
  }
}

/** A client on a proxy process; its sampling requests are answered "blue". */
export async function clientOn(transport: Transport): Promise<Client> {
  const client = new Client({ name: 'test-client', version: '1.0.0' }, { capabilities: { sampling: {} } });
  client.setRequestHandler(CreateMessageRequestSchema, async () => ({
    role: 'assistant',
    content: { type: 'text', text: 'blue' },
    model: 'test-model',
  }));
  await client.connect(transport);
  return client;
}

export const pidsSchema = z.object({ server: z.number(), child: z.number() });
