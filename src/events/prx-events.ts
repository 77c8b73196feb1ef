/** The 8 PRX lifecycle events and their payload fields [P-EV-1]. */
import { HookInputError } from '../core/errors.ts';
import { isPlainObject } from '../core/plain-object.ts';
import { assertJsonPayload } from './json-payload-check.ts';

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

/**
 * One event's fields as two parallel arrays. emit() is a hot path, often run with cold caches
 * (right after hook processes were started): an indexed loop of typeof tests is the least code
 * to run there, where iterating [name, type] pairs ran the iterator protocol per field.
 */
interface FieldChecks {
  readonly names: readonly string[];
  readonly types: readonly FieldType[];
}

function fieldChecks(fields: Readonly<Record<string, FieldType>>): FieldChecks {
  return { names: Object.keys(fields), types: Object.values(fields) };
}

/** A Map, not an object: `constructor` or `toString` are no event names. */
const FIELD_CHECKS = new Map<string, FieldChecks>(
  Object.entries(PRX_EVENTS).map(([name, fields]) => [name, fieldChecks(fields)]),
);

export function isPrxEvent(name: string): name is PrxEventName {
  return FIELD_CHECKS.has(name);
}

function matchesType(value: unknown, type: FieldType): boolean {
  if (type === 'object') return isPlainObject(value);
  if (type === 'number') return typeof value === 'number' && Number.isFinite(value);
  return typeof value === type;
}

/**
 * [P-EV-3] A wrong event or payload is a programming error of the embedder:
 * it throws a TypeError synchronously, naming what is wrong. So is a payload that cannot become
 * JSON (see json-payload-check.ts).
 */
export function assertPrxPayload(
  event: string,
  payload: unknown,
): asserts payload is Record<string, unknown> {
  const fields = FIELD_CHECKS.get(event);
  if (fields === undefined) {
    throw new HookInputError(
      'event',
      `unknown event "${event}"; expected one of ${PRX_EVENT_NAMES.join(', ')}`,
    );
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    throw new HookInputError('payload', `payload of "${event}" must be an object`);
  }
  const { names, types } = fields;
  for (let i = 0; i < names.length; i++) {
    const value: unknown = Reflect.get(payload, names[i]!);
    if (!matchesType(value, types[i]!)) fieldError(event, names[i]!, types[i]!, value);
  }
  // Issue 11: cyclic, BigInt or too deep would fail every hook later; refuse it now.
  assertJsonPayload(payload, 'payload');
}

function fieldError(event: string, field: string, type: FieldType, value: unknown): never {
  const what = value === undefined ? 'is missing' : `must be ${withArticle(type)}, got ${describe(value)}`;
  throw new HookInputError(`payload.${field}`, `payload of "${event}": field "${field}" ${what}`);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  return withArticle(Array.isArray(value) ? 'array' : typeof value);
}

/** "an object", "a string". */
function withArticle(noun: string): string {
  return `${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun}`;
}

/** The envelope every PRX hook receives [P-EV-2]. */
export interface PrxEnvelope {
  event: PrxEventName | string;
  timestamp: string;
  session_id: string;
  payload: Record<string, unknown>;
}

/** [P-BUS-1] The bus topic of each event, built once: emit() must not build a string per call. */
const PRX_TOPICS: Readonly<Record<string, string>> = Object.fromEntries(
  PRX_EVENT_NAMES.map((name) => [name, `prx.lifecycle.${name}`]),
);

/** `prx.lifecycle.<event>`, the same string object every time (its hash is computed once). */
export function prxTopic(event: PrxEventName): string {
  return PRX_TOPICS[event] ?? `prx.lifecycle.${event}`;
}

/**
 * An emitted event as the engine carries it: what emit() was given, its depth, and the envelope
 * and its JSON built on first use. Construction (at emit time) only reads the clock; formatting
 * the ISO timestamp and building the envelope wait until a bus subscriber, a hook run or a record
 * needs them, which is not on the caller's time. That time matters most right after hooks ran,
 * when the caller's caches are cold and formatting a date alone cost more than a whole
 * EventEmitter.emit.
 */
export class PrxEventInstance {
  readonly depth: number;
  readonly #event: PrxEventName;
  readonly #sessionId: string;
  readonly #payload: Record<string, unknown>;
  /** The caller's timestamp, passed through as given. */
  readonly #timestamp: string | undefined;
  /** Without one: the clock at emit time (epoch ms), formatted on first use. */
  readonly #ms: number;
  #envelope: PrxEnvelope | undefined;
  #json: string | undefined;

  constructor(
    event: PrxEventName,
    sessionId: string,
    payload: Record<string, unknown>,
    depth: number,
    timestamp?: string,
  ) {
    this.#event = event;
    this.#sessionId = sessionId;
    this.#payload = payload;
    this.depth = depth;
    this.#timestamp = timestamp;
    this.#ms = timestamp === undefined ? Date.now() : 0;
  }

  /** The envelope [P-EV-2], built once: every hook, subscriber and record sees the same object. */
  get envelope(): PrxEnvelope {
    this.#envelope ??= {
      event: this.#event,
      timestamp: this.#timestamp ?? isoAt(this.#ms),
      session_id: this.#sessionId,
      payload: this.#payload,
    };
    return this.#envelope;
  }

  /** The bus's name for the message payload ([P-BUS-2]: for `prx.lifecycle.*` it is the envelope). */
  get value(): PrxEnvelope {
    return this.envelope;
  }

  /** Compact JSON of the envelope, built once and shared by the bus and every hook. */
  get json(): string {
    this.#json ??= JSON.stringify(this.envelope);
    return this.#json;
  }
}

let lastMs = Number.NaN;
let lastIso = '';
/** The second `lastIso` falls in (epoch s), and its text up to the milliseconds. */
let lastSecond = Number.NaN;
let secondPrefix = '';

/**
 * `new Date(ms).toISOString()`, remembered for the last millisecond formatted (events emitted in
 * the same millisecond share one string); within the same second only the milliseconds are
 * formatted: a hook run a millisecond after the last one costs a string concat, not a Date.
 */
export function isoAt(ms: number): string {
  if (ms === lastMs) return lastIso;
  const second = Math.floor(ms / 1000);
  if (second === lastSecond && Number.isInteger(ms)) {
    const milli = ms - second * 1000;
    lastIso = `${secondPrefix}${milli < 10 ? '00' : milli < 100 ? '0' : ''}${milli}Z`;
  } else {
    lastIso = new Date(ms).toISOString();
    // "…T12:34:56." (the year may be longer than 4 digits, so cut from the end: "123Z").
    secondPrefix = lastIso.slice(0, -4);
    lastSecond = second;
  }
  lastMs = ms;
  return lastIso;
}

/** `new Date().toISOString()`, formatted once per millisecond: records are made on hot paths. */
export function isoNow(): string {
  return isoAt(Date.now());
}
