import { type JetStreamClient, jetstream } from '@nats-io/jetstream';
import {
  AuthorizationError,
  connect,
  type NatsConnection,
  PermissionViolationError,
  TimeoutError,
} from '@nats-io/transport-node';
import { errorMessage } from '../core/errno.ts';
import { HookwerkError } from '../core/errors.ts';
import type { Logger } from '../records/logger.ts';
import { connectSecurity } from './connect-security.ts';
import { depthHeaders } from './depth-header.ts';
import type { NatsSecurity } from './nats-options.ts';
import { redactUrls } from './redact-url.ts';
import { readServerUrls } from './server-urls.ts';

/** How long a reconnect attempt waits before the next (the client then retries forever). */
const RECONNECT_WAIT_MS = 250;
/** Subjects whose refusal by the server was already logged (one line each, not one per message). */
const MAX_LOGGED_DENIALS = 64;

interface LinkOptions {
  servers: string[];
  connectTimeoutMs: number;
  /** Client name the server shows (`hookwerk:<name>`). */
  name: string;
  logger: Logger;
  /** [N-SEC-1] Credentials, TLS, inbox prefix. */
  security?: NatsSecurity;
  /** [N-SEC-1] Called for each publish or subscription the server refused (its permissions). */
  onDenied?: (operation: 'publish' | 'subscription', subject: string) => void;
}

/**
 * One NATS connection and its state [N-CONN-1]: opened within `connectTimeoutMs` (else a
 * rejection naming the URLs), then reconnecting forever. `noEcho`: this connection never
 * receives what it published itself, so a bridged message cannot come back to its sender.
 * [N-SEC-1] Every URL it prints is shown without its password.
 */
export class NatsLink {
  readonly nc: NatsConnection;
  readonly js: JetStreamClient;
  readonly #logger: Logger;
  readonly #servers: string;
  readonly #onDenied: LinkOptions['onDenied'];
  readonly #denialsLogged = new Set<string>();
  #denials = 0;
  #connected = true;
  #closing = false;
  readonly #onReconnect: Array<() => void> = [];

  private constructor(nc: NatsConnection, shown: string, opts: LinkOptions) {
    this.nc = nc;
    this.js = jetstream(nc);
    this.#logger = opts.logger;
    this.#servers = shown;
    this.#onDenied = opts.onDenied;
    void this.#watchStatus();
  }

  static async open(opts: LinkOptions): Promise<NatsLink> {
    const urls = readServerUrls(opts.servers);
    const { identity, ...security } = connectSecurity(opts.security ?? {}, urls);
    const deadline = Date.now() + opts.connectTimeoutMs;
    let last: unknown;
    // A refused connection fails at once; a server that is starting answers a moment later.
    for (;;) {
      const left = deadline - Date.now();
      if (left <= 0) break;
      try {
        const nc = await connect({
          servers: urls.dial,
          timeout: left,
          name: `hookwerk:${opts.name}`,
          noEcho: true,
          maxReconnectAttempts: -1,
          reconnectTimeWait: RECONNECT_WAIT_MS,
          ...security,
        });
        return new NatsLink(nc, urls.shown, opts);
      } catch (err) {
        // Wrong credentials stay wrong: say so now instead of retrying until the timeout.
        if (isAuthorizationError(err)) throw new NatsAuthError(urls.shown, identity, err);
        // So does a certificate this client cannot verify [N-SEC-1]: its cause now, not a timeout.
        if (isCertificateError(err)) throw new NatsUnreachableError(urls.shown, opts.connectTimeoutMs, err);
        // The last attempt ends at the deadline: its timeout must not hide what the others said
        // (a TLS handshake the server broke off, a refusal).
        if (last === undefined || !isTimeout(err)) last = err;
        await new Promise((resolve) =>
          setTimeout(resolve, Math.min(100, Math.max(0, deadline - Date.now()))),
        );
      }
    }
    throw new NatsUnreachableError(urls.shown, opts.connectTimeoutMs, last);
  }

  /** False between a disconnect and the next reconnect. */
  get connected(): boolean {
    return this.#connected && !this.#closing;
  }

  /** The server URLs, passwords and tokens hidden: what messages may show. */
  get servers(): string {
    return this.#servers;
  }

  /** Publishes and subscriptions the server refused so far (its permissions for these credentials). */
  get denials(): number {
    return this.#denials;
  }

  /** Called after each reconnect (durable publishes waiting for the server go out then). */
  onReconnect(fn: () => void): void {
    this.#onReconnect.push(fn);
  }

  /** Core publish with the depth header; false (nothing sent) while disconnected or on error. */
  publish(subject: string, data: string, depth: number): boolean {
    if (!this.connected) return false;
    try {
      this.nc.publish(subject, data, { headers: depthHeaders(depth) });
      return true;
    } catch (err) {
      this.#logger.warn(`nats: publish to ${subject} failed: ${redactUrls(errorMessage(err))}`);
      return false;
    }
  }

