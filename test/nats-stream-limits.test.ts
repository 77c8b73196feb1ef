// Issue 18 [N-SEC-3]: the JetStream stream HOOKWERK_EVENTS has limits (default 1 GiB and 24 h,
// the oldest events discarded first), so no client can fill the server's disk through it.
// Checked on a real nats-server through the JetStream manager. One server per test: each starts
// without the stream.
import { DiscardPolicy, type JetStreamManager, jetstreamManager, StorageType } from '@nats-io/jetstream';
import { connect, type NatsConnection, nanos } from '@nats-io/transport-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EVENT_SUBJECTS, EVENTS_STREAM } from '../src/nats/event-stream.ts';
import { startCli } from './cli-process.ts';
import { runCli } from './cli-runner.ts';
import { closeEngines, openEngine } from './engine-harness.ts';
import { captureLogger, tempDir, waitFor, writeHooks } from './helpers.ts';
import { type NatsServer, startNatsServer } from './nats-server.ts';

const GiB = 1024 ** 3;
const DAY_MS = 24 * 60 * 60 * 1000;

let server: NatsServer;
let nc: NatsConnection;
let jsm: JetStreamManager;

beforeEach(async () => {
  server = await startNatsServer();
  nc = await connect({ servers: server.url });
  jsm = await jetstreamManager(nc);
});
afterEach(async () => {
  // Engines first: they close against a live server.
  await closeEngines();
  await nc?.close();
  await server?.cleanup();
});

async function limits() {
  const { config } = await jsm.streams.info(EVENTS_STREAM);
  return { max_bytes: config.max_bytes, max_age: config.max_age, discard: config.discard };
}

function durableAgent(extra: Record<string, number> = {}, lines: string[] = []) {
  return openEngine({
    watch: false,
    natsInbound: false,
    logger: captureLogger(lines),
    nats: { servers: server.url, durable: true, runLocally: false, ...extra },
  });
}

describe('[N-SEC-3] stream limits', () => {
  it('[N-SEC-3] the stream is created with 1 GiB and 24 h, discarding the oldest events', async () => {
    await durableAgent();
    expect(await limits()).toEqual({ max_bytes: GiB, max_age: nanos(DAY_MS), discard: DiscardPolicy.Old });
  });

  it('[N-SEC-3] a full stream drops its oldest events: what it holds stays within max bytes', async () => {
    const agent = await durableAgent({ streamMaxBytes: 64 * 1024 });
    const output = 'x'.repeat(1024);
    for (let i = 0; i < 200; i++)
      agent.emit('tool_call', { tool: 'Bash', success: true, output }, { sessionId: `s${i}` });
    await waitFor(
      async () => (await jsm.streams.info(EVENTS_STREAM)).state.last_seq === 200,
      'all 200 stored',
    );
    const { state } = await jsm.streams.info(EVENTS_STREAM);
    expect(state.bytes).toBeLessThanOrEqual(64 * 1024);
    expect(state.first_seq).toBeGreaterThan(1);
  });

  it('[N-SEC-3] an existing stream: given limits update it, a side on defaults leaves it, a stream without limits gets the defaults', async () => {
    // Made before limits existed: no limit at all.
    await jsm.streams.add({ name: EVENTS_STREAM, subjects: [EVENT_SUBJECTS], storage: StorageType.File });
    expect((await limits()).max_bytes).toBe(-1);
    await durableAgent();
    expect(await limits()).toEqual({ max_bytes: GiB, max_age: nanos(DAY_MS), discard: DiscardPolicy.Old });

    await durableAgent({ streamMaxBytes: 8 * 1024 * 1024, streamMaxAgeMs: 3_600_000 });
    expect(await limits()).toEqual({
      max_bytes: 8 * 1024 * 1024,
      max_age: nanos(3_600_000),
      discard: DiscardPolicy.Old,
    });
    // An agent started later on the defaults does not undo what was set.
    await durableAgent();
    expect((await limits()).max_bytes).toBe(8 * 1024 * 1024);
  });

  it('[N-SEC-3] worker --durable --stream-max-bytes N --stream-max-age-ms N creates the stream with them; a bad value exits 1', async () => {
    const ws = tempDir('hw-nats-ws-');
    writeHooks(ws, { tool_call: [{ id: 'true', command: '/bin/true' }] });
    const w = startCli([
      'worker',
      ...['--nats', server.url, '--workspace', ws, '--durable'],
      ...['--stream-max-bytes', '5242880', '--stream-max-age-ms', '600000'],
    ]);
    await w.waitForOutput(/^ready$/m);
    expect(await limits()).toEqual({
      max_bytes: 5_242_880,
      max_age: nanos(600_000),
      discard: DiscardPolicy.Old,
    });
    expect(await w.stop('SIGTERM')).toBe(0);
    const bad = await runCli([
      'worker',
      '--nats',
      server.url,
      '--workspace',
      ws,
      '--durable',
      '--stream-max-bytes',
      '1G',
    ]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/--stream-max-bytes must be a whole number ≥ 1, got "1G"/);
  }, 30_000);
});
