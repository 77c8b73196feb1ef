import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_STREAM, auditSubject } from '../src/fleet/audit-stream.ts';
import { bundleText } from '../src/fleet/bundle.ts';
import { openPolicyBucket } from '../src/fleet/policy-bucket.ts';
import {
  hookCalls,
  journalRecords,
  recordingHome,
  streamRecords,
  timesHeld,
  until,
} from './audit-harness.ts';
import { bundle, fleetDaemon, keyFiles, signed } from './fleet-harness.ts';
import { tempDir } from './helpers.ts';
import type { NatsServer } from './nats-server.ts';
import { type SecureFleetServer, startSecureFleetServer } from './secure-fleet-server.ts';

const WAIT_MS = 30_000;

const dir = mkdtempSync(path.join(tmpdir(), 'hw-audit-sec-'));
const team = keyFiles(dir, 'team');

let fleet: SecureFleetServer;
let server: NatsServer;
let AS_DAEMON: string[];
beforeAll(async () => {
  fleet = await startSecureFleetServer(dir);
  server = fleet.server;
  AS_DAEMON = fleet.cliArgs('daemon');
});
afterAll(async () => {
  await server?.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

function as(user: 'daemon' | 'audit'): Promise<NatsConnection> {
  return connect({
    servers: server.url,
    user,
    pass: fleet.password(user),
    inboxPrefix: `_INBOX_${user}`,
  });
}

describe('the audit stream locked by role: examples/nats-secure/server.conf [F-SEC-1]', () => {
  it('[F-SEC-1] [F-AUD-1] a daemon on the daemon role sends its records; the audit reader reads them, and can publish neither a record nor a bundle', async () => {
    const home = tempDir('hw-audit-sec-home-');
    recordingHome(home);
    await fleetDaemon(server.url, [team.pub], { home, extra: AS_DAEMON });
    await hookCalls(home, 2);
    const ids = journalRecords(home).map((r) => r.hash);

    const reader = await as('audit');
    try {
      // Read with the reader's own rights: stream info and messages by sequence.
      const stored = await until(
        async () => {
          const s = await streamRecords(reader);
          return [...timesHeld(s, ids).values()].every((n) => n === 1) ? s : undefined;
        },
        'the daemon role records, read by the audit reader',
        WAIT_MS,
      );
      expect(stored.every((m) => m.subject === auditSubject(hostname(), 'claude'))).toBe(true);
      // And through a consumer of its own, as a collector would.
      const js = jetstream(reader);
      const consumer = await js.consumers.get(AUDIT_STREAM);
      const first = await consumer.next({ expires: WAIT_MS });
      expect(first?.json()).toMatchObject({ id: ids[0] });

      await expect(
        js.publish(auditSubject(hostname(), 'claude'), '{"forged":true}', { msgID: 'forged', timeout: 2000 }),
      ).rejects.toThrow();
      const kv = openPolicyBucket(reader, '_INBOX_audit');
      await expect(
        kv.then((b) => b.put('default', bundleText(signed(bundle(1, '{}'), team)))),
      ).rejects.toThrow();
      const jsm = await jetstreamManager(reader);
      await expect(jsm.streams.purge(AUDIT_STREAM)).rejects.toThrow();
      expect((await streamRecords(reader)).some((m) => m.msgId === 'forged')).toBe(false);
    } finally {
      await reader.close();
    }

    // The daemon role writes the stream, never reads it.
    const daemonConn = await as('daemon');
    try {
      const consumer = jetstream(daemonConn).consumers.get(AUDIT_STREAM);
      await expect(consumer.then((c) => c.next({ expires: 2000 }))).rejects.toThrow();
    } finally {
      await daemonConn.close();
    }
  });
});
