import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { headerProblems, methodProblem, normalizeMethod, urlProblem } from '../src/runners/http-headers.ts';
import { HttpRunner } from '../src/runners/http-runner.ts';

const httpRunner = new HttpRunner();
const runHttp: HttpRunner['run'] = (spec, opts) => httpRunner.run(spec, opts);
const closeHttpPool = () => httpRunner.close();

import type { HttpSpec } from '../src/runners/http-types.ts';
import { closeHttpServers, deadPort, replyJson as json, startHttpServer } from './http-server.ts';

/** A real node:http server on 127.0.0.1 that keeps idle connections (and advertises
 * `Keep-Alive: timeout=60`): only the client may drop them. */
const startServer = (respond: Parameters<typeof startHttpServer>[0]) =>
  startHttpServer(respond, { keepAliveTimeout: 60_000 });

const EVENT = JSON.stringify({
  event: 'PreToolUse',
  context: { toolName: 'Bash', input: { command: 'ls' } },
});

function spec(url: string, extra: Partial<HttpSpec> = {}): HttpSpec {
  return { url, method: 'POST', headers: {}, body: EVENT, timeoutMs: 10_000, ...extra };
}

afterAll(async () => {
  await closeHttpPool();
  await closeHttpServers();
});

describe('[L-RUN-5] HTTP hook runner: request', () => {
  it('[L-RUN-5] returns a 2xx JSON answer with its status and body', async () => {
    const server = await startServer((_req, res) => json(res, 200, { decision: 'deny', reason: 'no' }));
    const result = await runHttp(spec(server.url));
    expect(result).toMatchObject({ reason: 'response', status: 200 });
    expect(JSON.parse(result.body)).toEqual({ decision: 'deny', reason: 'no' });
    expect(result.error).toBeUndefined();
    expect(result.durationMs).toBeGreaterThan(0);
  });

  it('[L-RUN-5] sends the event JSON as-is with content-type application/json, plus the hook headers', async () => {
    const server = await startServer((_req, res) => json(res, 200, {}));
    await runHttp(spec(server.url, { headers: { 'X-Hook-Source': 'project' } }));
    expect(server.hits).toHaveLength(1);
    const hit = server.hits[0]!;
    expect(hit.method).toBe('POST');
    expect(hit.url).toBe('/hook');
    expect(hit.body).toBe(EVENT);
    expect(hit.headers['content-type']).toBe('application/json');
    expect(hit.headers['x-hook-source']).toBe('project');
    expect(hit.headers['content-length']).toBe(String(Buffer.byteLength(EVENT)));
  });

  it('[L-RUN-5] a Content-Type set by the hook (any case) is sent instead of ours, once', async () => {
    const server = await startServer((_req, res) => json(res, 200, {}));
    await runHttp(spec(server.url, { headers: { 'CONTENT-TYPE': 'application/json; charset=utf-8' } }));
    expect(server.hits[0]!.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it.each(['PUT', 'PATCH'] as const)('[L-RUN-5] uses method %s when asked', async (method) => {
    const server = await startServer((_req, res) => json(res, 200, {}));
    const result = await runHttp(spec(server.url, { method }));
    expect(result.reason).toBe('response');
    expect(server.hits[0]!.method).toBe(method);
    expect(server.hits[0]!.body).toBe(EVENT);
  });

  it('[L-RUN-5] sends non-ASCII JSON as UTF-8', async () => {
    const server = await startServer((_req, res, hit) => json(res, 200, hit.body));
    const body = JSON.stringify({ text: 'héllo → 世界 🎉' });
    const result = await runHttp(spec(server.url, { body }));
    expect(server.hits[0]!.body).toBe(body);
    expect(result.body).toBe(body);
  });
});

describe('[L-ANS-3] HTTP hook runner: non-2xx and transport failures are reported, never thrown', () => {
  it('[L-ANS-3] a 500 is a response with status 500 and its body', async () => {
    const server = await startServer((_req, res) => json(res, 500, 'boom'));
    const result = await runHttp(spec(server.url));
    expect(result).toMatchObject({ reason: 'response', status: 500, body: 'boom' });
    expect(result.error).toBeUndefined();
  });

  it('[L-ANS-3] a 204 is a response with an empty body', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(204);
      res.end();
    });
    expect(await runHttp(spec(server.url))).toMatchObject({ reason: 'response', status: 204, body: '' });
  });

  it('[L-ANS-3] connection refused is a transport failure with the system message', async () => {
    const port = await deadPort();
    const result = await runHttp(spec(`http://127.0.0.1:${port}/hook`));
    expect(result.reason).toBe('transport');
    expect(result.status).toBeUndefined();
    expect(result.body).toBe('');
    expect(result.error).toBe(`connect ECONNREFUSED 127.0.0.1:${port}`);
  });

  it('[L-ANS-3] a name that does not resolve is a transport failure', async () => {
    const result = await runHttp(spec('http://hookwerk-no-such-host.invalid/hook', { timeoutMs: 8000 }));
    expect(result.reason).toBe('transport');
    expect(result.error).toMatch(/ENOTFOUND|EAI_AGAIN/);
  });

  it.each([
    ['not a URL', /invalid URL/],
    ['ftp://127.0.0.1/hook', /unsupported URL scheme ftp:/],
    ['file:///etc/passwd', /unsupported URL scheme file:/],
  ])('[L-ANS-3] URL %j is a transport failure, not an exception', async (url, error) => {
    const result = await runHttp(spec(url));
    expect(result.reason).toBe('transport');
    expect(result.error).toMatch(error);
  });

  it('[L-ANS-3] a header undici refuses at run time is a transport failure, not an exception', async () => {
    const server = await startServer((_req, res) => json(res, 200, {}));
    const result = await runHttp(spec(server.url, { headers: { 'X-Bad': 'a\r\nInjected: 1' } }));
    expect(result.reason).toBe('transport');
    expect(result.error).toBeTruthy();
    expect(server.hits).toHaveLength(0);
  });

  it('[L-ANS-3] a connection reset in the middle of the body is a transport failure, with the status', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }); // chunked: the end is explicit
      res.write('{"decision":');
      setTimeout(() => res.socket?.destroy(), 50);
    });
    const result = await runHttp(spec(server.url));
    expect(result).toMatchObject({ reason: 'transport', status: 200, body: '{"decision":' });
    expect(result.error).toBeTruthy();
  });
});

