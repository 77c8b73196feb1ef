/**
 * [R-HOOK-4] The warm path's wire protocol (`docs/agents-hook.md`, "The warm path"): one request
 * and one reply per connection, binary and trivial to write in C. Every integer is a u32, little
 * endian; every field is its length then its bytes.
 *
 *   request: "HWKQ", version 1, flags (bit 0: stdin was over the limit and is not sent),
 *            args (each argument after `hook` followed by a NUL), cwd, env (each `K=V` followed
 *            by a NUL), stdin
 *   reply:   "HWKR", version 1, exit code (i32), stdout, stderr
 *   reply 2: "HWKR", version 2, exit code (i32), flags (bit 0: FINAL), stdout, stderr [T-MGD-3]:
 *            the system daemon's; FINAL says its managed answer is the call's answer (a deny,
 *            an ask, a changed input…), none says "no objection: go on to the user's path".
 *            Other flag bits are an error (a later change takes a new version). Readers take
 *            both versions; the user daemon still writes version 1.
 *   control: "HWKC", version 1, flags 0, command ("status" or "stop", ≤ 16 bytes) [G-WARM-1];
 *            its reply is a reply whose stdout is JSON (`daemon-control.ts`)
 *
 * The readers check every length as soon as it arrives: a request over a bound, or malformed, is
 * an error (the server closes it without a reply), never a buffer grown on a client's word.
 */

export const REQUEST_MAGIC = 'HWKQ';
export const REPLY_MAGIC = 'HWKR';
export const CONTROL_MAGIC = 'HWKC';
/** [G-WARM-1] What `hookwerk daemon status|stop` asks a running daemon. */
export const CONTROL_COMMANDS = ['status', 'stop'] as const;
export type ControlCommand = (typeof CONTROL_COMMANDS)[number];
const MAX_CONTROL_COMMAND = 16;
export const WIRE_VERSION = 1;
/** [T-MGD-3] The reply version that carries flags. */
export const REPLY_VERSION_FLAGS = 2;
/** Reply flag (version 2): the system daemon's managed answer is final; the client answers with it. */
export const REPLY_FLAG_FINAL = 1;
/** Request flag: stdin was larger than MAX_STDIN_BYTES; the field is empty. */
export const FLAG_STDIN_TOO_LARGE = 1;

/** The bounds of a request's fields (the C client has the same). */
export const LIMITS = {
  args: 64 * 1024,
  cwd: 4096,
  env: 1024 * 1024,
  stdin: 8 * 1024 * 1024,
} as const;
/** The bound of each of a reply's fields. */
export const MAX_REPLY_FIELD = 64 * 1024 * 1024;

/** One `hookwerk hook` call as a client hands it over. */
export interface WireRequest {
  args: string[];
  cwd: string;
  env: Record<string, string>;
  /** The raw stdin; `undefined` when it was over the limit (flag bit 0). */
  stdin: Buffer | undefined;
}

export interface WireReply {
  exitCode: number;
  stdout: Buffer;
  stderr: Buffer;
  /** [T-MGD-3] Set: a version 2 reply with this FINAL flag; unset: a version 1 reply. */
  final?: boolean;
}

function u32(value: number): Buffer {
  const b = Buffer.allocUnsafe(4);
  b.writeUInt32LE(value >>> 0);
  return b;
}

function field(bytes: Buffer): Buffer[] {
  return [u32(bytes.length), bytes];
}

function nulList(items: readonly string[]): Buffer {
  return Buffer.from(items.map((s) => `${s}\0`).join(''), 'utf8');
}

/** The request, or `undefined` when a field is over its bound (the daemon would refuse it). */
export function encodeRequest(req: WireRequest): Buffer | undefined {
  const args = nulList(req.args);
  const cwd = Buffer.from(req.cwd, 'utf8');
  const env = nulList(Object.entries(req.env).map(([k, v]) => `${k}=${v}`));
  const stdin = req.stdin ?? Buffer.alloc(0);
  if (
    args.length > LIMITS.args ||
    cwd.length > LIMITS.cwd ||
    env.length > LIMITS.env ||
    stdin.length > LIMITS.stdin
  )
    return undefined;
  return Buffer.concat([
    Buffer.from(REQUEST_MAGIC, 'latin1'),
    u32(WIRE_VERSION),
    u32(req.stdin === undefined ? FLAG_STDIN_TOO_LARGE : 0),
    ...field(args),
    ...field(cwd),
    ...field(env),
    ...field(stdin),
  ]);
}

