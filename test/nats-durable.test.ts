// Issue 12, durable mode (at least once) and operations: real nats-server (JetStream, file store),
// real workers started from the CLI, real hook processes writing real files. One server per test:
// a durable consumer starts at the stream's first message, so tests must not share a stream.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BusMessage } from '../src/bus/memory-bus.ts';
import { createHookEngine } from '../src/engine.ts';
import type { HookEngine } from '../src/engine-api.ts';
import { EVENTS_STREAM } from '../src/nats/event-stream.ts';
import { silentLogger } from '../src/records/logger.ts';
import type { RunRecord } from '../src/records/run-record.ts';
import { type CliProcess, startCli } from './cli-process.ts';
import { runCli } from './cli-runner.ts';
import { collectBus } from './engine-harness.ts';
import { processAlive, tempDir, waitFor, writeHooks, writeScript } from './helpers.ts';
import { type NatsServer, startNatsServer } from './nats-server.ts';

const TOOL_CALL = { tool: 'Bash', success: true, output: 'ok' };

/**
 * The hook every worker runs: `hook.sh LOG WORKER MODE`. It appends `start WORKER SESSION PID`,
 * then (MODE `block`, session starting with `block`) becomes `sleep 600` under the same pid,
 * else (after 0.2 s for a session starting with `slow`) appends `done WORKER SESSION`.
 */
const HOOK = `#!/bin/sh
echo "start $2 $ZERO_HOOK_SESSION $$" >> "$1"
case "$ZERO_HOOK_SESSION" in
  block*) if [ "$3" = block ]; then exec sleep 600; fi ;;
  slow*) sleep 0.2 ;;
esac
echo "done $2 $ZERO_HOOK_SESSION" >> "$1"
`;

let server: NatsServer;
let home: string;
let dir: string;
let log: string;
const engines: HookEngine[] = [];
const workers: CliProcess[] = [];

beforeEach(async () => {
  server = await startNatsServer();
  home = tempDir('hw-nats-home-');
  dir = tempDir('hw-nats-durable-');
  log = path.join(dir, 'runs.log');
  writeFileSync(log, '');
  writeScript(dir, 'hook.sh', HOOK);
});

afterEach(async () => {
  await Promise.all(engines.splice(0).map((e) => e.close()));
  const started = workers.splice(0);
  await Promise.all(started.map((w) => w.stop('SIGKILL')));
  const serverPid = server.pid;
  await server.cleanup();
  // Nothing a test started outlives it: workers, their launchers' hooks, the server.
  const pids = [...started.map((w) => w.pid), ...hookPids(), serverPid];
  await waitFor(
    () => pids.every((pid) => !processAlive(pid)),
    `processes ${pids.join(', ')} to be gone`,
    10_000,
  );
});

/** Live processes whose process group is `pgid` (a hook runs in a group of its own). */
function groupMembers(pgid: number): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] !== 'Z' && Number(fields[2]) === pgid) found.push(Number(name));
    } catch {
      // exited meanwhile
    }
  }
  return found;
}

interface LogLine {
  what: 'start' | 'done';
  worker: string;
  session: string;
  pid?: number;
}

function readLog(): LogLine[] {
  if (!existsSync(log)) return [];
  return readFileSync(log, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => {
      const [what, worker, session, pid] = l.split(' ');
      return {
        what: what as LogLine['what'],
        worker: worker ?? '',
        session: session ?? '',
        ...(pid !== undefined ? { pid: Number(pid) } : {}),
      };
    });
}

function hookPids(): number[] {
  return readLog().flatMap((l) => (l.pid !== undefined ? [l.pid] : []));
}

/** Sessions with a `done` line, and how often each was run to the end. */
function doneCounts(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const l of readLog()) if (l.what === 'done') counts.set(l.session, (counts.get(l.session) ?? 0) + 1);
  return counts;
}

/** A workspace whose `tool_call` hook is hook.sh with this worker tag and mode. */
function workspace(tag: string, mode: 'block' | 'run' = 'run'): string {
  const ws = path.join(dir, `ws-${tag}`);
  mkdirSync(ws, { recursive: true });
  writeHooks(ws, {
    tool_call: [{ command: path.join(dir, 'hook.sh'), args: [log, tag, mode], timeout_ms: 120_000 }],
  });
  return ws;
}