describe('[L-RUN-5] HTTP hook runner: redirects are not followed', () => {
  it.each([301, 302, 303, 307, 308])(
    '[L-RUN-5] a %i is a non-2xx answer; its Location gets no request',
    async (code) => {
      const target = await startServer((_req, res) => json(res, 200, { decision: 'allow' }));
      const redirector = await startServer((_req, res) => {
        res.writeHead(code, { location: target.url, 'content-length': 0 });
        res.end();
      });
      const result = await runHttp(spec(redirector.url));
      expect(result).toMatchObject({ reason: 'response', status: code, body: '' });
      expect(redirector.hits).toHaveLength(1);
      expect(target.hits).toHaveLength(0);
      expect(target.connections()).toBe(0);
    },
  );
});

describe('[L-RUN-5] HTTP hook runner: at most 1 MiB of answer', () => {
  /** Streams `total` bytes of `x` in 64 KiB chunks, respecting backpressure. */
  function streamBytes(total: number) {
    return (_req: http.IncomingMessage, res: http.ServerResponse) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      let sent = 0;
      const chunk = Buffer.alloc(65_536, 'x');
      const pump = (): void => {
        while (sent < total) {
          const piece = chunk.subarray(0, Math.min(chunk.length, total - sent));
          sent += piece.length;
          if (!res.write(piece)) {
            res.once('drain', pump);
            return;
          }
        }
        res.end();
      };
      res.on('error', () => {});
      pump();
    };
  }

  it('[L-RUN-5] a 2 MiB answer ends with output_limit and exactly the first 1 MiB', async () => {
    const server = await startServer(streamBytes(2 * 1_048_576));
    const result = await runHttp(spec(server.url));
    expect(result.reason).toBe('output_limit');
    expect(result.status).toBe(200);
    expect(result.body.length).toBe(1_048_576);
    expect(result.body).toMatch(/^x+$/);
  });

  it('[L-RUN-5] a smaller cap is honoured exactly', async () => {
    const server = await startServer(streamBytes(2 * 1_048_576));
    const result = await runHttp(spec(server.url, { maxResponseBytes: 100 }));
    expect(result).toMatchObject({ reason: 'output_limit', status: 200 });
    expect(result.body).toBe('x'.repeat(100));
  });

  it('[L-RUN-5] an answer of exactly the cap is complete, one byte more is not', async () => {
    const exact = await startServer((_req, res) => json(res, 200, 'y'.repeat(100)));
    expect(await runHttp(spec(exact.url, { maxResponseBytes: 100 }))).toMatchObject({
      reason: 'response',
      body: 'y'.repeat(100),
    });
    const over = await startServer((_req, res) => json(res, 200, 'y'.repeat(101)));
    expect(await runHttp(spec(over.url, { maxResponseBytes: 100 }))).toMatchObject({
      reason: 'output_limit',
      body: 'y'.repeat(100),
    });
  });
});

