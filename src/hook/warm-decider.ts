/**
 * [R-HOOK-4] The daemon's decider: engines kept warm, one per (project, home, whether the agent
 * is Claude Code — the policy runs Claude Code's own files only for the others —, environment),
 * answering exactly as the cold decider's engine made for the call would:
 *
 * - Before each decide it stats what the engine's gate read (`source-stamps.ts`) and reloads
 *   the gate when anything changed, so an edited, created or deleted policy, settings or trust
 *   file is seen by the very next call, as a fresh engine sees it.
 * - A call's session is its own (the agent's `session_id`), else the project's, as cold.
 * - Bounded: at most `maxEngines` (least recently used evicted), each closed after `idleMs`
 *   without a call; an evicted or idle engine is closed only once its decides have finished.
 */
import { createHash } from 'node:crypto';
import { projectSession } from '../core/project-session.ts';
import type { AgentDecision } from '../dispatch/agent-answer.ts';
import type { HookEngine } from '../engine-api.ts';
import { policyEngine } from './cold-decider.ts';
import { type SourceStamps, sourcesChanged, stampSources } from './path-stamps.ts';
import type { PolicyDecider, PolicyQuestion } from './policy-decider.ts';
import { watchedPaths } from './source-stamps.ts';

export const DEFAULT_MAX_ENGINES = 16;
export const DEFAULT_IDLE_MS = 10 * 60_000;

/** A timer that can be cancelled; injectable so tests fire it instead of waiting. */
export type IdleTimer = (fire: () => void, ms: number) => { cancel(): void };

export interface WarmDeciderOptions {
  maxEngines?: number;
  idleMs?: number;
  idleTimer?: IdleTimer;
  /** How an engine is made (default: the cold decider's `policyEngine`). */
  makeEngine?: (q: PolicyQuestion, sessionId: string) => Promise<HookEngine>;
  /**
   * A fact beside the stamped files that a fresh load reads, as a string: a change reloads the
   * gate too (the system daemon's: the managed policy's state, T-MGD-1). Default: none.
   */
  loadState?: () => string;
}

/** [G-WARM-1] One warm engine, as `hookwerk daemon status` shows it. */
export interface WarmEngineInfo {
  project: string;
  home: string;
  /** The agent is Claude Code (its own files are then not run by the policy) or another. */
  agent: 'claude' | 'other';
  /**
   * `USER` of its environment (part of its key): the system daemon sets it from /etc/passwd, and
   * shows each caller only its own engines [T-MGD-3].
   */
  user: string | undefined;
  /** Decides running now. */
  busy: number;
  /** Milliseconds since its last decide ended (0 while one runs). */
  idleMs: number;
  /** Decides it has begun. */
  calls: number;
  /** Times its gate read the policy: 1 when made, +1 per reload. */
  loads: number;
}

interface Warm {
  readonly key: string;
  readonly info: Pick<WarmEngineInfo, 'project' | 'home' | 'agent' | 'user'>;
  /** When its last decide ended. */
  usedAt: number;
  readonly engine: Promise<HookEngine>;
  seen: SourceStamps | undefined;
  /** `loadState` as it was before the last load. */
  state: string;
  busy: number;
  calls: number;
  loads: number;
  /** Out of the table (evicted, idle, or the decider closed): closed once `busy` is 0. */
  retired: boolean;
  closing: Promise<void> | undefined;
  idle: { cancel(): void } | undefined;
}

const unrefTimer: IdleTimer = (fire, ms) => {
  const t = setTimeout(fire, ms);
  t.unref();
  return { cancel: () => clearTimeout(t) };
};

/** The engine table's key: what makes two calls' engines read different things. */
export function warmKey(q: Pick<PolicyQuestion, 'projectDir' | 'home' | 'agent' | 'env'>): string {
  const env = createHash('sha256');
  for (const name of Object.keys(q.env).sort()) env.update(`${name}=${q.env[name] ?? ''}\0`);
  return JSON.stringify([q.projectDir, q.home, q.agent === 'claude', env.digest('hex')]);
}

export class WarmDecider implements PolicyDecider {
  readonly #engines = new Map<string, Warm>();
  readonly #max: number;
  readonly #idleMs: number;
  readonly #timer: IdleTimer;
  readonly #make: (q: PolicyQuestion, sessionId: string) => Promise<HookEngine>;
  readonly #loadState: () => string;
  /** Every engine not closed yet: in the table, or retired and still deciding. */
  readonly #open = new Set<Warm>();
  #closed = false;

  constructor(opts: WarmDeciderOptions = {}) {
    this.#max = Math.max(1, opts.maxEngines ?? DEFAULT_MAX_ENGINES);
    this.#idleMs = opts.idleMs ?? DEFAULT_IDLE_MS;
    this.#timer = opts.idleTimer ?? unrefTimer;
    this.#make = opts.makeEngine ?? policyEngine;
    this.#loadState = opts.loadState ?? (() => '');
  }

  /** Engines in the table now (warm or being made). */
  get size(): number {
    return this.#engines.size;
  }

