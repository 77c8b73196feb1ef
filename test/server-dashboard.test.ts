import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createHookEngine } from '../src/engine.ts';
import { silentLogger } from '../src/records/logger.ts';
import { createApp } from '../src/server/app.ts';
import { DEFAULT_UI_DIR } from '../src/server/ui-assets.ts';
import { tempDir, writeHooks } from './helpers.ts';
import { type ServedApp, serveApp } from './server-harness.ts';

// Issue 13: what `hookwerk serve` adds for its dashboard, on a real HTTP server: the page and its
// built assets without a token (dist/ui, built by `npm run build`, which `npm test` runs first),
// a clear 503 when the build is missing, and `GET /api/explain` over `engine.explain()`.

const TOKEN = 'dashboard-token-0123456789';
const running: ServedApp[] = [];

afterEach(async () => {
  for (const s of running.splice(0)) await s.stop();
});

async function start(opts: { uiDir?: string; home?: string } = {}): Promise<{ url: string; dir: string }> {
  const dir = tempDir('hw-dash-');
  writeHooks(dir, {
    tool_call: [
      { id: 'quick', command: '/bin/true' },
      { id: 'off', command: '/bin/true', enabled: false },
    ],
  });
  const engine = await createHookEngine({
    workspace: dir,
    projectDir: dir,
    home: opts.home ?? tempDir('hw-dash-home-'),
    watch: false,
    logger: silentLogger,
  });
  const app = createApp({
    engine,
    token: TOKEN,
    logger: silentLogger,
    ...(opts.uiDir ? { uiDir: opts.uiDir } : {}),
  });
  const served = await serveApp(engine, app);
  running.push(served);
  return { url: served.url, dir };
}

const auth = { authorization: `Bearer ${TOKEN}` };

const explainAnswer = z.object({
  event: z.string(),
  explanations: z.array(
    z.object({
      hook: z.string(),
      source: z.string(),
      verdict: z.string(),
      detail: z.string(),
      handler: z.object({ type: z.string(), failMode: z.string(), timeoutMs: z.number() }).optional(),
    }),
  ),
});
const errorAnswer = z.object({
  error: z.string(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })),
});

