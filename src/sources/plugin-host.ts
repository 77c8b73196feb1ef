/**
 * The WASM plugin host of one workspace [P-WASM-1..3]: scans `<workspace>/plugins/`, keeps one
 * warm worker per plugin, and re-scans when a plugin folder is added, changed or removed (no
 * restart needed). Which plugin gets which event is the registry's business: the host hands it
 * the new plugin definitions through `onChange`.
 */
import { type FSWatcher, watch } from 'node:fs';
import path from 'node:path';
import { errorMessage } from '../core/errno.ts';
import { type ConfigIssue, formatIssue } from '../core/issues.ts';
import { type Logger, silentLogger } from '../records/logger.ts';
import type { WasmPluginHook } from '../registry/hook-definition.ts';
import { PluginRunner } from '../runners/wasm/plugin-runner.ts';
import { TranspileCache, type TranspileCacheOptions } from '../runners/wasm/transpile.ts';
import type { HashCache, PluginSpec } from './plugin-manifest.ts';
import { pluginHooks } from './plugin-patterns.ts';
import { scanPlugins } from './plugin-scan.ts';

interface PluginHostOptions {
  /** The plugins folder, normally `<workspace>/plugins`. It may not exist (yet). */
  dir: string;
  logger?: Logger;
  /** Re-scan on changes. Default true. */
  watch?: boolean;
  /** Debounce of the watcher, ms. Default 100. */
  debounceMs?: number;
  /** Where transpiled components are cached on disk (`false`: memory only). */
  cacheDir?: TranspileCacheOptions['cacheDir'];
  /** Start each plugin's worker at load rather than at its first event. Default true. */
  prewarm?: boolean;
  /** Called with the plugins' definitions after every scan that changed them. */
  onChange?: (hooks: readonly WasmPluginHook[]) => void;
}

interface PluginRescan {
  /** Plugins in force after the scan. */
  plugins: number;
  /** True when a plugin was added, changed or removed. */
  changed: boolean;
  issues: ConfigIssue[];
}

export class PluginHost {
  readonly dir: string;
  readonly #logger: Logger;
  readonly #transpiler: TranspileCache;
  readonly #hashCache: HashCache = new Map();
  readonly #prewarm: boolean;
  readonly #debounceMs: number;
  readonly #onChange: ((hooks: readonly WasmPluginHook[]) => void) | undefined;
  #plugins: PluginRunner[] = [];
  #issues: ConfigIssue[] = [];
  #issueText = new Set<string>();
  #watchers = new Map<string, FSWatcher>();
  #timer: NodeJS.Timeout | undefined;
  #watching: boolean;
  #closed = false;
  /** Replaced or removed plugins still finishing their queued calls. */
  #retiring = new Set<PluginRunner>();

  constructor(opts: PluginHostOptions) {
    this.dir = path.resolve(opts.dir);
    this.#logger = opts.logger ?? silentLogger;
    this.#transpiler = new TranspileCache(opts.cacheDir !== undefined ? { cacheDir: opts.cacheDir } : {});
    this.#prewarm = opts.prewarm !== false;
    this.#debounceMs = opts.debounceMs ?? 100;
    this.#watching = opts.watch !== false;
    this.#onChange = opts.onChange;
    this.rescan();
  }

  plugins(): readonly PluginRunner[] {
    return this.#plugins;
  }

  /** Problems of the last scan (one or more per skipped plugin). */
  issues(): readonly ConfigIssue[] {
    return this.#issues;
  }

  /** How many components were actually transpiled (not served from a cache). */
  get transpileCount(): number {
    return this.#transpiler.transpiled;
  }

  /** Reads the plugins folder again; unchanged plugins keep their warm worker. */
  rescan(): PluginRescan {
    if (this.#closed) return { plugins: 0, changed: false, issues: [] };
    for (const r of this.#retiring) if (r.closed) this.#retiring.delete(r);
    const scan = scanPlugins(this.dir, this.#hashCache);
    this.#reportIssues(scan.issues);
    const previous = new Map(this.#plugins.map((p) => [p.spec.dir, p]));
    const next: PluginRunner[] = [];
    let changed = false;
    for (const spec of scan.plugins) {
      const prev = previous.get(spec.dir);
      if (prev !== undefined && prev.spec.fingerprint === spec.fingerprint) {
        previous.delete(spec.dir);
        next.push(prev);
        continue;
      }
      changed = true;
      next.push(this.#start(spec, prev !== undefined));
    }
    for (const old of previous.values()) {
      if (!next.some((p) => p.spec.dir === old.spec.dir))
        this.#logger.info(`plugin ${old.name} removed (${old.spec.manifestFile})`);
      old.retire();
      this.#retiring.add(old);
      changed = true;
    }
    if (changed) {
      this.#plugins = next;
      this.#onChange?.(pluginHooks(next));
    }
    if (this.#watching) this.#syncWatches(scan.watchDirs);
    return { plugins: next.length, changed, issues: scan.issues };
  }

  #start(spec: PluginSpec, replacing: boolean): PluginRunner {
    const runner = new PluginRunner(spec, { logger: this.#logger, transpiler: this.#transpiler });
    this.#logger.info(
      `plugin ${spec.name} ${spec.version} ${replacing ? 'reloaded' : 'loaded'} from ${spec.manifestFile} (events: ${spec.patterns.join(', ')})`,
    );
    if (this.#prewarm) runner.warm();
    return runner;
  }

  #reportIssues(issues: ConfigIssue[]): void {
    this.#issues = issues;
    const now = new Set(issues.map(formatIssue));
    for (const line of now) if (!this.#issueText.has(line)) this.#logger.warn(`plugin skipped: ${line}`);
    this.#issueText = now;
  }

  /** Watches the workspace (for `plugins/` itself), `plugins/`, each plugin folder and each folder holding a component. */
  #syncWatches(dirs: readonly string[]): void {
    const parent = path.dirname(this.dir);
    const wanted = new Set([parent, ...dirs]);
    for (const [d, w] of this.#watchers) {
      if (!wanted.has(d)) {
        w.close();
        this.#watchers.delete(d);
      }
    }
    const base = path.basename(this.dir);
    for (const d of wanted) {
      if (this.#watchers.has(d)) continue;
      try {
        const w = watch(d, { persistent: false }, (_type, filename) => {
          if (d === parent && filename !== null && filename !== base) return;
          this.#changed();
        });
        w.on('error', () => {
          w.close();
          if (this.#watchers.get(d) === w) this.#watchers.delete(d);
          this.#changed();
        });
        this.#watchers.set(d, w);
      } catch {
        // Gone between the scan and now: the next change re-scans.
      }
    }
  }

  #changed(): void {
    if (this.#closed) return;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      try {
        this.rescan();
      } catch (err) {
        this.#logger.error(`re-scanning ${this.dir} failed: ${errorMessage(err)}`);
      }
    }, this.#debounceMs);
  }

  /** Stops watching, drops queued calls, waits for running ones (bounded by their timeout_ms), stops workers. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    for (const w of this.#watchers.values()) w.close();
    this.#watchers.clear();
    const runners = [...this.#plugins, ...this.#retiring];
    this.#retiring.clear();
    this.#plugins = [];
    // First the transpiler: a plugin still being prepared then fails at once instead of finishing.
    const transpiler = this.#transpiler.close();
    await Promise.all(runners.map((r) => r.close()));
    await transpiler;
  }
}
