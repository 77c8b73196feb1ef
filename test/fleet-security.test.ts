/**
 * The fleet locked [F-SEC-1]: the shipped server config (examples/nats-secure/server.conf) on a
 * real nats-server, with its bundle-publisher and daemon roles. A daemon's credentials cannot put
 * a bundle in the bucket — through the CLI or a raw client; a daemon on those credentials applies
 * only a bundle signed by a key it trusts, newer than its own, whose tests pass, and says why it
 * refused the others in `daemon status`.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleText } from '../src/fleet/bundle.ts';
import { createPolicyBucket, openPolicyBucket } from '../src/fleet/policy-bucket.ts';
import { REPO, runCli } from './cli-runner.ts';
import {
  bundle,
  denying,
  fleetDaemon,
  fleetStatus,
  keyFiles,
  signed,
  testFile,
  verdictFor,
  writeBundle,
} from './fleet-harness.ts';
import { type NatsServer, startNatsServer } from './nats-server.ts';

const SECURE_CONF = path.join(REPO, 'examples', 'nats-secure', 'server.conf');
const secret = (name: string) => `${name}-${randomBytes(12).toString('hex')}`;
const PUBLISHER_PW = secret('publisher-pw');
const DAEMON_PW = secret('daemon-pw');

const dir = mkdtempSync(path.join(tmpdir(), 'hw-fleet-sec-'));
const team = keyFiles(dir, 'team');
const other = keyFiles(dir, 'other');
const publisherPw = path.join(dir, 'publisher.pw');
const daemonPw = path.join(dir, 'daemon.pw');
writeFileSync(publisherPw, `${PUBLISHER_PW}\n`, { mode: 0o600 });
writeFileSync(daemonPw, `${DAEMON_PW}\n`, { mode: 0o600 });

const AS_PUBLISHER = [
  '--nats-user',
  'publisher',
  '--nats-password-file',
  publisherPw,
  '--nats-inbox-prefix',
  '_INBOX_publisher',
];
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
      HOOKWERK_PUBLISHER_PASSWORD: PUBLISHER_PW,
      HOOKWERK_DAEMON_PASSWORD: DAEMON_PW,
      HOOKWERK_AUDIT_PASSWORD: secret('audit-pw'),
    },
  });
});
afterAll(async () => {
  await server?.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

async function as(user: 'publisher' | 'daemon'): Promise<NatsConnection> {
  return connect({
    servers: server.url,
    user,
    pass: user === 'publisher' ? PUBLISHER_PW : DAEMON_PW,
    inboxPrefix: `_INBOX_${user}`,
  });
}

async function publish(file: string, group: string, creds: string[]) {
  return runCli(['policy', 'publish', '--nats', server.url, '--group', group, ...creds, file]);
}

/** What the publisher role puts in the bucket, unchecked (a stolen publisher password). */
async function putAsPublisher(group: string, text: string): Promise<void> {
  const nc = await as('publisher');
  try {
    await (await createPolicyBucket(nc)).put(group, text);
  } finally {
    await nc.close();
  }
}

describe('the fleet locked by role: examples/nats-secure/server.conf [F-SEC-1]', () => {
  it('[F-SEC-1] the publisher role publishes a bundle; the daemon role cannot, by the CLI or a raw client', async () => {
    const v1 = writeBundle(dir, 'v1.json', signed(bundle(1, denying('rm')), team));
    const ok = await publish(v1, 'locked', AS_PUBLISHER);
    expect(ok.code, ok.stderr).toBe(0);

    const v2 = writeBundle(dir, 'v2.json', signed(bundle(2, '{}'), team));
    const refused = await publish(v2, 'locked', AS_DAEMON);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/refused|permission|authoriz/i);
    expect(refused.stderr).not.toContain(DAEMON_PW);

    // A raw client on the daemon's credentials: it can read the bucket, never write it.
    const nc = await as('daemon');
    try {
      const kv = await openPolicyBucket(nc, '_INBOX_daemon');
      await expect(kv.put('locked', bundleText(signed(bundle(3, '{}'), team)))).rejects.toThrow();
    } finally {
      await nc.close();
    }
    const reader = await as('publisher');
    try {
      const held = await (await createPolicyBucket(reader)).get('locked');
      expect(held?.json()).toMatchObject({ version: 1 });
    } finally {
      await reader.close();
    }
  });

  it('[F-SEC-1] a daemon on the daemon role never applies a forged, unsigned, older or test-failing bundle', async () => {
    const { home, daemon } = await fleetDaemon(server.url, [team.pub], { group: 'sec', extra: AS_DAEMON });
    await putAsPublisher('sec', bundleText(signed(bundle(1, denying('rm')), team)));
    await daemon.waitForOutput(/fleet: version 1 in force/);

    const attempts: Array<[string, RegExp, RegExp]> = [
      [bundleText(signed(bundle(2, '{}'), other)), /refused version 2: wrong key/, /wrong key/],
      [bundleText(bundle(3, '{}')), /refused version 3: unsigned/, /unsigned/],
      [
        bundleText(signed(bundle(4, '{}', [testFile('rm.json', 'rm -rf build', 'deny')]), team)),
        /refused version 4: its tests fail/,
        /tests fail/,
      ],
    ];
    for (const [text, line, reason] of attempts) {
      await putAsPublisher('sec', text);
      await daemon.waitForOutput(line);
      const status = await fleetStatus(home);
      expect(status.version).toBe(1);
      expect(status.lastRefusal?.reason).toMatch(reason);
    }
    await putAsPublisher('sec', bundleText(signed(bundle(9, denying('rm')), team)));
    await daemon.waitForOutput(/fleet: version 9 in force/);
    await putAsPublisher('sec', bundleText(signed(bundle(8, '{}'), team)));
    await daemon.waitForOutput(/refused version 8: older than the version in force \(9\)/);
    expect((await fleetStatus(home)).lastRefusal?.reason).toMatch(/older/);
    expect(await verdictFor(home, 'rm -rf build')).toBe('deny');
    expect(daemon.stderr()).not.toContain(DAEMON_PW);
  });
});
