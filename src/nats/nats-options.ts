import { z } from 'zod';

/** [N-BUS-1..N-OPS-1] `createHookEngine({ nats })`, validated at the edge. */
export const natsOptionsSchema = z
  .object({
    /** One URL or several (`nats://host:4222`). */
    servers: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]),
    /** [N-CONN-1] How long the first connection may take. */
    connectTimeoutMs: z.number().int().positive().default(5000),
    /** [N-WORK-1] false: this engine only publishes its events; workers run the hooks. */
    runLocally: z.boolean().default(true),
    /** [N-DUR-1] Events go through the JetStream stream and are acknowledged after their runs. */
    durable: z.boolean().default(false),
    ackWaitMs: z.number().int().positive().default(30_000),
    maxDeliver: z.number().int().positive().default(5),
    /** [N-GATE-1] decide() asks a gate worker instead of running local gate hooks. */
    remoteGate: z.boolean().default(false),
    decideTimeoutMs: z.number().int().positive().default(5000),
    failMode: z.enum(['open', 'closed']).default('open'),
    /** Name in run records and metrics (workers); default `<hostname>:<pid>`. */
    name: z.string().min(1).optional(),
  })
  .strict();

export type NatsOptionsInput = z.input<typeof natsOptionsSchema>;
export type NatsOptions = z.output<typeof natsOptionsSchema>;

/** The NATS options, or a TypeError naming the first bad field. */
export function parseNatsOptions(input: unknown): NatsOptions {
  const parsed = natsOptionsSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue === undefined || issue.path.length === 0 ? 'nats' : `nats.${issue.path.join('.')}`;
  throw new TypeError(`invalid option ${where}: ${issue?.message ?? 'invalid'}`);
}

export function serverList(servers: string | readonly string[]): string[] {
  return typeof servers === 'string' ? [servers] : [...servers];
}
