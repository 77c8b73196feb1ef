import { EventEmitter } from 'node:events';
import type { Readable } from 'node:stream';
/**
 * The HTTP hook runner ([L-RUN-5], [L-ANS-3]).
 *
 * One call = one request through the runner's keep-alive undici `Agent`. A call always resolves,
 * exactly once, with the reason it ended; it never throws. Interpreting the answer (2xx + JSON
 * decision, fail-open on everything else) is the caller's job; this module only says what happened.
 *
 * Decisions:
 * - Redirects are never followed: undici 7's `request()` has no redirect handling unless the
 *   redirect interceptor is composed in, and we don't. A 3xx is a plain answer (reason `response`).
 * - `content-type: application/json` is added unless the hook's headers set a Content-Type (any case).
 * - The timeout covers the whole exchange through one abort signal (our timer, or the caller's
 *   signal); undici's own per-phase timers are off.
 * - The answer's body is read up to `maxResponseBytes`; the first byte beyond it destroys the
 *   stream (which also drops that connection rather than draining the rest).
 *
 * - (issue 11) Link-local and cloud metadata addresses are refused where the socket picks its
 *   address (guarded-connect.ts): reason `blocked_address`, nothing sent. A hook with
 *   `allowLinkLocal: true` goes through a second pool without that guard.
 *
 * Idle pool and process exit: undici unrefs a keep-alive socket while it has no request in flight,
 * and its keep-alive timers are unref'd, so an idle pool never keeps Node running: a script that
 * makes one call and returns exits at once (checked by a test that runs such a script in a child
 * process against a server that keeps connections open for a minute). Idle sockets are closed
 * after `KEEP_ALIVE_MS` anyway. `close()` closes everything for an orderly shutdown.
 */
import type { Agent } from 'undici';
import { errorCode, errorMessage } from '../core/errno.ts';
import { BLOCKED_ADDRESS_CODE } from './blocked-address.ts';
import { CappedBuffer } from './capped-buffer.ts';
import { type HostLookup, hookConnector } from './guarded-connect.ts';
import type { HttpEndReason, HttpResult, HttpSpec } from './http-types.ts';

const DEFAULT_MAX_RESPONSE_BYTES = 1_048_576;
/** Connections per origin: enough for the engine's parallel dispatch, bounded against a slow hook server. */
const CONNECTIONS_PER_ORIGIN = 16;
/** How long an idle keep-alive socket is kept (also the cap on a server's `Keep-Alive: timeout` hint). */
const KEEP_ALIVE_MS = 4000;
/** setTimeout fires at once for larger delays; above this a call simply has no timeout. */
const MAX_TIMER_MS = 2_147_483_647;
/** undici's own timeouts that mean "the server was too slow", not "the transport failed". */
const UNDICI_TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

interface HttpRunnerOptions {
  /** Resolver for hook host names; default `dns.lookup`. Blocked addresses are refused whatever it answers. */
  lookup?: HostLookup;
}

interface RunHttpOptions {
  /** Aborting cancels the call (reason `aborted`). */
  signal?: AbortSignal;
}

/**
 * [G-PERF-1] undici (~100 files, and Node's own copy that it wakes) is loaded with the first
 * HTTP call, not with the engine: most policies have no HTTP hook, and a lone `hookwerk hook`
 * process would pay for it on every call.
 */
let undici: Promise<typeof import('undici')> | undefined;
const loadUndici = (): Promise<typeof import('undici')> => {
  undici ??= import('undici');
  return undici;
};

/**
 * One keep-alive pool per runner: an engine opens its own, and closes it with `close()`.
 * A call always resolves with the reason it ended; it never throws.
 */
export class HttpRunner {
  readonly #lookup: HostLookup | undefined;
  #pool: Agent | undefined;
  /** For hooks with `allowLinkLocal: true`: the same, without the blocked-address guard. */
  #openPool: Agent | undefined;
  /** URLs checked once per distinct string (hooks reuse theirs on every call). */
  readonly #checkedUrls = new Map<string, string | { error: string }>();
  /** The hook's headers plus a Content-Type, built once per headers object. */
  readonly #withContentType = new WeakMap<object, Record<string, string>>();

  constructor(opts: HttpRunnerOptions = {}) {
    this.#lookup = opts.lookup;
  }

