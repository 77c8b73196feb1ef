/**
 * Why an HTTP hook call ended. Always set: a result never leaves this open.
 * - `response`: a complete answer arrived, whatever its status (a 3xx is not followed, [L-RUN-5]).
 * - `timeout`: the whole exchange (connect, headers, body) outlived `timeoutMs`.
 * - `aborted`: the caller's signal aborted it (the request is cancelled; nothing is sent if it was
 *   aborted already).
 * - `transport`: no usable answer: bad URL, DNS, refused or reset connection, TLS, malformed response…
 * - `output_limit`: the answer's body was larger than `maxResponseBytes`; we stopped reading.
 * - `blocked_address`: the host is, or resolves to, a link-local / cloud metadata address and the
 *   hook did not allow it (issue 11); no connection was made.
 */
export type HttpEndReason =
  | 'response'
  | 'timeout'
  | 'aborted'
  | 'transport'
  | 'output_limit'
  | 'blocked_address';

import type { HttpMethod } from '../registry/hook-definition.ts';

export type { HttpMethod };

export interface HttpSpec {
  /** Absolute `http:` or `https:` URL. Redirects are never followed. */
  url: string;
  method: HttpMethod;
  /**
   * Sent as given. `content-type: application/json` is added unless a Content-Type (any case) is
   * present. Checked at load time by `headerProblems()`; the runner does not check them again.
   */
  headers: Readonly<Record<string, string>>;
  /** The event JSON, sent as-is. */
  body: string;
  /** Bound on the whole exchange: connect + request + headers + body. */
  timeoutMs: number;
  /** Cap on the answer's body. Default 1 MiB. More than that ends the call: reason `output_limit`. */
  maxResponseBytes?: number;
  /** (issue 11) Let the call reach link-local and cloud metadata addresses (refused by default). */
  allowLinkLocal?: boolean;
}

export interface HttpResult {
  kind: 'http';
  reason: HttpEndReason;
  /** HTTP status, once response headers arrived (also for `output_limit`, and for `timeout` / `transport` mid-body). */
  status?: number;
  /** The answer's body as UTF-8: complete for `response`, the first `maxResponseBytes` for `output_limit`, what arrived otherwise. */
  body: string;
  /** Wall time from the call to its end, in ms (fractional). */
  durationMs: number;
  /** For `transport` and `blocked_address`: the underlying message, e.g. `connect ECONNREFUSED 127.0.0.1:9`. */
  error?: string;
}
