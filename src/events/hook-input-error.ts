/**
 * Bad input from the embedder (an unknown event, a mistyped payload field, a non-object
 * context): a programming error, named by the field it is about, so callers such as the HTTP
 * API can point at it without parsing the message. A TypeError, as [P-EV-3] promises.
 */
export class HookInputError extends TypeError {
  /** `event`, `context`, `payload`, `payload.<field>`, `sessionId`, `depth`, `matcher`… */
  readonly field: string;

  constructor(field: string, message: string) {
    super(message);
    this.name = 'HookInputError';
    this.field = field;
  }
}

/** The engine was closed: nothing more can be decided. */
export class EngineClosedError extends Error {
  constructor(what: string) {
    super(`${what}: the engine is closed`);
    this.name = 'EngineClosedError';
  }
}
