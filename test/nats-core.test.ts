import net from 'node:net';
import path from 'node:path';
import { connect } from '@nats-io/transport-node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHookEngine } from '../src/engine.ts';
import type { HookEngine } from '../src/engine-api.ts';
import type { RunRecord } from '../src/records/run-record.ts';
import { startCli } from './cli-process.ts';
import { runCli, STACK } from './cli-runner.ts';
import { collectBus } from './engine-harness.ts';
import { denyingGateHome, tempDir, waitFor, writeHooks, writeScript } from './helpers.ts';
import { type NatsServer, startNatsServer } from './nats-server.ts';

let server: NatsServer;
const engines: HookEngine[] = [];

beforeAll(async () => {
  server = await startNatsServer();
});
afterAll(async () => {
  await server?.cleanup();
});
afterEach(async () => {
  await Promise.all(engines.splice(0).map((e) => e.close()));
});

async function engine(opts: Parameters<typeof createHookEngine>[0] = {}): Promise<HookEngine> {
  const e = await createHookEngine({ watch: false, plugins: false, ...opts });
  engines.push(e);
  return e;
}

function isRecord(value: unknown): value is RunRecord {
  return typeof value === 'object' && value !== null && 'hook' in value && 'outcome' in value;
}

const TOOL_CALL = { tool: 'Bash', success: true, output: 'ok' };

