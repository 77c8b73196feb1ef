import { readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv } from './cli-runner.ts';
import { tempDir, waitFor } from './helpers.ts';
import { request, sample, spawnServe, startServe } from './serve-process.ts';

// Issue 11, connections: `hookwerk serve` must not let clients that never finish a request use up
// its file descriptors. Real serve processes (under `prlimit` where the limit matters), real
// sockets on 127.0.0.1; timeouts are injected small instead of waited for at their defaults.

interface Held {
  socket: net.Socket;
  /** What serve sent before closing (nothing when evicted at the limit, a 408 at the timeout). */
  received(): string;
  closed: Promise<void>;
}

/** A connection that sends `partial` (never a whole request) and waits; resolves once connected. */
function hold(port: number, partial = ''): Promise<Held> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    socket.setEncoding('utf8').on('data', (d: string) => {
      received += d;
    });
    // serve may reset instead of closing cleanly: only the close matters here.
    socket.on('error', () => {});
    const closed = new Promise<void>((r) => socket.once('close', () => r()));
    socket.once('connect', () => {
      socket.off('error', reject);
      if (partial !== '') socket.write(partial);
      resolve({ socket, received: () => received, closed });
    });
    socket.once('error', reject);
  });
}

/** Reads from a held connection until `pattern` shows up in what it received. */
async function until(held: Held, pattern: RegExp): Promise<void> {
  await waitFor(() => pattern.test(held.received()), `${pattern} on a held connection`);
}

function homeEnv(): NodeJS.ProcessEnv {
  return cleanEnv({ HOME: tempDir('hw-conn-home-') });
}

function tokenOf(dir: string): string {
  return readFileSync(path.join(dir, '.hookwerk', 'token'), 'utf8').trim();
}

