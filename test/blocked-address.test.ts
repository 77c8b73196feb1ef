/**
 * Issue 11: HTTP hooks never reach link-local / cloud metadata addresses unless the hook says
 * `allowLinkLocal: true` [L-RUN-5]. A literal host fails loading and `hookwerk validate` (exit 1,
 * file + JSON path + reason) [L-VAL-1]; a name is checked where the socket resolves it, so a name
 * that resolves there ends with a record of cause `blocked_address` and no connection at all
 * [L-ANS-3]. The resolver is injected (`httpLookup`): the tests map names to addresses without
 * touching /etc/hosts, and never send anything to a real link-local address.
 */

import type { LookupAddress } from 'node:dns';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import type { LookupFunction } from 'node:net';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadClaudeConfig } from '../src/dialects/claude/source.ts';
import { loadLurusConfig } from '../src/dialects/lurus/source.ts';
import { HttpRunner } from '../src/runners/http-runner.ts';
import { REPO, runCli, STACK } from './cli-runner.ts';
import { makeEngine } from './engine-harness.ts';
import { tempDir } from './helpers.ts';
import { closeHttpServers, replyJson, startHttpServer } from './http-server.ts';

afterEach(closeHttpServers);

const trustAll = () => ({ trusted: true, reason: 'test' });

function writeJson(file: string, value: unknown): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(value));
  return file;
}

/** `.lurus/hooks.json` of a fresh project with one PreToolUse HTTP hook. */
function lurusProject(hook: Record<string, unknown>): { project: string; home: string; file: string } {
  const project = tempDir('hw-addr-');
  const file = writeJson(path.join(project, '.lurus', 'hooks.json'), {
    PreToolUse: [{ hooks: [{ type: 'http', ...hook }] }],
  });
  return { project, home: tempDir('hw-addr-home-'), file };
}

/** A resolver answering every name with `addresses`, recording what it was asked. */
function mapTo(addresses: string[], asked: string[] = []): LookupFunction {
  const found: LookupAddress[] = addresses.map((address) => ({
    address,
    family: address.includes(':') ? 6 : 4,
  }));
  return (hostname, options, callback) => {
    asked.push(hostname);
    if (options.all === true) callback(null, found);
    else callback(null, found[0]!.address, found[0]!.family);
  };
}

const BLOCKED_URLS = [
  'http://169.254.169.254/latest/meta-data/',
  'http://169.254.0.1:8080/hook',
  'https://169.254.255.255/',
  'http://2852039166/', // 169.254.169.254 written as one number
  'http://[fe80::1]/',
  'http://[febf:ffff::1]:9000/',
  'http://[fd00:ec2::254]/latest/',
  'http://[::ffff:169.254.169.254]/', // IPv4-mapped
  'http://[fd20:ce::254]/',
  'http://100.100.100.200/',
];

const PLAIN_URLS = [
  'http://127.0.0.1:8080/hook',
  'http://169.253.255.255/',
  'http://169.255.0.1/',
  'http://[fec0::1]/',
  'http://[::ffff:127.0.0.1]/',
  'https://hooks.example.com/',
];

describe('[L-RUN-5] issue 11: literal link-local / metadata hosts are refused at load', () => {
  it.each(BLOCKED_URLS)('[L-RUN-5] [L-VAL-1] issue 11: %s is a config error at its url path', (url) => {
    const { project, home, file } = lurusProject({ url });
    const config = loadLurusConfig({ projectDir: project, home });
    expect(config.issues).toEqual([
      {
        file,
        path: '$.PreToolUse[0].hooks[0].url',
        message: expect.stringMatching(
          /^URL host \S+ is a link-local or cloud metadata address \(set "allowLinkLocal": true on the hook to allow it\)$/,
        ),
      },
    ]);
    expect(config.entries).toEqual([]);
  });

  it.each(PLAIN_URLS)('[L-RUN-5] issue 11: %s is accepted', (url) => {
    const { project, home } = lurusProject({ url });
    expect(loadLurusConfig({ projectDir: project, home }).issues).toEqual([]);
  });

  it('[L-RUN-5] issue 11: "allowLinkLocal": true on the hook accepts the address', () => {
    const { project, home } = lurusProject({ url: 'http://169.254.169.254/', allowLinkLocal: true });
    const config = loadLurusConfig({ projectDir: project, home });
    expect(config.issues).toEqual([]);
    expect(config.entries).toHaveLength(1);
  });

  it('[C-SRC-3] issue 11: a Claude Code HTTP handler to a metadata address is skipped with its path; allowLinkLocal keeps it', () => {
    const project = tempDir('hw-addr-claude-');
    const home = tempDir('hw-addr-home-');
    const file = writeJson(path.join(project, '.claude', 'settings.json'), {
      hooks: {
        PreToolUse: [
          {
            matcher: '*',
            hooks: [
              { type: 'http', url: 'http://[fd00:ec2::254]/latest/' },
              { type: 'http', url: 'http://169.254.169.254/ok', allowLinkLocal: true },
            ],
          },
        ],
      },
    });
    const config = loadClaudeConfig({ projectDir: project, home });
    expect(config.warnings).toEqual([
      {
        file,
        path: '$.hooks.PreToolUse[0].hooks[0].url',
        message: expect.stringContaining('fd00:ec2::254 is a link-local or cloud metadata address'),
      },
    ]);
    expect(config.entries.map((e) => ('url' in e ? e.url : undefined))).toEqual([
      'http://169.254.169.254/ok',
    ]);
  });
});

