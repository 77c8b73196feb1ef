import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleText } from '../src/fleet/bundle.ts';
import { createPolicyBucket, openPolicyBucket } from '../src/fleet/policy-bucket.ts';
import { runCli } from './cli-runner.ts';
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
import type { NatsServer } from './nats-server.ts';
import { type SecureFleetServer, startSecureFleetServer } from './secure-fleet-server.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'hw-fleet-sec-'));
const team = keyFiles(dir, 'team');
const other = keyFiles(dir, 'other');

let fleet: SecureFleetServer;
let server: NatsServer;
let AS_PUBLISHER: string[];
let AS_DAEMON: string[];
let DAEMON_PW: string;
beforeAll(async () => {
  fleet = await startSecureFleetServer(dir);
  server = fleet.server;
  AS_PUBLISHER = fleet.cliArgs('publisher');
  AS_DAEMON = fleet.cliArgs('daemon');
  DAEMON_PW = fleet.password('daemon');
});
afterAll(async () => {
  await server?.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

async function as(user: 'publisher' | 'daemon'): Promise<NatsConnection> {
  return connect({
    servers: server.url,
    user,
    pass: fleet.password(user),
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