/** `hookwerk worker --durable` on `ws`; resolves once it printed `ready`. */
async function startWorker(name: string, ws: string, extra: string[] = []): Promise<CliProcess> {
  const w = startCli(
    ['worker', '--nats', server.url, '--workspace', ws, '--durable', '--name', name, ...extra],
    // Payload files in a folder of the test: a worker SIGKILLed mid-run cannot remove its own.
    { home, env: { XDG_RUNTIME_DIR: tempDir('hw-nats-run-') } },
  );
  workers.push(w);
  await w.waitForOutput(/^ready$/m, 20_000);
  return w;
}

/** An agent that only publishes, durably (`runLocally: false`), and sees the bus of the fleet. */
async function agent(extra: Record<string, unknown> = {}): Promise<HookEngine> {
  const e = await createHookEngine({
    watch: false,
    plugins: false,
    logger: silentLogger,
    shutdownGraceMs: 3000,
    nats: { servers: server.url, durable: true, runLocally: false, name: 'agent', ...extra },
  });
  engines.push(e);
  return e;
}

function records(got: BusMessage[]): RunRecord[] {
  return got.map((m) => m.payload as RunRecord);
}

/** The stream and the durable consumer of queue `hookwerk`, as the server reports them. */
async function streamState(): Promise<{
  messages: number;
  ackPending: number;
  pending: number;
  delivered: number;
  ackFloor: number;
}> {
  const nc = await connect({ servers: server.url });
  try {
    const jsm = await jetstreamManager(nc);
    const stream = await jsm.streams.info(EVENTS_STREAM);
    const consumer = await jsm.consumers.info(EVENTS_STREAM, 'hookwerk_hookwerk');
    return {
      messages: stream.state.messages,
      ackPending: consumer.num_ack_pending,
      pending: consumer.num_pending,
      delivered: consumer.delivered.stream_seq,
      ackFloor: consumer.ack_floor.stream_seq,
    };
  } finally {
    await nc.close();
  }
}

function emitMany(e: HookEngine, prefix: string, from: number, to: number): string[] {
  const sessions: string[] = [];
  for (let i = from; i < to; i++) {
    const session = `${prefix}${i}`;
    sessions.push(session);
    e.emit('tool_call', TOOL_CALL, { sessionId: session, eventId: `id-${session}` });
  }
  return sessions;
}

/** Waits until every one of `sessions` was run to the end at least once; names the missing on failure. */
async function allDone(sessions: string[], timeoutMs: number): Promise<Map<string, number>> {
  const missing = () => {
    const counts = doneCounts();
    return sessions.filter((s) => (counts.get(s) ?? 0) === 0);
  };
  try {
    await waitFor(() => missing().length === 0, 'every event to run', timeoutMs);
    return doneCounts();
  } catch (err) {
    throw new Error(`${(err as Error).message}; never run: ${missing().join(' ')}`);
  }
}

