/**
 * Property test (issue 11): API bodies never crash the server. Generated requests — JSON bodies
 * shaped like the real ones and mutated, arbitrary JSON, arbitrary text, random bytes, deep
 * nesting, odd ids, queries and headers — to every endpoint of the app (`createApp`, called
 * in-process with `app.request()` and the token, over a real engine and a real temp workspace
 * with a hooks.json) always get a 2xx/4xx answer with a JSON body (Prometheus text for /metrics,
 * an event stream for a stream that opened), never a 5xx; and `/healthz` still answers after
 * each sequence. [P-API-1..4]
 *
 * Hooks the generated bodies create only ever run harmless commands (`/bin/true`, `/bin/false`,
 * a missing script): the command is drawn from that list or is not a string at all.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LURUS_EVENT_NAMES } from '../src/events/lurus-events.ts';
import { PRX_EVENT_NAMES } from '../src/events/prx-events.ts';
import { createApp } from '../src/server/app.ts';
import { makeEngine } from './engine-harness.ts';
import { captureLogger, tempDir } from './helpers.ts';
import { runs, timeout } from './property-runs.ts';

const TOKEN = 'property-token-0123456789abcdef';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const odd: fc.Arbitrary<Json> = fc.oneof(
  { arbitrary: fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json>, weight: 3 },
  { arbitrary: fc.constantFrom<Json>(null, '', '\u0000', -1, 0, 1.5, 1e308, true, [], {}, ['a']), weight: 2 },
);

/**
 * A field that is usually valid, sometimes a plausible mistake (`bad`), sometimes anything: so
 * that whole bodies are valid often enough to reach the store, the engine and the hooks.
 */
function mostly<T extends Json>(good: fc.Arbitrary<T>, bad: readonly Json[] = []): fc.Arbitrary<Json> {
  return fc.oneof(
    { arbitrary: good, weight: 30 },
    { arbitrary: bad.length > 0 ? fc.constantFrom(...bad) : odd, weight: 1 },
    { arbitrary: odd, weight: 1 },
  );
}

/** Keys of a body: sometimes one more, unknown or known-elsewhere. */
function withExtra(body: fc.Arbitrary<Record<string, Json>>): fc.Arbitrary<Record<string, Json>> {
  return fc
    .tuple(
      body,
      fc.oneof(
        { arbitrary: fc.constant(null), weight: 6 },
        {
          arbitrary: fc.tuple(
            fc.constantFrom(
              'id',
              'extra',
              '__proto__',
              'enabled',
              'payload',
              'constructor',
              'sandbox_workspace',
              '',
            ),
            odd,
          ),
          weight: 1,
        },
      ),
    )
    .map(([b, extra]) => {
      if (extra === null) return b;
      const out = { ...b };
      Object.defineProperty(out, extra[0], {
        value: extra[1],
        enumerable: true,
        writable: true,
        configurable: true,
      });
      return out;
    });
}

/** Never a command that does anything: these, or a value that is not a string. */
const SAFE_COMMANDS = ['/bin/true', '/bin/false', 'true', 'hooks/missing.sh', '/nonexistent/hook'];
const command = fc.oneof(
  { arbitrary: fc.constantFrom(...SAFE_COMMANDS), weight: 10 },
  { arbitrary: fc.constantFrom<Json>(null, 1, true, [], {}, ['/bin/true']), weight: 1 },
);

const prxEvent = fc.oneof(
  { arbitrary: fc.constantFrom(...PRX_EVENT_NAMES), weight: 8 },
  { arbitrary: fc.constantFrom('Tool_call', 'constructor', '__proto__', 'PreToolUse', ''), weight: 1 },
  { arbitrary: fc.string(), weight: 1 },
);

