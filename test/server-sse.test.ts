import http from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createHookEngine } from '../src/engine.ts';
import type { HookEngine } from '../src/engine-api.ts';
import { silentLogger } from '../src/records/logger.ts';
import { createApp, type HookwerkApp } from '../src/server/app.ts';
import type { SseOptions } from '../src/server/sse.ts';
import { sleep, tempDir, waitFor } from './helpers.ts';
import { serveApp } from './server-harness.ts';

// [P-API-4] GET /api/events/stream: bus messages as Server-Sent Events, read by a real HTTP
// client from a real server on 127.0.0.1.

const TOKEN = 'sse-token-0123456789abcdef';
const AUTH = { authorization: `Bearer ${TOKEN}` };
const TOOL_CALL = { tool: 'shell', success: true, output: 'ok' };

interface Harness {
  url: string;
  engine: HookEngine;
  app: HookwerkApp;
  post(route: string, body: unknown): Promise<number>;
  stop(): Promise<void>;
}

interface SseEvent {
  event: string;
  // biome-ignore lint/suspicious/noExplicitAny: parsed JSON, checked field by field.
  data: any;
}

interface SseClient {
  status: number;
  headers: http.IncomingHttpHeaders;
  events: SseEvent[];
  comments: string[];
  ended: boolean;
  close(): void;
}

interface RawStream {
  socket: net.Socket;
  closed: boolean;
}

const harnesses: Harness[] = [];
const clients: SseClient[] = [];
const raws: RawStream[] = [];

afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  for (const r of raws.splice(0)) r.socket.destroy();
  for (const h of harnesses.splice(0)) await h.stop();
});

async function start(sse?: SseOptions): Promise<Harness> {
  const dir = tempDir('hw-sse-');
  const engine = await createHookEngine({ workspace: dir, logger: silentLogger, watch: false });
  const app = createApp({ engine, token: TOKEN, logger: silentLogger, ...(sse ? { sse } : {}) });
  const { url, stop } = await serveApp(engine, app);
  const h: Harness = {
    url,
    engine,
    app,
    async post(route, body) {
      const res = await fetch(url + route, { method: 'POST', headers: AUTH, body: JSON.stringify(body) });
      await res.arrayBuffer();
      return res.status;
    },
    stop,
  };
  harnesses.push(h);
  return h;
}

