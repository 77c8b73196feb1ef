/** The 8 PRX lifecycle events and their payload fields [P-EV-1]. */
import { HookInputError } from './hook-input-error.ts';

type FieldType = 'string' | 'number' | 'boolean' | 'object';

export const PRX_EVENTS = {
  agent_start: { agent: 'string', session: 'string' },
  agent_end: { success: 'boolean', messages_count: 'number' },
  llm_request: { provider: 'string', model: 'string', messages_count: 'number' },
  llm_response: { provider: 'string', model: 'string', duration_ms: 'number', success: 'boolean' },
  tool_call_start: { tool: 'string', arguments: 'object' },
  tool_call: { tool: 'string', success: 'boolean', output: 'string' },
  turn_complete: {},
  error: { component: 'string', message: 'string' },
} as const satisfies Record<string, Record<string, FieldType>>;

export type PrxEventName = keyof typeof PRX_EVENTS;

export const PRX_EVENT_NAMES = Object.keys(PRX_EVENTS) as PrxEventName[];

type TypeOf<T extends FieldType> = T extends 'string'
  ? string
  : T extends 'number'
    ? number
    : T extends 'boolean'
      ? boolean
      : Record<string, unknown>;

/** Payload type of each event; unknown extra fields pass through [P-EV-3]. */
export type PrxPayload<E extends PrxEventName> = {
  [K in keyof (typeof PRX_EVENTS)[E]]: (typeof PRX_EVENTS)[E][K] extends FieldType
    ? TypeOf<(typeof PRX_EVENTS)[E][K]>
    : never;
} & Record<string, unknown>;

export function isPrxEvent(name: string): name is PrxEventName {
  return Object.hasOwn(PRX_EVENTS, name);
}

// Pre-split field tables: emit() is a hot path, so checks are plain typeof tests.
const FIELD_TABLE: Record<string, ReadonlyArray<readonly [string, FieldType]>> = Object.fromEntries(
  Object.entries(PRX_EVENTS).map(([name, fields]) => [name, Object.entries(fields) as [string, FieldType][]]),
);

function matchesType(value: unknown, type: FieldType): boolean {
  if (type === 'object') return typeof value === 'object' && value !== null && !Array.isArray(value);
  if (type === 'number') return typeof value === 'number' && Number.isFinite(value);
  return typeof value === type;
}

/**
 * [P-EV-3] A wrong event or payload is a programming error of the embedder:
 * it throws a TypeError synchronously, naming what is wrong.
 */
export function assertPrxPayload(
  event: string,
  payload: unknown,
): asserts payload is Record<string, unknown> {
  const fields = FIELD_TABLE[event];
  if (fields === undefined) {
    throw new HookInputError(
      'event',
      `unknown event "${event}"; expected one of ${PRX_EVENT_NAMES.join(', ')}`,
    );
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    throw new HookInputError('payload', `payload of "${event}" must be an object`);
  }
  for (const [field, type] of fields) {
    const value: unknown = Reflect.get(payload, field);
    if (!matchesType(value, type)) {
      const what = value === undefined ? 'is missing' : `must be a ${type}, got ${describe(value)}`;
      throw new HookInputError(`payload.${field}`, `payload of "${event}": field "${field}" ${what}`);
    }
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** The envelope every PRX hook receives [P-EV-2]. */
export interface PrxEnvelope {
  event: PrxEventName | string;
  timestamp: string;
  session_id: string;
  payload: Record<string, unknown>;
}

/** An emitted event as the engine carries it: the envelope plus its depth and lazily built JSON. */
export class PrxEventInstance {
  readonly envelope: PrxEnvelope;
  readonly depth: number;
  #json: string | undefined;

  constructor(envelope: PrxEnvelope, depth: number) {
    this.envelope = envelope;
    this.depth = depth;
  }

  /** Compact JSON of the envelope, built once and shared by the bus and every hook. */
  get json(): string {
    this.#json ??= JSON.stringify(this.envelope);
    return this.#json;
  }
}

let lastMs = 0;
let lastIso = '';

/** `new Date().toISOString()`, formatted once per millisecond: emit() is a hot path. */
export function isoNow(): string {
  const now = Date.now();
  if (now !== lastMs) {
    lastMs = now;
    lastIso = new Date(now).toISOString();
  }
  return lastIso;
}