const action = withExtra(
  fc.record(
    {
      command,
      args: mostly(fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 }), [['a\u0000']]),
      env: mostly(
        fc.dictionary(fc.constantFrom('A', 'MY_VAR', 'LANG'), fc.string({ maxLength: 8 }), { maxKeys: 2 }),
        [
          { LD_PRELOAD: 'x' },
          { NODE_OPTIONS: '-r x' },
          { ZERO_HOOK_DEPTH: '1' },
          { 'a=b': 'c' },
          { '': 'x' },
        ],
      ),
      cwd: mostly(fc.constantFrom('.', 'sub', '/'), ['..', '/tmp/../etc', 'a\u0000b', '']),
      timeout_ms: mostly(fc.constantFrom(1, 500, 30_000), [0, 1.5, 3_600_001, -1]),
      stdin_json: mostly(fc.boolean()),
      sandbox: mostly(fc.constantFrom('none', 'bwrap'), ['docker']),
    },
    { requiredKeys: ['command'] },
  ),
);

const hookBody = withExtra(
  fc.record(
    {
      event: mostly(prxEvent),
      action: fc.oneof({ arbitrary: action, weight: 10 }, { arbitrary: odd, weight: 1 }),
      enabled: mostly(fc.boolean()),
    },
    { requiredKeys: ['event', 'action'] },
  ),
);

/** A payload valid for its event, so that some events really run hooks; or anything. */
function payloadFor(event: Json): fc.Arbitrary<Json> {
  const valid: Record<string, fc.Arbitrary<Json>> = {
    agent_start: fc.record({ agent: fc.string(), session: fc.string() }),
    agent_end: fc.record({ success: fc.boolean(), messages_count: fc.integer() }),
    llm_request: fc.record({ provider: fc.string(), model: fc.string(), messages_count: fc.nat() }),
    llm_response: fc.record({
      provider: fc.string(),
      model: fc.string(),
      duration_ms: fc.double({ noNaN: true }),
      success: fc.boolean(),
    }),
    tool_call_start: fc.record({ tool: fc.string(), arguments: fc.object() as fc.Arbitrary<Json> }),
    tool_call: fc.record({ tool: fc.string(), success: fc.boolean(), output: fc.string() }),
    turn_complete: fc.constant({}),
    error: fc.record({ component: fc.string(), message: fc.string() }),
  };
  const good = typeof event === 'string' && Object.hasOwn(valid, event) ? valid[event]! : fc.constant({});
  return fc.oneof(
    { arbitrary: good, weight: 3 },
    { arbitrary: good.map((p) => ({ ...(p as object), extra: { nested: [1, 'x', null] } })), weight: 1 },
    { arbitrary: odd, weight: 1 },
    { arbitrary: fc.constantFrom<Json>(nest(70), nest(2000)), weight: 1 },
  );
}

/** `[[[…]]]` nested `depth` deep. */
function nest(depth: number): Json {
  let v: Json = [];
  for (let i = 1; i < depth; i++) v = [v];
  return v;
}

const eventBody = withExtra(
  mostly(prxEvent).chain((event) =>
    fc.record(
      {
        event: fc.constant(event),
        session_id: mostly(fc.constantFrom('s1', 'sess with space', 'é'), ['a\u0000b', 'x'.repeat(300), '']),
        payload: payloadFor(event),
      },
      { requiredKeys: ['event'] },
    ),
  ) as fc.Arbitrary<Record<string, Json>>,
);

const decideBody = withExtra(
  fc.record(
    {
      event: mostly(fc.oneof(fc.constantFrom(...LURUS_EVENT_NAMES), fc.string())),
      context: mostly(
        fc.record(
          {
            toolName: mostly(fc.constantFrom('Write', 'Bash', '')),
            trigger: odd,
            toolInput: odd,
            sessionId: odd,
          },
          { requiredKeys: [] },
        ),
      ),
    },
    { requiredKeys: ['event'] },
  ),
);

const BIG = 'x'.repeat(1024 * 1024 + 10);

