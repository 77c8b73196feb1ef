// The HTTP server under both model mocks: 127.0.0.1 only, every request kept with its arrival time
// (the comparison orders hook runs against model calls by time). It is also the tools' HTTPS proxy:
// a CONNECT means the tool tried to reach a host on the internet; it is refused and kept, so a run
// that tried is visible in the report instead of silently reaching out.
import { createServer } from 'node:http';

/**
 * @param {(req: import('node:http').IncomingMessage, body: any, reply: Reply) => {kind: string}} handle
 * @returns {Promise<{port: number, url: string, requests: object[], close: () => Promise<void>}>}
 */
export function startMockServer(handle) {
  const requests = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body;
      try {
        body = text === '' ? undefined : JSON.parse(text);
      } catch {
        body = text;
      }
      const entry = { t: Date.now(), method: req.method, url: req.url, body };
      requests.push(entry);
      try {
        entry.kind = handle(req, body, reply(res)).kind;
      } catch (e) {
        entry.kind = 'error';
        res.writeHead(500).end(String(e));
      }
    });
  });
  server.on('connect', (req, socket) => {
    requests.push({ t: Date.now(), method: 'CONNECT', url: req.url, kind: 'internet' });
    // A tool that resets the refused tunnel must not take the harness down with it.
    socket.on('error', () => {});
    socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
  });
  // Keep-alive sockets of a killed tool must not hold close() open.
  const sockets = new Set();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      resolve({
        port,
        url: `http://127.0.0.1:${port}`,
        requests,
        close: () =>
          new Promise((done) => {
            for (const s of sockets) s.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}

/** @typedef {{json: (status: number, value: unknown) => void, sse: (events: unknown[]) => void}} Reply */

function reply(res) {
  return {
    json(status, value) {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    },
    // An event is [name, data] (Anthropic names its events) or data alone (Gemini does not).
    sse(events) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for (const e of events) {
        if (Array.isArray(e)) res.write(`event: ${e[0]}\ndata: ${JSON.stringify(e[1])}\n\n`);
        else res.write(`data: ${JSON.stringify(e)}\n\n`);
      }
      res.end();
    },
    // OpenAI's stream: data lines, then `data: [DONE]`.
    sseDone(events) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for (const e of events) res.write(`data: ${JSON.stringify(e)}\n\n`);
      res.write('data: [DONE]\n\n');
      res.end();
    },
  };
}