describe('[L-RUN-5] HTTP hook runner: timeout covers the whole exchange', () => {
  it('[L-ANS-3] a server that never answers ends with timeout', async () => {
    const server = await startServer(() => {}); // reads the request, never answers
    const result = await runHttp(spec(server.url, { timeoutMs: 200 }));
    expect(result.reason).toBe('timeout');
    expect(result.status).toBeUndefined();
    expect(result.error).toBeUndefined();
    expect(result.durationMs).toBeGreaterThanOrEqual(190);
    expect(result.durationMs).toBeLessThan(5000);
    expect(server.hits).toHaveLength(1);
  });

  it('[L-ANS-3] a body that stalls after the headers ends with timeout, keeping status and what arrived', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"decision":');
    });
    const result = await runHttp(spec(server.url, { timeoutMs: 300 }));
    expect(result).toMatchObject({ reason: 'timeout', status: 200, body: '{"decision":' });
    expect(result.durationMs).toBeGreaterThanOrEqual(290);
    expect(result.durationMs).toBeLessThan(5000);
  });

  it("[L-ANS-3, AD-ALL-1] the caller's abort signal cancels the call (reason aborted)", async () => {
    const server = await startServer(() => {});
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const result = await runHttp(spec(server.url, { timeoutMs: 60_000 }), { signal: controller.signal });
    expect(result.reason).toBe('aborted');
    expect(result.durationMs).toBeLessThan(5000);
  });

  it('[L-ANS-3] an already aborted signal sends nothing', async () => {
    const server = await startServer((_req, res) => json(res, 200, {}));
    const result = await runHttp(spec(server.url), { signal: AbortSignal.abort() });
    expect(result).toMatchObject({ reason: 'aborted', body: '' });
    expect(server.hits).toHaveLength(0);
  });
});