/** Opens the stream with node:http and parses frames as they arrive. */
function connect(url: string, query = '', headers: Record<string, string> = AUTH): Promise<SseClient> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${url}/api/events/stream${query}`, { headers });
    req.on('error', (err) => {
      if (!client.ended) reject(err);
    });
    const client: SseClient = {
      status: 0,
      headers: {},
      events: [],
      comments: [],
      ended: false,
      close: () => req.destroy(),
    };
    clients.push(client);
    req.on('response', (res) => {
      client.status = res.statusCode ?? 0;
      client.headers = res.headers;
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          parseBlock(block, client);
        }
      });
      res.on('end', () => {
        client.ended = true;
      });
      res.on('close', () => {
        client.ended = true;
      });
      resolve(client);
    });
    req.end();
  });
}

/**
 * A stream request on a raw socket that never reads its answer (paused at once): the kernel
 * buffers fill, then the server's. Resolves once connected.
 */
function rawStream(url: string, pattern: string): Promise<RawStream> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1');
    const raw: RawStream = { socket, closed: false };
    raws.push(raw);
    socket.pause();
    socket.on('error', () => {});
    socket.on('close', () => {
      raw.closed = true;
    });
    socket.on('data', () => {}); // read only once resume() is called
    socket.pause();
    socket.once('connect', () => {
      socket.write(
        `GET /api/events/stream?topic=${encodeURIComponent(pattern)} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TOKEN}\r\n\r\n`,
      );
      resolve(raw);
    });
    socket.once('error', reject);
  });
}

function parseBlock(block: string, into: { events: SseEvent[]; comments: string[] }): void {
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) into.comments.push(line.slice(1).trim());
    else if (line.startsWith('event: ')) event = line.slice(7);
    else if (line.startsWith('data: ')) data.push(line.slice(6));
  }
  if (data.length > 0) into.events.push({ event, data: JSON.parse(data.join('\n')) });
}

describe('[P-API-4] GET /api/events/stream', () => {
  it('[P-API-4] [P-BUS-1] [P-BUS-2] streams prx.lifecycle.* messages for events sent through the API', async () => {
    const h = await start();
    const client = await connect(h.url);
    expect(client.status).toBe(200);
    expect(client.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(client.headers['cache-control']).toMatch(/no-cache/);
    await waitFor(() => client.comments.includes('subscribed to *'), 'the subscribed comment');

    expect(
      await h.post('/api/events', {
        event: 'tool_call_start',
        session_id: 's1',
        payload: { tool: 'shell', arguments: { cmd: 'ls' } },
      }),
    ).toBe(202);
    expect(await h.post('/api/events', { event: 'tool_call', session_id: 's1', payload: TOOL_CALL })).toBe(
      202,
    );
    await waitFor(() => client.events.length >= 2, 'two messages');
    expect(client.events.map((e) => e.event)).toEqual([
      'prx.lifecycle.tool_call_start',
      'prx.lifecycle.tool_call',
    ]);
    const msg = client.events[1]!;
    expect(msg.data).toEqual({
      topic: 'prx.lifecycle.tool_call',
      depth: 1,
      payload: {
        event: 'tool_call',
        timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        session_id: 's1',
        payload: TOOL_CALL,
      },
    });

    // X-Hook-Depth travels into the message's depth too [P-BUS-4].
    const res = await fetch(`${h.url}/api/events`, {
      method: 'POST',
      headers: { ...AUTH, 'x-hook-depth': '2' },
      body: JSON.stringify({ event: 'turn_complete' }),
    });
    expect(res.status).toBe(202);
    await waitFor(() => client.events.length >= 3, 'the third message');
    expect(client.events[2]!.data).toMatchObject({ topic: 'prx.lifecycle.turn_complete', depth: 3 });
  });

  it('[P-API-4] [P-BUS-2] the topic filter is honoured: an exact topic gets only that event', async () => {
    const h = await start();
    const exact = await connect(h.url, '?topic=prx.lifecycle.tool_call');
    const lifecycle = await connect(h.url, `?topic=${encodeURIComponent('prx.lifecycle.*')}`);
    const runs = await connect(h.url, '?topic=hookwerk.run.*');
    await waitFor(() => [exact, lifecycle, runs].every((c) => c.comments.length > 0), 'all three subscribed');
    await h.post('/api/hooks', { event: 'tool_call', action: { command: '/bin/true' } });

    await h.post('/api/events', { event: 'agent_start', payload: { agent: 'a', session: 's' } });
    await h.post('/api/events', { event: 'tool_call', payload: TOOL_CALL });
    await h.post('/api/events', { event: 'turn_complete', payload: {} });
    await waitFor(() => lifecycle.events.length >= 3, 'the lifecycle messages');
    await waitFor(() => exact.events.length >= 1 && runs.events.length >= 1, 'the filtered messages');
    await h.engine.drain();
    await sleep(100);
    expect(lifecycle.events.map((e) => e.event)).toEqual([
      'prx.lifecycle.agent_start',
      'prx.lifecycle.tool_call',
      'prx.lifecycle.turn_complete',
    ]);
    // agent_start was published first: had the filter let it through it would come first.
    expect(exact.events.map((e) => e.event)).toEqual(['prx.lifecycle.tool_call']);
    expect(runs.events.map((e) => e.event)).toEqual(['hookwerk.run.ok']);
    expect(runs.events[0]!.data.payload).toMatchObject({
      hook: 'hook_01',
      event: 'tool_call',
      outcome: 'ok',
    });
  });

  it('[P-API-4] the bus subscription ends when the client disconnects (count back to baseline)', async () => {
    const h = await start();
    const baseline = h.engine.bus.subscriptionCount();
    const a = await connect(h.url);
    const b = await connect(h.url, '?topic=prx.*');
    const c = await connect(h.url, '?topic=prx.lifecycle.error');
    expect(h.engine.bus.subscriptionCount()).toBe(baseline + 3);
    expect(h.app.streams.clients).toBe(3);
    const metrics = await (await fetch(`${h.url}/metrics`, { headers: AUTH })).text();
    expect(metrics).toMatch(/^sse_clients 3$/m);

    a.close();
    await waitFor(() => h.engine.bus.subscriptionCount() === baseline + 2, 'one subscription gone');
    b.close();
    c.close();
    await waitFor(() => h.engine.bus.subscriptionCount() === baseline, 'back to the baseline');
    expect(h.app.streams.clients).toBe(0);
    // Publishing after the disconnects reaches nobody and breaks nothing.
    expect(await h.post('/api/events', { event: 'tool_call', payload: TOOL_CALL })).toBe(202);
    await h.engine.drain();
  });

  it('[P-API-4] an invalid pattern or two patterns → 400 JSON, nothing subscribed; no token → 401', async () => {
    const h = await start();
    const baseline = h.engine.bus.subscriptionCount();
    for (const query of ['?topic=prx.*.x', '?topic=a..b', '?topic=', '?topic=prx*', '?topic=a&topic=b']) {
      const res = await fetch(`${h.url}/api/events/stream${query}`, { headers: AUTH });
      expect(res.status, query).toBe(400);
      const body = (await res.json()) as { issues: Array<{ path: string }> };
      expect(body.issues[0]!.path).toBe('topic');
    }
    const anon = await connect(h.url, '', {});
    expect(anon.status).toBe(401);
    expect(h.engine.bus.subscriptionCount()).toBe(baseline);
  });

  it('[P-API-4] a heartbeat comment keeps idle streams alive', async () => {
    const h = await start({ heartbeatMs: 50 });
    const client = await connect(h.url);
    await waitFor(() => client.comments.filter((c) => c === 'keep-alive').length >= 2, 'two heartbeats');
    expect(client.events).toEqual([]);
  });

  it('[P-API-4] issue 11: a client more than maxBufferedBytes behind is disconnected and counted; the others go on', async () => {
    const h = await start({ maxBufferedBytes: 4096 });
    const baseline = h.engine.bus.subscriptionCount();
    // app.request(): the stream is pulled only when this test reads, so the client is as slow as we like.
    const res = await h.app.request('/api/events/stream?topic=prx.lifecycle.tool_call', { headers: AUTH });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    expect(decoder.decode((await reader.read()).value)).toBe(': subscribed to prx.lifecycle.tool_call\n\n');
    const reading = await connect(h.url, '?topic=prx.lifecycle.tool_call');
    await waitFor(() => reading.comments.length > 0, 'the reading client subscribed');

    // ~1 KiB frames: the fourth one no longer fits the slow client's 4 KiB.
    for (let i = 0; i < 3; i++) {
      h.engine.emit('tool_call', { ...TOOL_CALL, output: `${i}`.padEnd(1000, '.') });
      await h.engine.bus.flush();
      expect(h.app.streams.bufferedBytes).toBeLessThanOrEqual(2 * 4096);
      await waitFor(() => reading.events.length === i + 1, 'the reading client to keep up');
    }
    expect(h.app.streams.droppedSlow).toBe(0);
    h.engine.emit('tool_call', { ...TOOL_CALL, output: 'the last straw'.padEnd(1000, '.') });
    await h.engine.bus.flush();
    expect(h.app.streams.droppedSlow).toBe(1);
    expect(h.app.streams.clients).toBe(1);
    expect(h.engine.bus.subscriptionCount()).toBe(baseline + 1);

    // What it missed is gone with it: its stream just ends.
    expect(await reader.read()).toEqual({ done: true, value: undefined });
    await waitFor(() => reading.events.length === 4, 'all four messages at the reading client');
    h.engine.emit('tool_call', { ...TOOL_CALL, output: 'after' });
    await waitFor(() => reading.events.length === 5, 'the reading client still served');
    expect(reading.ended).toBe(false);

    const metrics = await (await h.app.request('/metrics', { headers: AUTH })).text();
    expect(metrics).toMatch(/^sse_clients_dropped_total\{reason="slow"\} 1$/m);
    expect(metrics).toMatch(/^sse_clients_dropped_total\{reason="limit"\} 0$/m);
    expect(metrics).toMatch(/^sse_clients 1$/m);
  });

  // The attack of issue 11: clients that never read, large events. Before, every such client held
  // everything published since it stopped reading (1.3 GB for 20 clients).
  it('[P-API-4] issue 11: 3 clients that never read + 60 KB events: held bytes stay under 1 MiB a client, each is cut off and counted, a reading client gets everything', async () => {
    const h = await start();
    const baseline = h.engine.bus.subscriptionCount();
    const bound = h.app.streams.maxBufferedBytes;
    expect(bound).toBe(1024 * 1024);
    const slow = await Promise.all([0, 1, 2].map(() => rawStream(h.url, 'prx.lifecycle.tool_call')));
    const reading = await connect(h.url, '?topic=prx.lifecycle.tool_call');
    await waitFor(() => h.app.streams.clients === 4 && reading.comments.length > 0, 'four streams open');

    const big = 'x'.repeat(60_000);
    let sent = 0;
    let most = 0;
    // Rounds of 6 events (~360 KB; two rounds are under one client's bound), each read by the
    // reading client before the next: it never falls behind, while the others never read at all.
    for (let round = 0; h.app.streams.droppedSlow < 3; round++) {
      expect(round, 'rounds before the slow clients were cut off').toBeLessThan(400);
      for (let i = 0; i < 6; i++) h.engine.emit('tool_call', { ...TOOL_CALL, output: `${sent++}${big}` });
      await h.engine.bus.flush();
      most = Math.max(most, h.app.streams.bufferedBytes);
      expect(h.app.streams.bufferedBytes).toBeLessThanOrEqual(h.app.streams.clients * bound);
      await waitFor(() => reading.events.length === sent, `the reading client to get ${sent} messages`);
    }
    expect(most).toBeGreaterThan(bound); // the slow clients did fill their buffers
    expect(h.app.streams.droppedSlow).toBe(3);
    expect(h.app.streams.clients).toBe(1);
    expect(h.engine.bus.subscriptionCount()).toBe(baseline + 1);
    const metrics = await (await fetch(`${h.url}/metrics`, { headers: AUTH })).text();
    expect(metrics).toMatch(/^sse_clients_dropped_total\{reason="slow"\} 3$/m);

    // The server ended those connections: once a cut-off client reads again, it reaches the end.
    for (const s of slow) s.socket.resume();
    await waitFor(() => slow.every((s) => s.closed), 'the cut-off connections to end');

    h.engine.emit('tool_call', { ...TOOL_CALL, output: 'still here' });
    await waitFor(() => reading.events.length === sent + 1, 'the reading client still served');
    expect(reading.events.at(-1)!.data.payload.payload.output).toBe('still here');
    expect(
      reading.events.map((e) => Number.parseInt(e.data.payload.payload.output, 10)).slice(0, sent),
    ).toEqual([...Array(sent).keys()]);
  });

  it('[P-API-4] issue 11: at maxClients open streams one more is refused with 503 JSON and counted', async () => {
    const h = await start({ maxClients: 2 });
    const baseline = h.engine.bus.subscriptionCount();
    const a = await connect(h.url);
    const b = await connect(h.url, '?topic=prx.*');
    expect([a.status, b.status]).toEqual([200, 200]);

    const res = await fetch(`${h.url}/api/events/stream`, { headers: AUTH });
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(await res.json()).toEqual({ error: 'too many event streams open (limit 2); retry later' });
    expect(h.engine.bus.subscriptionCount()).toBe(baseline + 2);
    const metrics = await (await fetch(`${h.url}/metrics`, { headers: AUTH })).text();
    expect(metrics).toMatch(/^sse_clients_dropped_total\{reason="limit"\} 1$/m);
    expect(metrics).toMatch(/^sse_clients 2$/m);

    // A closed stream frees its place.
    a.close();
    await waitFor(() => h.app.streams.clients === 1, 'one stream closed');
    const c = await connect(h.url);
    expect(c.status).toBe(200);
  });

  it('[P-API-4] closeStreams() (graceful shutdown) ends every open stream and unsubscribes it', async () => {
    const h = await start();
    const baseline = h.engine.bus.subscriptionCount();
    const a = await connect(h.url);
    const b = await connect(h.url, '?topic=hookwerk.*');
    expect(h.engine.bus.subscriptionCount()).toBe(baseline + 2);
    h.app.closeStreams();
    expect(h.engine.bus.subscriptionCount()).toBe(baseline);
    await waitFor(() => a.ended && b.ended, 'both streams to end');
  });
});
