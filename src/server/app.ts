import { type Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { z } from 'zod';
import { MAX_DEPTH } from '../bus/depth.ts';
import { errorMessage } from '../core/errno.ts';
import { EngineClosedError, HookInputError, InvalidOptionError } from '../core/errors.ts';
import { isPlainObject } from '../core/plain-object.ts';
import { sessionOf, toolOf } from '../dispatch/run-subject.ts';
import type { HookEngine, HookEngineOptions } from '../engine-api.ts';
import { type Logger, stderrLogger } from '../records/logger.ts';
import { agentRunsAnswer } from './agent-runs.ts';
import { tokenChecker } from './auth.ts';
import {
  decideBodySchema,
  decisionsQuerySchema,
  eventBodySchema,
  type FieldIssue,
  hookBodySchema,
  type Parsed,
  parseBody,
  runsQuerySchema,
  summarize,
} from './bodies.ts';
import { decideRequest } from './decide-request.ts';
import { DecisionLog } from './decision-log.ts';
import { DialectEngines, gateEngineMaker } from './dialect-engines.ts';
import { readIfMatch, withEtag } from './etag.ts';
import { explainQuerySchema, explainTarget } from './explain-query.ts';
import { gateListing } from './gate-listing.ts';
import { HooksStore, StoreError } from './hooks-store.ts';
import { chainStateReader, journalLockWaits } from './journal-chain-state.ts';
import { nodeResponseOf } from './node-response.ts';
import { runsResponseJson } from './runs-response.ts';
import { SseHub, type SseOptions } from './sse.ts';
import { mountUi } from './ui-assets.ts';

/** [P-API-1] Largest request body; more is answered 413. */
export const MAX_BODY_BYTES = 1024 * 1024;

interface AppOptions {
  engine: HookEngine;
  /** [P-API-1] The bearer token every endpoint but `/healthz` requires. */
  token: string;
  /** Folder holding hooks.json; default the engine's workspace. */
  workspace?: string;
  logger?: Logger;
  sse?: SseOptions;
  /** Clock for created_at/updated_at. */
  now?: () => Date;
  /** (issue 13) Folder of the built dashboard; default `dist/ui` of this package. */
  uiDir?: string;
  /** [R-HOOK-3] Home folder whose journal `/api/agent-runs` reads; default the account's (HOME). */
  home?: string;
  /**
   * (issue 23) The options the engine was made with: `/api/decide` makes a gate-only engine of
   * each other dialect with them (no workspace), and `/api/gate` reads every dialect's sources
   * under their consent policy. Default: the engine's project and home, consent from the trust store.
   */
  engineOptions?: HookEngineOptions;
}

/** The Hono app (use `app.fetch` / `app.request()`), plus what a server needs to shut down. */
export type HookwerkApp = Hono & {
  readonly store: HooksStore;
  readonly streams: SseHub;
  /** The engine and the gate engines of the other dialects `/api/decide` made. */
  readonly engines: DialectEngines;
  /** Ends every open event stream (graceful shutdown). */
  closeStreams(): void;
  /** Closes the gate engines `/api/decide` made (not `engine`: its owner closes it). */
  closeEngines(): Promise<void>;
};

/**
 * The HTTP management API [P-API-1..4]: a thin shell over the engine and the hooks.json
 * store. Every answer is JSON (except `/metrics`, Prometheus text, and the event stream).
 */
export function createApp(opts: AppOptions): HookwerkApp {
  const { engine } = opts;
  const workspace = opts.workspace ?? engine.workspace;
  if (workspace === undefined)
    throw new InvalidOptionError('createApp: the engine has no workspace; pass `workspace`');
  const logger = opts.logger ?? stderrLogger;
  const authorized = tokenChecker(opts.token);
  const store = new HooksStore({
    workspace,
    reload: () => engine.reload(),
    logger,
    ...(opts.now !== undefined ? { now: opts.now } : {}),
  });
  const streams = new SseHub(opts.sse);
  engine.metrics.addStreamSource(streams);
  const engineOptions = opts.engineOptions ?? {
    projectDir: engine.gate.config.projectDir,
    home: engine.gate.config.home,
    logger,
  };
  const engines = new DialectEngines(engine, gateEngineMaker(engineOptions));
  const decisions = new DecisionLog(engine.bus);

  const app = new Hono();

  app.notFound((c) => c.json({ error: `no route for ${c.req.method} ${c.req.path}` }, 404));
  app.onError((err, c) => {
    if (err instanceof StoreError) return storeError(c, err);
    logger.error(`${c.req.method} ${c.req.path} failed: ${err instanceof Error ? err.stack : String(err)}`);
    return c.json({ error: 'internal error' }, 500);
  });

  // Liveness for process supervisors: no token, no data beyond "up".
  app.get('/healthz', (c) => c.json({ ok: true }));
  // (issue 13) The dashboard's files are public; the page asks for the token and calls the API.
  mountUi(app, opts.uiDir);

  requireToken(app, authorized);
  hookRoutes(app, store);
  sidecarRoutes(app, engine);
  gateRoutes(app, engines, decisions, engineOptions);
  streamRoutes(app, engine, streams);
  // [R-HOOK-3] The agents' runs from the journal, beside the engine's own (`/api/runs`).
  // The dashboard asks every 5 s: each journal file it cannot read is logged once, not each time.
  const told = new Set<string>();
  const tellOnce = (line: string) => {
    if (told.has(line) || told.size >= 1000) return;
    told.add(line);
    logger.warn(line);
  };
  app.get('/api/agent-runs', (c) => {
    const answer = agentRunsAnswer(c.req.query(), opts.home, tellOnce);
    if (answer.status === 200) return c.body(answer.json, 200, { 'content-type': 'application/json' });
    return c.json(answer.body, answer.status);
  });
  // [T-SELF-3] The chain's state for the dashboard: the newest MiB checked, kept until the journal changes.
  const chainState = chainStateReader(opts.home);
  app.get('/api/journal-chain', (c) => c.json(chainState()));
  engine.metrics.setJournalLockSource(() => journalLockWaits(opts.home));

  return Object.assign(app, {
    store,
    streams,
    engines,
    closeStreams: () => streams.closeAll(),
    closeEngines: () => engines.close(),
  });
}

/** [P-API-1] Every route after this needs the bearer token; bodies are bounded. */
function requireToken(app: Hono, authorized: (header: string | undefined) => boolean): void {
  app.use('*', async (c, next) => {
    if (!authorized(c.req.header('authorization'))) {
      c.header('WWW-Authenticate', 'Bearer realm="hookwerk"');
      return c.json({ error: 'missing or wrong bearer token (Authorization: Bearer <token>)' }, 401);
    }
    return next();
  });
  app.use(
    '*',
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: (c) => {
        // The rest of the body is not read: the connection can't carry another request.
        c.header('Connection', 'close');
        return c.json({ error: `request body is larger than ${MAX_BODY_BYTES} bytes` }, 413);
      },
    }),
  );
}

