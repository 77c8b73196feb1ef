/**
 * A real `nats-server` for tests (§8, issue 12): one process per call on 127.0.0.1, a free port,
 * JetStream with a file store in a temp folder. Not a test file; tests import it.
 *
 * ```ts
 * const server = await startNatsServer();
 * afterAll(() => server.cleanup());
 * const nc = await connect({ servers: server.url });
 * ```
 *
 * With `configFile` the server reads that file (accounts, permissions, TLS…); the address and
 * port still come from here, and the store folder reaches the file as the variable
 * `$HOOKWERK_NATS_STORE_DIR` (nats-server reads `$NAME` from its environment; `env` adds more).
 */
import { type ChildProcess, type SpawnOptionsWithStdioTuple, spawn } from 'node:child_process';
import { accessSync, constants, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface NatsServerOptions {
  /** Run with JetStream (`-js -sd <storeDir>`); default true. */
  jetstream?: boolean;
  /** Port to listen on; default: a free one. */
  port?: number;
  /** JetStream store folder; default: a new temp folder, removed by `cleanup()`. */
  storeDir?: string;
  /** A nats-server config file; JetStream is then as the file says (`jetstream` is ignored). */
  configFile?: string;
  /** Variables for the server's environment (a config file's `$NAME` references). */
  env?: Record<string, string>;
}

export interface NatsServer {
  /** `nats://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  /** The folder given to `-sd` (the JetStream data sits in `<storeDir>/jetstream`). */
  readonly storeDir: string;
  /** Pid of the current process (a new one after `restart()`). */
  readonly pid: number;
  /** True while the current process has not exited. */
  readonly running: boolean;
  /** The server's latest output (stderr and stdout, at most the last 64 KiB). */
  output(): string;
  /** SIGTERM, wait for the exit; SIGKILL when it has not exited after a grace. Nothing when not running. */
  stop(): Promise<void>;
  /** SIGKILL and wait for the exit (a crash). Nothing when not running. */
  kill(): Promise<void>;
  /** `stop()`, then start again on the same port and store folder; resolves once ready. */
  restart(): Promise<void>;
  /** `stop()` when running, and remove the store folder when this module created it. */
  cleanup(): Promise<void>;
}

/** How long a start may take before it fails. */
const READY_TIMEOUT_MS = 10_000;
/** How long `stop()` waits after SIGTERM before SIGKILL. */
const STOP_GRACE_MS = 5_000;
/** The line nats-server logs (stderr) once it accepts client connections. */
const READY_LINE = 'Server is ready';
const PORT_IN_USE = 'address already in use';
const OUTPUT_LIMIT = 64 * 1024;
const START_ATTEMPTS = 5;

const INSTALL_HINT =
  'install the Debian package nats-server (apt-get install nats-server) so that nats-server is on PATH';

/** $PATH, then the sbin folders (a non-root PATH may lack them; Debian puts nats-server in /usr/sbin). */
const DEFAULT_SEARCH_PATH = [process.env['PATH'] ?? '', '/usr/local/sbin', '/usr/sbin', '/sbin'].join(
  path.delimiter,
);

/** The first executable `name` in the folders of `searchPath`, or undefined. */
function findExecutable(name: string, searchPath: string): string | undefined {
  for (const dir of searchPath.split(path.delimiter)) {
    if (dir === '') continue;
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/**
 * The nats-server binary: the first executable `nats-server` in `searchPath` (default: $PATH,
 * then the sbin folders). Throws with an install hint when there is none.
 */
export function findNatsServer(searchPath: string = DEFAULT_SEARCH_PATH): string {
  const found = findExecutable('nats-server', searchPath);
  if (found === undefined) throw new Error(`nats-server not found (searched ${searchPath}): ${INSTALL_HINT}`);
  return found;
}

/**
 * util-linux `setpriv` (Debian: always there): `setpriv --pdeathsig KILL -- nats-server …` execs
 * the server (same pid) with the kernel set to SIGKILL it when this process dies, even when the
 * test runner kills its worker with SIGTERM or SIGKILL, where `process.on('exit')` does not run.
 */
const SETPRIV = findExecutable('setpriv', DEFAULT_SEARCH_PATH);

const REGISTRY: unique symbol = Symbol.for('hookwerk.test.natsServers');
interface Registry {
  [REGISTRY]?: Set<ChildProcess>;
}

function liveChildren(): Set<ChildProcess> {
  // On globalThis, not in this module: one set and one exit hook per process, however often
  // the test runner evaluates this module.
  const holder: Registry & typeof globalThis = globalThis;
  let set = holder[REGISTRY];
  if (set === undefined) {
    const created = new Set<ChildProcess>();
    set = created;
    holder[REGISTRY] = created;
    // A test that forgot cleanup() (or failed before it) leaves no server behind. The runner may
    // also end its worker by a signal, where this does not run: see SETPRIV for that case.
    process.on('exit', () => {
      for (const child of created) {
        try {
          child.kill('SIGKILL');
        } catch {
          // already gone
        }
      }
    });
  }
  return set;
}

/** A port nobody listens on right now: bind port 0 on 127.0.0.1, read it, close. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close((err) => {
        if (err) reject(err);
        else if (port === 0) reject(new Error('could not read the port of a probe server'));
        else resolve(port);
      });
    });
  });
}

/** One TCP connect to 127.0.0.1:port; true when it is accepted. */
function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/** One running server process and what it said. */
interface Proc {
  child: ChildProcess;
  pid: number;
  exited: Promise<void>;
  output(): string;
}

class StartError extends Error {
  constructor(
    message: string,
    readonly portInUse: boolean,
  ) {
    super(message);
  }
}

/** Spawns nats-server and resolves once it logged READY_LINE and accepts a TCP connection. */
async function spawnReady(bin: string, args: string[], port: number, env: NodeJS.ProcessEnv): Promise<Proc> {
  const options: SpawnOptionsWithStdioTuple<'ignore', 'pipe', 'pipe'> = {
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  };
  const child =
    SETPRIV === undefined
      ? spawn(bin, args, options)
      : spawn(SETPRIV, ['--pdeathsig', 'KILL', '--', bin, ...args], options);
  let text = '';
  const append = (chunk: Buffer): void => {
    text += chunk.toString('utf8');
    if (text.length > OUTPUT_LIMIT) text = text.slice(text.length - OUTPUT_LIMIT);
  };
  const describe = (why: string): string => {
    const tail = text.split('\n').slice(-25).join('\n').trimEnd();
    return `nats-server (${bin} ${args.join(' ')}) ${why}; its last output:\n${tail || '(none)'}`;
  };
  const live = liveChildren();
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => {
      live.delete(child);
      resolve();
    });
  });
  let spawnError: Error | undefined;
  const spawned = new Promise<void>((resolve) => {
    child.once('spawn', () => resolve());
    child.once('error', (err) => {
      spawnError = err;
      resolve();
    });
  });
  await spawned;
  if (spawnError !== undefined || child.pid === undefined) {
    throw new StartError(describe(`could not be started: ${spawnError?.message ?? 'no pid'}`), false);
  }
  const pid = child.pid;
  live.add(child);

  let onReady = (): void => {};
  const sawReady = new Promise<void>((resolve) => {
    onReady = resolve;
  });
  const watch = (chunk: Buffer): void => {
    append(chunk);
    if (text.includes(READY_LINE)) onReady();
  };
  child.stderr?.on('data', watch);
  child.stdout?.on('data', watch);

  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), READY_TIMEOUT_MS);
  });
  const fail = async (why: string): Promise<never> => {
    clearTimeout(timer);
    if (!hasExited(child)) {
      child.kill('SIGKILL');
      await exited;
    }
    throw new StartError(describe(why), text.includes(PORT_IN_USE));
  };

  const first = await Promise.race([
    sawReady.then(() => 'ready' as const),
    exited.then(() => 'exited' as const),
    timedOut,
  ]);
  if (first === 'exited') {
    await fail(`exited (code ${child.exitCode}, signal ${child.signalCode}) before it was ready`);
  } else if (first === 'timeout') {
    await fail(`was not ready within ${READY_TIMEOUT_MS} ms`);
  }
  // It logged that it is ready; confirm the port takes connections before handing it out.
  let connected = false;
  while (!connected) {
    connected = await canConnect(port);
    if (connected) break;
    const next = await Promise.race([
      exited.then(() => 'exited' as const),
      timedOut,
      new Promise<'retry'>((resolve) => setTimeout(() => resolve('retry'), 20)),
    ]);
    if (next === 'exited') await fail('exited right after saying it was ready');
    if (next === 'timeout') await fail(`logged "${READY_LINE}" but refused TCP connections on port ${port}`);
  }
  clearTimeout(timer);
  return { child, pid, exited, output: () => text };
}

