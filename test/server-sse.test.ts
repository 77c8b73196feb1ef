import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createHookEngine, type HookEngine } from '../src/engine.ts';
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

const harnesses: Harness[] = [];
const clients: SseClient[] = [];

afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
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

  it('[P-API-4] a slow client is bounded: beyond its buffer messages are dropped, counted and announced', async () => {
    const h = await start({ maxBuffered: 5 });
    const baseline = h.engine.bus.subscriptionCount();
    // app.request(): the stream is pulled only when this test reads, so the client is as slow as we like.
    const res = await h.app.request('/api/events/stream?topic=prx.lifecycle.tool_call', { headers: AUTH });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = decoder.decode((await reader.read()).value);
    expect(text).toBe(': subscribed to prx.lifecycle.tool_call\n\n');

    for (let i = 0; i < 20; i++) h.engine.emit('tool_call', { ...TOOL_CALL, output: `n${i}` });
    await h.engine.bus.flush();
    expect(h.app.streams.dropped).toBe(15);

    text = '';
    while (!text.includes('hookwerk.sse.dropped')) text += decoder.decode((await reader.read()).value);
    const parsed = { events: [] as SseEvent[], comments: [] as string[] };
    for (const block of text.split('\n\n').filter(Boolean)) parseBlock(block, parsed);
    expect(parsed.events.map((e) => e.data.payload?.payload?.output ?? e.data)).toEqual([
      'n0',
      'n1',
      'n2',
      'n3',
      'n4',
      { dropped: 15 },
    ]);
    expect(parsed.events[5]!.event).toBe('hookwerk.sse.dropped');

    // Caught up: new messages flow again.
    h.engine.emit('tool_call', { ...TOOL_CALL, output: 'after' });
    text = decoder.decode((await reader.read()).value);
    expect(text).toContain('"output":"after"');

    const metrics = await (await h.app.request('/metrics', { headers: AUTH })).text();
    expect(metrics).toMatch(/^sse_messages_dropped_total 15$/m);
    await reader.cancel();
    expect(h.engine.bus.subscriptionCount()).toBe(baseline);
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
