/**
 * (issue 23) `serve` speaks every gate dialect: the main engine answers its own dialect, and one
 * gate-only engine per other dialect is made on first use, with the main engine's project, home,
 * consent and options. Their run records join the main engine's: `runs()` merges them by time,
 * and their `hookwerk.run.*` bus messages are published again on the main bus, so the event
 * stream (and whatever else listens there) carries them too.
 */
import { EngineClosedError } from '../core/errors.ts';
import { GATE_DIALECTS, type GateDialect } from '../dialects/gate-dialects.ts';
import { createHookEngine } from '../engine.ts';
import type { HookEngine, HookEngineOptions, RunOutcome, RunRecord } from '../engine-api.ts';

export type EngineMaker = (dialect: GateDialect) => Promise<HookEngine>;

export function isGateDialect(name: string): name is GateDialect {
  return Object.hasOwn(GATE_DIALECTS, name);
}

/**
 * How a gate-only engine of `dialect` is made from the main engine's options: no workspace (the
 * main engine owns hooks.json and plugins/), no NATS link of its own.
 */
export function gateEngineMaker(options: HookEngineOptions): EngineMaker {
  const { workspace: _w, nats: _n, natsInbound: _i, plugins: _p, gateDialect: _g, ...rest } = options;
  return (dialect) => createHookEngine({ ...rest, gateDialect: dialect, plugins: false });
}

export class DialectEngines {
  readonly main: HookEngine;
  readonly #make: EngineMaker;
  readonly #made = new Map<GateDialect, Promise<HookEngine>>();
  /** The engines made so far (resolved), in the order they were made. */
  readonly #ready: HookEngine[] = [];
  readonly #unforward: Array<() => void> = [];
  #closed = false;

  constructor(main: HookEngine, make: EngineMaker) {
    this.main = main;
    this.#make = make;
  }

  /** What `/api/decide` speaks when the body names no dialect: the main engine's. */
  get defaultDialect(): GateDialect {
    return this.main.gate.dialect;
  }

  /** The engine that answers `dialect`; made on first use (concurrent first uses share one). */
  engine(dialect: GateDialect): Promise<HookEngine> {
    if (dialect === this.defaultDialect) return Promise.resolve(this.main);
    if (this.#closed) return Promise.reject(new EngineClosedError('decide()'));
    const known = this.#made.get(dialect);
    if (known !== undefined) return known;
    const made = this.#make(dialect).then(async (engine) => {
      // Closed while it was being made: nobody else will close it.
      if (this.#closed) {
        await engine.close();
        throw new EngineClosedError('decide()');
      }
      this.#ready.push(engine);
      // At the record's own depth: a hook handling it publishes one deeper, as on its own bus.
      this.#unforward.push(
        engine.bus.subscribe('hookwerk.run.*', (msg) =>
          this.main.bus.publish(msg.topic, msg.payload, { depth: msg.depth }),
        ),
      );
      return engine;
    });
    this.#made.set(dialect, made);
    // A failed start is not kept: the next decide tries again (and says why again).
    made.catch(() => {
      if (this.#made.get(dialect) === made) this.#made.delete(dialect);
    });
    return made;
  }

  /** Every engine running now: the main one first. */
  get engines(): readonly HookEngine[] {
    return [this.main, ...this.#ready];
  }

  /**
   * The newest run records of every engine, newest first by the time each run was scheduled
   * (parallel hooks are recorded as they finish); ties keep the main engine's first.
   */
  runs(opts: { limit?: number; outcome?: RunOutcome; event?: string } = {}): RunRecord[] {
    const all = this.engines.flatMap((e) => e.runs(opts)).map((r) => ({ r, t: timeOf(r) }));
    // Stable: within one engine its own (newest first) order is kept for runs of the same moment.
    all.sort((a, b) => b.t - a.t);
    const sorted = all.map((x) => x.r);
    return opts.limit === undefined ? sorted : sorted.slice(0, opts.limit);
  }

  /** Closes the engines this made (not the main one: its owner closes it); later uses are refused. */
  async close(): Promise<void> {
    this.#closed = true;
    const made = [...this.#made.values()];
    this.#made.clear();
    // Records of runs that finish while closing still reach the main bus; then the forwarding ends.
    await Promise.all(
      made.map((p) =>
        p.then(
          (e) => e.close(),
          () => undefined,
        ),
      ),
    );
    for (const off of this.#unforward.splice(0)) off();
  }
}

function timeOf(r: RunRecord): number {
  const t = Date.parse(r.at);
  return Number.isNaN(t) ? Number.NEGATIVE_INFINITY : t;
}