describe('[N-DUR-1] durable delivery', () => {
  it('[N-DUR-1] SIGKILL of a worker mid-run: its event runs on the other worker after the ack wait, nothing is lost, its hook dies with it', async () => {
    const ag = await agent();
    const runs = collectBus(ag, 'hookwerk.run.*');
    const a = await startWorker('A', workspace('A', 'block'), ['--ack-wait-ms', '1000']);
    ag.emit('tool_call', TOOL_CALL, { sessionId: 'block-victim', eventId: 'victim' });
    const victim = await waitFor(
      () => readLog().find((l) => l.what === 'start' && l.worker === 'A' && l.session === 'block-victim'),
      'worker A to start the victim hook',
      10_000,
    );
    const victimPid = victim?.pid ?? 0;
    expect(victimPid).toBeGreaterThan(0);
    expect(processAlive(victimPid)).toBe(true);

    await startWorker('B', workspace('B'), ['--ack-wait-ms', '1000']);
    // More events while both work: some land on A (and finish there, or wait in its buffer).
    const others = emitMany(ag, 'e', 0, 20);
    await waitFor(() => doneCounts().size >= 5, 'a few events to be run', 10_000);

    a.child.kill('SIGKILL');
    expect(await a.exit).toEqual({ code: null, signal: 'SIGKILL' });
    // The hook the launcher ran for A is gone with A: its process and its whole group.
    await waitFor(
      () => !processAlive(victimPid) && groupMembers(victimPid).length === 0,
      'the victim hook to die',
      10_000,
    );

    const counts = await allDone(['block-victim', ...others], 20_000);
    // Each event has at least one completed run (at least once); the victim's ran on B.
    expect(counts.size).toBe(21);
    const victimDone = readLog().filter((l) => l.what === 'done' && l.session === 'block-victim');
    expect(victimDone.length).toBeGreaterThanOrEqual(1);
    expect(victimDone.every((l) => l.worker === 'B')).toBe(true);
    // The agent saw B's record of it (records carry the worker's name), and none of A.
    await waitFor(
      () =>
        records(runs).some((r) => r.sessionId === 'block-victim' && r.worker === 'B' && r.outcome === 'ok'),
      "B's run record of the victim on the agent's bus",
      10_000,
    );
    expect(records(runs).filter((r) => r.sessionId === 'block-victim' && r.worker === 'A')).toEqual([]);
    // Every event has an ok record on the agent's bus: a run A finished but did not record and
    // acknowledge before it died was delivered again and recorded by B.
    await waitFor(
      () => others.every((s) => records(runs).some((r) => r.sessionId === s && r.outcome === 'ok')),
      'an ok run record of every event',
      10_000,
    );
  }, 45_000);

  it('[N-DUR-1] the same eventId twice within the duplicate window is stored and run once (library emit and emit --event-id)', async () => {
    const ag = await agent();
    await startWorker('W', workspace('W'));
    // Same id, different content: the second is dropped by id, not by content.
    ag.emit('tool_call', TOOL_CALL, { sessionId: 'dup-lib-first', eventId: 'evt-lib' });
    ag.emit('tool_call', TOOL_CALL, { sessionId: 'dup-lib-second', eventId: 'evt-lib' });
    await waitFor(() => doneCounts().has('dup-lib-first'), 'the first library emit to run', 10_000);

    const cli = (session: string) =>
      runCli(
        [
          'emit',
          'tool_call',
          '--nats',
          server.url,
          '--durable',
          '--event-id',
          'evt-cli',
          '--session',
          session,
          '--payload',
          JSON.stringify(TOOL_CALL),
        ],
        { home },
      );
    const first = await cli('dup-cli-first');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^stored: prx\.lifecycle\.tool_call seq 2 id evt-cli$/m);
    const second = await cli('dup-cli-second');
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/^duplicate: prx\.lifecycle\.tool_call seq 2 id evt-cli$/m);

    ag.emit('tool_call', TOOL_CALL, { sessionId: 'dup-last', eventId: 'evt-last' });
    await waitFor(() => doneCounts().has('dup-last'), 'the last event to run', 10_000);
    // Everything the stream holds was delivered and acknowledged (ack after the record, after the
    // hook wrote its line): what did not run by now was never stored.
    const state = await waitFor(
      async () => {
        const s = await streamState();
        return s.ackPending === 0 && s.pending === 0 && s.delivered === s.messages ? s : undefined;
      },
      'the consumer to acknowledge every stored event',
      10_000,
    );
    expect(state?.messages).toBe(3);
    expect(Object.fromEntries(doneCounts())).toEqual({
      'dup-lib-first': 1,
      'dup-cli-first': 1,
      'dup-last': 1,
    });
  }, 30_000);

  it('[N-DUR-1] an event whose runs never complete goes to hookwerk.dead.<event> with the envelope and deliveries = maxDeliver', async () => {
    const ag = await agent();
    const dead = collectBus(ag, 'hookwerk.dead.*');
    ag.emit(
      'tool_call',
      { ...TOOL_CALL, output: 'poison' },
      { sessionId: 'block-poison', eventId: 'poison' },
    );
    // Each worker takes the event, its hook hangs, the worker is stopped (SIGTERM, short grace):
    // the cut-short run is not acknowledged, so the event goes to the next worker. After
    // maxDeliver = 2 deliveries, the next delivery is not run but published as a dead letter.
    const ws = workspace('P', 'block');
    const starts = () => readLog().filter((l) => l.what === 'start').length;
    for (let i = 1; dead.length === 0; i++) {
      expect(i, 'dead letter after a few workers').toBeLessThanOrEqual(6);
      const before = starts();
      const w = await startWorker(`P${i}`, ws, [
        '--max-deliver',
        '2',
        '--ack-wait-ms',
        '500',
        '--shutdown-grace-ms',
        '200',
      ]);
      await waitFor(() => starts() > before || dead.length > 0, `worker P${i} to take the event`, 10_000);
      expect(await w.stop('SIGTERM')).toBe(0);
    }
    expect(dead).toHaveLength(1);
    expect(dead[0]?.topic).toBe('hookwerk.dead.tool_call');
    expect(dead[0]?.payload).toEqual({
      event: 'tool_call',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      session_id: 'block-poison',
      payload: { ...TOOL_CALL, output: 'poison' },
      deliveries: 2,
    });
    // Terminated: acknowledged for good (ack floor past it), nothing pending, nothing redelivered.
    const state = await streamState();
    expect(state).toMatchObject({ messages: 1, ackPending: 0, pending: 0, ackFloor: 1 });
    expect(readLog().filter((l) => l.what === 'done')).toEqual([]);
  }, 45_000);

  it('[N-WORK-1, N-DUR-1] SIGTERM: the worker finishes its running hook and exits 0; events it held but did not run go to another worker', async () => {
    const ag = await agent();
    // One hook at a time and no queue: the worker holds the running event and one more.
    const w1 = await startWorker('T1', workspace('T1'), ['--max-concurrent', '1', '--max-queue', '0']);
    const sessions = emitMany(ag, 'slow', 0, 10);
    await waitFor(() => doneCounts().size >= 1, 'the first event to run', 10_000);
    expect(await w1.stop('SIGTERM')).toBe(0);
    const byT1 = readLog().filter((l) => l.worker === 'T1');
    // Every hook T1 started, it let finish.
    expect(byT1.filter((l) => l.what === 'done').length).toBe(byT1.filter((l) => l.what === 'start').length);
    await startWorker('T2', workspace('T2'), ['--ack-wait-ms', '1000']);
    const counts = await allDone(sessions, 20_000);
    expect(counts.size).toBe(10);
  }, 45_000);
});

