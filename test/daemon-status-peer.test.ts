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
import { REPO, runCli } from './cli-runner.ts';
import { tempDir } from './helpers.ts';

beforeAll(() => {
  if (!existsSync(path.join(REPO, 'dist', 'native', 'hookwerk-peer')))
    throw new Error('dist/native/hookwerk-peer is missing: run `npm run build` (needs cc)');
});

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

describe('[T-SELF-4] daemon status and stop ask only a peer they believe', () => {
  it('[T-SELF-4] status of a planted socket: refused, nothing sent, exit 1 (text and --json)', async () => {
    const p = await planted();
    try {
      const text = await runCli(['daemon', 'status'], { env: p.env });
      expect(text.code).toBe(1);
      expect(text.stdout).toMatch(
        new RegExp(
          `^hookwerk daemon: whatever listens on ${p.socket} is not this installation's daemon of this account \\(.+\\); not asked\\n$`,
        ),
      );
      const json = await runCli(['daemon', 'status', '--json'], { env: p.env });
      expect(json.code).toBe(1);
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
    } finally {
      await p.server.stop('SIGKILL');
    }
  });

  it('[T-SELF-4] stop of a planted socket: "stop" not sent, exit 1, the listener untouched', async () => {
    const p = await planted();
    try {
      const stop = await runCli(['daemon', 'stop'], { env: p.env });
      expect(stop.code).toBe(1);
      expect(stop.stderr).toMatch(
        /is not this installation's daemon of this account \(.+\); "stop" not sent/,
      );
      await p.server.waitForOutput(/got/);
      expect(p.server.stdout()).not.toMatch(/got [1-9]/);
      expect(p.server.child.exitCode).toBe(null);
    } finally {
      await p.server.stop('SIGKILL');
    }
  });
});