  /** The engines in the table, least recently used first [G-WARM-1]. */
  engines(now = Date.now()): WarmEngineInfo[] {
    return [...this.#engines.values()].map((warm) => ({
      ...warm.info,
      busy: warm.busy,
      idleMs: warm.busy > 0 ? 0 : Math.max(0, now - warm.usedAt),
      calls: warm.calls,
      loads: warm.loads,
    }));
  }

  async decide(q: PolicyQuestion): Promise<AgentDecision> {
    if (this.#closed) throw new Error('the daemon is shutting down');
    const warm = this.#take(q);
    warm.busy++;
    warm.calls++;
    warm.idle?.cancel();
    warm.idle = undefined;
    let ready = false;
    try {
      const engine = await warm.engine;
      this.#refresh(warm, engine);
      ready = true;
      // The agent asking goes with the call: one warm engine serves every agent but Claude Code.
      const options = {
        ...q.deadline?.decideOptions(engine.gate.config.entries, q.call.event),
        agent: q.agent,
      };
      const decision = await engine.decide(q.call.event, inputWithSession(q), options);
      if (!('continue' in decision)) throw new Error('the policy answered in another dialect');
      return decision;
    } catch (e) {
      // An engine that failed to start or to reload is not kept: the next call makes a new one.
      if (!ready) this.#retire(warm);
      throw e;
    } finally {
      warm.busy--;
      warm.usedAt = Date.now();
      this.#settle(warm);
    }
  }

  /**
   * Closes every engine now; later decides are refused. A decide still running is cut short
   * (its hooks get the engine's shutdown grace): the daemon has already dropped its connection.
   */
  async close(): Promise<void> {
    this.#closed = true;
    const all = [...this.#open];
    for (const warm of all) {
      this.#retire(warm);
      this.#closeEngine(warm);
    }
    await Promise.all(all.map((warm) => warm.closing));
  }

  /** The table's engine for `q` (made now if there is none), as the most recently used. */
  #take(q: PolicyQuestion): Warm {
    const key = warmKey(q);
    const found = this.#engines.get(key);
    if (found !== undefined) {
      this.#engines.delete(key);
      this.#engines.set(key, found);
      return found;
    }
    const started = Date.now();
    const warm: Warm = {
      key,
      info: {
        project: q.projectDir,
        home: q.home,
        agent: q.agent === 'claude' ? 'claude' : 'other',
        user: q.env.USER,
      },
      usedAt: started,
      engine: Promise.resolve()
        .then(() => this.#make(q, projectSession(q.projectDir)))
        .then((engine) => {
          warm.seen = stampSources(watchedPaths(engine.gate.config), started);
          warm.loads = 1;
          return engine;
        }),
      seen: undefined,
      // Read before the load: a change while it runs reloads at the next call.
      state: this.#loadState(),
      busy: 0,
      calls: 0,
      loads: 0,
      retired: false,
      closing: undefined,
      idle: undefined,
    };
    // A failed start is reported to the calls that wait for it; nobody else awaits it.
    warm.engine.catch(() => {});
    this.#engines.set(key, warm);
    this.#open.add(warm);
    for (const old of this.#engines.values()) {
      if (this.#engines.size <= this.#max) break;
      this.#retire(old);
    }
    return warm;
  }

  /**
   * Reloads the gate when what it read changed since it was read (see `source-stamps.ts`), or
   * the `loadState` did.
   */
  #refresh(warm: Warm, engine: HookEngine): void {
    const state = this.#loadState();
    if (warm.seen !== undefined && !sourcesChanged(warm.seen) && state === warm.state) return;
    const started = Date.now();
    const config = engine.gate.reload();
    warm.seen = stampSources(watchedPaths(config), started);
    warm.state = state;
    warm.loads++;
  }

  #retire(warm: Warm): void {
    if (this.#engines.get(warm.key) === warm) this.#engines.delete(warm.key);
    warm.retired = true;
    warm.idle?.cancel();
    warm.idle = undefined;
    this.#settle(warm);
  }

  /** After a decide or a retirement: close a retired engine nobody uses, or arm the idle timer. */
  #settle(warm: Warm): void {
    if (warm.busy > 0) return;
    if (warm.retired) {
      this.#closeEngine(warm);
      return;
    }
    warm.idle = this.#timer(() => {
      if (warm.busy === 0) this.#retire(warm);
    }, this.#idleMs);
  }

  #closeEngine(warm: Warm): void {
    if (warm.closing !== undefined) return;
    warm.closing = warm.engine.then(
      (engine) => engine.close(),
      () => {},
    );
    void warm.closing.finally(() => this.#open.delete(warm));
  }
}

/**
 * [C-IN-1] The engine fills `session_id` only into an input that names none, and this engine is
 * shared: the call's session goes in the input itself; none named: the project's (as cold).
 */
function inputWithSession(q: PolicyQuestion): Record<string, unknown> {
  const input = q.call.input;
  if (typeof input.session_id === 'string') return input;
  return { ...input, session_id: q.call.sessionId ?? projectSession(q.projectDir) };
}
