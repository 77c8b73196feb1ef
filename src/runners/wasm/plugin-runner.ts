/**
 * One loaded plugin and its worker thread [P-WASM-3].
 *
 * The component runs in its own `worker_threads` Worker, warm across events; calls to one plugin
 * run one at a time, in order. Limits:
 * - time: a call that has not answered after `timeout_ms` gets its worker terminated (this stops
 *   even a wasm infinite loop) and a `timeout` result; the next call starts a fresh worker;
 * - memory: the core modules are compiled from bytes whose memory maximum was rewritten to
 *   `max_memory_mb` (see wasm-memory.ts), and the worker only instantiates those modules;
 * - no filesystem and no network unless granted (see worker-source.ts).
 * `Err(msg)`, traps, crashes and load failures all come back as results: nothing ever throws.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { errorMessage } from '../../core/errno.ts';
import type { Logger } from '../../records/logger.ts';
import type { RunRecord } from '../../records/run-record.ts';
import type { PluginSpec } from './plugin-spec.ts';
import type { TranspileCache } from './transpile.ts';
import { capComponentMemory } from './wasm-memory.ts';
import { PLUGIN_WORKER_SOURCE } from './worker-source.ts';

export type PluginCallResult = Pick<RunRecord, 'outcome' | 'cause' | 'reason' | 'stderrTail'>;

/** A new call is dropped when the plugin's current call has already run this long and others wait. */
const PLUGIN_STALL_MS = 250;
/** The longest `Err` message or trap text kept in a record. */
const MAX_REASON = 4096;
const STDERR_TAIL = 2048;
/** Heap of the worker's JavaScript (jco glue, strings); wasm memory is capped separately. */
const WORKER_HEAP_MB = 128;

const require = createRequire(import.meta.url);
let shimUrls: Record<string, string> | undefined;
function shim(): Record<string, string> {
  shimUrls ??= Object.fromEntries(
    ['cli', 'clocks', 'filesystem', 'http', 'io', 'random', 'sockets'].map((k) => [
      k,
      pathToFileURL(require.resolve(`@bytecodealliance/preview2-shim/${k}`)).href,
    ]),
  );
  return shimUrls;
}

const SUPPORTED_IMPORT = /^wasi:(cli|clocks|io|random|filesystem|sockets|http)\/[a-z0-9-]+$/;
const HOOKS_EXPORT = /^prx:plugin\/hooks@0\.1\.\d+$/;

/** A compiled core module (`WebAssembly.Module`). */
type WasmModule = object;
// This project's TS libs have no WebAssembly types (they live in lib.dom); declare the one call used.
declare const WebAssembly: { compile(bytes: Uint8Array): Promise<WasmModule> };

interface Prepared {
  glue: string;
  modules: Record<string, WasmModule>;
  imports: string[];
  exportKey: string;
}

interface Call {
  id: number;
  event: string;
  json: string;
  resolve: (r: PluginCallResult) => void;
  queuedAt: number;
  postedAt: number;
  timer: NodeJS.Timeout | undefined;
  worker: Worker | undefined;
}

interface RunnerContext {
  logger: Logger;
  transpiler: TranspileCache;
}

class StartError extends Error {}

export class PluginRunner {
  readonly spec: PluginSpec;
  readonly #ctx: RunnerContext;
  #prepared: Promise<Prepared> | undefined;
  /** Set when the plugin can never load (bad component, unsupported import, memory over the cap). */
  #broken: string | undefined;
  #worker: Worker | undefined;
  #starting: Promise<Worker> | undefined;
  #queue: Call[] = [];
  #inflight: Call | undefined;
  #nextId = 1;
  #state: 'active' | 'retiring' | 'closed' = 'active';
  #stderr = '';
  /** Set by a timeout, cleared by the next call that answers: meanwhile only one call at a time. */
  #suspect = false;
  #idleWaiters: Array<() => void> = [];
  /** Workers started so far (the first, plus one after each timeout or crash). */
  workersStarted = 0;

