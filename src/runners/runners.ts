/**
 * The runners one engine owns: one per hook kind that needs shared state (process groups in
 * flight, an HTTP pool). In-process hooks need none; each WASM plugin has its own runner.
 */
import { HttpRunner } from './http-runner.ts';
import { ProcessRunner } from './process-runner.ts';

export class Runners {
  readonly process = new ProcessRunner();
  readonly http = new HttpRunner();

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
    await this.http.close();
  }
}