/** A request body: shaped, or anything at all. */
const body: fc.Arbitrary<string | Uint8Array | undefined> = fc.oneof(
  { arbitrary: hookBody.map((b) => JSON.stringify(b)), weight: 4 },
  { arbitrary: eventBody.map((b) => JSON.stringify(b)), weight: 4 },
  { arbitrary: decideBody.map((b) => JSON.stringify(b)), weight: 2 },
  { arbitrary: fc.jsonValue().map((v) => JSON.stringify(v)), weight: 2 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 100 }), weight: 1 },
  { arbitrary: fc.uint8Array({ maxLength: 100 }), weight: 1 },
  {
    arbitrary: fc.constantFrom(
      undefined,
      '',
      '{',
      'null',
      '{"event":"tool_call","payload":' + '['.repeat(20_000) + ']'.repeat(20_000) + '}',
      '{"event":"tool_call","payload":{"a":1,"a":2}}',
      `{"event":"error","payload":{"component":"${BIG}"}}`,
    ),
    weight: 1,
  },
);

const id = fc.oneof(
  { arbitrary: fc.constantFrom('hook_01', 'hook_02', 'hook_03', 'hook_99', 'first'), weight: 4 },
  { arbitrary: fc.string({ maxLength: 10 }).map(encodeURIComponent), weight: 1 },
);

const query = fc
  .dictionary(
    fc.constantFrom('limit', 'outcome', 'event', 'topic', 'tool', 'trigger', 'x'),
    fc.oneof(
      fc.constantFrom(
        '1',
        '0',
        '1000',
        '1001',
        '-1',
        'ok',
        'dropped',
        'tool_call',
        'PreToolUse',
        'Write',
        '*',
        'prx.*',
        'a..b',
        '',
        '%',
      ),
      fc.string({ maxLength: 6 }),
    ),
    { maxKeys: 3 },
  )
  .map((q) => {
    const s = new URLSearchParams(q).toString();
    return s === '' ? '' : `?${s}`;
  });

type Route = [method: string, path: string];
const route: fc.Arbitrary<Route> = fc.oneof(
  fc.constant<Route>(['GET', '/api/hooks']),
  id.map((i): Route => ['GET', `/api/hooks/${i}`]),
  fc.constant<Route>(['POST', '/api/hooks']),
  id.map((i): Route => ['PUT', `/api/hooks/${i}`]),
  id.map((i): Route => ['DELETE', `/api/hooks/${i}`]),
  id.map((i): Route => ['PATCH', `/api/hooks/${i}/toggle`]),
  fc.constant<Route>(['POST', '/api/events']),
  fc.constant<Route>(['POST', '/api/decide']),
  query.map((q): Route => ['GET', `/api/runs${q}`]),
  query.map((q): Route => ['GET', `/api/explain${q}`]),
  query.map((q): Route => ['GET', `/api/events/stream${q}`]),
  fc.constant<Route>(['GET', '/metrics']),
  fc
    .tuple(
      fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'),
      fc.constantFrom('/api', '/api/', '/api/hooks/', '/api/hooks/a/b', '/api/events/x', '/metrics/x'),
    )
    .map(([m, p]): Route => [m, p]),
);

const someHeaders = fc.record(
  {
    'if-match': fc.constantFrom('*', '"abc"', 'W/"abc"', 'abc', '', '"a", "b"'),
    'x-hook-depth': fc.constantFrom('0', '1', '7', '8', '9', '-1', 'x', ' 3 ', '9999999'),
    'content-type': fc.constantFrom(
      'application/json',
      'text/plain',
      'application/x-www-form-urlencoded',
      '',
    ),
  },
  { requiredKeys: [] },
);

/** Mostly none: a bad If-Match or X-Hook-Depth is a 400 before the body is even read. */
const headers = fc.oneof({ arbitrary: fc.constant({}), weight: 3 }, { arbitrary: someHeaders, weight: 1 });

/** The body a route takes, most of the time; any body otherwise. */
function bodyFor([method, url]: Route): fc.Arbitrary<string | Uint8Array | undefined> {
  const json = (b: fc.Arbitrary<Record<string, Json>>) => b.map((v) => JSON.stringify(v));
  let fitting: fc.Arbitrary<string | Uint8Array | undefined> | undefined;
  if ((method === 'POST' || method === 'PUT') && url.startsWith('/api/hooks')) fitting = json(hookBody);
  else if (method === 'POST' && url === '/api/events') fitting = json(eventBody);
  else if (method === 'POST' && url === '/api/decide') fitting = json(decideBody);
  if (fitting === undefined) return body;
  return fc.oneof({ arbitrary: fitting, weight: 3 }, { arbitrary: body, weight: 1 });
}

