// Issue 18, item 8 [N-SEC-2]: depth survives the trip through NATS. A hook that emits again
// with `hookwerk emit --nats` sends ZERO_HOOK_DEPTH + 1; a worker drops (and counts) an event
// above depth 8 whatever its Hookwerk-Depth header says. Before, depth 9 arrived as depth 1
// and a loop through NATS cycled 1…8, 1…8 for ever. Real nats-server, real workers and hooks.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { connect, headers, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEPTH_HEADER } from '../src/nats/depth-header.ts';
import { type CliProcess, startCli } from './cli-process.ts';
import { BIN, runCli } from './cli-runner.ts';
import { collectBus, openEngine } from './engine-harness.ts';
import { tempDir, waitFor, writeHooks, writeScript } from './helpers.ts';
import { type NatsServer, startNatsServer } from './nats-server.ts';

const TOOL_CALL = { tool: 'Bash', success: true, output: 'ok' };

let server: NatsServer;
const clients: NatsConnection[] = [];
const workers: CliProcess[] = [];

beforeAll(async () => {
  server = await startNatsServer({ jetstream: false });
});
afterAll(async () => {
  await server?.cleanup();
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(workers.splice(0).map((w) => w.stop('SIGKILL')));
});

/** A worker on `ws` serving /metrics; resolves once it is ready, with its metrics URL. */
async function startWorker(ws: string, name: string): Promise<string> {
  const w = startCli([
    'worker',
    '--nats',
    server.url,
    '--workspace',
    ws,
    '--name',
    name,
    '--metrics-port',
    '0',
  ]);
  workers.push(w);
  await w.waitForOutput(/^ready$/m);
  const url = /metrics on (http:\S+)/.exec(w.stderr())?.[1];
  if (url === undefined) throw new Error(`no metrics URL in: ${w.stderr()}`);
  return url;
}

/** `events_dropped_total{reason="depth"}` of a worker, from its /metrics. */
async function droppedForDepth(metricsUrl: string): Promise<number> {
  const text = await (await fetch(metricsUrl)).text();
  const m = /^events_dropped_total\{(?=[^}]*reason="depth")[^}]*\} (\d+)$/m.exec(text);
  return m === null ? 0 : Number(m[1]);
}

function sessionOf(payload: unknown): string {
  return typeof payload === 'object' && payload !== null && 'session_id' in payload
    ? String(payload.session_id)
    : '';
}

function lines(file: string): string[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '');
}

describe('[N-SEC-2] depth across NATS', () => {
  it('[N-SEC-2] emit --nats inside a hook sends ZERO_HOOK_DEPTH + 1 in Hookwerk-Depth; outside a hook, 1', async () => {
    const nc = await connect({ servers: server.url });
    clients.push(nc);
    const seen: string[] = [];
    nc.subscribe('prx.lifecycle.>', {
      callback: (_e, m) => {
        seen.push(m.headers?.get(DEPTH_HEADER) ?? '');
      },
    });
    await nc.flush();
    const payload = ['--payload', JSON.stringify(TOOL_CALL)];
    expect((await runCli(['emit', 'tool_call', '--nats', server.url, ...payload])).code).toBe(0);
    const inside = await runCli(['emit', 'tool_call', '--nats', server.url, ...payload], {
      env: { ZERO_HOOK_DEPTH: '5' },
    });
    expect(inside.code).toBe(0);
    await waitFor(() => seen.length === 2, 'both events');
    expect(seen).toEqual(['1', '6']);
  }, 20_000);

  it('[N-SEC-2] a hook loop through NATS (the hook re-emits with hookwerk emit --nats) stops at depth 8, and the worker counts the drop', async () => {
    const ws = tempDir('hw-nats-loop-');
    const log = path.join(ws, 'depths.log');
    writeFileSync(log, '');
    const again = [process.execPath, BIN, 'emit', 'tool_call', '--nats', server.url]
      .map((a) => `'${a}'`)
      .join(' ');
    const hook = writeScript(
      ws,
      'loop.sh',
      `echo "$ZERO_HOOK_DEPTH" >> '${log}'\nexec ${again} --session "$ZERO_HOOK_SESSION" --payload '${JSON.stringify(TOOL_CALL)}'`,
    );
    writeHooks(ws, { tool_call: [{ id: 'loop', command: hook }] });
    const metrics = await startWorker(ws, 'loop-worker');
    const agent = await openEngine({
      watch: false,
      natsInbound: false,
      nats: { servers: server.url, runLocally: false },
    });
    agent.emit('tool_call', TOOL_CALL, { sessionId: 'loop' });
    // The hook at depth 8 emits depth 9: the worker drops it, and that ends the chain.
    // Eight CLI processes one after another: a deadline for a loaded machine, not a timing.
    await waitFor(async () => (await droppedForDepth(metrics)) === 1, 'the drop at depth 9', 120_000);
    expect(lines(log)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8']);
  }, 150_000);

  it('[N-SEC-2] whatever the header claims: missing, garbage, 0 or negative run at depth 1; above 8 is dropped and counted, never run', async () => {
    const ws = tempDir('hw-nats-claims-');
    const log = path.join(ws, 'runs.log');
    writeFileSync(log, '');
    const hook = writeScript(ws, 'log.sh', `echo "$ZERO_HOOK_SESSION $ZERO_HOOK_DEPTH" >> '${log}'`);
    writeHooks(ws, { tool_call: [{ id: 'log', command: hook }] });
    const metrics = await startWorker(ws, 'claims-worker');
    // An engine with bus subscribers: a message above depth 8 reaches none of them either.
    const listener = await openEngine({ watch: false, nats: { servers: server.url } });
    const heard = collectBus(listener, 'prx.*');
    const nc = await connect({ servers: server.url });
    clients.push(nc);
    const claims: Array<[string, string | undefined]> = [
      ['missing', undefined],
      ['garbage', 'deep'],
      ['zero', '0'],
      ['negative', '-7'],
      ['nine', '9'],
      ['million', '1000000'],
      ['huge', '99999999999999999999'],
    ];
    for (const [session, claim] of claims) {
      const h = headers();
      if (claim !== undefined) h.set(DEPTH_HEADER, claim);
      const envelope = {
        event: 'tool_call',
        timestamp: new Date().toISOString(),
        session_id: session,
        payload: TOOL_CALL,
      };
      nc.publish('prx.lifecycle.tool_call', JSON.stringify(envelope), { headers: h });
    }
    await nc.flush();
    await waitFor(async () => (await droppedForDepth(metrics)) === 3, 'three drops for depth');
    await waitFor(() => lines(log).length === 4, 'four runs');
    expect(lines(log).sort()).toEqual(['garbage 1', 'missing 1', 'negative 1', 'zero 1']);
    await waitFor(() => listener.metrics.droppedCount('depth') === 3, "the listener's three drops");
    await listener.bus.flush();
    expect(heard.map((m) => [sessionOf(m.payload), m.depth]).sort()).toEqual([
      ['garbage', 1],
      ['missing', 1],
      ['negative', 1],
      ['zero', 1],
    ]);
  }, 30_000);
});
