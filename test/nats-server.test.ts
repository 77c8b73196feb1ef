// The real nats-server harness (test/nats-server.ts) that the §8 NATS tests stand on.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { jetstream, jetstreamManager, StorageType } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { findNatsServer, type NatsServer, startNatsServer } from './nats-server.ts';

const procAlive = (pid: number): boolean => existsSync(`/proc/${pid}`);

/** Resolves on the connection's next `reconnect` status. */
async function nextReconnect(nc: NatsConnection): Promise<void> {
  for await (const status of nc.status()) {
    if (status.type === 'reconnect') return;
  }
  throw new Error('the connection closed without reconnecting');
}

describe('nats-server harness', () => {
  let server: NatsServer;
  const connections: NatsConnection[] = [];

  beforeAll(async () => {
    server = await startNatsServer();
  });
  afterEach(async () => {
    await Promise.all(connections.splice(0).map((nc) => nc.close()));
  });
  afterAll(async () => {
    await server?.cleanup();
  });

  it('[N-OPS-1] starts a real nats-server with JetStream on a free 127.0.0.1 port', () => {
    expect(server.url).toBe(`nats://127.0.0.1:${server.port}`);
    expect(server.port).toBeGreaterThan(0);
    expect(server.running).toBe(true);
    expect(procAlive(server.pid)).toBe(true);
    expect(existsSync(path.join(server.storeDir, 'jetstream'))).toBe(true);
    expect(server.output()).toContain('Server is ready');
  });

  it('carries a core publish/subscribe round trip', async () => {
    const nc = await connect({ servers: server.url });
    connections.push(nc);
    const sub = nc.subscribe('hookwerk.harness.ping', { max: 1 });
    nc.publish('hookwerk.harness.ping', 'hello');
    const got: string[] = [];
    for await (const msg of sub) got.push(msg.string());
    expect(got).toEqual(['hello']);
  });

  it('[N-OPS-1] keeps a file-stored JetStream message across restart(), same port, and clients reconnect', async () => {
    const nc = await connect({ servers: server.url, maxReconnectAttempts: -1, reconnectTimeWait: 50 });
    connections.push(nc);
    const jsm = await jetstreamManager(nc);
    await jsm.streams.add({ name: 'HARNESS', subjects: ['harness.>'], storage: StorageType.File });
    const ack = await jetstream(nc).publish('harness.one', 'kept');
    expect(ack.stream).toBe('HARNESS');
    expect(ack.seq).toBe(1);

    const oldPid = server.pid;
    const reconnected = nextReconnect(nc);
    await server.restart();
    expect(procAlive(oldPid)).toBe(false);
    expect(server.pid).not.toBe(oldPid);
    expect(procAlive(server.pid)).toBe(true);
    expect(server.url).toBe(`nats://127.0.0.1:${server.port}`);

    // A fresh client on the same URL sees the stored message …
    const fresh = await connect({ servers: server.url });
    connections.push(fresh);
    const freshJsm = await jetstreamManager(fresh);
    const info = await freshJsm.streams.info('HARNESS');
    expect(info.config.storage).toBe(StorageType.File);
    expect(info.state.messages).toBe(1);
    const stored = await freshJsm.streams.getMessage('HARNESS', { seq: 1 });
    expect(stored?.subject).toBe('harness.one');
    expect(stored?.string()).toBe('kept');

    // … and the client that was connected before the restart comes back on its own.
    await reconnected;
    const again = await jsm.streams.info('HARNESS');
    expect(again.state.messages).toBe(1);
  });

  it('[N-OPS-1] kill() is a crash: the process is gone at once, and restart() brings it back', async () => {
    await server.kill();
    expect(server.running).toBe(false);
    const killedPid = server.pid;
    expect(procAlive(killedPid)).toBe(false);
    await server.kill(); // nothing left to kill: no error
    await server.stop();

    await server.restart();
    expect(procAlive(server.pid)).toBe(true);
    const nc = await connect({ servers: server.url });
    connections.push(nc);
    const info = await (await jetstreamManager(nc)).streams.info('HARNESS');
    expect(info.state.messages).toBe(1);
  });
});

describe('nats-server harness lifecycle', () => {
  it('cleanup() stops the server and removes its temp store; the pid is gone', async () => {
    const server = await startNatsServer();
    const { pid, storeDir } = server;
    expect(procAlive(pid)).toBe(true);
    await server.cleanup();
    expect(procAlive(pid)).toBe(false);
    expect(existsSync(storeDir)).toBe(false);
    expect(server.running).toBe(false);
    await server.cleanup(); // a second call does nothing
  });

  it('starts without JetStream when asked, and JetStream is then unavailable', async () => {
    const server = await startNatsServer({ jetstream: false });
    try {
      const nc = await connect({ servers: server.url });
      try {
        await expect(jetstreamManager(nc)).rejects.toThrow();
      } finally {
        await nc.close();
      }
    } finally {
      await server.cleanup();
    }
    expect(procAlive(server.pid)).toBe(false);
  });

  it('two servers at once get different ports', async () => {
    const [a, b] = await Promise.all([startNatsServer(), startNatsServer()]);
    try {
      expect(a.port).not.toBe(b.port);
      expect(a.storeDir).not.toBe(b.storeDir);
    } finally {
      await Promise.all([a.cleanup(), b.cleanup()]);
    }
    expect(procAlive(a.pid)).toBe(false);
    expect(procAlive(b.pid)).toBe(false);
  });

  it('a port already taken fails with the server output in the error', async () => {
    const taken = await startNatsServer({ jetstream: false });
    try {
      await expect(startNatsServer({ jetstream: false, port: taken.port })).rejects.toThrow(
        /address already in use/,
      );
    } finally {
      await taken.cleanup();
    }
  });

  it('names the Debian package when nats-server is missing', () => {
    expect(() => findNatsServer('/nonexistent-dir')).toThrow(/apt-get install nats-server/);
  });
});
