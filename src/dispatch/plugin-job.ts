import type { PrxEventInstance } from '../events/prx-events.ts';
import type { PluginRunner } from '../runners/wasm/plugin-runner.ts';
import type { JobContext } from './hook-job.ts';
import type { ObserveJob } from './observe-scheduler.ts';

const DROP_REASON = {
  queue_full: 'the run queue was full',
  closed: 'the engine was closed before the run started',
} as const;

/**
 * One queued run of one WASM plugin for one event, through the same scheduler as shell hooks
 * (so the concurrency and queue bounds and the run records apply). `source` is the plugin's
 * manifest, `hook` its name.
 */
export class PluginJob implements ObserveJob {
  constructor(
    readonly ctx: JobContext,
    readonly plugin: PluginRunner,
    readonly ev: PrxEventInstance,
  ) {}

  async run(): Promise<void> {
    const start = performance.now();
    const result = await this.plugin.call(this.ev.envelope.event, this.ev.json);
    this.ctx.record({ ...this.#base(), ...result, durationMs: performance.now() - start }, this.ev.depth);
  }

  drop(reason: 'queue_full' | 'closed'): void {
    this.ctx.dropped(reason);
    this.ctx.record(
      { ...this.#base(), outcome: 'dropped', durationMs: 0, cause: reason, reason: DROP_REASON[reason] },
      this.ev.depth,
    );
  }

  #base() {
    const { plugin, ev } = this;
    return {
      hook: plugin.name,
      source: plugin.spec.manifestFile,
      event: ev.envelope.event,
      at: ev.envelope.timestamp,
      sessionId: ev.envelope.session_id,
      depth: ev.depth,
    };
  }
}