  async close(): Promise<void> {
    if (this.#closing) return;
    this.#closing = true;
    try {
      await this.nc.drain();
    } catch {
      // Already closed, or the server is gone: nothing left to flush.
      await this.nc.close().catch(() => {});
    }
  }

  async #watchStatus(): Promise<void> {
    for await (const s of this.nc.status()) {
      if (s.type === 'disconnect') {
        this.#connected = false;
        if (!this.#closing) this.#logger.warn(`nats: disconnected from ${this.#servers}; reconnecting`);
      } else if (s.type === 'reconnect') {
        this.#connected = true;
        this.#logger.info(`nats: reconnected to ${this.#servers}`);
        for (const fn of this.#onReconnect) fn();
      } else if (s.type === 'error' && s.error instanceof PermissionViolationError) {
        this.#denied(s.error);
      }
    }
  }

  /**
   * [N-SEC-1] The server refused a publish or a subscription: these credentials lack the
   * permission. Counted each time; logged once per subject (a denied subject is usually denied
   * for every message, and one line says what to fix).
   */
  #denied(err: PermissionViolationError): void {
    // JetStream API requests fail with the refusal: their callers report it, in their words.
    if (err.subject.startsWith('$JS.API.')) return;
    this.#denials++;
    const operation = err.operation === 'subscription' ? 'subscription' : 'publish';
    this.#onDenied?.(operation, err.subject);
    const key = `${operation} ${err.subject}`;
    if (this.#denialsLogged.has(key) || this.#denialsLogged.size >= MAX_LOGGED_DENIALS) return;
    this.#denialsLogged.add(key);
    // A refused reply inbox is nearly always a missing inbox prefix (the server gives each role its own).
    const hint =
      operation === 'subscription' && /^_INBOX[^.]*\./.test(err.subject)
        ? '; set the inbox prefix the server permits these credentials (nats.inboxPrefix, --nats-inbox-prefix)'
        : '';
    this.#logger.warn(
      `nats: the server refused ${refusalText(err)} (permissions of these credentials)${hint}`,
    );
  }
}

/** The server's "Permissions Violation" the error is or wraps, if it is one. */
export function permissionViolation(err: unknown): PermissionViolationError | undefined {
  for (let e = err, i = 0; e instanceof Error && i < 5; e = e.cause, i++)
    if (e instanceof PermissionViolationError) return e;
  return undefined;
}

/** What the server refused, in a few words: `the publish to S`, `the subscription to S`. */
export function refusalText(violation: PermissionViolationError): string {
  return `${violation.operation === 'subscription' ? 'the subscription to' : 'the publish to'} ${violation.subject}`;
}

function isAuthorizationError(err: unknown): boolean {
  for (let e = err, i = 0; e instanceof Error && i < 5; e = e.cause, i++)
    if (e instanceof AuthorizationError) return true;
  return false;
}

/** The client's own connect timeout (the attempt ran out of time, no answer said why). */
function isTimeout(err: unknown): boolean {
  for (let e = err, i = 0; e instanceof Error && i < 5; e = e.cause, i++)
    if (e instanceof TimeoutError) return true;
  return false;
}

/**
 * Node's verdict on the server's certificate (OpenSSL's verify codes: no issuer the CA list
 * holds, self-signed, expired, …, or a name that does not match): another try gets the same.
 */
const CERTIFICATE_CODES = new Set([
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'CERT_SIGNATURE_FAILURE',
  'CERT_NOT_YET_VALID',
  'CERT_HAS_EXPIRED',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'INVALID_CA',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

function isCertificateError(err: unknown): boolean {
  for (let e = err, i = 0; e instanceof Error && i < 5; e = e.cause, i++)
    if ('code' in e && typeof e.code === 'string' && CERTIFICATE_CODES.has(e.code)) return true;
  return false;
}

/** [N-CONN-1] No server answered within the connect timeout. */
export class NatsUnreachableError extends HookwerkError {
  constructor(shownServers: string, timeoutMs: number, cause: unknown) {
    super(
      'NATS_UNREACHABLE',
      `cannot reach NATS at ${shownServers} within ${timeoutMs} ms${cause === undefined ? '' : `: ${redactUrls(errorMessage(cause))}`}`,
    );
  }
}

/** [N-SEC-1] The server refused these credentials (the message never holds the secret). */
export class NatsAuthError extends HookwerkError {
  constructor(shownServers: string, identity: string, cause: unknown) {
    super('NATS_AUTH', `NATS at ${shownServers} refused ${identity}: ${redactUrls(errorMessage(cause))}`);
  }
}
