import { z } from 'zod';
import { InvalidOptionError } from '../core/errors.ts';

/** [N-SEC-3] The stream keeps at most this much by default (1 GiB), then drops its oldest events. */
export const DEFAULT_STREAM_MAX_BYTES = 1024 ** 3;
/** [N-SEC-3] …and events at most this long by default (24 h). */
export const DEFAULT_STREAM_MAX_AGE_MS = 24 * 60 * 60 * 1000;

const path = z.string().min(1);

/** A subject prefix for this connection's reply inboxes: tokens, no wildcards, no spaces. */
const inboxPrefix = z
  .string()
  .regex(/^[A-Za-z0-9_$-]+(\.[A-Za-z0-9_$-]+)*$/, 'must be subject tokens without wildcards or spaces');

/**
 * [N-SEC-1] How a connection proves who it is, and TLS. At most one way to authenticate:
 * user/pass, token, an NKey seed file or a `.creds` file (credentials in a server URL count as
 * user/pass or token). Secrets are read here and never appear in a message.
 */
const natsSecuritySchema = z.object({
  user: z.string().min(1).optional(),
  pass: z.string().optional(),
  token: z.string().min(1).optional(),
  /** A file holding an NKey seed (`SU…`): the server knows only its public key. */
  nkeySeedFile: path.optional(),
  /** A `.creds` file (user JWT + NKey seed), for servers in operator/JWT mode. */
  credsFile: path.optional(),
  /**
   * TLS: given (even `{}`), the connection must be encrypted — never plaintext. `caFile` adds
   * the CA the server's certificate is checked against; `certFile`/`keyFile` are this client's
   * certificate (for servers with `verify: true`).
   */
  tls: z
    .object({ caFile: path.optional(), certFile: path.optional(), keyFile: path.optional() })
    .strict()
    .refine((t) => (t.certFile === undefined) === (t.keyFile === undefined), {
      message: 'certFile and keyFile go together',
    })
    .optional(),
  /** Reply subjects start with this (default `_INBOX`): lets a server give each role its own. */
  inboxPrefix: inboxPrefix.optional(),
});

/** [N-BUS-1..N-SEC-3] `createHookEngine({ nats })`, validated at the edge. */
const natsOptionsSchema = natsSecuritySchema
  .extend({
    /** One URL or several (`nats://host:4222`, `nats://user:pass@host:4222`, `tls://host:4222`). */
    servers: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]),
    /** [N-CONN-1] How long the first connection may take. */
    connectTimeoutMs: z.number().int().positive().default(5000),
    /** [N-WORK-1] false: this engine only publishes its events; workers run the hooks. */
    runLocally: z.boolean().default(true),
    /** [N-DUR-1] Events go through the JetStream stream and are acknowledged after their runs. */
    durable: z.boolean().default(false),
    ackWaitMs: z.number().int().positive().default(30_000),
    maxDeliver: z.number().int().positive().default(5),
    /**
     * [N-SEC-3] Limits of the stream (defaults 1 GiB and 24 h; the oldest go first). Left out,
     * they are used when this side creates the stream (or finds it without limits); given, an
     * existing stream with other limits is updated to them.
     */
    streamMaxBytes: z.number().int().positive().optional(),
    streamMaxAgeMs: z.number().int().positive().optional(),
    /** [N-GATE-1] decide() asks a gate worker instead of running local gate hooks. */
    remoteGate: z.boolean().default(false),
    decideTimeoutMs: z.number().int().positive().default(5000),
    failMode: z.enum(['open', 'closed']).default('open'),
    /** Name in run records and metrics (workers); default `<hostname>:<pid>`. */
    name: z.string().min(1).optional(),
  })
  .strict()
  .superRefine((o, ctx) => {
    const problem = securityProblem(o);
    if (problem !== undefined)
      ctx.addIssue({ code: 'custom', path: [problem.field], message: problem.message });
  });

export type NatsSecurity = z.output<typeof natsSecuritySchema>;
export type NatsOptionsInput = z.input<typeof natsOptionsSchema>;
export type NatsOptions = z.output<typeof natsOptionsSchema>;

/** The NATS options, or a TypeError naming the first bad field (never its value). */
export function parseNatsOptions(input: unknown): NatsOptions {
  const parsed = natsOptionsSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue === undefined || issue.path.length === 0 ? 'nats' : `nats.${issue.path.join('.')}`;
  throw new InvalidOptionError(`invalid option ${where}: ${issue?.message ?? 'invalid'}`);
}

/** Two ways to authenticate at once, or a password without a user: which field, and why. */
function securityProblem(o: NatsSecurity): { field: string; message: string } | undefined {
  if (o.pass !== undefined && o.user === undefined) return { field: 'pass', message: 'pass needs user' };
  const given = (
    [
      ['user', o.user],
      ['token', o.token],
      ['nkeySeedFile', o.nkeySeedFile],
      ['credsFile', o.credsFile],
    ] as const
  ).filter(([, v]) => v !== undefined);
  const second = given[1];
  if (second === undefined) return undefined;
  return {
    field: second[0],
    message: `give one way to authenticate, not ${given.map(([k]) => k).join(' and ')}`,
  };
}

export function serverList(servers: string | readonly string[]): string[] {
  return typeof servers === 'string' ? [servers] : [...servers];
}