describe('[L-VAL-1] issue 11: hookwerk validate', () => {
  beforeAll(() => {
    if (!existsSync(path.join(REPO, 'dist', 'cli', 'main.js'))) {
      throw new Error('dist/ is missing: run `npm run build` before the CLI tests');
    }
  });

  it('[L-VAL-1] issue 11: a metadata URL → exit 1 with `file: path: reason`; with allowLinkLocal → exit 0', async () => {
    const { project, home, file } = lurusProject({ url: 'http://169.254.169.254/latest/meta-data/' });
    const bad = await runCli(['validate', '--project', project], { home, cwd: project });
    expect(bad.code, bad.stderr).toBe(1);
    expect(bad.stderr).not.toMatch(STACK);
    expect(bad.stderr).toContain(
      `${file}: $.PreToolUse[0].hooks[0].url: URL host 169.254.169.254 is a link-local or cloud metadata address`,
    );

    writeJson(file, {
      PreToolUse: [{ hooks: [{ type: 'http', url: 'http://169.254.169.254/', allowLinkLocal: true }] }],
    });
    const ok = await runCli(['validate', '--project', project], { home, cwd: project });
    expect(ok.code, ok.stderr).toBe(0);
  });
});

describe('[L-ANS-3] issue 11: a name that resolves to a blocked address is refused at connect time', () => {
  it('[L-ANS-3] [L-RUN-5] issue 11: a name resolving to 169.254.169.254 ends blocked_address (fail-open recorded), and nothing connects', async () => {
    // The name resolves to the test server AND to the metadata address: without the guard the
    // socket would connect to 127.0.0.1 and the server would count a connection.
    const server = await startHttpServer((_req, res) =>
      replyJson(res, 200, { decision: 'deny', reason: 'reached' }),
    );
    const asked: string[] = [];
    const { project, home } = lurusProject({ url: `http://metadata.hookwerk.test:${server.port}/hook` });
    const engine = await makeEngine(undefined, {
      projectDir: project,
      home,
      trust: trustAll,
      httpLookup: mapTo(['127.0.0.1', '169.254.169.254'], asked),
    });
    expect(engine.gate.config.issues).toEqual([]);
    const d = await engine.decide('PreToolUse', { toolName: 'Bash' });
    expect(d.decision).toBe('allow');
    expect(d.runs).toHaveLength(1);
    expect(d.runs[0]).toMatchObject({
      outcome: 'error',
      cause: 'blocked_address',
      failed: 'open',
      reason:
        'metadata.hookwerk.test resolves to 169.254.169.254 is a link-local or cloud metadata address (set "allowLinkLocal": true on the hook to allow it)',
    });
    expect(asked).toEqual(['metadata.hookwerk.test']);
    expect(server.connections()).toBe(0);
    expect(server.hits).toEqual([]);
    expect(engine.runs()[0]).toMatchObject({ cause: 'blocked_address' });
  });

  it('[L-ANS-3] issue 11: the injected resolver is what the socket connects to — an ordinary name mapped to 127.0.0.1 is answered', async () => {
    const server = await startHttpServer((_req, res) =>
      replyJson(res, 200, { decision: 'deny', reason: 'reached' }),
    );
    const { project, home } = lurusProject({ url: `http://hooks.hookwerk.test:${server.port}/hook` });
    const engine = await makeEngine(undefined, {
      projectDir: project,
      home,
      trust: trustAll,
      httpLookup: mapTo(['127.0.0.1']),
    });
    const d = await engine.decide('PreToolUse', { toolName: 'Bash' });
    expect(d).toMatchObject({ decision: 'deny', reason: 'reached' });
    expect(server.hits).toHaveLength(1);
    expect(server.hits[0]!.headers.host).toBe(`hooks.hookwerk.test:${server.port}`);
  });

  it('[L-ANS-3] issue 11: with "allowLinkLocal": true the same name goes through', async () => {
    const server = await startHttpServer((_req, res) =>
      replyJson(res, 200, { decision: 'deny', reason: 'reached' }),
    );
    const { project, home } = lurusProject({
      url: `http://metadata.hookwerk.test:${server.port}/hook`,
      allowLinkLocal: true,
    });
    const engine = await makeEngine(undefined, {
      projectDir: project,
      home,
      trust: trustAll,
      // 127.0.0.1 first: the socket's first attempt succeeds, nothing is sent to 169.254.x.x.
      httpLookup: mapTo(['127.0.0.1', '169.254.169.254']),
    });
    const d = await engine.decide('PreToolUse', { toolName: 'Bash' });
    expect(d).toMatchObject({ decision: 'deny', reason: 'reached' });
    expect(server.hits).toHaveLength(1);
  });

  it.each([
    'http://169.254.169.254/latest/meta-data/',
    'http://[::ffff:169.254.169.254]/',
    'http://[fe80::1]:9/',
  ])(
    '[L-ANS-3] issue 11: the runner itself refuses the literal %s before any socket (blocked_address)',
    async (url) => {
      const runner = new HttpRunner();
      try {
        const r = await runner.run({ url, method: 'POST', headers: {}, body: '{}', timeoutMs: 5000 });
        expect(r).toMatchObject({ kind: 'http', reason: 'blocked_address', body: '' });
        expect(r.status).toBeUndefined();
        expect(r.error).toMatch(/is a link-local or cloud metadata address/);
      } finally {
        await runner.close();
      }
    },
  );
});