function hookRoutes(app: Hono, store: HooksStore): void {
  // ---- [P-API-2] hooks; a strong ETag on every answer with a hook, If-Match on writes (issue 11) ----
  app.get('/api/hooks', async (c) => {
    const list = await store.list();
    return withEtag(c, list.etag, { hooks: list.hooks });
  });
  app.get('/api/hooks/:id', async (c) => {
    const read = await store.get(c.req.param('id'));
    return withEtag(c, read.etag, read.hook);
  });
  app.post('/api/hooks', async (c) => {
    const cond = readIfMatch(c);
    if (!cond.ok) return badRequest(c, cond.issues);
    const body = await readBody(c, hookBodySchema);
    if (!body.ok) return badRequest(c, body.issues);
    const read = await store.create(body.value, cond.value);
    return withEtag(c, read.etag, read.hook, 201);
  });
  app.put('/api/hooks/:id', async (c) => {
    const cond = readIfMatch(c);
    if (!cond.ok) return badRequest(c, cond.issues);
    const body = await readBody(c, hookBodySchema);
    if (!body.ok) return badRequest(c, body.issues);
    const read = await store.update(c.req.param('id'), body.value, cond.value);
    return withEtag(c, read.etag, read.hook);
  });
  app.delete('/api/hooks/:id', async (c) => {
    const cond = readIfMatch(c);
    if (!cond.ok) return badRequest(c, cond.issues);
    await store.remove(c.req.param('id'), cond.value);
    return c.body(null, 204);
  });
  app.patch('/api/hooks/:id/toggle', async (c) => {
    const cond = readIfMatch(c);
    if (!cond.ok) return badRequest(c, cond.issues);
    // The ETag is the toggled hook's (what GET /api/hooks/:id now answers), for the next write.
    const { hook, etag } = await store.toggle(c.req.param('id'), cond.value);
    return withEtag(c, etag, { id: hook.id, enabled: hook.enabled });
  });
}

