/**
 * The runners one engine owns: one per hook kind that needs shared state (process groups in
 * flight, an HTTP pool). In-process hooks need none; each WASM plugin has its own runner.
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
  readonly process: ProcessRunner;
  readonly http: HttpRunner;

  constructor(opts: RunnersOptions = {}) {
    this.http = new HttpRunner(opts.httpLookup !== undefined ? { lookup: opts.httpLookup } : {});
    this.process = new ProcessRunner({
      backend: selectBackend(opts.launcher ?? 'auto', opts.logger),
      containment: detectContainment(opts.containment ?? 'auto'),
    });
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
    await this.process.terminateAll();
    await settled;
    await this.process.close();
    await this.http.close();
  }
}
