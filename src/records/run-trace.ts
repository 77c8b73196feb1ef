/**
 * [AD-OTEL-1] Hook runs as OpenTelemetry spans, through `@opentelemetry/api` only: a `decide` or
 * an `emit` opens a scope (its own span, a child of the caller's active span), each of its runs is
 * a child span of that scope, ended with its record's outcome. Nothing is built while no tracer
 * provider is registered, nor for a scope the host's sampler does not record.
 */
import { createRequire } from 'node:module';
import type * as OtelApi from '@opentelemetry/api';
import type { Attributes, Context, Span, Tracer } from '@opentelemetry/api';
import type { RunRecord } from './run-record.ts';
import { truncateRecord } from './truncate-record.ts';

let otel: typeof OtelApi | undefined;

/**
 * [G-PERF-1] The API (~45 module files) is loaded when a provider is registered, never before: an
 * engine nobody traces (every `hookwerk hook` call) does not load it. Its CommonJS build, through
 * `require`, as a registration is seen synchronously (in `emit()`); the bundles leave it out.
 */
function api(): typeof OtelApi {
  if (otel === undefined) {
    const loaded: typeof OtelApi = createRequire(import.meta.url)('@opentelemetry/api');
    otel = loaded;
  }
  return otel;
}

const TRACER_NAME = 'hookwerk';
/**
 * Where every copy of `@opentelemetry/api` 1.x keeps what was registered (the contract that lets
 * a host's copy and ours share one provider): an object on `globalThis`, made at the first
 * registration of anything and never removed (disabling deletes only its entries). Read directly:
 * the API's own way to find out that nothing is registered (a proxy, a no-op tracer, a span that
 * is not recording) costs 20–50 ns, a tenth of an `emit()`. Once the object exists it is kept, and
 * a check is one property read of a plain object.
 */
const OTEL_GLOBALS = Symbol.for('opentelemetry.js.api.1');
const GLOBAL: { [key: symbol]: unknown } = globalThis;
let registry: { trace?: unknown } | undefined;

/** The tracer, or undefined while no tracer provider is registered (the usual case). */
export function activeTracer(): Tracer | undefined {
  if (registry === undefined) {
    // Until anything is registered: one read of a missing key of the global object (~10 ns).
    const found = GLOBAL[OTEL_GLOBALS];
    if (typeof found !== 'object' || found === null) return undefined;
    registry = found;
  }
  if (registry.trace === undefined) return undefined;
  return api().trace.getTracer(TRACER_NAME);
}

/** Record outcomes whose span has status ERROR. */
const FAILED: ReadonlySet<string> = new Set(['error', 'timeout', 'spawn_error']);

/** One decide's or emit's span, and how its runs' spans hang under it. */
export class TraceScope {
  readonly span: Span;
  /** The context whose active span is this scope's: its runs' parent. */
  readonly context: Context;
  /** The agent that asked, when the caller named it: on every run's span. */
  readonly agent: string | undefined;
  readonly #tracer: Tracer;
  /** Runs still to end before the scope's span ends by itself (emit); undefined: ended by `end()`. */
  #left: number | undefined;

  private constructor(tracer: Tracer, span: Span, parent: Context, agent: string | undefined) {
    this.#tracer = tracer;
    this.span = span;
    this.context = api().trace.setSpan(parent, span);
    this.agent = agent;
  }

  /**
   * Starts `name` as a child of the caller's active span; undefined when the span is not recorded
   * (sampled out): then its runs get no spans either. The caller sets its attributes after.
   */
  static open(tracer: Tracer, name: string, agent?: string): TraceScope | undefined {
    const parent = api().context.active();
    const span = tracer.startSpan(name, undefined, parent);
    if (!span.isRecording()) {
      span.end();
      return undefined;
    }
    return new TraceScope(tracer, span, parent, agent);
  }

  /**
   * The scope's span ends once `runs` runs have ended (an emit's runs happen after it returned):
   * at once when there are none.
   */
  endAfter(runs: number): void {
    this.#left = runs;
    if (runs <= 0) this.span.end();
  }

  /** One run's span, started now, a child of this scope's. */
  startRun(hook: string): Span {
    return this.#tracer.startSpan(`hook ${hook}`, undefined, this.context);
  }

  /** Calls `fn` with `span` active: an in-process hook's own spans, or an HTTP client's, nest under it. */
  within<T>(span: Span, fn: () => T): T {
    const { context, trace } = api();
    return context.with(trace.setSpan(this.context, span), fn);
  }

  /** Ends a run's span with its record: attributes, and status ERROR for error, timeout, spawn_error. */
  endRun(span: Span, record: RunRecord): void {
    this.#finish(span, record, undefined);
    if (this.#left !== undefined && --this.#left === 0) this.span.end();
  }

  /** A run that had no live span (a remote gate's own record): its span, backdated by its duration. */
  recordRun(record: RunRecord): void {
    const now = Date.now();
    const span = this.#tracer.startSpan(
      `hook ${record.hook}`,
      { startTime: now - record.durationMs },
      this.context,
    );
    this.#finish(span, record, now);
  }

  #finish(span: Span, given: RunRecord, endTime: number | undefined): void {
    if (span.isRecording()) {
      // Caller and hook text bounded as the run log bounds it (no copy when nothing is cut).
      const record = truncateRecord(given);
      span.setAttributes(runAttributes(record, this.agent));
      if (FAILED.has(record.outcome))
        span.setStatus({
          code: api().SpanStatusCode.ERROR,
          message: record.reason ?? record.cause ?? record.outcome,
        });
    }
    span.end(endTime);
  }

  /** Ends the scope's span: with `attributes` when it succeeded, status ERROR with the error's message else. */
  end(attributes: Attributes | undefined, error?: unknown): void {
    if (attributes !== undefined) this.span.setAttributes(attributes);
    if (error !== undefined) {
      const message = error instanceof Error ? error.message : String(error);
      if (error instanceof Error) this.span.recordException(error);
      this.span.setStatus({ code: api().SpanStatusCode.ERROR, message });
    }
    this.span.end();
  }
}

/** A run span's attributes, named `hookwerk.*`, from its record. */
function runAttributes(r: RunRecord, agent: string | undefined): Attributes {
  const a: Attributes = {
    'hookwerk.hook': r.hook,
    'hookwerk.source': r.source,
    'hookwerk.event': r.event,
    'hookwerk.outcome': r.outcome,
  };
  if (r.dialect !== undefined) a['hookwerk.dialect'] = r.dialect;
  const named = r.agent ?? agent;
  if (named !== undefined) a['hookwerk.agent'] = named;
  if (r.cause !== undefined) a['hookwerk.cause'] = r.cause;
  if (r.exitCode !== undefined) a['hookwerk.exit_code'] = r.exitCode;
  if (r.signal !== undefined) a['hookwerk.signal'] = r.signal;
  if (r.status !== undefined) a['hookwerk.http_status'] = r.status;
  if (r.toolName !== undefined) a['hookwerk.tool_name'] = r.toolName;
  if (r.sessionId !== undefined) a['hookwerk.session_id'] = r.sessionId;
  if (r.decision !== undefined) a['hookwerk.decision'] = r.decision;
  if (r.failed !== undefined) a['hookwerk.failed'] = r.failed;
  if (r.worker !== undefined) a['hookwerk.worker'] = r.worker;
  if (r.depth !== undefined) a['hookwerk.depth'] = r.depth;
  return a;
}