/** A port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const addr = srv.address();
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  if (addr === null || typeof addr !== 'object') throw new Error('no port');
  return addr.port;
}

describe('[N-CONN-1] connecting', () => {
  it('[N-CONN-1] createHookEngine rejects, naming the URL, when no server answers within connectTimeoutMs', async () => {
    const url = `nats://127.0.0.1:${await closedPort()}`;
    await expect(createHookEngine({ nats: { servers: url, connectTimeoutMs: 300 } })).rejects.toThrow(
      new RegExp(`cannot reach NATS at ${url.replace(/[.]/g, '\\.')} within 300 ms`),
    );
  });

  it('[N-CONN-1] bad nats options are a TypeError naming the field', async () => {
    await expect(createHookEngine({ nats: { servers: server.url, ackWaitMs: -1 } })).rejects.toThrow(
      /invalid option nats\.ackWaitMs/,
    );
  });

  it('[N-CONN-1] while disconnected core emits are dropped and counted (nats_disconnected), emit() stays synchronous', async () => {
    const own = await startNatsServer({ jetstream: false });
    try {
      const e = await engine({ nats: { servers: own.url } });
      await own.stop();
      await waitFor(() => e.nats?.connected === false, 'the engine to see the disconnect');
      e.emit('tool_call', TOOL_CALL);
      expect(e.metrics.droppedCount('nats_disconnected')).toBe(1);
    } finally {
      await own.cleanup();
    }
  });

  it('[N-WORK-1] emit --nats exits 1 naming the URL when no server is reachable, without a stack trace', async () => {
    const url = `nats://127.0.0.1:${await closedPort()}`;
    const r = await runCli(['emit', 'tool_call', '--nats', url, '--payload', JSON.stringify(TOOL_CALL)]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`cannot reach NATS at ${url}`);
    expect(r.stderr).not.toMatch(STACK);
  }, 20_000);
});

describe('[N-BUS-1] the bus bridge', () => {
  it('[N-BUS-1] an emit reaches local and remote subscribers exactly once each; nothing echoes back', async () => {
    const a = await engine({ nats: { servers: server.url } });
    const b = await engine({ nats: { servers: server.url } });
    const gotA = collectBus(a, 'prx.*');
    const gotB = collectBus(b, 'prx.*');
    a.emit('tool_call', TOOL_CALL, { sessionId: 'sess-bridge-1' });
    await waitFor(() => gotB.length === 1, 'the remote subscriber');
    // A round trip to the server after the message: anything echoed would have arrived by now.
    await a.nats?.flush();
    await b.nats?.flush();
    await a.bus.flush();
    await b.bus.flush();
    expect(gotA.map((m) => m.topic)).toEqual(['prx.lifecycle.tool_call']);
    expect(gotB.map((m) => m.topic)).toEqual(['prx.lifecycle.tool_call']);
    expect(gotB[0]?.payload).toMatchObject({
      event: 'tool_call',
      session_id: 'sess-bridge-1',
      payload: TOOL_CALL,
    });
  });

  it('[N-BUS-1] a message published on the bus keeps its depth across NATS (Hookwerk-Depth), and run records cross too', async () => {
    const a = await engine({ nats: { servers: server.url } });
    const b = await engine({ nats: { servers: server.url } });
    const gotB = collectBus(b, 'hookwerk.*');
    const record: RunRecord = {
      hook: 'h',
      source: 's',
      event: 'tool_call',
      outcome: 'ok',
      durationMs: 1,
      at: 'now',
    };
    a.bus.publish('hookwerk.run.ok', record, { depth: 3 });
    await waitFor(() => gotB.length === 1, 'the record on the other engine');
    expect(gotB[0]?.depth).toBe(3);
    expect(gotB[0]?.payload).toEqual(record);
  });

  it('[N-BUS-1] messages from NATS reach bus subscribers only: the receiving engine runs no hooks for them', async () => {
    const ws = tempDir('hw-nats-');
    const marker = path.join(ws, 'ran');
    writeHooks(ws, { tool_call: [{ id: 'mark', command: writeScript(ws, 'mark.sh', `touch '${marker}'`) }] });
    const a = await engine({ nats: { servers: server.url } });
    const b = await engine({ workspace: ws, nats: { servers: server.url } });
    const gotB = collectBus(b, 'prx.*');
    a.emit('tool_call', TOOL_CALL);
    await waitFor(() => gotB.length === 1, 'the remote event');
    await b.drain();
    expect(b.runs()).toEqual([]);
    b.emit('tool_call', TOOL_CALL);
    await b.drain();
    expect(b.runs().map((r) => r.outcome)).toEqual(['ok']);
  });
});

describe('[N-WORK-1] workers', () => {
  it('[N-WORK-1] 3 workers in one queue group share 3000 events: each runs exactly once, records name the worker', async () => {
    const ws = tempDir('hw-nats-');
    writeHooks(ws, { tool_call: [{ id: 'true', command: '/bin/true' }] });
    const workers = ['w1', 'w2', 'w3'].map((name) =>
      startCli(['worker', '--nats', server.url, '--workspace', ws, '--name', name, '--queue', 'share']),
    );
    await Promise.all(workers.map((w) => w.waitForOutput(/^ready$/m)));
    const agent = await engine({ nats: { servers: server.url, runLocally: false } });
    const records = collectBus(agent, 'hookwerk.run.*');
    const N = 3000;
    for (let i = 0; i < N; i++) agent.emit('tool_call', TOOL_CALL, { sessionId: `s-${i}` });
    await waitFor(() => records.length >= N, `${N} run records`, 90_000);
    const runs = records.map((m) => m.payload).filter(isRecord);
    expect(runs.every((r) => r.outcome === 'ok')).toBe(true);
    expect(new Set(runs.map((r) => r.sessionId)).size).toBe(N);
    const perWorker = new Map<string, number>();
    for (const r of runs) perWorker.set(r.worker ?? '?', (perWorker.get(r.worker ?? '?') ?? 0) + 1);
    expect([...perWorker.keys()].sort()).toEqual(['w1', 'w2', 'w3']);
    // No more than N: a late duplicate would arrive with the records' own round trip.
    await agent.nats?.flush();
    await agent.bus.flush();
    expect(records.length).toBe(N);
    expect(agent.runs()).toEqual([]); // runLocally: false
    const codes = await Promise.all(workers.map((w) => w.stop('SIGTERM')));
    expect(codes).toEqual([0, 0, 0]);
  }, 120_000);

  it('[N-WORK-1] a worker started before its server says so on stderr, retries, and is ready once the server is up', async () => {
    const port = await closedPort();
    const ws = tempDir('hw-nats-');
    writeHooks(ws, { tool_call: [{ id: 'true', command: '/bin/true' }] });
    const w = startCli(['worker', '--nats', `nats://127.0.0.1:${port}`, '--workspace', ws]);
    await w.waitForOutput(/cannot reach NATS at nats:\/\/127\.0\.0\.1:\d+.*retrying/);
    const late = await startNatsServer({ port, jetstream: false });
    try {
      await w.waitForOutput(/^ready$/m);
      expect(await w.stop('SIGTERM')).toBe(0);
    } finally {
      await late.cleanup();
    }
  }, 30_000);

  it('[N-WORK-1] worker needs --workspace or --gate: exit 1 with one line', async () => {
    const r = await runCli(['worker', '--nats', server.url]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/--workspace DIR .* or --gate/);
    expect(r.stderr).not.toMatch(STACK);
  });
});

describe('[N-GATE-1] the remote gate', () => {
  const gateHome = () => denyingGateHome('no shell here');

  it('[N-GATE-1] decide() asks a gate worker: its decision and its runs (named by the worker) come back', async () => {
    const home = gateHome();
    const project = tempDir('hw-nats-proj-');
    const w = startCli(['worker', '--nats', server.url, '--gate', '--project', project, '--name', 'gate-1'], {
      home,
    });
    await w.waitForOutput(/^ready$/m);
    const agent = await engine({ nats: { servers: server.url, remoteGate: true } });
    const denied = await agent.decide('PreToolUse', { toolName: 'Bash', toolInput: { command: 'ls' } });
    expect(denied).toMatchObject({ decision: 'deny', blocked: true, reason: 'no shell here' });
    expect(denied.runs.map((r) => [r.outcome, r.worker])).toEqual([['deny', 'gate-1']]);
    const allowed = await agent.decide('PreToolUse', { toolName: 'Read', toolInput: {} });
    expect(allowed).toMatchObject({ decision: 'allow', blocked: false });
    expect(await w.stop('SIGTERM')).toBe(0);
  }, 30_000);

  it('[N-GATE-1] no gate worker: decided at once by failMode, one record of cause no_responder', async () => {
    const open = await engine({ nats: { servers: server.url, remoteGate: true, decideTimeoutMs: 60_000 } });
    const d = await open.decide('PreToolUse', { toolName: 'Bash', toolInput: {} });
    expect(d).toMatchObject({ decision: 'allow', blocked: false });
    expect(d.runs.map((r) => [r.cause, r.failed])).toEqual([['no_responder', 'open']]);
    expect(open.runs().map((r) => r.cause)).toEqual(['no_responder']);
    const closed = await engine({
      nats: { servers: server.url, remoteGate: true, failMode: 'closed', decideTimeoutMs: 60_000 },
    });
    expect(await closed.decide('PreToolUse', { toolName: 'Bash', toolInput: {} })).toMatchObject({
      decision: 'deny',
      blocked: true,
    });
  });

  it('[N-GATE-1] a gate worker that does not answer in time: failMode decides, cause timeout', async () => {
    const silent = await connect({ servers: server.url });
    try {
      silent.subscribe('hookwerk.decide.>', { callback: () => {} });
      await silent.flush();
      const agent = await engine({
        nats: { servers: server.url, remoteGate: true, decideTimeoutMs: 200, failMode: 'closed' },
      });
      const d = await agent.decide('PreToolUse', { toolName: 'Bash', toolInput: {} });
      expect(d).toMatchObject({ decision: 'deny', blocked: true });
      expect(d.runs.map((r) => [r.outcome, r.cause, r.failed])).toEqual([['timeout', 'timeout', 'closed']]);
    } finally {
      await silent.close();
    }
  });

  it('[N-GATE-1] an answer that is not a decision counts as a failure (remote_error), never as an allow by accident', async () => {
    const liar = await connect({ servers: server.url });
    try {
      liar.subscribe('hookwerk.decide.>', {
        callback: (_e, m) => {
          m.respond('{"decision":"maybe"}');
        },
      });
      await liar.flush();
      const agent = await engine({ nats: { servers: server.url, remoteGate: true, failMode: 'closed' } });
      const d = await agent.decide('PreToolUse', { toolName: 'Bash', toolInput: {} });
      expect(d).toMatchObject({ decision: 'deny', blocked: true });
      expect(d.runs[0]?.cause).toBe('remote_error');
    } finally {
      await liar.close();
    }
  });
});