export function encodeControl(command: ControlCommand): Buffer {
  return Buffer.concat([
    Buffer.from(CONTROL_MAGIC, 'latin1'),
    u32(WIRE_VERSION),
    u32(0),
    ...field(Buffer.from(command, 'latin1')),
  ]);
}

/** Version 1, or version 2 with its flags when `final` is set [T-MGD-3]. */
export function encodeReply(reply: WireReply): Buffer {
  const code = Buffer.allocUnsafe(4);
  code.writeInt32LE(reply.exitCode | 0);
  const flags = reply.final === undefined ? [] : [u32(reply.final ? REPLY_FLAG_FINAL : 0)];
  return Buffer.concat([
    Buffer.from(REPLY_MAGIC, 'latin1'),
    u32(reply.final === undefined ? WIRE_VERSION : REPLY_VERSION_FLAGS),
    code,
    ...flags,
    ...field(reply.stdout),
    ...field(reply.stderr),
  ]);
}

/**
 * One part of a message, `size` bytes (checked before), gathered from chunks as they arrive:
 * memory grows with what the peer sent, not with what it announced.
 */
class FieldReader {
  readonly #size: number;
  readonly #chunks: Buffer[] = [];
  #have = 0;
  constructor(size: number) {
    this.#size = size;
  }
  /** Takes what it still needs from `chunk` at `at`; returns how many bytes it took. */
  take(chunk: Buffer, at: number): number {
    const n = Math.min(this.#size - this.#have, chunk.length - at);
    if (n > 0) this.#chunks.push(chunk.subarray(at, at + n));
    this.#have += n;
    return n;
  }
  get done(): boolean {
    return this.#have === this.#size;
  }
  get bytes(): Buffer {
    return this.#chunks.length === 1 && this.#chunks[0] !== undefined
      ? this.#chunks[0]
      : Buffer.concat(this.#chunks, this.#have);
  }
}

/** A fixed part (checked as soon as it is complete), or a field of at most `max` bytes. */
type Step =
  | { kind: 'fixed'; size: number; check(bytes: Buffer): string | undefined }
  | { kind: 'field'; max: number };

/** What a reader says after each chunk. */
export type ReadState<T> = { kind: 'more' } | { kind: 'done'; value: T } | { kind: 'error'; why: string };

/**
 * The shared machine: a list of steps, each a fixed part or a bounded field, then `finish` over
 * the parts read. Bytes after the last step are an error (one message per connection).
 */
class WireReader<T> {
  readonly #steps: readonly Step[];
  readonly #finish: (parts: Buffer[]) => T | string;
  readonly #parts: Buffer[] = [];
  #step = 0;
  #lengthOf: FieldReader | undefined;
  #current: FieldReader | undefined;
  #state: ReadState<T> = { kind: 'more' };

  constructor(steps: readonly Step[], finish: (parts: Buffer[]) => T | string) {
    this.#steps = steps;
    this.#finish = finish;
  }

  push(chunk: Buffer): ReadState<T> {
    let at = 0;
    while (at < chunk.length && this.#state.kind === 'more') at += this.#advance(chunk, at);
    // One message per connection: anything after its end is a malformed peer.
    if (at < chunk.length && this.#state.kind === 'done')
      this.#state = { kind: 'error', why: 'bytes after the end of the message' };
    return this.#state;
  }

  /** Feeds the current step; moves on (or ends) when it is complete. */
  #advance(chunk: Buffer, at: number): number {
    const step = this.#steps[this.#step];
    if (step === undefined) return 0;
    if (step.kind === 'field' && this.#current === undefined) {
      this.#lengthOf ??= new FieldReader(4);
      const n = this.#lengthOf.take(chunk, at);
      if (!this.#lengthOf.done) return n;
      const length = this.#lengthOf.bytes.readUInt32LE(0);
      this.#lengthOf = undefined;
      if (length > step.max) {
        this.#state = { kind: 'error', why: `field ${this.#step} is ${length} bytes, over ${step.max}` };
        return n;
      }
      this.#current = new FieldReader(length);
      if (length === 0) this.#next();
      return n;
    }
    this.#current ??= new FieldReader(step.kind === 'fixed' ? step.size : 0);
    const n = this.#current.take(chunk, at);
    if (this.#current.done) this.#next();
    return n;
  }

  #next(): void {
    if (this.#current === undefined) return;
    const bytes = this.#current.bytes;
    this.#current = undefined;
    const step = this.#steps[this.#step];
    const bad = step?.kind === 'fixed' ? step.check(bytes) : undefined;
    if (bad !== undefined) {
      this.#state = { kind: 'error', why: bad };
      return;
    }
    this.#parts.push(bytes);
    this.#step++;
    if (this.#step < this.#steps.length) return;
    const value = this.#finish(this.#parts);
    this.#state = typeof value === 'string' ? { kind: 'error', why: value } : { kind: 'done', value };
  }
}

function headerProblem(header: Buffer, magic: string): string | undefined {
  if (header.toString('latin1', 0, 4) !== magic) return 'not a hookwerk message';
  const version = header.readUInt32LE(4);
  if (version !== WIRE_VERSION) return `wire version ${version}, this side speaks ${WIRE_VERSION}`;
  return undefined;
}

function requestHeaderProblem(header: Buffer): string | undefined {
  const flags = header.readUInt32LE(8);
  return (
    headerProblem(header, REQUEST_MAGIC) ??
    ((flags & ~FLAG_STDIN_TOO_LARGE) !== 0 ? `unknown flags ${flags}` : undefined)
  );
}

/** Strings each followed by a NUL (an empty field: none); `undefined` when the last lacks its NUL. */
function splitNul(bytes: Buffer): string[] | undefined {
  if (bytes.length === 0) return [];
  if (bytes[bytes.length - 1] !== 0) return undefined;
  return bytes.toString('utf8', 0, bytes.length - 1).split('\0');
}

function readEnv(bytes: Buffer): Record<string, string> | string {
  const entries = splitNul(bytes);
  if (entries === undefined) return 'env does not end with a NUL';
  const env: Record<string, string> = {};
  for (const entry of entries) {
    const eq = entry.indexOf('=');
    // As Node builds process.env: an entry without a name is skipped, the first of a name wins.
    if (eq <= 0) continue;
    const name = entry.slice(0, eq);
    if (!Object.hasOwn(env, name)) env[name] = entry.slice(eq + 1);
  }
  return env;
}

export function requestReader(): WireReader<WireRequest> {
  return new WireReader<WireRequest>(
    [
      { kind: 'fixed', size: 12, check: requestHeaderProblem },
      { kind: 'field', max: LIMITS.args },
      { kind: 'field', max: LIMITS.cwd },
      { kind: 'field', max: LIMITS.env },
      { kind: 'field', max: LIMITS.stdin },
    ],
    ([header, args, cwd, env, stdin]) => {
      if (
        header === undefined ||
        args === undefined ||
        cwd === undefined ||
        env === undefined ||
        stdin === undefined
      )
        return 'incomplete request';
      const flags = header.readUInt32LE(8);
      const argv = splitNul(args);
      if (argv === undefined) return 'args do not end with a NUL';
      const dir = cwd.toString('utf8');
      if (!dir.startsWith('/') || dir.includes('\0')) return 'cwd is not an absolute path';
      const vars = readEnv(env);
      if (typeof vars === 'string') return vars;
      const tooLarge = (flags & FLAG_STDIN_TOO_LARGE) !== 0;
      if (tooLarge && stdin.length > 0) return 'stdin is flagged too large but was sent';
      return { args: argv, cwd: dir, env: vars, stdin: tooLarge ? undefined : stdin };
    },
  );
}

/** A reply's fields after its header: the exit code (and flags in version 2), stdout, stderr. */
function replyBodyReader(version: number): WireReader<WireReply> {
  const flagged = version === REPLY_VERSION_FLAGS;
  return new WireReader<WireReply>(
    [
      {
        kind: 'fixed',
        size: flagged ? 8 : 4,
        check: (head) =>
          flagged && (head.readUInt32LE(4) & ~REPLY_FLAG_FINAL) !== 0
            ? `unknown reply flags ${head.readUInt32LE(4)}`
            : undefined,
      },
      { kind: 'field', max: MAX_REPLY_FIELD },
      { kind: 'field', max: MAX_REPLY_FIELD },
    ],
    ([head, stdout, stderr]) => {
      if (head === undefined || stdout === undefined || stderr === undefined) return 'incomplete reply';
      const reply: WireReply = { exitCode: head.readInt32LE(0), stdout, stderr };
      if (flagged) reply.final = (head.readUInt32LE(4) & REPLY_FLAG_FINAL) !== 0;
      return reply;
    },
  );
}

/**
 * A reply of version 1 or 2 [T-MGD-3]: the magic and version first (8 bytes, gathered), then the
 * body of that version. A version 1 reply reads without `final`, a version 2 one with it.
 */
export function replyReader(): { push(chunk: Buffer): ReadState<WireReply> } {
  let head = Buffer.alloc(0);
  let body: WireReader<WireReply> | undefined;
  let failed: ReadState<WireReply> | undefined;
  return {
    push(chunk) {
      if (failed !== undefined) return failed;
      if (body !== undefined) return body.push(chunk);
      head = Buffer.concat([head, chunk]);
      if (head.length < 8) return { kind: 'more' };
      const version = head.readUInt32LE(4);
      if (head.toString('latin1', 0, 4) !== REPLY_MAGIC)
        failed = { kind: 'error', why: 'not a hookwerk message' };
      else if (version !== WIRE_VERSION && version !== REPLY_VERSION_FLAGS)
        failed = {
          kind: 'error',
          why: `wire version ${version}, this side speaks ${WIRE_VERSION} and ${REPLY_VERSION_FLAGS}`,
        };
      if (failed !== undefined) return failed;
      body = replyBodyReader(version);
      const rest = head.subarray(8);
      head = Buffer.alloc(0);
      return rest.length === 0 ? { kind: 'more' } : body.push(rest);
    },
  };
}

function controlCommand(bytes: Buffer): ControlCommand | undefined {
  const text = bytes.toString('latin1');
  return CONTROL_COMMANDS.find((c) => c === text);
}

export function controlReader(): WireReader<{ command: ControlCommand }> {
  return new WireReader<{ command: ControlCommand }>(
    [
      {
        kind: 'fixed',
        size: 12,
        check: (header) =>
          headerProblem(header, CONTROL_MAGIC) ??
          (header.readUInt32LE(8) !== 0 ? `unknown flags ${header.readUInt32LE(8)}` : undefined),
      },
      { kind: 'field', max: MAX_CONTROL_COMMAND },
    ],
    ([, bytes]) => {
      // `finish` tells an error by a string: the command goes back inside an object.
      const command = bytes === undefined ? undefined : controlCommand(bytes);
      return command === undefined ? 'unknown control command' : { command };
    },
  );
}

/** What arrives on the daemon's socket: a hook call, or a control message [G-WARM-1]. */
export type Incoming = { kind: 'call'; request: WireRequest } | { kind: 'control'; command: ControlCommand };

/**
 * Reads the first four bytes (the magic), then hands everything to the reader of that message:
 * a request or a control message. Anything else is not a hookwerk message.
 */
export function incomingReader(): { push(chunk: Buffer): ReadState<Incoming> } {
  let head = Buffer.alloc(0);
  let push: ((chunk: Buffer) => ReadState<Incoming>) | undefined;
  const mapped = <T>(reader: WireReader<T>, wrap: (value: T) => Incoming) => {
    return (chunk: Buffer): ReadState<Incoming> => {
      const state = reader.push(chunk);
      return state.kind === 'done' ? { kind: 'done', value: wrap(state.value) } : state;
    };
  };
  return {
    push(chunk) {
      if (push !== undefined) return push(chunk);
      head = Buffer.concat([head, chunk]);
      if (head.length < 4) return { kind: 'more' };
      const magic = head.toString('latin1', 0, 4);
      if (magic === REQUEST_MAGIC) push = mapped(requestReader(), (request) => ({ kind: 'call', request }));
      else if (magic === CONTROL_MAGIC)
        push = mapped(controlReader(), ({ command }) => ({ kind: 'control', command }));
      else return { kind: 'error', why: 'not a hookwerk message' };
      const first = head;
      head = Buffer.alloc(0);
      return push(first);
    },
  };
}
