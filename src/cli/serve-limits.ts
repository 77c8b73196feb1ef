/** `serve`'s connection flags (issue 11), checked and turned into the guard's limits. */
import {
  type ConnectionLimits,
  connectionLimit,
  DEFAULT_HEADERS_TIMEOUT_MS,
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  FD_RESERVE,
  openFileLimit,
} from '../server/connection-guard.ts';
import { CliError } from './cli-error.ts';

interface ConnectionFlags {
  maxConnections?: string;
  headersTimeoutMs?: string;
  requestTimeoutMs?: string;
}

interface ResolvedLimits {
  limits: ConnectionLimits;
  /** The soft open-file limit the connection limit was derived from, if known. */
  fileLimit: number | undefined;
}

export function parseConnectionLimits(flags: ConnectionFlags): ResolvedLimits {
  const cap = wholeNumber('--max-connections', flags.maxConnections, DEFAULT_MAX_CONNECTIONS);
  const headersTimeoutMs = wholeNumber(
    '--headers-timeout-ms',
    flags.headersTimeoutMs,
    DEFAULT_HEADERS_TIMEOUT_MS,
  );
  const requestTimeoutMs = wholeNumber(
    '--request-timeout-ms',
    flags.requestTimeoutMs,
    Math.max(DEFAULT_REQUEST_TIMEOUT_MS, headersTimeoutMs),
  );
  // node refuses a headers timeout above the request timeout; say so in our words.
  if (requestTimeoutMs < headersTimeoutMs)
    throw new CliError(
      `--request-timeout-ms (${requestTimeoutMs}) must not be below --headers-timeout-ms (${headersTimeoutMs})`,
    );
  const fileLimit = openFileLimit();
  return {
    limits: { maxConnections: connectionLimit(cap, fileLimit), headersTimeoutMs, requestTimeoutMs },
    fileLimit,
  };
}

/** The line `serve` prints about its bounds. */
export function describeLimits({ limits, fileLimit }: ResolvedLimits): string {
  const why = fileLimit === undefined ? '' : ` (open-file limit ${fileLimit}, ${FD_RESERVE} kept for hooks)`;
  return (
    `connections: at most ${limits.maxConnections}${why}; ` +
    `headers within ${limits.headersTimeoutMs} ms, whole request within ${limits.requestTimeoutMs} ms`
  );
}

function wholeNumber(flag: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value.trim());
  if (!/^\d{1,9}$/.test(value.trim()) || n < 1)
    throw new CliError(`${flag} must be a whole number ≥ 1, got ${JSON.stringify(value)}`);
  return n;
}
