/**
 * Every error hookwerk throws to its caller is a `HookwerkError` with a `code`, so callers (the
 * HTTP API, the CLI, an embedding agent) branch on the code, never on the message. Bad input and
 * bad options stay `TypeError`s as well ([P-EV-3] promises one): `HookwerkTypeError` extends
 * `TypeError`, and `instanceof HookwerkError` holds for both.
 */

/** What went wrong, for callers to branch on. */
export type HookwerkErrorCode =
  /** An embedder passed a bad event, payload, context or option to a call (a `TypeError`). */
  | 'HOOK_INPUT'
  /** An option given when constructing something is invalid (a `TypeError`). */
  | 'INVALID_OPTION'
  /** The engine was closed. */
  | 'ENGINE_CLOSED'
  /** The caller's signal aborted the call (`decide(…, { signal })`, [AD-ALL-1]). */
  | 'ABORTED'
  /** The workspace folder is missing or not a folder. */
  | 'WORKSPACE'
  /** A project cannot be approved as it is (a file that cannot be pinned). */
  | 'CONSENT'
  /** There is no usable home folder [L-TRUST-12]. */
  | 'NO_HOME'
  /** The hooks.json store refused a change (the HTTP API's 4xx). */
  | 'STORE'
  /** No NATS server answered in time [N-CONN-1]. */
  | 'NATS_UNREACHABLE'
  /** The NATS server refused the credentials [N-SEC-1]. */
  | 'NATS_AUTH'
  /** An HTTP hook's host is, or resolves to, a blocked address (issue 11). */
  | 'BLOCKED_ADDRESS'
  /** An agent's hook file `install` / `uninstall` will not change (unreadable, not JSON, misshapen). */
  | 'HOOK_FILE'
  /** A gate hook refused a tool call an adapter was asked to run [AD-AI-1]. */
  | 'TOOL_DENIED'
  /** A journal folder or segment is not what it must be: a FIFO, a link, a device… [T-SELF-3] */
  | 'JOURNAL'
  /** A policy test file cannot be read or is not one (`hookwerk test` [G-TEST-1]). */
  | 'POLICY_TEST'
  /** A command line the CLI cannot run (its message is printed as is). */
  | 'CLI'
  /** A broken invariant inside hookwerk: a bug to report. */
  | 'INTERNAL';

const BRAND = Symbol.for('hookwerk.error');

function brand(err: Error): void {
  Object.defineProperty(err, BRAND, { value: true });
}

/** True for every error hookwerk throws, whichever built-in class it extends. */
export function isHookwerkError(value: unknown): value is HookwerkError | HookwerkTypeError {
  return value instanceof Error && Object.hasOwn(value, BRAND);
}

export class HookwerkError extends Error {
  readonly code: HookwerkErrorCode;

  constructor(code: HookwerkErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
    brand(this);
  }

  /** `err instanceof HookwerkError` holds for `HookwerkTypeError`s too; subclasses test as usual. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class instanceof asked about (a subclass tests as usual).
    if (this === HookwerkError) return isHookwerkError(value);
    // biome-ignore lint/complexity/noThisInStatic: as above.
    return Function.prototype[Symbol.hasInstance].call(this, value);
  }
}

export class HookwerkTypeError extends TypeError {
  readonly code: HookwerkErrorCode;

  constructor(code: HookwerkErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
    brand(this);
  }
}

/**
 * Bad input from the embedder (an unknown event, a mistyped payload field, a non-object
 * context): a programming error, named by the field it is about, so callers such as the HTTP
 * API can point at it without parsing the message.
 */
export class HookInputError extends HookwerkTypeError {
  /** `event`, `context`, `payload`, `payload.<field>`, `sessionId`, `depth`, `matcher`… */
  readonly field: string;

  constructor(field: string, message: string) {
    super('HOOK_INPUT', message);
    this.field = field;
  }
}

/** An option given to a constructor (`createHookEngine`, the bus, the server) is invalid. */
export class InvalidOptionError extends HookwerkTypeError {
  constructor(message: string) {
    super('INVALID_OPTION', message);
  }
}

/** The engine was closed: nothing more can be decided. */
export class EngineClosedError extends HookwerkError {
  constructor(what: string) {
    super('ENGINE_CLOSED', `${what}: the engine is closed`);
  }
}