function sidecarRoutes(app: Hono, engine: HookEngine): void {
  // ---- [P-API-4] sidecar ----
  app.post('/api/events', async (c) => {
    const header = c.req.header('x-hook-depth');
    let depth: number | undefined;
    if (header !== undefined) {
      if (!/^\s*\d{1,6}\s*$/.test(header)) {
        return badRequest(c, [{ path: 'X-Hook-Depth', message: 'must be a whole number ≥ 0' }]);
      }
      // [P-BUS-4] An event sent by a hook handling depth d is one deeper.
      depth = Number(header) + 1;
    }
    const body = await readBody(c, eventBodySchema);
    if (!body.ok) return badRequest(c, body.issues);
    const { event, session_id, payload } = body.value;
    try {
      engine.emit(event, payload ?? {}, {
        ...(session_id !== undefined ? { sessionId: session_id } : {}),
        ...(depth !== undefined ? { depth } : {}),
      });
    } catch (err) {
      if (err instanceof HookInputError) return badRequest(c, [{ path: err.field, message: err.message }]);
      throw err;
    }
    // [P-BUS-3] Above depth 8 the engine drops the event silently (and counts it); say so here.
    if (depth !== undefined && depth > MAX_DEPTH)
      return c.json({ accepted: false, reason: 'depth', depth }, 202);
    return c.json({ accepted: true, ...(depth !== undefined ? { depth } : {}) }, 202);
  });

  // (issue 13) "Why didn't it fire?" for the dashboard: `hookwerk explain` over HTTP.
  app.get('/api/explain', (c) => {
    // Empty values mean "not given", as for /api/runs.
    const given = Object.fromEntries(Object.entries(c.req.query()).filter(([, v]) => v !== ''));
    const query = parseBody(explainQuerySchema, given);
    if (!query.ok) return badRequest(c, query.issues);
    try {
      const explanations = engine.explain(query.value.event, explainTarget(query.value));
      return c.json({ event: query.value.event, explanations });
    } catch (err) {
      if (err instanceof HookInputError) return badRequest(c, [{ path: err.field, message: err.message }]);
      throw err;
    }
  });
}

/**
 * The gate in every dialect (issue 23): decide in any dialect of the table, the run records of
 * every engine, the decisions answered, and the gate sources with their consent.
 */
