import { lstatSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { writeFileAtomic } from '../../core/atomic-write.ts';
import { errorCode } from '../../core/errno.ts';

/** What jco made of a component: the ES module glue and the core modules it instantiates. */
interface Transpiled {
  /** The ES module (jco `instantiation: 'async'`): `instantiate(getCoreModule, imports, instantiateCore)`. */
  glue: string;
  /** Core modules by the name the glue asks `getCoreModule` for. */
  cores: Record<string, Uint8Array>;
  /** Interfaces the component imports (`wasi:cli/environment`, …), without versions. */
  imports: string[];
  /** Names it exports (`hooks`, `prx:plugin/hooks@0.1.0`). */
  exports: string[];
}

/** Options handed to `transpileBytes`. Part of the cache key: change `CACHE_FORMAT` with them. */
const TRANSPILE_OPTIONS = {
  name: 'plugin',
  // The host supplies every import itself (no WASI shim baked in), and core modules are
  // requested through getCoreModule, so each one passes through the memory cap.
  instantiation: 'async',
  base64Cutoff: 0,
  emitTypescriptDeclarations: false,
  noComponentErrorWrapping: true,
} as const;
const CACHE_FORMAT = 1;

const require = createRequire(import.meta.url);

function jcoLocation(): { url: string; version: string } {
  const entry = require.resolve('@bytecodealliance/jco-transpile');
  let version = 'unknown';
  try {
    const pkg = JSON.parse(readFileSync(path.join(path.dirname(entry), '..', 'package.json'), 'utf8'));
    if (typeof pkg.version === 'string') version = pkg.version;
  } catch {}
  return { url: pathToFileURL(entry).href, version };
}

const TRANSPILER_SOURCE = `
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
// jco's warnings must not reach the host's stdout or stderr.
process.stdout.write = process.stderr.write = (_c, a, b) => {
  const cb = typeof a === 'function' ? a : b;
  if (typeof cb === 'function') queueMicrotask(cb);
  return true;
};
let jco;
parentPort.on('message', async ({ id, bytes }) => {
  try {
    jco ??= await import(workerData.jcoUrl);
    const r = await jco.transpileBytes(bytes, workerData.options);
    parentPort.postMessage({ id, ok: true, files: r.files, imports: r.imports, exports: r.exports.map((e) => e[0]) });
  } catch (err) {
    parentPort.postMessage({ id, ok: false, message: (err && err.message) || String(err) });
  }
});
`;

export interface TranspileCacheOptions {
  /** Disk cache folder; `false` for memory only. Default: `<os tmpdir>/hookwerk-plugins-<uid>`. */
  cacheDir?: string | false;
  /** A transpile taking longer fails (and its worker is stopped). Default 120 s. */
  timeoutMs?: number;
  /** The transpile worker exits after this long without work. Default 5 s. */
  idleMs?: number;
}

interface Pending {
  resolve: (t: Transpiled) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout;
}

export class TranspileCache {
  readonly #memory = new Map<string, Promise<Transpiled>>();
  readonly #jco = jcoLocation();
  readonly #timeoutMs: number;
  readonly #idleMs: number;
  #diskDir: string | undefined;
  #worker: Worker | undefined;
  #pending = new Map<number, Pending>();
  #nextId = 1;
  #idleTimer: NodeJS.Timeout | undefined;
  #closed = false;
  /** How many transpiles actually ran (not served from a cache): for tests and the benchmark. */
  transpiled = 0;

  constructor(opts: TranspileCacheOptions = {}) {
    this.#timeoutMs = opts.timeoutMs ?? 120_000;
    this.#idleMs = opts.idleMs ?? 5_000;
    const dir =
      opts.cacheDir === false
        ? undefined
        : (opts.cacheDir ?? path.join(tmpdir(), `hookwerk-plugins-${process.getuid?.() ?? 'user'}`));
    this.#diskDir = dir !== undefined ? privateDir(dir, `jco-${this.#jco.version}`) : undefined;
  }

  /** The transpiled form of a component, by its sha-256; at most one transpile per hash. */
  get(sha: string, bytes: Uint8Array): Promise<Transpiled> {
    let p = this.#memory.get(sha);
    if (p === undefined) {
      p = this.#load(sha, bytes);
      // A failure is not cached: the next load (e.g. after the file changed back) tries again.
      p.catch(() => this.#memory.delete(sha));
      if (this.#memory.size >= 64) {
        const oldest = this.#memory.keys().next();
        if (!oldest.done) this.#memory.delete(oldest.value);
      }
      this.#memory.set(sha, p);
    }
    return p;
  }

  async #load(sha: string, bytes: Uint8Array): Promise<Transpiled> {
    const file =
      this.#diskDir !== undefined ? path.join(this.#diskDir, `${sha}.v${CACHE_FORMAT}.json`) : undefined;
    if (file !== undefined) {
      const cached = readCacheFile(file);
      if (cached !== undefined) return cached;
    }
    const result = await this.#transpile(bytes);
    if (file !== undefined) writeCacheFile(file, result);
    return result;
  }

  #transpile(bytes: Uint8Array): Promise<Transpiled> {
    if (this.#closed) return Promise.reject(new Error('the plugin host is closed'));
    const worker = this.#ensureWorker();
    const id = this.#nextId++;
    if (this.#idleTimer !== undefined) clearTimeout(this.#idleTimer);
    this.#idleTimer = undefined;
    return new Promise<Transpiled>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#failAll(new Error(`jco transpile did not finish within ${this.#timeoutMs} ms`));
      }, this.#timeoutMs);
      // Not unref'd: while a transpile is pending, this timer keeps the process alive.
      this.#pending.set(id, { resolve, reject, timer });
      worker.postMessage({ id, bytes });
    });
  }

  #ensureWorker(): Worker {
    if (this.#worker !== undefined) return this.#worker;
    const worker = new Worker(TRANSPILER_SOURCE, {
      eval: true,
      workerData: { jcoUrl: this.#jco.url, options: TRANSPILE_OPTIONS },
      env: {},
      argv: [],
      execArgv: [],
      name: 'hookwerk-jco',
    });
    worker.on('message', (m: TranspileReply) => this.#reply(m));
    worker.on('error', (err) => this.#failAll(new Error(`jco transpile worker failed: ${err.message}`)));
    worker.on('exit', () => {
      if (this.#worker === worker) this.#worker = undefined;
      this.#failAll(new Error('jco transpile worker exited'));
    });
    // Last: adding a 'message' listener refs a worker again. A pending transpile keeps the
    // process alive through its timeout timer, not through this worker.
    worker.unref();
    this.#worker = worker;
    return worker;
  }

  #reply(m: TranspileReply): void {
    const p = this.#pending.get(m.id);
    if (p === undefined) return;
    this.#pending.delete(m.id);
    clearTimeout(p.timer);
    if (!m.ok) p.reject(new Error(`jco cannot transpile it: ${firstLine(m.message)}`));
    else {
      try {
        this.transpiled++;
        p.resolve(fromFiles(m.files, m.imports, m.exports));
      } catch (err) {
        p.reject(err instanceof Error ? err : new Error(String(err)));
      }
    }
    if (this.#pending.size === 0 && this.#worker !== undefined) {
      const w = this.#worker;
      this.#idleTimer = setTimeout(() => {
        if (this.#pending.size === 0 && this.#worker === w) {
          this.#worker = undefined;
          void w.terminate();
        }
      }, this.#idleMs);
      this.#idleTimer.unref();
    }
  }

  #failAll(err: Error): void {
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    for (const p of pending) {
      clearTimeout(p.timer);
      p.reject(err);
    }
    const w = this.#worker;
    this.#worker = undefined;
    if (w !== undefined) void w.terminate();
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#idleTimer !== undefined) clearTimeout(this.#idleTimer);
    const w = this.#worker;
    this.#failAll(new Error('the plugin host is closed'));
    if (w !== undefined) await w.terminate();
  }
}

