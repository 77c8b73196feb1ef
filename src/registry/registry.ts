/**
 * The one registry: an immutable snapshot of every hook in force, from every source, indexed by
 * event. Any reload (hooks.json, gate sources, plugins, `use()`) builds a new snapshot with
 * `with()` and the engine swaps it in one assignment; a run already started keeps the
 * definition it was given. `select()` is the one selection used by `emit`, `decide` and
 * `explain` alike.
 */
import type { PrxEventName } from '../events/prx-events.ts';
import type {
  GateEntry,
  InProcessGateHook,
  InProcessObserverHook,
  ObserveHook,
  PrxShellHook,
  RegistryEntry,
  WasmPluginHook,
} from './hook-definition.ts';

interface RegistryParts {
  /** hooks.json actions, in file order (disabled ones included: they are listed, never run). */
  shell: readonly PrxShellHook[];
  /** `use(observeEvent, fn)` registrations, in order. */
  observers: readonly InProcessObserverHook[];
  /** One definition per plugin and event its patterns select. */
  plugins: readonly WasmPluginHook[];
  /** `use(gateEvent, opts, fn)` registrations: they run before the file hooks. */
  gateInProcess: readonly InProcessGateHook[];
  /** The gate sources' entries in merged order [L-SRC-3], unapproved ones included [L-TRUST-3]. */
  gateFiles: readonly GateEntry[];
}

/** Why an entry would not run for a target; `runs` when it would. */
export type Admission = 'runs' | 'matcher' | 'disabled' | 'untrusted';

/**
 * The one rule: an unapproved entry is listed without testing anything [L-TRUST-3]; a disabled
 * hook never runs; otherwise its matcher decides.
 */
export function admit(entry: RegistryEntry, target: string | undefined): Admission {
  if (entry.kind === 'unapproved') return 'untrusted';
  if (!entry.enabled) return 'disabled';
  return entry.matcher.test(target) ? 'runs' : 'matcher';
}

const NONE: readonly never[] = Object.freeze([]);

export class Registry {
  static readonly empty = new Registry({
    shell: [],
    observers: [],
    plugins: [],
    gateInProcess: [],
    gateFiles: [],
  });

  readonly parts: Readonly<RegistryParts>;
  /** Observe events: the enabled hooks, in run order; no matcher to test (the emit hot path). */
  readonly #observe = new Map<string, readonly ObserveHook[]>();
  /** Gate events: every entry in run order (in-process first), each to be admitted per target. */
  readonly #gate = new Map<string, readonly GateEntry[]>();
  /** Every entry per event in run order, disabled ones included (for explain). */
  readonly #all = new Map<string, readonly RegistryEntry[]>();

  constructor(parts: RegistryParts) {
    this.parts = Object.freeze({ ...parts });
    const observe = new Map<string, ObserveHook[]>();
    const all = new Map<string, RegistryEntry[]>();
    const add = <T>(map: Map<string, T[]>, event: string, item: T) => {
      const list = map.get(event);
      if (list) list.push(item);
      else map.set(event, [item]);
    };
    for (const list of [parts.shell, parts.observers, parts.plugins]) {
      for (const hook of list) {
        add(all, hook.event, hook);
        if (hook.enabled) add(observe, hook.event, hook);
      }
    }
    const gate = new Map<string, GateEntry[]>();
    for (const entry of [...parts.gateInProcess, ...parts.gateFiles]) {
      add(all, entry.event, entry);
      add(gate, entry.event, entry);
    }
    for (const [event, list] of observe) this.#observe.set(event, Object.freeze(list));
    for (const [event, list] of gate) this.#gate.set(event, Object.freeze(list));
    for (const [event, list] of all) this.#all.set(event, Object.freeze(list));
  }

  /** A new snapshot with some parts replaced. */
  with(patch: Partial<RegistryParts>): Registry {
    return new Registry({ ...this.parts, ...patch });
  }

  /**
   * The entries that run for `event` with this target (tool name or trigger), in run order.
   * Observe events have no matcher: their list is returned as is (one map lookup).
   */
  select(event: PrxEventName, target?: undefined): readonly ObserveHook[];
  select(event: string, target: string | undefined): readonly GateEntry[];
  select(event: string, target: string | undefined): readonly ObserveHook[] | readonly GateEntry[] {
    const observe = this.#observe.get(event);
    if (observe !== undefined) return observe;
    const gate = this.#gate.get(event);
    if (gate === undefined) return NONE;
    let out: GateEntry[] | undefined;
    for (let i = 0; i < gate.length; i++) {
      const entry = gate[i];
      if (entry === undefined) continue;
      const admission = admit(entry, target);
      if (admission === 'matcher' || admission === 'disabled') {
        // Copy on the first entry left out: when all run (the common case) nothing is allocated.
        out ??= gate.slice(0, i);
      } else out?.push(entry);
    }
    return out ?? gate;
  }

  /** Every entry configured for `event`, in run order, whatever its admission. */
  entries(event: string): readonly RegistryEntry[] {
    return this.#all.get(event) ?? NONE;
  }

  /** Every entry of every event. */
  all(): RegistryEntry[] {
    return [...this.#all.values()].flat();
  }
}
