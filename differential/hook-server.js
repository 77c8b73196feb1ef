// The server behind the cases' HTTP hooks (Claude Code `type: "http"`), on 127.0.0.1 for the
// whole case, so the URL in the hook files is the same for both sides. `POST /hook/ID` is hook ID:
// it is recorded like a command hook's run (the body is its stdin; the x-diff-* headers stand in
// for its environment) and answers as the case's spec says for ID: {status?, out?, sleepMs?, when?}.
import { createServer } from 'node:http';

/** @param {Record<string, any>} spec */
export function startHookServer(spec) {
  let records = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      const id = decodeURIComponent((req.url ?? '').replace(/^\/hook\//, '').replace(/\?.*$/, ''));
      const stdin = Buffer.concat(chunks).toString('utf8');
      let input;
      try {
        input = JSON.parse(stdin);
      } catch {
        input = undefined;
      }
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([k]) => k.startsWith('x-diff-')),
      );
      records.push({ id, t: Date.now(), stdin, input, headers, argv: [], cwd: '(http)', env: {} });
      let b = spec[id] ?? {};
      for (const alt of b.when ?? []) {
        if (Object.entries(alt.if).every(([k, v]) => JSON.stringify(input?.[k]) === JSON.stringify(v))) {
          b = alt.use;
          break;
        }
      }
      if (b.sleepMs) await new Promise((r) => setTimeout(r, b.sleepMs));
      const body = b.out === undefined ? '' : typeof b.out === 'string' ? b.out : JSON.stringify(b.out);
      if (!res.destroyed) res.writeHead(b.status ?? 200, { 'content-type': 'application/json' }).end(body);
    });
  });
  const sockets = new Set();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      resolve({
        url: `http://127.0.0.1:${server.address().port}`,
        /** The records since the last take, in arrival order. */
        take() {
          const taken = records;
          records = [];
          return taken;
        },
        close: () =>
          new Promise((done) => {
            for (const s of sockets) s.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}