type TranspileReply =
  | { id: number; ok: true; files: Record<string, Uint8Array>; imports: string[]; exports: string[] }
  | { id: number; ok: false; message: string };

function fromFiles(files: Record<string, Uint8Array>, imports: string[], exports: string[]): Transpiled {
  const names = Object.keys(files);
  const js = names.filter((n) => n.endsWith('.js'));
  if (js.length !== 1) throw new Error(`jco produced ${js.length} JavaScript files, expected 1`);
  const cores: Record<string, Uint8Array> = {};
  for (const n of names) if (n.endsWith('.wasm')) cores[path.posix.basename(n)] = new Uint8Array(files[n]!);
  return {
    glue: Buffer.from(files[js[0]!]!).toString('utf8'),
    cores,
    imports: [...imports],
    exports: [...exports],
  };
}

/** Creates (or checks) `<base>/<sub>`, both folders only the current user can use; undefined otherwise. */
function privateDir(base: string, sub: string): string | undefined {
  const own = (d: string) => {
    mkdirSync(d, { mode: 0o700 });
  };
  const ok = (d: string) => {
    const st = lstatSync(d);
    const uid = process.getuid?.();
    return st.isDirectory() && (uid === undefined || st.uid === uid) && (st.mode & 0o077) === 0;
  };
  try {
    const dir = path.join(base, sub);
    for (const d of [base, dir]) {
      try {
        own(d);
      } catch (err) {
        if (errorCode(err) !== 'EEXIST') throw err;
      }
      if (!ok(d)) return undefined;
    }
    return dir;
  } catch {
    return undefined;
  }
}

function readCacheFile(file: string): Transpiled | undefined {
  try {
    const st = lstatSync(file);
    const uid = process.getuid?.();
    if (!st.isFile() || (uid !== undefined && st.uid !== uid) || (st.mode & 0o077) !== 0) return undefined;
    const raw = JSON.parse(readFileSync(file, 'utf8'));
    if (
      raw?.format !== CACHE_FORMAT ||
      typeof raw.glue !== 'string' ||
      typeof raw.cores !== 'object' ||
      !Array.isArray(raw.imports) ||
      !Array.isArray(raw.exports)
    )
      return undefined;
    const cores: Record<string, Uint8Array> = {};
    for (const [name, b64] of Object.entries(raw.cores)) {
      if (typeof b64 !== 'string' || !/^[\w.-]+\.wasm$/.test(name)) return undefined;
      cores[name] = new Uint8Array(Buffer.from(b64, 'base64'));
    }
    return { glue: raw.glue, cores, imports: raw.imports.map(String), exports: raw.exports.map(String) };
  } catch {
    return undefined;
  }
}

function writeCacheFile(file: string, t: Transpiled): void {
  const cores = Object.fromEntries(
    Object.entries(t.cores).map(([n, b]) => [n, Buffer.from(b).toString('base64')]),
  );
  try {
    writeFileAtomic(
      file,
      JSON.stringify({ format: CACHE_FORMAT, glue: t.glue, cores, imports: t.imports, exports: t.exports }),
      { mode: 0o600 },
    );
  } catch {
    // A cache that cannot be written is only a slower next start.
  }
}

function firstLine(s: string): string {
  return s.split('\n').find((l) => l.trim() !== '') ?? s;
}