describe('[N-OPS-1, N-CONN-1] reconnecting', () => {
  it('[N-OPS-1] nats-server restarted mid-stream: workers reconnect (same processes) and every durable event runs', async () => {
    const ag = await agent();
    const a = await startWorker('A', workspace('A'));
    const b = await startWorker('B', workspace('B'));
    const sessions = emitMany(ag, 's', 0, 100);
    await waitFor(() => doneCounts().size >= 20, 'the stream to be flowing', 20_000);
    const oldServer = server.pid;
    const restarted = server.restart();
    sessions.push(...emitMany(ag, 's', 100, 150)); // while the server goes down and comes back
    await restarted;
    expect(server.pid).not.toBe(oldServer);
    sessions.push(...emitMany(ag, 's', 150, 200));

    const counts = await allDone(sessions, 40_000);
    expect(counts.size).toBe(200);
    // Both workers lived through it (same processes) and said they reconnected.
    for (const w of [a, b]) {
      expect(processAlive(w.pid)).toBe(true);
      await w.waitForOutput(/nats: reconnected to /, 10_000);
    }
  }, 60_000);

  it('[N-CONN-1] durable emits made while the server is down wait in the agent and are run once it is back', async () => {
    const ag = await agent();
    const w = await startWorker('W', workspace('W'));
    await server.stop();
    await waitFor(() => ag.nats?.connected === false, 'the agent to see the disconnect', 10_000);
    const sessions = emitMany(ag, 'offline', 0, 20); // emit() stays synchronous and does not throw
    expect(ag.nats?.connected).toBe(false);
    await server.restart();
    await allDone(sessions, 20_000);
    expect(ag.metrics.droppedCount('nats_queue_full')).toBe(0);
    expect(processAlive(w.pid)).toBe(true);
    await w.waitForOutput(/nats: reconnected to /, 10_000);
  }, 45_000);
});

describe('[N-OPS-1] worker metrics', () => {
  it('[N-OPS-1] worker --metrics-port 0 serves /metrics on the port it prints, labelled worker="NAME"', async () => {
    const ag = await agent();
    const w = await startWorker('metrics-w1', workspace('M'), ['--metrics-port', '0']);
    const url = /metrics on (http:\/\/127\.0\.0\.1:\d+\/metrics)/.exec(w.stderr())?.[1];
    expect(url).toBeDefined();
    ag.emit('tool_call', TOOL_CALL, { sessionId: 'metered', eventId: 'metered' });
    await allDone(['metered'], 10_000);
    const res = await fetch(url!);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toMatch(/^hook_runs_total\{(?=[^}]*outcome="ok")(?=[^}]*worker="metrics-w1")[^}]*\} 1$/m);
    expect(text).not.toMatch(/\{(?![^}]*worker="metrics-w1")[^}]*\} \d/);
  }, 30_000);
});
