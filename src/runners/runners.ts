/**
 * The runners one engine owns: one per hook kind that needs shared state (process groups in
 * flight, an HTTP pool). In-process hooks need none; each WASM plugin has its own runner.
 * [G-PERF-1] Each is made when first asked for: an engine whose policy runs no command or HTTP
 * hook (a cold `hookwerk hook` call deciding with rules and guards) never looks for cgroups or a
 * launcher.
 */
import type { Logger } from '../records/logger.ts';
import { detectContainment } from './containment.ts';
import type { HostLookup } from './guarded-connect.ts';
import { HttpRunner } from './http-runner.ts';
import { type LauncherChoice, selectBackend } from './launcher-backend.ts';
import { ProcessRunner } from './process-runner.ts';

interface RunnersOptions {
  /** [X-PROC-1] How hook processes are started: a launcher (default) or `direct`. */
  launcher?: LauncherChoice;
  /** [X-PROC-2] `pgroup` to use process groups only (no cgroups). */
  containment?: 'auto' | 'pgroup';
  logger?: Logger;
  /** Resolver for HTTP hook host names (default `dns.lookup`); blocked addresses stay blocked. */
  httpLookup?: HostLookup;
}

export class Runners {
  readonly #opts: RunnersOptions;
  #process: ProcessRunner | undefined;
  #http: HttpRunner | undefined;

  constructor(opts: RunnersOptions = {}) {
    this.#opts = opts;
  }

  get process(): ProcessRunner {
    this.#process ??= new ProcessRunner({
      backend: selectBackend(this.#opts.launcher ?? 'auto', this.#opts.logger),
      containment: detectContainment(this.#opts.containment ?? 'auto'),
    });
    return this.#process;
  }

  get http(): HttpRunner {
    const lookup = this.#opts.httpLookup;
    this.#http ??= new HttpRunner(lookup !== undefined ? { lookup } : {});
    return this.#http;
  }

  /**
   * Gives running processes `graceMs` to end by themselves, then terminates the rest
   * (SIGTERM → SIGKILL to each group); closes the HTTP pool. Resolves when all are gone.
   */
  async close(graceMs: number, settled: Promise<void>): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, graceMs);
    });
    await Promise.race([settled, grace]);
    clearTimeout(timer);
    await this.#process?.terminateAll();
    await settled;
    await this.#process?.close();
    await this.#http?.close();
  }
}