  constructor(spec: PluginSpec, ctx: RunnerContext) {
    this.spec = spec;
    this.#ctx = ctx;
  }

  get name(): string {
    return this.spec.name;
  }

  /** The union of its capabilities' event patterns. */
  get patterns(): readonly string[] {
    return this.spec.patterns;
  }

  get closed(): boolean {
    return this.#state === 'closed';
  }

  /** Starts the worker ahead of the first event; load problems are logged. */
  warm(): void {
    this.#ensureWorker().catch(() => {});
  }

  /** Runs `on-event` for one event. Never rejects. */
  call(event: string, json: string): Promise<PluginCallResult> {
    if (this.#state === 'closed')
      return Promise.resolve({
        outcome: 'dropped',
        cause: 'closed',
        reason: 'the plugin was unloaded before the run started',
      });
    // Backpressure, so that one hung plugin cannot hold every run slot [P-FF-2]: while its
    // current call has run for PLUGIN_STALL_MS with others waiting, or while it is recovering
    // from a timeout, new events for it are dropped (and recorded).
    const busy = this.#inflight;
    if (busy !== undefined) {
      const age = busy.postedAt > 0 ? performance.now() - busy.postedAt : 0;
      if (this.#suspect || (this.#queue.length > 0 && age >= PLUGIN_STALL_MS)) {
        return Promise.resolve({
          outcome: 'dropped',
          cause: 'plugin_busy',
          reason: this.#suspect
            ? `plugin ${this.name} is recovering from a timeout and still busy; event dropped`
            : `plugin ${this.name} is still on an earlier event (${Math.round(age)} ms) with more waiting; event dropped`,
        });
      }
    }
    return new Promise<PluginCallResult>((resolve) => {
      this.#queue.push({
        id: this.#nextId++,
        event,
        json,
        resolve,
        queuedAt: performance.now(),
        postedAt: 0,
        timer: undefined,
        worker: undefined,
      });
      this.#pump();
    });
  }

  /** Stops taking new work; the worker exits once the calls already queued are done. */
  retire(): void {
    if (this.#state !== 'active') return;
    this.#state = 'retiring';
    this.#maybeExit();
  }

  /** Drops queued calls, waits for the running one (bounded by timeout_ms), stops the worker. */
  async close(): Promise<void> {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    for (const call of this.#queue.splice(0))
      call.resolve({
        outcome: 'dropped',
        cause: 'closed',
        reason: 'the engine was closed before the run started',
      });
    if (this.#inflight !== undefined) await new Promise<void>((r) => this.#idleWaiters.push(r));
    const w = this.#worker;
    this.#worker = undefined;
    if (w !== undefined) await w.terminate();
    else if (this.#starting !== undefined) {
      const started = await this.#starting.catch(() => undefined);
      if (started !== undefined) await started.terminate();
    }
  }

  #pump(): void {
    if (this.#inflight !== undefined) return;
    let call = this.#queue.shift();
    // Calls that already waited a whole timeout_ms behind earlier ones (a hung plugin) are not
    // started: so no run of a plugin holds a run slot much longer than its timeout_ms.
    while (call !== undefined && performance.now() - call.queuedAt > this.spec.timeoutMs) {
      call.resolve({
        outcome: 'dropped',
        cause: 'plugin_busy',
        reason: `waited more than timeout_ms (${this.spec.timeoutMs} ms) behind earlier events of plugin ${this.name}; not started`,
      });
      call = this.#queue.shift();
    }
    if (call === undefined) return;
    this.#inflight = call;
    const w = this.#worker;
    if (w !== undefined) {
      this.#post(w, call);
      return;
    }
    this.#ensureWorker().then(
      (worker) => {
        if (this.#inflight === call) this.#post(worker, call);
      },
      (err: Error) =>
        this.#finish(call, {
          outcome: 'spawn_error',
          cause: 'plugin_load',
          reason: clip(err.message),
        }),
    );
  }

  #post(w: Worker, call: Call): void {
    call.worker = w;
    call.postedAt = performance.now();
    call.timer = setTimeout(this.#onTimeout, this.spec.timeoutMs, call);
    w.postMessage([call.id, call.event, call.json]);
  }

  #onTimeout = (call: Call): void => {
    if (this.#inflight !== call) return;
    this.#kill(call.worker);
    // Events that queued up behind the hung call are not run: they would each wait for it.
    this.#suspect = true;
    for (const queued of this.#queue.splice(0))
      queued.resolve({
        outcome: 'dropped',
        cause: 'plugin_busy',
        reason: `queued behind an event of plugin ${this.name} that hung (timed out after ${this.spec.timeoutMs} ms); not started`,
      });
    this.#finish(call, {
      outcome: 'timeout',
      cause: 'timeout',
      reason: `on-event did not return within ${this.spec.timeoutMs} ms; its worker was terminated (a fresh one takes the next event)`,
    });
  };

  #onMessage(w: Worker, msg: unknown): void {
    const call = this.#inflight;
    if (call === undefined || call.worker !== w) return;
    if (msg === call.id) {
      this.#finish(call, { outcome: 'ok' });
      return;
    }
    if (Array.isArray(msg) && msg[0] === call.id) {
      const text = clip(String(msg[2]));
      this.#finish(
        call,
        msg[1] === 1
          ? { outcome: 'error', cause: 'plugin_error', reason: text }
          : { outcome: 'error', cause: 'trap', reason: text },
      );
    }
  }

  #onWorkerGone(w: Worker, reason: string): void {
    if (this.#worker === w) this.#worker = undefined;
    const call = this.#inflight;
    if (call !== undefined && call.worker === w)
      this.#finish(call, { outcome: 'error', cause: 'crash', reason });
  }

  #finish(call: Call, result: PluginCallResult): void {
    if (call.timer !== undefined) clearTimeout(call.timer);
    if (result.outcome !== 'timeout') this.#suspect = false;
    if (this.#inflight === call) this.#inflight = undefined;
    if (result.outcome !== 'ok' && this.#stderr.trim() !== '') {
      result.stderrTail = this.#stderr;
      this.#stderr = '';
    }
    call.resolve(result);
    if (this.#state === 'closed') {
      for (const w of this.#idleWaiters.splice(0)) w();
      return;
    }
    this.#pump();
    this.#maybeExit();
  }

  #maybeExit(): void {
    if (this.#state !== 'retiring' || this.#inflight !== undefined || this.#queue.length > 0) return;
    void this.close();
  }

  #kill(w: Worker | undefined): void {
    if (w === undefined) return;
    if (this.#worker === w) this.#worker = undefined;
    void w.terminate();
  }

  #ensureWorker(): Promise<Worker> {
    if (this.#worker !== undefined) return Promise.resolve(this.#worker);
    if (this.#starting === undefined) {
      const p = this.#start();
      this.#starting = p;
      const clear = () => {
        if (this.#starting === p) this.#starting = undefined;
      };
      p.then(clear, clear);
    }
    return this.#starting;
  }

  async #start(): Promise<Worker> {
    if (this.#broken !== undefined) throw new Error(this.#broken);
    let prepared: Prepared;
    try {
      this.#prepared ??= this.#prepare();
      prepared = await this.#prepared;
    } catch (err) {
      this.#markBroken(errorMessage(err));
      throw new Error(this.#broken);
    }
    if (this.closed) throw new Error('the plugin was unloaded');
    const w = new Worker(PLUGIN_WORKER_SOURCE, {
      eval: true,
      name: `hookwerk-plugin:${this.name}`,
      workerData: {
        glue: prepared.glue,
        modules: prepared.modules,
        imports: prepared.imports,
        exportKey: prepared.exportKey,
        preopens: Object.fromEntries(this.spec.filesystem.map((g) => [g.guest, g.host])),
        network: this.spec.network,
        shim: shim(),
      },
      // Nothing of the host's environment or arguments reaches the worker.
      env: {},
      argv: [],
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: 16 },
    });
    this.workersStarted++;
    const startLimit = Math.max(10_000, this.spec.timeoutMs);
    const ready = await new Promise<{ ok: true } | { ok: false; permanent: boolean; message: string }>(
      (resolve) => {
        const timer = setTimeout(
          () =>
            resolve({
              ok: false,
              permanent: false,
              message: `the worker did not start within ${startLimit} ms`,
            }),
          startLimit,
        );
        const done = (r: { ok: true } | { ok: false; permanent: boolean; message: string }) => {
          clearTimeout(timer);
          resolve(r);
        };
        w.on('message', (msg: unknown) => {
          if (typeof msg === 'object' && msg !== null && !Array.isArray(msg)) {
            if ('stderr' in msg) this.#stderr = (this.#stderr + String(msg.stderr)).slice(-STDERR_TAIL);
            else if ('ready' in msg) done({ ok: true });
            else if ('failed' in msg) done({ ok: false, permanent: true, message: String(msg.failed) });
          } else this.#onMessage(w, msg);
        });
        w.on('error', (err) => {
          done({ ok: false, permanent: false, message: `the worker failed: ${err.message}` });
          this.#onWorkerGone(w, `the worker failed: ${err.message}`);
        });
        w.on('exit', (code) => {
          done({ ok: false, permanent: false, message: `the worker exited (code ${code}) while starting` });
          this.#onWorkerGone(w, `the worker exited (code ${code})`);
        });
        // An idle plugin does not keep the process alive; a running call does (its timeout timer).
        // (After the listeners: adding a 'message' listener refs the worker again.)
        w.unref();
      },
    );
    if (!ready.ok) {
      void w.terminate();
      if (ready.permanent) {
        this.#markBroken(`cannot instantiate the component: ${ready.message}`);
        throw new Error(this.#broken);
      }
      throw new StartError(ready.message);
    }
    if (this.closed) {
      void w.terminate();
      throw new Error('the plugin was unloaded');
    }
    this.#worker = w;
    return w;
  }

  #markBroken(message: string): void {
    if (this.#broken !== undefined) return;
    this.#broken = clip(message);
    this.#ctx.logger.warn(`plugin ${this.name} (${this.spec.manifestFile}) cannot load: ${this.#broken}`);
  }

  async #prepare(): Promise<Prepared> {
    const { spec } = this;
    const t = await this.#ctx.transpiler.get(spec.wasmSha256, spec.wasmBytes);
    const exportKey = t.exports.find((e) => HOOKS_EXPORT.test(e));
    if (exportKey === undefined)
      throw new Error(
        `the component does not export prx:plugin/hooks@0.1.x (it exports ${t.exports.join(', ') || 'nothing'}); build it for the world in wit/hook.wit`,
      );
    const unsupported = t.imports.filter((i) => !SUPPORTED_IMPORT.test(i));
    if (unsupported.length > 0)
      throw new Error(`the component imports ${unsupported.join(', ')}, which hookwerk does not provide`);
    // [P-WASM-3] The memory cap lives in the modules themselves: see wasm-memory.ts.
    const capped = capComponentMemory(t.cores, spec.maxMemoryMb * 16);
    const modules: Record<string, WasmModule> = {};
    for (const [name, bytes] of Object.entries(capped.cores))
      modules[name] = await WebAssembly.compile(bytes);
    return { glue: t.glue, modules, imports: t.imports, exportKey };
  }
}

function clip(s: string): string {
  return s.length > MAX_REASON ? `${s.slice(0, MAX_REASON)}…` : s;
}