function gateRoutes(
  app: Hono,
  engines: DialectEngines,
  decisions: DecisionLog,
  engineOptions: HookEngineOptions,
): void {
  app.post('/api/decide', async (c) => {
    const body = await readBody(c, decideBodySchema);
    if (!body.ok) return badRequest(c, body.issues);
    const asked = decideRequest(body.value, engines.defaultDialect);
    if (!asked.ok) return badRequest(c, asked.issues);
    const { dialect, event, input, field } = asked.value;
    const at = new Date().toISOString();
    const started = performance.now();
    try {
      const gate = await engines.engine(dialect);
      const decision = await gate.decide(event, input);
      // Tool and session as the decide's run records name them, also when no hook ran (issue 31).
      const subject = isPlainObject(input) ? input : {};
      const toolName = toolOf(subject);
      decisions.add(
        {
          at,
          dialect,
          event,
          durationMs: performance.now() - started,
          sessionId: sessionOf(subject, gate.sessionId),
          ...(toolName !== undefined ? { toolName } : {}),
        },
        decision,
      );
      return c.json(decision);
    } catch (err) {
      if (err instanceof HookInputError) {
        // The engine names the object `context`; the body of an agent dialect calls it `input`.
        const rename = (text: string) => (field === 'input' ? text.replace(/\bcontext\b/g, 'input') : text);
        return badRequest(c, [{ path: rename(err.field), message: rename(err.message) }]);
      }
      if (err instanceof EngineClosedError) return c.json({ error: 'the server is shutting down' }, 503);
      throw err;
    }
  });

  app.get('/api/runs', (c) => {
    // `?limit=&outcome=` (empty values) means "not given", as in the usual query templates.
    const given = Object.fromEntries(Object.entries(c.req.query()).filter(([, v]) => v !== ''));
    const query = parseBody(runsQuerySchema, given);
    if (!query.ok) return badRequest(c, query.issues);
    const { limit, outcome, event } = query.value;
    // Every engine's records, merged newest first by time (issue 23).
    const runs = engines.runs({
      limit: limit ?? 100,
      ...(outcome !== undefined ? { outcome } : {}),
      ...(event !== undefined ? { event } : {}),
    });
    // (issue 11) Bounded in bytes: the oldest of the requested records may be left out (`omitted`).
    return c.body(runsResponseJson(runs), 200, { 'content-type': 'application/json' });
  });

  app.get('/api/decisions', (c) => {
    const given = Object.fromEntries(Object.entries(c.req.query()).filter(([, v]) => v !== ''));
    const query = parseBody(decisionsQuerySchema, given);
    if (!query.ok) return badRequest(c, query.issues);
    return c.json({ decisions: decisions.recent(query.value.limit) });
  });

  app.get('/api/gate', async (c) => {
    const main = engines.main;
    return c.json(
      await gateListing({
        projectDir: main.gate.config.projectDir,
        home: main.gate.config.home,
        ...(engineOptions.env !== undefined ? { env: engineOptions.env } : {}),
        consent:
          engineOptions.trust === undefined
            ? { kind: 'store' }
            : { kind: 'fixed', check: engineOptions.trust },
        options: engineOptions,
        defaultDialect: engines.defaultDialect,
      }),
    );
  });
}

/** The live event stream [P-BUS-1] and Prometheus metrics. */
function streamRoutes(app: Hono, engine: HookEngine, streams: SseHub): void {
  app.get('/api/events/stream', (c) => {
    const topics = c.req.queries('topic') ?? [];
    if (topics.length > 1) return badRequest(c, [{ path: 'topic', message: 'give one topic pattern' }]);
    const pattern = topics[0] ?? '*';
    try {
      const outgoing = nodeResponseOf(c);
      const res = streams.open(engine.bus, pattern, {
        signal: c.req.raw.signal,
        ...(outgoing !== undefined ? { disconnect: () => outgoing.destroy() } : {}),
      });
      // (issue 11) Every stream holds up to its byte buffer: their number is bounded too.
      if (res === undefined) {
        c.header('Retry-After', '5');
        const error = `too many event streams open (limit ${streams.maxClients}); retry later`;
        return c.json({ error }, 503);
      }
      return res;
    } catch (err) {
      if (err instanceof TypeError) return badRequest(c, [{ path: 'topic', message: err.message }]);
      throw err;
    }
  });

  app.get('/metrics', async (c) => {
    const registry = engine.metrics.registry;
    return c.body(await registry.metrics(), 200, { 'content-type': registry.contentType });
  });
}

/** The body as JSON, validated; invalid JSON is a 400 of its own. */
async function readBody<S extends z.ZodType>(c: Context, schema: S): Promise<Parsed<z.output<S>>> {
  const text = await c.req.text();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const reason = text.trim() === '' ? 'the body is empty' : errorMessage(err);
    return { ok: false, issues: [{ path: '(body)', message: `invalid JSON: ${reason}` }] };
  }
  return parseBody(schema, value);
}

function badRequest(c: Context, issues: FieldIssue[]) {
  return c.json({ error: summarize(issues), issues }, 400);
}

function storeError(c: Context, err: StoreError) {
  if (err.status === 400) return c.json({ error: summarize(err.issues), issues: err.issues }, 400);
  return c.json({ error: err.message, ...(err.issues.length > 0 ? { issues: err.issues } : {}) }, err.status);
}