describe('[L-RUN-5] HTTP hook runner: shared keep-alive pool', () => {
  it('[L-RUN-5] 20 sequential calls reuse at most 2 connections', async () => {
    const server = await startServer((_req, res) => json(res, 200, { decision: 'allow' }));
    for (let i = 0; i < 20; i++) {
      const result = await runHttp(spec(server.url));
      expect(result).toMatchObject({ reason: 'response', status: 200 });
    }
    expect(server.hits).toHaveLength(20);
    expect(server.connections()).toBeLessThanOrEqual(2);
  });

  it('[L-RUN-5] a call after closeHttpPool() opens a new pool', async () => {
    const server = await startServer((_req, res) => json(res, 200, {}));
    expect((await runHttp(spec(server.url))).reason).toBe('response');
    await closeHttpPool();
    await closeHttpPool(); // twice is harmless
    expect((await runHttp(spec(server.url))).reason).toBe('response');
  });

  it('[L-RUN-5] an idle pool does not keep a process alive', async () => {
    // The server keeps idle connections for a minute: only our side can let the process go.
    const server = await startServer((_req, res) => json(res, 200, { decision: 'allow' }));
    const dir = mkdtempSync(path.join(os.tmpdir(), 'hw-http-'));
    try {
      // The built module (npm test builds first): a plain Node process, no test runner around it.
      const built = pathToFileURL(
        fileURLToPath(new URL('../dist/runners/http-runner.js', import.meta.url)),
      ).href;
      writeFileSync(
        path.join(dir, 'main.mjs'),
        `import { HttpRunner } from '${built}';
const r = await new HttpRunner().run({ url: process.argv[2], method: 'POST', headers: {}, body: '{}', timeoutMs: 30000 });
console.log(r.reason);`,
      );
      // --liftoff-only: otherwise V8 finishes optimizing undici's llhttp WASM before exit (~0.5 s here),
      // which would blur what this measures (sockets and timers left referenced).
      const child = spawn(process.execPath, ['--liftoff-only', 'main.mjs', server.url], {
        cwd: dir,
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      let doneAt = 0;
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        doneAt ||= performance.now();
      });
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      const lingered = performance.now() - doneAt;
      expect(code).toBe(0);
      expect(out.trim()).toBe('response');
      // Held by the pool, it would last until our 4 s keep-alive ran out (the server keeps 60 s).
      expect(lingered).toBeLessThan(2000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('[L-RUN-5] load-time checks', () => {
  it.each<[string, Record<string, string>, RegExp[]]>([
    ['plain headers', { 'X-Hook': 'a', 'Content-Type': 'application/json' }, []],
    ['an empty value', { 'X-Empty': '' }, []],
    ['a tab in a value', { 'X-Tab': 'a\tb' }, []],
    ['token punctuation', { "X-!#$%&'*+-.^_`|~9": 'ok' }, []],
    ['Authorization', { Authorization: 'Bearer x' }, [/"Authorization" is not allowed/]],
    ['authorization (lower case)', { authorization: 'Bearer x' }, [/"authorization" is not allowed/]],
    ['COOKIE', { COOKIE: 'a=b' }, [/"COOKIE" is not allowed: Cookie/]],
    ['Proxy-Authorization', { 'proxy-authorization': 'x' }, [/not allowed: Proxy-Authorization/]],
    ['X-API-Key', { 'x-api-key': 'k' }, [/not allowed: X-API-Key/]],
    ['CR in a value', { 'X-A': 'a\rb' }, [/CR or LF in its value/]],
    ['LF in a value', { 'X-A': 'a\nInjected: 1' }, [/CR or LF in its value/]],
    ['LF in a name', { 'X-A\nInjected': 'b' }, [/header name "X-A\\nInjected" contains CR or LF/]],
    ['a space in a name', { 'X A': 'b' }, [/not a valid HTTP header name/]],
    ['a colon in a name', { 'X-A:': 'b' }, [/not a valid HTTP header name/]],
    ['an empty name', { '': 'b' }, [/not a valid HTTP header name/]],
    ['a non-ASCII name', { 'X-Ä': 'b' }, [/not a valid HTTP header name/]],
    ['NUL in a value', { 'X-A': 'a\0b' }, [/control or non-Latin-1 character/]],
    ['a character beyond Latin-1 in a value', { 'X-A': '世界' }, [/control or non-Latin-1 character/]],
    ['the same name twice', { 'X-A': '1', 'x-a': '2' }, [/"x-a" repeats "X-A"/]],
    ['Connection (client-managed)', { Connection: 'close' }, [/managed by the HTTP client/]],
    [
      'Transfer-Encoding (client-managed)',
      { 'transfer-encoding': 'chunked' },
      [/managed by the HTTP client/],
    ],
    ['Content-Length (client-managed)', { 'Content-Length': '3' }, [/managed by the HTTP client/]],
    [
      'several problems',
      { Cookie: 'a', 'X-B': 'x\ny', 'Bad Name': 'z' },
      [/"Cookie" is not allowed/, /"X-B" has CR or LF/, /"Bad Name" is not a valid/],
    ],
  ])('headerProblems: %s', (_label, headers, expected) => {
    const problems = headerProblems(headers);
    expect(problems).toHaveLength(expected.length);
    expected.forEach((re, i) => {
      expect(problems[i]).toMatch(re);
    });
    for (const p of problems) expect(p).not.toMatch(/[\r\n]/);
  });

  it.each<[string, string | undefined]>([
    ['POST', 'POST'],
    ['PUT', 'PUT'],
    ['PATCH', 'PATCH'],
    ['post', 'POST'],
    ['patch', 'PATCH'],
    ['Put', 'PUT'],
    ['GET', undefined],
    ['DELETE', undefined],
    ['HEAD', undefined],
    ['CONNECT', undefined],
    ['', undefined],
    [' POST', undefined],
  ])('methodProblem / normalizeMethod: %j', (method, normalized) => {
    expect(normalizeMethod(method)).toBe(normalized);
    if (normalized === undefined)
      expect(methodProblem(method)).toMatch(/is not allowed \(POST, PUT or PATCH\)/);
    else expect(methodProblem(method)).toBeUndefined();
  });

  it.each<[string, RegExp | undefined]>([
    ['http://127.0.0.1:8080/hook', undefined],
    ['https://hooks.example.com/v1/pre?x=1', undefined],
    ['HTTPS://Example.COM/', undefined],
    ['http://[::1]:9000/', undefined],
    ['not a url', /is not a valid absolute URL/],
    ['/relative/path', /is not a valid absolute URL/],
    ['', /is not a valid absolute URL/],
    ['ftp://example.com/', /scheme ftp: is not allowed/],
    ['file:///etc/passwd', /scheme file: is not allowed/],
    ['javascript:alert(1)', /scheme javascript: is not allowed/],
    ['https://user:secret@example.com/', /contains credentials/],
    ['https://token@example.com/', /contains credentials/],
    ['https://:secret@example.com/', /contains credentials/],
  ])('urlProblem: %j', (url, expected) => {
    const problem = urlProblem(url);
    if (expected === undefined) expect(problem).toBeUndefined();
    else expect(problem).toMatch(expected);
    expect(problem ?? '').not.toContain('secret');
  });
});
