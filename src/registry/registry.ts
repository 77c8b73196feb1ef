import type { PrxAction } from '../sources/prx-source.ts';

/** Immutable snapshot of the PRX actions in force, indexed by event; replaced whole on reload. */
export class PrxRegistry {
  readonly all: readonly PrxAction[];
  readonly #byEvent: ReadonlyMap<string, readonly PrxAction[]>;

  constructor(actions: readonly PrxAction[]) {
    this.all = actions;
    const byEvent = new Map<string, PrxAction[]>();
    for (const a of actions) {
      if (!a.enabled) continue;
      const list = byEvent.get(a.event);
      if (list) list.push(a);
      else byEvent.set(a.event, [a]);
    }
    this.#byEvent = byEvent;
  }

  static empty(): PrxRegistry {
    return new PrxRegistry([]);
  }

  get size(): number {
    return this.all.length;
  }

  /** Enabled actions for an event (the hot path: one map lookup). */
  forEvent(event: string): readonly PrxAction[] {
    return this.#byEvent.get(event) ?? EMPTY;
  }
}

const EMPTY: readonly PrxAction[] = [];
