import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { formatIssue } from '../src/core/issues.ts';
import { readSourceFile } from '../src/core/read-source.ts';
import { loadPrxConfig } from '../src/dialects/prx/source.ts';
import { createHookEngine } from '../src/engine.ts';
import { createApp } from '../src/server/app.ts';
import { captureLogger, tempDir, writeHooks } from './helpers.ts';
import { type ServedApp, serveApp } from './server-harness.ts';

// [L-TRUST-4] Sources are read only when they are a regular file (after symlinks) of at most the
// limit; everything else is refused at once. Real files, FIFOs, devices and sockets; no mocks.

const LIMIT = 100;
const cleanups: Array<() => Promise<void> | void> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function fifo(dir: string, name = 'fifo'): string {
  const file = path.join(dir, name);
  execFileSync('mkfifo', [file]);
  return file;
}

/**
 * A writer that opens the FIFO after a while, so that a reader that wrongly blocks on it is
 * released (and the test fails on time) instead of hanging the test run for ever.
 */
function releaseAfter(file: string, ms: number): void {
  const child: ChildProcess = spawn('timeout', ['5', 'sh', '-c', `sleep ${ms / 1000}; : > "$0"`, file], {
    stdio: 'ignore',
  });
  cleanups.push(() => {
    child.kill();
  });
}

/** Runs `fn` and returns how long it took in ms, with its result. */
function timed<T>(fn: () => T): { ms: number; value: T } {
  const started = performance.now();
  const value = fn();
  return { ms: performance.now() - started, value };
}

describe('[L-TRUST-4] readSourceFile', () => {
  it('[L-TRUST-4] a regular file within the limit is read whole, as UTF-8', () => {
    const dir = tempDir();
    const file = path.join(dir, 'a.json');
    writeFileSync(file, '{"name": "café"}');
    expect(readSourceFile(file, LIMIT)).toEqual({ kind: 'text', text: '{"name": "café"}' });
  });

  it('[L-TRUST-4] a file of exactly the limit is read; one byte more is refused unread', () => {
    const dir = tempDir();
    const file = path.join(dir, 'a.json');
    writeFileSync(file, 'x'.repeat(LIMIT));
    expect(readSourceFile(file, LIMIT)).toEqual({ kind: 'text', text: 'x'.repeat(LIMIT) });
    writeFileSync(file, 'x'.repeat(LIMIT + 1));
    expect(readSourceFile(file, LIMIT)).toEqual({
      kind: 'refused',
      message: 'is 101 bytes; the limit is 100',
    });
  });

  it('[L-TRUST-4] a symlink to a regular file is followed', () => {
    const dir = tempDir();
    const target = path.join(dir, 'real.json');
    writeFileSync(target, '{}');
    const link = path.join(dir, 'link.json');
    symlinkSync(target, link);
    expect(readSourceFile(link, LIMIT)).toEqual({ kind: 'text', text: '{}' });
  });

  it('[L-TRUST-4] a symlink to /dev/zero is refused at once, never read', () => {
    const dir = tempDir();
    const link = path.join(dir, 'zero.json');
    symlinkSync('/dev/zero', link);
    const { ms, value } = timed(() => readSourceFile(link, 1024 * 1024));
    expect(value).toEqual({ kind: 'refused', message: 'is a character device, not a regular file' });
    expect(ms).toBeLessThan(200);
  });

  it('[L-TRUST-4] a FIFO source is refused at once, never blocks', () => {
    const dir = tempDir();
    const file = fifo(dir);
    releaseAfter(file, 2000);
    const { ms, value } = timed(() => readSourceFile(file, LIMIT));
    expect(value).toEqual({ kind: 'refused', message: 'is a FIFO, not a regular file' });
    expect(ms).toBeLessThan(500);
  });

  it('[L-TRUST-4] a symlink to a FIFO is refused at once too', () => {
    const dir = tempDir();
    const file = fifo(dir);
    releaseAfter(file, 2000);
    const link = path.join(dir, 'link.json');
    symlinkSync(file, link);
    const { ms, value } = timed(() => readSourceFile(link, LIMIT));
    expect(value).toEqual({ kind: 'refused', message: 'is a FIFO, not a regular file' });
    expect(ms).toBeLessThan(500);
  });

  it('[L-TRUST-4] a directory is refused', () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, 'hooks.json'));
    expect(readSourceFile(path.join(dir, 'hooks.json'), LIMIT)).toEqual({
      kind: 'refused',
      message: 'is a directory, not a regular file',
    });
  });

  it('[L-TRUST-4] a Unix socket is refused', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'sock');
    const server: Server = createServer();
    await new Promise<void>((resolve) => server.listen(file, resolve));
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    expect(readSourceFile(file, LIMIT)).toEqual({
      kind: 'refused',
      message: 'is a socket, not a regular file',
    });
  });

  it('[L-TRUST-4] a file that turns out longer than its size said is refused after limit + 1 bytes', () => {
    // /proc files claim size 0 and are generated as read: the same as a file growing meanwhile.
    expect(statSync('/proc/self/status').size).toBe(0);
    expect(readSourceFile('/proc/self/status', LIMIT)).toEqual({
      kind: 'refused',
      message: 'grew past 100 bytes while being read; the limit is 100',
    });
  });

  it('[L-TRUST-4] a missing file, a missing folder, a path through a file and a dangling link are all missing', () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'plain'), '');
    symlinkSync(path.join(dir, 'nowhere'), path.join(dir, 'dangling'));
    for (const name of ['absent.json', 'no/such/dir.json', 'plain/child.json', 'dangling']) {
      expect(readSourceFile(path.join(dir, name), LIMIT), name).toEqual({ kind: 'missing' });
    }
  });

  it('[L-TRUST-4] a symlink loop is refused with the reason', () => {
    const dir = tempDir();
    symlinkSync(path.join(dir, 'b'), path.join(dir, 'a'));
    symlinkSync(path.join(dir, 'a'), path.join(dir, 'b'));
    const r = readSourceFile(path.join(dir, 'a'), LIMIT);
    expect(r).toEqual({ kind: 'refused', message: expect.stringMatching(/^cannot be read: .+ \(ELOOP\)$/) });
  });

  it('[L-TRUST-4] a path the system cannot open is refused with the reason (a name over 255 bytes)', () => {
    // Runs as root too (where permission bits are not enforced): the kernel refuses the name itself.
    const file = path.join(tempDir(), `${'x'.repeat(300)}.json`);
    expect(readSourceFile(file, LIMIT)).toEqual({
      kind: 'refused',
      message: expect.stringMatching(/^cannot be read: .+ \(ENAMETOOLONG\)$/),
    });
  });
});

