/**
 * [AD-MCP-1] The MCP server the proxy starts (`-- COMMAND [ARGS…]`), as an SDK `Transport`: JSON-RPC
 * lines on its stdin and stdout (the SDK's own reader and writer), its stderr passed through to
 * ours. The SDK's `StdioClientTransport` signals only the one process it started; this one starts
 * the server in a process group (and a cgroup where the host allows, as hook processes), so that
 * closing it leaves nothing running: stdin closed first (what MCP asks of a client), then
 * SIGTERM to everything the server started, then SIGKILL.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { errorMessage } from '../core/errno.ts';
import {
  type Containment,
  detectContainment,
  makeRunCgroup,
  type RunContainer,
} from '../runners/containment.ts';

/** After stdin closes, how long the server may take to exit on its own before SIGTERM. */
const EXIT_GRACE_MS = 2000;
/** After SIGTERM, how long before SIGKILL. */
const TERM_GRACE_MS = 2000;
/** How often a stopping server's processes are looked for. */
const POLL_MS = 20;

export interface UpstreamProcessOptions {
  command: string;
  args: readonly string[];
  /** Default: ours. */
  cwd?: string;
  /** Default: ours, whole (the host configured the server's environment for the proxy). */
  env?: NodeJS.ProcessEnv;
}

export interface UpstreamExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export class UpstreamProcess implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: Transport['onmessage'];
  readonly #opts: UpstreamProcessOptions;
  readonly #buffer = new ReadBuffer();
  #child: ChildProcess | undefined;
  #containment: Containment | undefined;
  #box: RunContainer | undefined;
  #exit: UpstreamExit | undefined;
  #exited: Promise<UpstreamExit> | undefined;
  #stopping: Promise<void> | undefined;
  /** [X-PROC-3] If this process ends any other way, the server's processes end with it. */
  readonly #killNow = () => this.#signal('SIGKILL');

  constructor(opts: UpstreamProcessOptions) {
    this.#opts = opts;
  }

  /** The server's pid (its process group's id), once started. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** How the server ended, once it did. */
  get exit(): UpstreamExit | undefined {
    return this.#exit;
  }

  start(): Promise<void> {
    if (this.#child !== undefined) return Promise.reject(new Error('the MCP server was started already'));
    const { command, args } = this.#opts;
    return new Promise((resolve, reject) => {
      const child = spawn(command, [...args], {
        cwd: this.#opts.cwd,
        env: this.#opts.env ?? process.env,
        stdio: ['pipe', 'pipe', 'inherit'],
        // Its own process group: what it starts can be stopped with it, never with us.
        detached: true,
      });
      this.#child = child;
      child.once('error', (err) => {
        if (child.pid === undefined) reject(new Error(`cannot start ${command}: ${err.message}`));
        else this.onerror?.(err);
      });
      child.once('spawn', () => {
        const pid = child.pid;
        if (pid !== undefined) this.#contain(pid);
        resolve();
      });
      this.#exited = new Promise((done) => {
        child.once('exit', (code, signal) => {
          this.#exit = { code, signal };
          done(this.#exit);
        });
      });
      // After its output is read to the end: every message it sent is delivered before onclose.
      child.once('close', () => this.onclose?.());
      child.stdin?.on('error', (err) => this.onerror?.(err));
      child.stdout?.on('error', (err) => this.onerror?.(err));
      child.stdout?.on('data', (chunk: Buffer) => this.#read(chunk));
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#child?.stdin;
    if (stdin == null || !stdin.writable) return Promise.reject(new Error('the MCP server is not running'));
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /** Stops the server and everything it started (idempotent; resolves once none is left). */
  close(): Promise<void> {
    this.#stopping ??= this.#stop();
    return this.#stopping;
  }

  async #stop(): Promise<void> {
    const child = this.#child;
    const pid = child?.pid;
    if (child === undefined || pid === undefined) return;
    if (this.#exit === undefined) {
      child.stdin?.end();
      if (this.#exited !== undefined) await within(this.#exited, EXIT_GRACE_MS);
    }
    // Whatever it left running (or itself, if it ignored EOF) is stopped now.
    this.#signal('SIGTERM');
    if (!(await this.#waitFor(() => this.#empty(pid), TERM_GRACE_MS))) {
      this.#signal('SIGKILL');
      await this.#waitFor(() => this.#empty(pid), TERM_GRACE_MS);
    }
    process.off('exit', this.#killNow);
    this.#box?.release(this.#empty(pid));
    this.#containment?.close();
  }

  #contain(pid: number): void {
    process.on('exit', this.#killNow);
    try {
      this.#containment = detectContainment();
      this.#box = this.#containment.create(false);
      // Right after it started: the process group holds whatever it forks before this write. Its
      // cgroup is one made now, for it alone [X-PROC-2].
      if (this.#box.procs !== undefined && makeRunCgroup(this.#box.procs))
        writeFileSync(this.#box.procs, String(pid));
    } catch (err) {
      this.onerror?.(new Error(`the MCP server runs in its process group only: ${errorMessage(err)}`));
    }
  }

  #signal(signal: 'SIGTERM' | 'SIGKILL'): void {
    const pid = this.#child?.pid;
    if (pid === undefined) return;
    if (this.#box !== undefined) this.#box.signal(pid, signal);
    else
      try {
        process.kill(-pid, signal);
      } catch {
        // gone already
      }
  }

  #empty(pid: number): boolean {
    if (this.#box !== undefined) return this.#box.empty(pid);
    try {
      process.kill(-pid, 0);
      return false;
    } catch {
      return true;
    }
  }

  /** Resolves true once `done()` holds, false after `ms`. */
  async #waitFor(done: () => boolean, ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (!done()) {
      if (Date.now() >= deadline) return false;
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
    return true;
  }

  #read(chunk: Buffer): void {
    try {
      this.#buffer.append(chunk);
    } catch (err) {
      // More than the reader holds without a newline: not an MCP server we can talk to.
      this.onerror?.(new Error(`the MCP server's output: ${errorMessage(err)}`));
      void this.close();
      return;
    }
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.#buffer.readMessage();
      } catch (err) {
        this.onerror?.(
          new Error(`the MCP server wrote a line that is not a JSON-RPC message: ${errorMessage(err)}`),
        );
        continue;
      }
      if (message === null) return;
      this.onmessage?.(message);
    }
  }
}

/** Settles when `promise` does, or after `ms`, whichever comes first. */
async function within(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([promise, new Promise((r) => (timer = setTimeout(r, ms)))]);
  clearTimeout(timer);
}
