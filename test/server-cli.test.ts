import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type CliProcess, startCli } from './cli-process.ts';
import { REPO, STACK } from './cli-runner.ts';
import { tempDir, waitFor, writeScript } from './helpers.ts';

// §3 `hookwerk serve`, run for real: `node bin/hookwerk.js serve --port 0` as a child process,
// talked to over HTTP on 127.0.0.1 like a user (or an agent sidecar) would.

const START_MS = 20_000;

type Served = CliProcess & { url: string };

beforeAll(() => {
  if (!existsSync(path.join(REPO, 'dist', 'cli', 'serve.js'))) {
    throw new Error('dist/ is missing serve: run `npm run build` before the CLI tests');
  }
});

/** The test's environment minus anything that would change the server: no token, HOME in a temp dir. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith('ZERO_HOOK_')) delete env[key];
  delete env.HOOKWERK_TOKEN;
  delete env.HOOKWERK_DEBUG;
  env.HOME = tempDir('hw-serve-home-');
  return Object.assign(env, extra);
}

function spawnCli(args: string[], env: NodeJS.ProcessEnv) {
  return startCli(args, { fullEnv: env });
}

/** Starts `hookwerk serve --workspace dir --port 0 …` and waits for the URL it prints. */
async function serve(dir: string, env: NodeJS.ProcessEnv, extra: string[] = []): Promise<Served> {
  const p = spawnCli(['serve', '--workspace', dir, '--port', '0', ...extra], env);
  let exited = false;
  void p.exit.then(() => {
    exited = true;
  });
  const url = await waitFor(
    () => {
      if (exited) throw new Error(`serve exited early:\n${p.stdout()}\n${p.stderr()}`);
      // The URL, then the token line and the workspace line.
      return /listening on (http:\/\/\S+)\n.*\nworkspace: /.exec(p.stdout())?.[1];
    },
    'serve to print its URL',
    START_MS,
  );
  return { ...p, url: url! };
}