describe('[L-TRUST-4] loadPrxConfig refuses what readSourceFile refuses, naming file, path and reason', () => {
  function issuesOf(dir: string) {
    const r = loadPrxConfig(dir);
    if (r.ok) throw new Error('expected hooks.json to be rejected');
    return r.issues;
  }

  it('[L-TRUST-4] hooks.json as a symlink to /dev/zero is rejected at once', () => {
    const dir = tempDir();
    symlinkSync('/dev/zero', path.join(dir, 'hooks.json'));
    const { ms, value } = timed(() => issuesOf(dir));
    expect(value).toEqual([
      {
        file: path.join(dir, 'hooks.json'),
        path: '$',
        message: 'file is a character device, not a regular file',
      },
    ]);
    expect(formatIssue(value[0]!)).toBe(
      `${path.join(dir, 'hooks.json')}: $: file is a character device, not a regular file`,
    );
    expect(ms).toBeLessThan(200);
  });

  it('[L-TRUST-4] hooks.json as a FIFO is rejected at once, never blocks', () => {
    const dir = tempDir();
    const file = fifo(dir, 'hooks.json');
    releaseAfter(file, 2000);
    const { ms, value } = timed(() => issuesOf(dir));
    expect(value).toEqual([{ file, path: '$', message: 'file is a FIFO, not a regular file' }]);
    expect(ms).toBeLessThan(500);
  });

  it('[L-TRUST-4] hooks.json with a duplicate key is rejected at the duplicate', () => {
    const dir = tempDir();
    const file = writeHooks(
      dir,
      '{\n  "hooks": {\n    "tool_call": [\n      {"command": "/bin/true", "command": "/bin/false"}\n    ]\n  }\n}\n',
    );
    expect(issuesOf(dir)).toEqual([
      {
        file,
        path: '$.hooks.tool_call[0].command',
        message:
          'duplicate key "command" at line 4, column 32 (also at line 4, column 8): JSON keeps only the last one',
      },
    ]);
  });

  it('[L-TRUST-4] hooks.json over 1 MiB is rejected unread, as before', () => {
    const dir = tempDir();
    writeHooks(dir, `{"hooks": {}}${' '.repeat(1024 * 1024)}`);
    expect(issuesOf(dir)[0]!.message).toBe(`file is ${1024 * 1024 + 13} bytes; the limit is 1048576`);
  });

  it('[L-TRUST-4] a symlinked regular hooks.json still loads', () => {
    const dir = tempDir();
    const real = path.join(dir, 'real.json');
    writeFileSync(real, JSON.stringify({ hooks: { tool_call: [{ command: '/bin/true' }] } }));
    symlinkSync(real, path.join(dir, 'hooks.json'));
    const r = loadPrxConfig(dir);
    expect(r.ok && r.actions.map((a) => a.command)).toEqual(['/bin/true']);
  });
});

