/**
 * (issue 23) The decisions `/api/decide` answered, newest first, bounded. A decide that matched
 * no hook leaves no run record, yet it is a decision: the dashboard shows it from here ("no hook
 * matched") instead of "No gate decisions yet". Each one is also published on the main bus as
 * `hookwerk.decision`, so the event stream carries it as it happens.
 */
import type { MemoryBus } from '../bus/memory-bus.ts';
import type { GateDecision } from '../engine-api.ts';

/** One answered decide, in a few fields (its runs are run records of their own). */
export interface DecisionNote {
  /** ISO-8601 time the decide was asked. */
  at: string;
  dialect: string;
  event: string;
  /** The tool the input names (`tool_name`, `toolName`), if any. */
  toolName?: string;
  /** The session the input names, else the deciding engine's (as its run records say). */
  sessionId: string;
  decision: GateDecision['decision'];
  blocked: boolean;
  reason?: string;
  /** How many run records the decide made: 0 when no hook matched. */
  runs: number;
  durationMs: number;
}

export const DECISION_TOPIC = 'hookwerk.decision';
/** As many as the dashboard shows in its gate panel, with room. */
const DEFAULT_CAPACITY = 200;
/** A reason is the hooks' text (tool and session the caller's): kept bounded, the whole of it is in the decide's answer and records. */
const MAX_REASON_CHARS = 2000;

export class DecisionLog {
  readonly #notes: DecisionNote[] = [];
  readonly #bus: MemoryBus;
  readonly #capacity: number;

  constructor(bus: MemoryBus, capacity = DEFAULT_CAPACITY) {
    this.#bus = bus;
    this.#capacity = capacity;
  }

  add(
    asked: {
      at: string;
      dialect: string;
      event: string;
      durationMs: number;
      sessionId: string;
      toolName?: string;
    },
    decision: GateDecision,
  ): void {
    const note: DecisionNote = {
      at: asked.at,
      dialect: asked.dialect,
      event: asked.event,
      ...(asked.toolName !== undefined ? { toolName: capped(asked.toolName) } : {}),
      sessionId: capped(asked.sessionId),
      decision: decision.decision,
      blocked: decision.blocked,
      ...(decision.reason !== undefined ? { reason: capped(decision.reason) } : {}),
      runs: decision.runs.length,
      durationMs: asked.durationMs,
    };
    this.#notes.unshift(note);
    if (this.#notes.length > this.#capacity) this.#notes.pop();
    this.#bus.publish(DECISION_TOPIC, note, { depth: 1 });
  }

  /** Newest first, at most `limit`. */
  recent(limit = this.#capacity): DecisionNote[] {
    return this.#notes.slice(0, limit);
  }
}

function capped(text: string): string {
  return text.length <= MAX_REASON_CHARS ? text : `${text.slice(0, MAX_REASON_CHARS)}…`;
}