describe('issue 11: serve bounds its connections [P-API-1]', () => {
  it('[P-API-1] issue 11: at an open-file limit of 2048, 3000 half-open connections stay below it minus the hooks reserve, are closed at the headers timeout, and hooks and an authenticated client are unaffected', async () => {
    const dir = tempDir('hw-conn-');
    const s = await startServe(
      ['--workspace', dir, '--port', '0', '--max-connections', '100000', '--headers-timeout-ms', '2000'],
      homeEnv(),
      { nofile: 2048 },
    );
    // The bound comes from the open-file limit, minus the reserve, not from the (huge) cap.
    const bound = /connections: at most (\d+) \(open-file limit 2048, (\d+) kept for hooks\)/.exec(
      s.stdout(),
    );
    expect(bound, s.stdout()).not.toBeNull();
    const [max, reserve] = [Number(bound![1]), Number(bound![2])];
    expect(reserve).toBeGreaterThanOrEqual(256);
    expect(max).toBe(2048 - reserve);
    const token = tokenOf(dir);
    const hook = await request(s.port, 'POST', '/api/hooks', token, {
      event: 'tool_call',
      // Uses the fds a hook needs: pipes, stdin, the payload file.
      action: {
        command: '/bin/sh',
        args: ['-c', 'cat "$ZERO_HOOK_PAYLOAD_FILE" > /dev/null && cat > /dev/null'],
        stdin_json: true,
      },
    });
    expect(hook.status).toBe(201);

    // 3000 connections that start a request and never finish its headers (slowloris).
    const held: Held[] = [];
    for (let i = 0; i < 3000; i += 100) {
      held.push(
        ...(await Promise.all(
          Array.from({ length: 100 }, () => hold(s.port, 'GET /api/hooks HTTP/1.1\r\nHost: x\r\n')),
        )),
      );
    }

    // An authenticated client on a new connection is answered.
    const listed = await request(s.port, 'GET', '/api/hooks', token);
    expect(listed.status).toBe(200);
    expect(JSON.parse(listed.text).hooks).toHaveLength(1);
    // The server's own count: never above the bound; every held connection not open was closed by serve.
    const during = await request(s.port, 'GET', '/metrics', token);
    const open = sample(during.text, 'http_connections_open');
    expect(open).toBeLessThanOrEqual(max);
    const closedBy = (text: string) =>
      sample(text, 'http_connections_closed_total{reason="limit"}') +
      sample(text, 'http_connections_closed_total{reason="timeout"}');
    expect(open + closedBy(during.text)).toBeGreaterThanOrEqual(3000);

    // Hooks still run: no EMFILE, no spawn_error.
    const sent = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        request(s.port, 'POST', '/api/events', token, {
          event: 'tool_call',
          session_id: `s${i}`,
          payload: { tool: 'shell', success: true, output: 'x'.repeat(100) },
        }),
      ),
    );
    expect(sent.map((r) => r.status)).toEqual(Array(20).fill(202));
    const runs = await waitFor(
      async () => {
        const r = JSON.parse((await request(s.port, 'GET', '/api/runs?limit=100', token)).text);
        return r.runs.length >= 20 ? r.runs : undefined;
      },
      '20 run records',
      20_000,
    );
    expect(runs.map((r: { outcome: string }) => r.outcome)).toEqual(Array(20).fill('ok'));

    // Every held connection is closed by serve: evicted (nothing sent) or timed out (408).
    await Promise.all(held.map((h) => h.closed));
    for (const h of held) expect(h.received()).toMatch(/^(|HTTP\/1\.1 408 Request Timeout\r\n[\s\S]*)$/);
    const after = await request(s.port, 'GET', '/metrics', token);
    expect(closedBy(after.text)).toBeGreaterThanOrEqual(3000);
    expect(sample(after.text, 'http_connections_max')).toBe(max);

    expect(await s.stop()).toEqual({ code: 0, signal: null });
    expect(s.stderr()).not.toMatch(/EMFILE/);
  }, 60_000);

  it('[P-API-1] issue 11: at the connection limit serve closes the oldest connection that has not completed a request — not a busy stream, not one that completed a request, not the newcomer', async () => {
    const dir = tempDir('hw-conn-');
    const s = await startServe(['--workspace', dir, '--port', '0', '--max-connections', '4'], homeEnv());
    expect(s.stdout()).toMatch(/^connections: at most 4[ ;]/m);
    const token = tokenOf(dir);

    // The oldest connection: an authenticated event stream, busy with its request.
    let frames = '';
    const stream = await new Promise<http.IncomingMessage>((resolve, reject) => {
      http
        .get(
          {
            host: '127.0.0.1',
            port: s.port,
            path: '/api/events/stream?topic=prx.lifecycle.*',
            agent: false,
            headers: { authorization: `Bearer ${token}` },
          },
          resolve,
        )
        .on('error', reject);
    });
    expect(stream.statusCode).toBe(200);
    stream.setEncoding('utf8').on('data', (d: string) => {
      frames += d;
    });

    // Then three silent connections, one after the other (so serve accepts them in this order).
    const h1 = await hold(s.port);
    const h2 = await hold(s.port);
    const h3 = await hold(s.port);
    // A fifth: the oldest that has not completed a request is h1 (the stream is older, but busy).
    const h4 = await hold(s.port);
    await h1.closed;
    expect(h1.received()).toBe('');

    // h2 completes a request (and stays open, keep-alive).
    h2.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    await until(h2, /\{"ok":true\}/);
    // The next newcomer closes h3: h2 is older but has completed a request.
    const h5 = await hold(s.port);
    await h3.closed;
    expect(h3.received()).toBe('');

    // The stream survived all of it: an event sent now (its connection closes h4) reaches it.
    const sent = await request(s.port, 'POST', '/api/events', token, {
      event: 'turn_complete',
      session_id: 'still-here',
      payload: {},
    });
    expect(sent.status).toBe(202);
    await h4.closed;
    await waitFor(() => frames.includes('still-here'), 'the event on the stream', 10_000);

    const metrics = await request(s.port, 'GET', '/metrics', token);
    expect(sample(metrics.text, 'http_connections_closed_total{reason="limit"}')).toBeGreaterThanOrEqual(3);
    expect(sample(metrics.text, 'http_connections_max')).toBe(4);

    for (const h of [h2, h5]) h.socket.destroy();
    expect(await s.stop()).toEqual({ code: 0, signal: null });
  });

  it('[P-API-1] issue 11: a connection that never sends a request is closed at --headers-timeout-ms with a 408, and counted', async () => {
    const dir = tempDir('hw-conn-');
    const s = await startServe(['--workspace', dir, '--port', '0', '--headers-timeout-ms', '300'], homeEnv());
    const token = tokenOf(dir);
    const silent = await hold(s.port);
    const partial = await hold(s.port, 'POST /api/events HTTP/1.1\r\nHost: x\r\n');
    await Promise.all([silent.closed, partial.closed]);
    for (const h of [silent, partial]) expect(h.received()).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    const metrics = await request(s.port, 'GET', '/metrics', token);
    expect(sample(metrics.text, 'http_connections_closed_total{reason="timeout"}')).toBe(2);
    expect(await s.stop()).toEqual({ code: 0, signal: null });
  });

  it('§3 issue 11: bad connection flags → exit 1 with one line, no stack trace', async () => {
    const dir = tempDir('hw-conn-');
    for (const [args, message] of [
      [['--max-connections', '0'], /--max-connections must be a whole number ≥ 1/],
      [['--headers-timeout-ms', 'soon'], /--headers-timeout-ms must be a whole number/],
      [
        ['--headers-timeout-ms', '5000', '--request-timeout-ms', '1000'],
        /--request-timeout-ms \(1000\) must not be below --headers-timeout-ms \(5000\)/,
      ],
    ] as const) {
      const p = spawnServe(['--workspace', dir, '--port', '0', ...args], homeEnv());
      expect((await p.exit).code, p.stderr()).toBe(1);
      expect(p.stderr()).toMatch(message);
      expect(p.stderr().trim().split('\n')).toHaveLength(1);
    }
  });
});
