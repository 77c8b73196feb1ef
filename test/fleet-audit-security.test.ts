/**
 * The audit stream locked by role [F-SEC-1, F-AUD-1]: on the shipped server config
 * (examples/nats-secure/server.conf) a fleet daemon on the daemon role creates the stream and
 * sends its records; the audit reader role reads them and cannot publish a record nor a bundle;
 * the daemon role cannot read the stream.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
import { REPO } from './cli-runner.ts';
import { bundle, fleetDaemon, keyFiles, signed } from './fleet-harness.ts';
import { tempDir } from './helpers.ts';
import { type NatsServer, startNatsServer } from './nats-server.ts';

const SECURE_CONF = path.join(REPO, 'examples', 'nats-secure', 'server.conf');
const secret = (name: string) => `${name}-${randomBytes(12).toString('hex')}`;
const DAEMON_PW = secret('daemon-pw');
const AUDIT_PW = secret('audit-pw');
const WAIT_MS = 30_000;

const dir = mkdtempSync(path.join(tmpdir(), 'hw-audit-sec-'));
const team = keyFiles(dir, 'team');
const daemonPw = path.join(dir, 'daemon.pw');
writeFileSync(daemonPw, `${DAEMON_PW}\n`, { mode: 0o600 });
const AS_DAEMON = [
  '--nats-user',
  'daemon',
  '--nats-password-file',
  daemonPw,
  '--nats-inbox-prefix',
  '_INBOX_daemon',
];

let server: NatsServer;
beforeAll(async () => {
  server = await startNatsServer({
    configFile: SECURE_CONF,
    env: {
      HOOKWERK_AGENT_PASSWORD: secret('agent-pw'),
      HOOKWERK_WORKER_PASSWORD: secret('worker-pw'),
      HOOKWERK_OBSERVER_PASSWORD: secret('observer-pw'),
      HOOKWERK_GATE_NKEY: 'UDXU4RCSJNZOIQHZNWXHXORDPRTGNJAHAHFRGZNEEJCPQTT2M7NLCNF4',
      HOOKWERK_PUBLISHER_PASSWORD: secret('publisher-pw'),
      HOOKWERK_DAEMON_PASSWORD: DAEMON_PW,
      HOOKWERK_AUDIT_PASSWORD: AUDIT_PW,
    },
  });
});
afterAll(async () => {
  await server?.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

function as(user: 'daemon' | 'audit'): Promise<NatsConnection> {
  return connect({
    servers: server.url,
    user,
    pass: user === 'daemon' ? DAEMON_PW : AUDIT_PW,
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