  /** The pool, created on first use (and again after `close()`). */
  #dispatcher(lib: typeof import('undici'), allowLinkLocal: boolean): Agent {
    if (allowLinkLocal) {
      this.#openPool ??= this.#newPool(lib, false);
      return this.#openPool;
    }
    this.#pool ??= this.#newPool(lib, true);
    return this.#pool;
  }

  #newPool(lib: typeof import('undici'), guarded: boolean): Agent {
    return new lib.Agent({
      connections: CONNECTIONS_PER_ORIGIN,
      keepAliveTimeout: KEEP_ALIVE_MS,
      keepAliveMaxTimeout: KEEP_ALIVE_MS,
      connect: hookConnector(
        { guarded, ...(this.#lookup !== undefined ? { lookup: this.#lookup } : {}) },
        lib.buildConnector,
      ),
    });
  }

  /**
   * Closes the pool: calls in flight finish (each within its own timeout), idle sockets are
   * closed. A later `run()` opens a new pool. Never throws.
   */
  async close(): Promise<void> {
    const closing = [this.#pool, this.#openPool];
    this.#pool = undefined;
    this.#openPool = undefined;
    for (const pool of closing) {
      try {
        await pool?.close();
      } catch {
        // Already closed or destroyed: nothing left to release.
      }
    }
  }

  async run(spec: HttpSpec, opts: RunHttpOptions = {}): Promise<HttpResult> {
    const start = performance.now();
    const external = opts.signal;
    if (external?.aborted) return notSent(start, 'aborted');

    const url = this.#checkedUrl(spec.url);
    if (typeof url !== 'string') return notSent(start, 'transport', url.error);

    let lib: typeof import('undici');
    try {
      lib = await loadUndici();
    } catch (err) {
      return notSent(start, 'transport', describeError(err));
    }
    // Loaded before the timer and the abort listener start: none of their events can be missed.
    if (external?.aborted) return notSent(start, 'aborted');

    // undici takes an EventEmitter as its abort signal: far cheaper per call than an AbortSignal.
    const abort = new EventEmitter();
    let stoppedBy: 'timeout' | 'aborted' | undefined;
    const onTimeout = (): void => {
      stoppedBy ??= 'timeout';
      abort.emit('abort');
    };
    const onAbort = (): void => {
      stoppedBy ??= 'aborted';
      abort.emit('abort');
    };
    const bounded = spec.timeoutMs < MAX_TIMER_MS;
    const timer = bounded ? setTimeout(onTimeout, Math.max(0, spec.timeoutMs)) : undefined;
    external?.addEventListener('abort', onAbort, { once: true });

    const output = new CappedBuffer(spec.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES);
    let status: number | undefined;
    let reason: HttpEndReason;
    let error: string | undefined;
    try {
      const res = await lib.request(url, {
        dispatcher: this.#dispatcher(lib, spec.allowLinkLocal === true),
        method: spec.method,
        headers: this.#headers(spec.headers),
        body: spec.body,
        signal: abort,
        // Our one timer bounds the whole exchange; undici's per-phase timers would only cost time.
        headersTimeout: 0,
        bodyTimeout: 0,
      });
      status = res.statusCode;
      reason = 'response';
      reason = await readCapped(res.body, output);
    } catch (err) {
      if (stoppedBy !== undefined) {
        reason = stoppedBy;
      } else if (UNDICI_TIMEOUT_CODES.has(String(errorCode(err)))) {
        reason = 'timeout';
      } else if (errorCode(err) === BLOCKED_ADDRESS_CODE) {
        reason = 'blocked_address';
        error = errorMessage(err);
      } else {
        reason = 'transport';
        error = describeError(err);
      }
    } finally {
      clearTimeout(timer);
      external?.removeEventListener('abort', onAbort);
    }

    const result: HttpResult = {
      kind: 'http',
      reason,
      body: output.text(),
      durationMs: performance.now() - start,
    };
    if (status !== undefined) result.status = status;
    if (error !== undefined) result.error = error;
    return result;
  }

  #checkedUrl(raw: string): string | { error: string } {
    let checked = this.#checkedUrls.get(raw);
    if (checked === undefined) {
      checked = checkUrl(raw);
      if (this.#checkedUrls.size >= 1024) this.#checkedUrls.clear();
      this.#checkedUrls.set(raw, checked);
    }
    return checked;
  }

  #headers(headers: Readonly<Record<string, string>>): Record<string, string> {
    let out = this.#withContentType.get(headers);
    if (out === undefined) {
      out = addContentType(headers);
      this.#withContentType.set(headers, out);
    }
    return out;
  }
}

function checkUrl(raw: string): string | { error: string } {
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' || url.protocol === 'https:'
      ? raw
      : { error: `unsupported URL scheme ${url.protocol} (http: or https: only)` };
  } catch {
    return { error: `invalid URL: ${JSON.stringify(raw)}` };
  }
}

/** The hook's headers, plus `content-type: application/json` unless they set a Content-Type (any case). */
function addContentType(headers: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = { ...headers };
  if (!Object.keys(out).some((name) => name.toLowerCase() === 'content-type')) {
    out['content-type'] = 'application/json';
  }
  return out;
}

/**
 * Reads a body into `output` with 'data' events (async iteration costs tens of µs per answer here).
 * At the cap it stops reading at once: destroying the body drops the connection instead of draining it.
 */
function readCapped(body: Readable, output: CappedBuffer): Promise<'response' | 'output_limit'> {
  return new Promise((resolve, reject) => {
    body.on('data', (chunk: Buffer) => {
      if (!output.push(chunk)) {
        body.destroy();
        resolve('output_limit');
      }
    });
    body.once('end', () => resolve('response'));
    body.once('error', reject);
  });
}

function notSent(start: number, reason: HttpEndReason, error?: string): HttpResult {
  const result: HttpResult = { kind: 'http', reason, body: '', durationMs: performance.now() - start };
  if (error !== undefined) result.error = error;
  return result;
}

/**
 * One line saying what went wrong. Node's connect errors already read well
 * (`connect ECONNREFUSED 127.0.0.1:9`); when both address families were tried (`localhost`),
 * Node reports an AggregateError with an empty message, so its parts are joined instead.
 * undici's own errors get their code appended (`other side closed (UND_ERR_SOCKET)`).
 */
function describeError(err: unknown): string {
  if (err instanceof AggregateError && err.errors.length > 0) {
    return [...new Set(err.errors.map(describeError))].join('; ');
  }
  const message = errorMessage(err);
  const code = errorCode(err);
  if (typeof code === 'string' && code !== '' && !message.includes(code)) {
    return message === '' ? code : `${message} (${code})`;
  }
  return message === '' ? 'unknown transport error' : message;
}