const request = fc
  .tuple(route, headers)
  .chain(([r, h]) => bodyFor(r).map((b) => ({ route: r, body: b, headers: h })));
type Request = { route: Route; body: string | Uint8Array | undefined; headers: Record<string, string> };

describe('issue 11: API bodies never crash the server', () => {
  it(
    '[P-API-1] [P-API-2] [P-API-3] [P-API-4] issue 11: any request to any endpoint gets a 2xx/4xx JSON answer, never a 5xx, and /healthz keeps answering',
    async () => {
      const ws = tempDir('hw-prop-api-');
      const project = tempDir('hw-prop-api-project-');
      const home = tempDir('hw-prop-api-home-');
      mkdirSync(path.join(ws, 'sub'), { recursive: true });
      writeFileSync(
        path.join(ws, 'hooks.json'),
        JSON.stringify({
          hooks: {
            tool_call: [{ id: 'hook_01', command: '/bin/true', timeout_ms: 5000 }],
            error: [{ id: 'first', command: '/bin/false', stdin_json: true }],
          },
        }),
      );
      const logs: string[] = [];
      const engine = await makeEngine(ws, {
        projectDir: project,
        home,
        logger: captureLogger(logs),
        plugins: false,
        maxConcurrent: 2,
      });
      const app = createApp({ engine, token: TOKEN, logger: captureLogger(logs) });
      const statuses = new Map<number, number>();

      const send = async (r: Request) => {
        const [method, url] = r.route;
        const init: RequestInit = { method, headers: { authorization: `Bearer ${TOKEN}`, ...r.headers } };
        if (r.body !== undefined && method !== 'GET') init.body = r.body;
        const res = await app.request(url, init);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        const where = `${method} ${url} ${typeof r.body === 'string' ? r.body.slice(0, 200) : String(r.body)}`;
        const type = res.headers.get('content-type') ?? '';
        if (url.startsWith('/api/events/stream') && res.status === 200) {
          expect(type, where).toMatch(/^text\/event-stream/);
          await res.body?.cancel();
          return;
        }
        const text = await res.text();
        if (url.startsWith('/api/events/stream') && res.status === 503) {
          // (issue 11) The stream limit is a documented, retryable refusal, not a crash.
          expect(JSON.parse(text).error, where).toMatch(/too many event streams/);
          return;
        }
        expect(res.status, `${where} → ${text.slice(0, 300)}`).toBeGreaterThanOrEqual(200);
        expect(res.status, `${where} → ${text.slice(0, 300)}`).toBeLessThan(500);
        if (res.status === 204) {
          expect(text, where).toBe('');
          return;
        }
        if (url === '/metrics' && res.status === 200) {
          expect(text, where).toMatch(/^# HELP /m);
          return;
        }
        expect(type, where).toMatch(/^application\/json/);
        expect(() => JSON.parse(text), `${where} → ${text.slice(0, 300)}`).not.toThrow();
      };

      await fc.assert(
        fc.asyncProperty(fc.array(request, { minLength: 1, maxLength: 4 }), async (requests) => {
          for (const r of requests) await send(r as Request);
          const health = await app.request('/healthz');
          expect(health.status).toBe(200);
          expect(await health.json()).toEqual({ ok: true });
        }),
        { numRuns: runs(400) },
      );

      // Still a working server: the hooks file reads back, an event is accepted, its hooks finish.
      const list = await app.request('/api/hooks', { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(list.status).toBe(200);
      const accepted = await app.request('/api/events', {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}` },
        body: JSON.stringify({ event: 'tool_call', payload: { tool: 't', success: true, output: '' } }),
      });
      expect(accepted.status).toBe(202);
      await engine.drain();
      app.closeStreams();
      expect(logs.filter((l) => l.includes('failed:'))).toEqual([]);
      // Every kind of answer was reached, not only refusals.
      expect([...statuses.keys()].filter((s) => s < 300).length).toBeGreaterThan(2);
    },
    timeout(),
  );
});