/**
 * Starts a real nats-server on 127.0.0.1 (JetStream by default) and resolves once it is ready
 * for clients. Always `await server.cleanup()` when done (an exit hook SIGKILLs forgotten ones).
 */
export async function startNatsServer(opts: NatsServerOptions = {}): Promise<NatsServer> {
  const bin = findNatsServer();
  const jetstream = opts.jetstream ?? true;
  const ownStore = opts.storeDir === undefined;
  const storeDir = opts.storeDir ?? mkdtempSync(path.join(tmpdir(), 'hookwerk-nats-'));
  if (!ownStore) mkdirSync(storeDir, { recursive: true });
  const config = opts.configFile;
  const argsFor = (port: number): string[] => [
    ...(config !== undefined ? ['-c', config] : []),
    '-a',
    '127.0.0.1',
    '-p',
    String(port),
    ...(jetstream && config === undefined ? ['-js', '-sd', storeDir] : []),
  ];
  const env: NodeJS.ProcessEnv = { ...process.env, HOOKWERK_NATS_STORE_DIR: storeDir, ...opts.env };

  let proc: Proc | undefined;
  let port = 0;
  try {
    for (let attempt = 1; proc === undefined; attempt++) {
      port = opts.port ?? (await freePort());
      try {
        proc = await spawnReady(bin, argsFor(port), port, env);
      } catch (err) {
        // Another process took the free port between the probe and the bind: pick another one.
        const retry = err instanceof StartError && err.portInUse && opts.port === undefined;
        if (!retry || attempt >= START_ATTEMPTS) throw err;
      }
    }
  } catch (err) {
    if (ownStore) rmSync(storeDir, { recursive: true, force: true });
    throw err;
  }

  let current: Proc = proc;
  const signalAndWait = async (first: NodeJS.Signals): Promise<void> => {
    const { child, exited } = current;
    if (hasExited(child)) return;
    child.kill(first);
    if (first === 'SIGKILL') return exited;
    let timer: NodeJS.Timeout | undefined;
    const graceOver = new Promise<'grace'>((resolve) => {
      timer = setTimeout(() => resolve('grace'), STOP_GRACE_MS);
    });
    const how = await Promise.race([exited.then(() => 'exited' as const), graceOver]);
    clearTimeout(timer);
    if (how === 'grace' && !hasExited(child)) {
      child.kill('SIGKILL');
      await exited;
    }
  };

  const serverPort = port;
  const handle: NatsServer = {
    url: `nats://127.0.0.1:${serverPort}`,
    port: serverPort,
    storeDir,
    get pid() {
      return current.pid;
    },
    get running() {
      return !hasExited(current.child);
    },
    output: () => current.output(),
    stop: () => signalAndWait('SIGTERM'),
    kill: () => signalAndWait('SIGKILL'),
    async restart() {
      await signalAndWait('SIGTERM');
      current = await spawnReady(bin, argsFor(serverPort), serverPort, env);
    },
    async cleanup() {
      await signalAndWait('SIGTERM');
      if (ownStore) rmSync(storeDir, { recursive: true, force: true });
    },
  };
  return handle;
}