describe('[L-TRUST-4] [P-API-3] the hooks API does not rewrite a hooks.json it refuses', () => {
  const TOKEN = 'test-token-0123456789abcdef';

  async function serve(dir: string): Promise<ServedApp> {
    const logger = captureLogger([]);
    const engine = await createHookEngine({ workspace: dir, logger, watch: false });
    const served = await serveApp(engine, createApp({ engine, token: TOKEN, logger }));
    cleanups.push(() => served.stop());
    return served;
  }

  /** The store's refusal, checked for shape rather than cast. */
  const refusalSchema = z.object({
    error: z.string(),
    issues: z.array(z.object({ file: z.string().optional(), path: z.string(), message: z.string() })),
  });

  async function call(url: string, method: string, route: string, body?: unknown) {
    const init: RequestInit = { method, headers: { authorization: `Bearer ${TOKEN}` } };
    if (body !== undefined) init.body = JSON.stringify(body);
    const res = await fetch(url + route, init);
    const answer: unknown = await res.json();
    const parsed = refusalSchema.safeParse(answer);
    return { status: res.status, json: parsed.success ? parsed.data : { error: '', issues: [] } };
  }

  const NEW_HOOK = {
    event: 'tool_call',
    action: { command: '/bin/true', args: [], env: {}, timeout_ms: 1000, stdin_json: false },
  };

  it('[L-TRUST-4] a hand-written hooks.json with a duplicate key gets 409 with the duplicate, and stays as it is', async () => {
    const dir = tempDir('hw-api-');
    const text = '{"hooks": {"tool_call": [{"command": "/bin/true", "command": "/bin/false"}]}}';
    const file = writeHooks(dir, text);
    const { url } = await serve(dir);
    for (const [method, body] of [
      ['GET', undefined],
      ['POST', NEW_HOOK],
    ] as const) {
      const res = await call(url, method, '/api/hooks', body);
      expect(res.status, method).toBe(409);
      expect(res.json.error).toMatch(/invalid on disk/);
      expect(res.json.issues).toEqual([
        {
          file,
          path: '$.hooks.tool_call[0].command',
          message: expect.stringMatching(/^duplicate key "command"/),
        },
      ]);
    }
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it('[L-TRUST-4] a FIFO hooks.json gets 409 at once and is left a FIFO', async () => {
    const dir = tempDir('hw-api-');
    const file = fifo(dir, 'hooks.json');
    releaseAfter(file, 4000);
    const { url } = await serve(dir);
    const res = await call(url, 'POST', '/api/hooks', NEW_HOOK);
    expect(res.status).toBe(409);
    expect(res.json.issues).toEqual([{ file, path: '$', message: 'file is a FIFO, not a regular file' }]);
    expect(statSync(file).isFIFO()).toBe(true);
    expect(existsSync(path.join(dir, '.hookwerk', 'state.json'))).toBe(false);
  });
});