async function api(url: string, token: string, method: string, route: string, body?: unknown) {
  const res = await fetch(url + route, {
    method,
    headers: { authorization: `Bearer ${token}` },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return {
    status: res.status,
    text,
    json: text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : undefined,
  };
}

async function stop(s: Served, signal: NodeJS.Signals = 'SIGTERM') {
  s.child.kill(signal);
  return s.exit;
}

describe('§3 hookwerk serve [P-API-1]', () => {
  it('[P-API-1] prints the URL (127.0.0.1) and the token path; the token file is 0600 in a 0700 folder and reused on restart', async () => {
    const dir = tempDir('hw-serve-');
    const env = cleanEnv();
    const first = await serve(dir, env);
    expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const tokenFile = path.join(dir, '.hookwerk', 'token');
    expect(first.stdout()).toContain(`token: ${tokenFile} (new)`);
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(tokenFile)).mode & 0o777).toBe(0o700);
    const token = readFileSync(tokenFile, 'utf8').trim();
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    // The secret itself is never printed.
    expect(first.stdout() + first.stderr()).not.toContain(token);
    expect((await api(first.url, token, 'GET', '/api/hooks')).status).toBe(200);
    expect((await api(first.url, 'x'.repeat(64), 'GET', '/api/hooks')).status).toBe(401);
    expect(await stop(first)).toEqual({ code: 0, signal: null });

    // Loosened by someone: the next start tightens it again, and says so.
    chmodSync(tokenFile, 0o644);
    const second = await serve(dir, env);
    expect(second.stdout()).toContain(`token: ${tokenFile}\n`);
    expect(second.stderr()).toContain(`${tokenFile} was readable by others; it is now 0600`);
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
    expect(readFileSync(tokenFile, 'utf8').trim()).toBe(token);
    expect((await api(second.url, token, 'GET', '/api/hooks')).status).toBe(200);
    expect(await stop(second, 'SIGINT')).toEqual({ code: 0, signal: null });
  });

  it('[P-API-1] HOOKWERK_TOKEN wins over the token file; without a file none is created', async () => {
    const dir = tempDir('hw-serve-');
    const envToken = 'env-token-abcdefghijklmnop';
    const s = await serve(dir, cleanEnv({ HOOKWERK_TOKEN: envToken }));
    expect(s.stdout()).toContain('token: from HOOKWERK_TOKEN');
    expect(existsSync(path.join(dir, '.hookwerk', 'token'))).toBe(false);
    expect((await api(s.url, envToken, 'GET', '/api/hooks')).status).toBe(200);
    await stop(s);

    // With a token file present, the variable still decides; the file's token is refused.
    mkdirSync(path.join(dir, '.hookwerk'), { mode: 0o700 });
    writeFileSync(path.join(dir, '.hookwerk', 'token'), `${'f'.repeat(64)}\n`, { mode: 0o600 });
    const again = await serve(dir, cleanEnv({ HOOKWERK_TOKEN: envToken }));
    expect((await api(again.url, 'f'.repeat(64), 'GET', '/api/hooks')).status).toBe(401);
    expect((await api(again.url, envToken, 'GET', '/api/hooks')).status).toBe(200);
    expect(await stop(again)).toEqual({ code: 0, signal: null });
  });

  it('[P-API-2] [P-API-4] the docs/serve.md flow: create a hook, send an event, see the run in /api/runs and /metrics', async () => {
    const dir = tempDir('hw-serve-');
    const s = await serve(dir, cleanEnv());
    const token = readFileSync(path.join(dir, '.hookwerk', 'token'), 'utf8').trim();

    // The very requests of docs/serve.md, sent with fetch instead of curl.
    // curl -s -H "$AUTH" -X POST "$URL/api/hooks" -d '{"event":"tool_call","action":{…}}'
    const created = await api(s.url, token, 'POST', '/api/hooks', {
      event: 'tool_call',
      action: {
        command: '/bin/sh',
        args: ['-c', 'printf "%s\\n" "$ZERO_HOOK_PAYLOAD" >> tool-calls.jsonl'],
        timeout_ms: 5000,
      },
    });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ id: 'hook_01', event: 'tool_call', enabled: true });
    // curl -s -H "$AUTH" -X POST "$URL/api/events" -d '{"event":"tool_call","session_id":"demo",…}'
    const sent = await api(s.url, token, 'POST', '/api/events', {
      event: 'tool_call',
      session_id: 'demo',
      payload: { tool: 'shell', success: true, output: 'hello' },
    });
    expect(sent).toMatchObject({ status: 202, json: { accepted: true } });
    // curl -s -H "$AUTH" "$URL/api/runs?limit=5"
    const runs = await waitFor(async () => {
      const r = await api(s.url, token, 'GET', '/api/runs?limit=5');
      return r.json.runs.length > 0 ? r.json.runs : undefined;
    }, 'the run record');
    expect(runs[0]).toMatchObject({ hook: 'hook_01', event: 'tool_call', outcome: 'ok', sessionId: 'demo' });
    const logged = JSON.parse(readFileSync(path.join(dir, 'tool-calls.jsonl'), 'utf8').trim());
    expect(logged).toMatchObject({ event: 'tool_call', session_id: 'demo', payload: { output: 'hello' } });
    // curl -s -H "$AUTH" "$URL/metrics"
    const metrics = await api(s.url, token, 'GET', '/metrics');
    expect(metrics.text).toMatch(/^hook_runs_total\{event="tool_call",outcome="ok"\} 1$/m);
    // curl -s -H "$AUTH" "$URL/api/hooks"
    expect((await api(s.url, token, 'GET', '/api/hooks')).json.hooks).toHaveLength(1);
    expect(JSON.parse(readFileSync(path.join(dir, 'hooks.json'), 'utf8')).hooks.tool_call[0].id).toBe(
      'hook_01',
    );
    expect(await stop(s)).toEqual({ code: 0, signal: null });
    expect(s.stderr()).toBe('');
  });

  it('[P-FF-3] SIGTERM: stops accepting, ends event streams, drains the running hook (its marker appears), exits 0', async () => {
    const dir = tempDir('hw-serve-');
    writeScript(dir, 'slow.sh', 'touch "$(dirname "$0")/started"\nsleep 1\ntouch "$(dirname "$0")/done"');
    const s = await serve(dir, cleanEnv());
    const token = readFileSync(path.join(dir, '.hookwerk', 'token'), 'utf8').trim();
    await api(s.url, token, 'POST', '/api/hooks', { event: 'agent_end', action: { command: './slow.sh' } });

    // An open event stream must not keep the server from stopping.
    const port = Number(new URL(s.url).port);
    let streamEnded = false;
    await new Promise<void>((resolve, reject) => {
      const req = http.get(
        {
          host: '127.0.0.1',
          port,
          path: '/api/events/stream',
          headers: { authorization: `Bearer ${token}` },
        },
        (res) => {
          expect(res.statusCode).toBe(200);
          res.on('data', () => {});
          res.on('end', () => {
            streamEnded = true;
          });
          resolve();
        },
      );
      req.on('error', reject);
    });

    await api(s.url, token, 'POST', '/api/events', {
      event: 'agent_end',
      payload: { success: true, messages_count: 3 },
    });
    await waitFor(() => existsSync(path.join(dir, 'started')), 'the hook to start');
    expect(existsSync(path.join(dir, 'done'))).toBe(false);
    const result = await stop(s);
    expect(result).toEqual({ code: 0, signal: null });
    expect(existsSync(path.join(dir, 'done'))).toBe(true);
    expect(streamEnded).toBe(true);
    expect(s.stdout()).toMatch(/SIGTERM, shutting down/);
    expect(s.stdout()).toMatch(/stopped\n$/);
    // Stopped accepting: the port is closed.
    await expect(fetch(`${s.url}/healthz`)).rejects.toThrow();
  });

  it('§3 bad arguments and a busy port → exit 1 with one line on stderr, no stack trace', async () => {
    const dir = tempDir('hw-serve-');
    const env = cleanEnv({ HOOKWERK_TOKEN: 'env-token-abcdefghijklmnop' });
    for (const [args, message] of [
      [['--port', '70000'], /--port must be a number from 0 to 65535/],
      [['--port', 'abc'], /--port must be a number/],
      [['--workspace', path.join(dir, 'missing')], /does not exist/],
    ] as const) {
      const p = spawnCli(['serve', '--workspace', dir, '--port', '0', ...args], env);
      const { code } = await p.exit;
      expect(code, p.stderr()).toBe(1);
      expect(p.stderr()).toMatch(message);
      expect(p.stderr()).not.toMatch(STACK);
    }
    const short = spawnCli(
      ['serve', '--workspace', dir, '--port', '0'],
      cleanEnv({ HOOKWERK_TOKEN: 'short' }),
    );
    expect((await short.exit).code).toBe(1);
    expect(short.stderr()).toMatch(/HOOKWERK_TOKEN is too short/);

    const s = await serve(dir, env);
    const port = new URL(s.url).port;
    const busy = spawnCli(['serve', '--workspace', dir, '--port', port], env);
    expect((await busy.exit).code).toBe(1);
    expect(busy.stderr()).toMatch(new RegExp(`127\\.0\\.0\\.1:${port} is in use`));
    expect(busy.stderr()).not.toMatch(STACK);
    expect(await stop(s)).toEqual({ code: 0, signal: null });
  });
});
