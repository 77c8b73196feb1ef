/**
 * [T-SELF-4] [G-WARM-1] `hookwerk daemon status` and `stop` check who listens on the socket as hook
 * calls do: a socket planted at `~/.hookwerk/daemon.sock` by a plain `node -e` server (which
 * answers every message with a daemon's status) is refused before anything is sent to it —
 * `status` says so and exits 1, `stop` sends nothing and exits 1. A real daemon is asked as
 * before. Real processes and sockets.
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { encodeReply } from '../src/hook/daemon-wire.ts';
import { startProgram } from './cli-process.ts';
import { type CliResult, REPO, runCli } from './cli-runner.ts';
import { tempDir } from './helpers.ts';

beforeAll(() => {
  if (!existsSync(path.join(REPO, 'dist', 'native', 'hookwerk-peer')))
    throw new Error('dist/native/hookwerk-peer is missing: run `npm run build` (needs cc)');
});

type Planted = Awaited<ReturnType<typeof planted>>;

/** A home with its private `.hookwerk` folder and a planted server on its daemon socket. */
async function planted() {
  const home = tempDir('hw-status-peer-');
  const socket = path.join(home, '.hookwerk', 'daemon.sock');
  mkdirSync(path.dirname(socket), { recursive: true, mode: 0o700 });
  // What a daemon answers to `status`: believed by a client that does not check the peer.
  const status = {
    running: true,
    pid: process.pid,
    socket,
    since: new Date().toISOString(),
    calls: 7,
    idleExitMinutes: null,
    engines: [],
  };
  const reply = encodeReply({
    exitCode: 0,
    stdout: Buffer.from(JSON.stringify(status)),
    stderr: Buffer.alloc(0),
  });
  const code = [
    "const net = require('node:net');",
    "const reply = Buffer.from(process.argv[1], 'base64');",
    "net.createServer((c) => { let n = 0; c.on('error', () => {});",
    "  c.on('data', (d) => { n += d.length; });",
    "  c.on('end', () => { console.log('got ' + n); c.end(reply); }); })",
    "  .listen(process.argv[2], () => console.log('ready'));",
  ].join('\n');
  const server = startProgram(process.execPath, ['-e', code, reply.toString('base64'), socket], {
    env: { PATH: process.env.PATH ?? '' },
    label: 'planted server',
  });
  await server.waitForOutput(/ready/);
  const env = { HOME: home, HOOKWERK_DAEMON_SOCKET: '' };
  return { home, socket, server, env };
}

/** `hookwerk …args` against the planted socket: refused, so it exits 1. */
async function refused(p: Planted, args: string[]): Promise<CliResult> {
  const r = await runCli(args, { env: p.env });
  expect(r.code).toBe(1);
  return r;
}

// The planted server is a startProgram child: cli-process.ts kills it after each test.
describe('[T-SELF-4] daemon status and stop ask only a peer they believe', () => {
  it('[T-SELF-4] status of a planted socket: refused, nothing sent, exit 1 (text and --json)', async () => {
    const p = await planted();
    const text = await refused(p, ['daemon', 'status']);
    expect(text.stdout).toMatch(
      new RegExp(
        `^hookwerk daemon: whatever listens on ${p.socket} is not this installation's daemon of this account \\(.+\\); not asked\\n$`,
      ),
    );
    const json = await refused(p, ['daemon', 'status', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({
      running: false,
      pid: null,
      socket: p.socket,
      refused: expect.any(String),
    });
    await p.server.waitForOutput(/got/);
    // Each connection ended without a byte of ours.
    expect(
      p.server
        .stdout()
        .match(/got \d+/g)
        ?.every((l) => l === 'got 0'),
    ).toBe(true);
  });

  it('[T-SELF-4] stop of a planted socket: "stop" not sent, exit 1, the listener untouched', async () => {
    const p = await planted();
    const stop = await refused(p, ['daemon', 'stop']);
    expect(stop.stderr).toMatch(/is not this installation's daemon of this account \(.+\); "stop" not sent/);
    await p.server.waitForOutput(/got/);
    expect(p.server.stdout()).not.toMatch(/got [1-9]/);
    expect(p.server.child.exitCode).toBe(null);
  });
});