/** A GET with the path sent exactly as written (fetch would normalize `..` and `%2e` away). */
function rawGet(url: string, route: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.get({ host: hostname, port, path: route, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (d: string) => {
        body += d;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
  });
}

describe('[UI-1] [UI-2] the dashboard files', () => {
  it('serves the built page at / and its assets under /ui/ without a token, with their content types', async () => {
    const { url } = await start();
    const page = await fetch(`${url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    // The page talks to its own origin only, and is never framed.
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    const html = await page.text();
    expect(html).toContain('<div id="app">');
    const assets = [...html.matchAll(/(?:src|href)="(\/ui\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(assets.some((a) => a.endsWith('.js'))).toBe(true);
    expect(assets.some((a) => a.endsWith('.css'))).toBe(true);
    for (const asset of assets) {
      const res = await fetch(url + asset);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(
        asset.endsWith('.js') ? /^text\/javascript/ : /^text\/css/,
      );
      expect(res.headers.get('cache-control')).toContain('immutable');
      // [UI-2] Bundled: nothing is loaded from another host at run time.
      expect(await res.text()).not.toMatch(/(?:src|href)=["']https?:\/\//);
      expect(
        readFileSync(path.join(DEFAULT_UI_DIR, asset.slice('/ui/'.length)), 'utf8').length,
      ).toBeGreaterThan(0);
    }
    // The API behind it still wants the token.
    expect((await fetch(`${url}/api/hooks`)).status).toBe(401);
    expect((await fetch(`${url}/api/hooks`, { headers: auth })).status).toBe(200);
  });

  it('serves nothing but built files: unknown, hidden, outside the folder or other types are 404', async () => {
    const { url } = await start();
    for (const route of [
      '/ui/assets/nope.js',
      '/ui/',
      '/ui/.vite/manifest.json',
      '/ui/%2e%2e/package.json',
      '/ui/..%2f..%2fpackage.json',
      '/ui/assets/..%2f..%2f..%2fpackage.json',
      '/ui/index.ts',
    ]) {
      const res = await rawGet(url, route);
      // `%2e%2e` is `..` to the URL parser: that request is for /package.json, behind the token.
      expect(res.status, route).toBe(route.startsWith('/ui/%2e%2e') ? 401 : 404);
      expect(res.body).not.toContain('"version"');
    }
  });

  it('answers / with 503 and one line saying to build when dist/ui is missing; the API keeps working', async () => {
    const { url } = await start({ uiDir: tempDir('hw-no-ui-') });
    const res = await fetch(`${url}/`);
    expect(res.status).toBe(503);
    const text = await res.text();
    expect(text.trim().split('\n')).toHaveLength(1);
    expect(text).toContain('npm run build');
    expect((await fetch(`${url}/api/hooks`, { headers: auth })).status).toBe(200);
  });
});

describe('GET /api/explain (issue 13)', () => {
  it('lists the hooks of an observe event in run order, with their verdicts', async () => {
    const { url, dir } = await start();
    const res = await fetch(`${url}/api/explain?event=tool_call`, { headers: auth });
    expect(res.status).toBe(200);
    const body = explainAnswer.parse(await res.json());
    expect(body.event).toBe('tool_call');
    expect(body.explanations.map((e) => [e.hook, e.verdict])).toEqual([
      ['quick', 'runs'],
      ['off', 'disabled'],
    ]);
    expect(body.explanations[0]?.source).toContain(path.join(dir, 'hooks.json'));
    const none = explainAnswer.parse(
      await (await fetch(`${url}/api/explain?event=agent_end`, { headers: auth })).json(),
    );
    expect(none.explanations).toEqual([]);
  });

  it('matches gate hooks against the tool (or trigger) given', async () => {
    const home = tempDir('hw-dash-home-');
    mkdirSync(path.join(home, '.lurus'));
    writeFileSync(
      path.join(home, '.lurus', 'hooks.json'),
      JSON.stringify({ PreToolUse: [{ matcher: '^Write$', hooks: [{ type: 'command', command: 'true' }] }] }),
    );
    const { url } = await start({ home });
    const verdict = async (query: string) => {
      const res = await fetch(`${url}/api/explain?${query}`, { headers: auth });
      expect(res.status).toBe(200);
      return explainAnswer.parse(await res.json()).explanations.map((e) => e.verdict);
    };
    expect(await verdict('event=PreToolUse&tool=Write')).toEqual(['runs']);
    expect(await verdict('event=PreToolUse&tool=Read')).toEqual(['matcher']);
    // Empty values mean "not given", as for /api/runs: no tool, so every matcher matches.
    expect(await verdict('event=PreToolUse&tool=')).toEqual(['runs']);
    // [G-FAIL-5] Each hook with its failMode and timeout; the source under the home as `~` in words only.
    const res = await fetch(`${url}/api/explain?event=PreToolUse&tool=Write`, { headers: auth });
    const [entry] = explainAnswer.parse(await res.json()).explanations;
    expect(entry?.handler).toEqual({ type: 'command', failMode: 'open', timeoutMs: 30_000 });
    expect(entry?.source.startsWith(path.join(home, '.lurus', 'hooks.json'))).toBe(true);
  });

  it('answers 400 with the field for a bad query, and 401 without the token', async () => {
    const { url } = await start();
    const issue = async (query: string) => {
      const res = await fetch(`${url}/api/explain${query}`, { headers: auth });
      expect(res.status, query).toBe(400);
      return errorAnswer.parse(await res.json()).issues[0];
    };
    expect((await issue(''))?.path).toBe('event');
    expect(await issue('?event=NoSuchEvent')).toMatchObject({
      path: 'event',
      message: expect.stringContaining('unknown event'),
    });
    expect((await issue('?event=PreToolUse&tool=Write&trigger=x'))?.path).toBe('trigger');
    expect(await issue('?event=tool_call&color=red')).toMatchObject({ path: 'color' });
    expect((await fetch(`${url}/api/explain?event=tool_call`)).status).toBe(401);
  });
});
