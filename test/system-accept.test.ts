/**
 * [T-MGD-3] The system daemon's door (native/hookwerk-accept.c) against the Node that runs this
 * test: the door writes Node's internal "send a handle" line itself (NODE_HANDLE with SCM_RIGHTS
 * on the IPC channel), so a Node release that changes that protocol must fail here — run this file
 * on each supported Node (20, 22, 24). As root: the door binds, drops to `nobody`, listens.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { connect, Socket } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ACCEPT_HELPER } from '../src/hook/daemon-peer.ts';
import { openTempDir } from './managed-namespace.ts';

const NOBODY = 65534;
const STALLED = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  'fixtures',
  'door-stalled-parent.mjs',
);

interface Handed {
  msg: unknown;
  socket: Socket | undefined;
}

const doors: ChildProcess[] = [];

afterEach(() => {
  for (const door of doors.splice(0)) door.kill('SIGKILL');
});

/** Starts the door on a fresh socket; resolves with it once it said ready. */
async function door(): Promise<{
  child: ChildProcess;
  socket: string;
  handed: Handed[];
  next: () => Promise<Handed>;
}> {
  const socket = path.join(openTempDir('hw-door-'), 'daemon.sock');
  const child = spawn(ACCEPT_HELPER, [socket, String(NOBODY), String(NOBODY)], {
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    serialization: 'json',
    env: {},
  });
  doors.push(child);
  const handed: Handed[] = [];
  const waiters: Array<(h: Handed) => void> = [];
  let ready: () => void = () => {};
  const isReady = new Promise<void>((resolve) => {
    ready = resolve;
  });
  child.on('message', (msg: unknown, handle: unknown) => {
    if (typeof msg === 'object' && msg !== null && Reflect.get(msg, 'hookwerkAccept') === 'ready')
      return ready();
    const h = { msg, socket: handle instanceof Socket ? handle : undefined };
    const waiter = waiters.shift();
    if (waiter !== undefined) waiter(h);
    else handed.push(h);
  });
  await isReady;
  const next = () => {
    const first = handed.shift();
    return first !== undefined
      ? Promise.resolve(first)
      : new Promise<Handed>((resolve) => waiters.push(resolve));
  };
  return { child, socket, handed, next };
}

describe('[T-MGD-3] the door hands connections to Node with the kernel credentials', () => {
  it('[T-MGD-3] the door built, as root', () => {
    expect(existsSync(ACCEPT_HELPER)).toBe(true);
    expect(process.geteuid?.()).toBe(0);
  });

  it("[T-MGD-3] Node's ChildProcess emits each connection as message (hookwerkPeer, socket), several in a row, and the socket carries bytes both ways", async () => {
    const d = await door();
    const s = statSync(d.socket);
    expect([s.uid, s.gid, s.mode & 0o777, s.isSocket()]).toEqual([NOBODY, NOBODY, 0o666, true]);
    // Several at once: each handle with its own line (the ACKs Node sends back are dropped by the door).
    const clients = Array.from({ length: 5 }, () => connect(d.socket));
    const replies = clients.map(
      (c) =>
        new Promise<string>((resolve) => {
          let text = '';
          c.setEncoding('utf8').on('data', (t: string) => {
            text += t;
          });
          c.on('end', () => resolve(text));
        }),
    );
    for (let i = 0; i < clients.length; i++) {
      const h = await d.next();
      expect(h.msg).toEqual({ hookwerkPeer: { uid: 0, gid: 0, pid: process.pid } });
      expect(h.socket).toBeInstanceOf(Socket);
      h.socket?.end(`answer ${i}\n`);
    }
    expect((await Promise.all(replies)).sort()).toEqual([0, 1, 2, 3, 4].map((i) => `answer ${i}\n`));
    // Closing the channel (the daemon gone) ends the door.
    const exited = new Promise<number | null>((resolve) => d.child.on('exit', (code) => resolve(code)));
    d.child.disconnect();
    expect(await exited).toBe(0);
  });

  it('[T-MGD-3] the door refuses a socket path taken by a live listener or by a file that is not a socket', async () => {
    const d = await door();
    const again = spawn(ACCEPT_HELPER, [d.socket, String(NOBODY), String(NOBODY)], {
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      env: {},
    });
    doors.push(again);
    let err = '';
    again.stderr?.setEncoding('utf8').on('data', (t: string) => {
      err += t;
    });
    const code = await new Promise<number | null>((resolve) => again.on('close', (c) => resolve(c)));
    expect(code).toBe(1);
    expect(err).toContain('already running');
  });

  it('[T-MGD-3] a daemon that stops reading: the door closes what it cannot hand over, counts it, and goes on', async () => {
    const socket = path.join(openTempDir('hw-door-'), 'daemon.sock');
    const parent = spawn(process.execPath, [STALLED, ACCEPT_HELPER, socket, String(NOBODY), String(NOBODY)], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    doors.push(parent);
    let err = '';
    parent.stderr?.setEncoding('utf8').on('data', (t: string) => {
      err += t;
    });
    await new Promise<void>((resolve) =>
      parent.stdout?.setEncoding('utf8').on('data', (t: string) => t.includes('ready') && resolve()),
    );
    const clients: Socket[] = [];
    // Connect until the door says it closed one: the channel is full (nothing reads it).
    for (let i = 0; i < 10_000 && !err.includes('closed unanswered'); i++) {
      const c = connect(socket);
      c.on('error', () => {});
      clients.push(c);
      await new Promise((resolve) => c.once('connect', resolve));
    }
    expect(err).toContain('connection(s) closed unanswered: the daemon');
    // The last one is closed by the door with no byte (its client decides itself).
    const last = clients.at(-1);
    let bytes = 0;
    last?.on('data', (d: Buffer) => {
      bytes += d.length;
    });
    await new Promise((resolve) => last?.once('close', resolve));
    expect(bytes).toBe(0);
    for (const c of clients) c.destroy();
    // The daemon reads again, then goes: the door ends when its channel closes.
    const exited = new Promise((resolve) => parent.once('close', resolve));
    parent.stdin?.end('go\n');
    await exited;
  }, 60_000);
});
