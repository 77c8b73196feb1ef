/**
 * A PRX workspace [§1]: its `hooks.json`, loaded, watched and reloaded [P-CFG-3], and its WASM
 * plugins [P-WASM-1..3]. What is in force goes to the registry through `setShell`/`setPlugins`;
 * a rejected load keeps the last good hooks.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { HookwerkError } from '../../core/errors.ts';
import { type ConfigIssue, formatIssue } from '../../core/issues.ts';
import { isDirectory } from '../../core/real-path.ts';
import type { Logger } from '../../records/logger.ts';
import type { EngineMetrics } from '../../records/metrics.ts';
import type { PrxShellHook, WasmPluginHook } from '../../registry/hook-definition.ts';
import { PluginHost } from '../../sources/plugin-host.ts';
import { PLUGINS_DIR } from '../../sources/plugin-scan.ts';
import { type FileWatch, watchConfigFile } from '../../sources/watch.ts';
import { loadPrxConfig, PRX_HOOKS_FILE, type PrxLoadResult } from './source.ts';

interface WorkspaceReload {
  ok: boolean;
  /** True when the hooks in force were replaced. */
  changed: boolean;
  actions: number;
  issues: ConfigIssue[];
}

interface PrxWorkspaceOptions {
  dir: string;
  logger: Logger;
  metrics: EngineMetrics;
  watch: boolean;
  reloadDebounceMs: number;
  plugins: boolean;
  /** The hooks.json actions in force now, and how a load replaces them. */
  shell(): readonly PrxShellHook[];
  setShell(actions: readonly PrxShellHook[]): void;
  setPlugins(plugins: readonly WasmPluginHook[]): void;
  /** What a change the watcher sees does (the engine's own `reload()`). */
  onChange(): void;
}

export class PrxWorkspace {
  readonly dir: string;
  readonly #opts: PrxWorkspaceOptions;
  #loadedText: string | undefined;
  #issues: ConfigIssue[] = [];
  #watch: FileWatch | undefined;
  /** The workspace folder was found gone (and that was logged). */
  #goneWarned = false;
  #plugins: PluginHost | undefined;

  constructor(opts: PrxWorkspaceOptions) {
    this.dir = path.resolve(opts.dir);
    assertDirectory(this.dir);
    this.#opts = opts;
    this.reload();
    if (opts.watch) {
      this.#watch = watchConfigFile(path.join(this.dir, PRX_HOOKS_FILE), () => opts.onChange(), {
        debounceMs: opts.reloadDebounceMs,
        onError: (dir, err) =>
          opts.logger.error(`hot reload: cannot watch ${dir} (${err.message}); changes there may be missed`),
      });
    }
    // WASM plugins: load problems go to the logger, a bad plugin is skipped.
    if (opts.plugins) {
      this.#plugins = new PluginHost({
        dir: path.join(this.dir, PLUGINS_DIR),
        logger: opts.logger,
        watch: opts.watch,
        onChange: (plugins) => opts.setPlugins(plugins),
      });
    }
  }

  /** Re-reads `hooks.json` now; an invalid file, or a folder that is gone, keeps the hooks in force. */
  reload(): WorkspaceReload {
    const o = this.#opts;
    const result: PrxLoadResult = loadPrxConfig(this.dir);
    const inForce = o.shell().length;
    if (this.#gone(result, inForce)) return { ok: true, changed: false, actions: inForce, issues: [] };
    if (!result.ok) {
      this.#issues = result.issues;
      o.metrics.reloadFailed();
      o.logger.error(
        `${result.file} rejected, keeping the last good hooks (${inForce} actions):\n  ${result.issues.map(formatIssue).join('\n  ')}`,
      );
      return { ok: false, changed: false, actions: inForce, issues: result.issues };
    }
    this.#issues = [];
    // Our own atomic writes and editors' double saves fire the watcher with unchanged content.
    if (result.text === this.#loadedText && inForce === result.actions.length) {
      return { ok: true, changed: false, actions: inForce, issues: [] };
    }
    o.setShell(result.actions);
    this.#loadedText = result.text;
    o.metrics.reloaded();
    o.logger.info(`${result.file}: ${result.actions.length} actions in force`);
    return { ok: true, changed: true, actions: result.actions.length, issues: [] };
  }

  /** Problems of the last rejected load (empty when the file in force is the file on disk). */
  issues(): readonly ConfigIssue[] {
    return this.#issues;
  }

  /** The hooks.json problems and the plugins' load problems, for `explain`. */
  allIssues(): ConfigIssue[] {
    return [...this.#issues, ...(this.#plugins?.issues() ?? [])];
  }

  /** Stops watching; plugins drop calls not yet started, finish running ones, stop their workers. */
  close(): Promise<void> {
    this.#watch?.close();
    return this.#plugins?.close() ?? Promise.resolve();
  }

  /**
   * [P-CFG-3] issue 11: a workspace folder that is gone (deleted, moved away) keeps the hooks in
   * force, where a deleted hooks.json means none: a vanished folder is mostly one being replaced
   * (checkout, sync, restore), and its recreated hooks.json decides. Warned once per absence.
   */
  #gone(result: PrxLoadResult, inForce: number): boolean {
    const gone = result.ok && !result.exists && !isDirectory(this.dir);
    const logger = this.#opts.logger;
    if (gone && !this.#goneWarned)
      logger.warn(`workspace ${this.dir} is gone: keeping the ${inForce} hooks in force until it is back`);
    else if (!gone && this.#goneWarned)
      logger.info(`workspace ${this.dir} is back: its ${PRX_HOOKS_FILE} applies again`);
    this.#goneWarned = gone;
    return gone;
  }
}

function assertDirectory(dir: string): void {
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    throw new HookwerkError('WORKSPACE', `workspace ${dir} does not exist`);
  }
  if (!isDir) throw new HookwerkError('WORKSPACE', `workspace ${dir} is not a directory`);
}
