/**
 * Rollout of a team's policy [F-BUN-2]: a real nats-server with JetStream, fleet daemons as real
 * processes in homes of their own, `hookwerk policy publish` and real `hookwerk hook` calls. A
 * signed bundle reaches every daemon of its group and is enforced there; each daemon refuses what
 * it must not apply and says why in `daemon status`; the bundle in force survives a restart
 * without NATS, and one published while a machine was away arrives when it is back. Every wait
 * is for a line the daemon prints, never the clock.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connect } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleText } from '../src/fleet/bundle.ts';
import { createPolicyBucket } from '../src/fleet/policy-bucket.ts';
import { claudeVerdict } from './claude-verdict.ts';
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
import { waitFor } from './helpers.ts';
import { type NatsServer, startNatsServer } from './nats-server.ts';

/** Keys and bundle files for the whole file (a test's tempDir goes after it). */
const dir = mkdtempSync(path.join(tmpdir(), 'hw-fleet-'));
let server: NatsServer;
beforeAll(async () => {
  server = await startNatsServer();
});
afterAll(async () => {
  await server?.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

const team = keyFiles(dir, 'team');
const other = keyFiles(dir, 'other');

async function publish(file: string, group: string) {
  const r = await runCli(['policy', 'publish', '--nats', server.url, '--group', group, file]);
  expect(r.code, r.stderr).toBe(0);
  return r;
}

/** What an attacker with the publisher's rights puts in the bucket, unchecked. */
async function putRaw(group: string, text: string): Promise<void> {
  const nc = await connect({ servers: server.url });
  try {
    const kv = await createPolicyBucket(nc);
    await kv.put(group, text);
  } finally {
    await nc.close();
  }
}

describe('rollout over JetStream KV [F-BUN-2]', () => {
  it('[F-BUN-2] daemon --fleet needs a trusted key that can be read, and --trust-key needs --fleet: one line each', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['--fleet', server.url], /--fleet needs --trust-key PUB/],
      [['--trust-key', team.pub], /--trust-key goes with --fleet URL/],
      [
        ['--fleet', server.url, '--trust-key', team.key.replace('.key', '.nope')],
        /--trust-key .*\.nope: no such file/,
      ],
      [['--fleet', server.url, '--trust-key', team.pub, '--group', 'a.b'], /--group must be/],
    ];
    const results = await Promise.all(
      cases.map(([args]) =>
        runCli(['daemon', '--socket', path.join(dir, 'never.sock'), ...args], { home: dir }),
      ),
    );
    results.forEach((r, i) => {
      expect(r.code).toBe(1);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(cases[i]?.[1] ?? /never/);
    });
  });

  it('[F-BUN-2] a signed bundle reaches every daemon of the group and hookwerk hook enforces it; the next one replaces it', async () => {
    const [a, b] = await Promise.all([
      fleetDaemon(server.url, [team.pub], { group: 'web' }),
      fleetDaemon(server.url, [team.pub], { group: 'web' }),
    ]);
    expect(await verdictFor(a.home, 'rm -rf build')).toBe('none');

    const v1 = signed(bundle(1, denying('rm'), [testFile('rm.json', 'rm -rf build', 'deny')]), team);
    const published = await publish(writeBundle(dir, 'web-1.json', v1), 'web');
    expect(published.stdout).toMatch(/published: version 1 to hookwerk-policy\/web/);
    await Promise.all([a, b].map(({ daemon }) => daemon.waitForOutput(/fleet: version 1 in force/)));
    const [va, vb] = await Promise.all([
      verdictFor(a.home, 'rm -rf build'),
      verdictFor(b.home, 'rm -rf build'),
    ]);
    expect([va, vb]).toEqual(['deny', 'deny']);
    const status = await fleetStatus(a.home);
    expect(status).toMatchObject({ version: 1, connected: true, group: 'web', lastRefusal: null });

    // The CLI will not publish what every daemon would refuse.
    const again = await runCli([
      'policy',
      'publish',
      '--nats',
      server.url,
      '--group',
      'web',
      writeBundle(dir, 'web-1b.json', v1),
    ]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/version 1 is not newer than the group web's version 1/);

    const v2 = signed(bundle(2, denying('git push')), team);
    await publish(writeBundle(dir, 'web-2.json', v2), 'web');
    await Promise.all([a, b].map(({ daemon }) => daemon.waitForOutput(/fleet: version 2 in force/)));
    expect(await verdictFor(b.home, 'rm -rf build')).toBe('none');
    expect(await verdictFor(b.home, 'git push origin main')).toBe('deny');
  });

  it('[F-BUN-2] a forged, unsigned, tampered, older or test-failing bundle is refused, with its reason in daemon status', async () => {
    const { home, daemon } = await fleetDaemon(server.url, [team.pub], { group: 'ops' });
    await publish(writeBundle(dir, 'ops-1.json', signed(bundle(1, denying('rm')), team)), 'ops');
    await daemon.waitForOutput(/fleet: version 1 in force/);

    const refusals: Array<[string, RegExp]> = [
      [bundleText(bundle(2, '{}')), /refused version 2: unsigned/],
      [bundleText(signed(bundle(3, '{}'), other)), /refused version 3: wrong key/],
      [
        JSON.stringify({ ...signed(bundle(4, denying('rm')), team), policy: '{}' }),
        /refused version 4: content changed/,
      ],
      [
        bundleText(signed(bundle(5, '{}', [testFile('rm.json', 'rm -rf build', 'deny')]), team)),
        /refused version 5: its tests fail: 1 of 1/,
      ],
      ['{"format": "hookwerk-bundle/1", "version": "six"}', /refused a bundle: not a bundle/],
    ];
    for (const [text, line] of refusals) {
      await putRaw('ops', text);
      await daemon.waitForOutput(line);
    }
    const status = await fleetStatus(home);
    expect(status.version).toBe(1);
    expect(status.lastRefusal?.reason).toMatch(/not a bundle/);

    // A newer version in force; then an older one, properly signed, is refused.
    await putRaw('ops', bundleText(signed(bundle(7, denying('rm')), team)));
    await daemon.waitForOutput(/fleet: version 7 in force/);
    await putRaw('ops', bundleText(signed(bundle(6, '{}'), team)));
    await daemon.waitForOutput(/refused version 6: older than the version in force \(7\)/);
    expect((await fleetStatus(home)).lastRefusal).toMatchObject({ version: 6 });
    const shown = await runCli(['daemon', 'status'], { home });
    expect(shown.stdout).toMatch(/^fleet: .* group ops \(connected\), version in force: 7$/m);
    expect(shown.stdout).toMatch(/^last refusal: version 6 at .*: older than the version in force \(7\)$/m);
    // None of them loosened anything.
    expect(await verdictFor(home, 'rm -rf build')).toBe('deny');
  });

  it('[F-BUN-2] the swap is atomic: a call running when a bundle arrives finishes on the old policy, the next one gets the new', async () => {
    const { home, daemon } = await fleetDaemon(server.url, [team.pub], { group: 'swap' });
    const gate = (says: string, wait: boolean) =>
      JSON.stringify({
        hooks: {
          PreToolUse: [
            {
              matcher: 'Bash',
              hooks: [
                {
                  type: 'command',
                  command: `input=$(cat); case "$input" in *slow-call*) ${
                    wait ? `: > '${home}/started'; while [ ! -e '${home}/go' ]; do sleep 0.02; done; ` : ''
                  }echo '${says}' >&2; exit 2;; esac`,
                },
              ],
            },
          ],
        },
      });
    await publish(writeBundle(dir, 'swap-1.json', signed(bundle(1, gate('v1 says no', true)), team)), 'swap');
    await daemon.waitForOutput(/fleet: version 1 in force/);

    const running = runCli(['hook', '--agent', 'claude'], {
      home,
      cwd: home,
      stdin: {
        text: JSON.stringify({
          session_id: 's',
          hook_event_name: 'PreToolUse',
          cwd: home,
          tool_name: 'Bash',
          tool_input: { command: 'echo slow-call' },
        }),
      },
    });
    await waitFor(() => existsSync(path.join(home, 'started')), 'the call to be running', 15_000);
    await publish(
      writeBundle(dir, 'swap-2.json', signed(bundle(2, gate('v2 says no', false)), team)),
      'swap',
    );
    await daemon.waitForOutput(/fleet: version 2 in force/);
    writeFileSync(path.join(home, 'go'), '');
    expect(claudeVerdict(await running).reason).toContain('v1 says no');
    const next = await runCli(['hook', '--agent', 'claude'], {
      home,
      cwd: home,
      stdin: {
        text: JSON.stringify({
          session_id: 's',
          hook_event_name: 'PreToolUse',
          cwd: home,
          tool_name: 'Bash',
          tool_input: { command: 'echo slow-call' },
        }),
      },
    });
    expect(claudeVerdict(next).reason).toContain('v2 says no');
  });

  it('[F-BUN-2] the bundle in force survives a restart without NATS; one published while away arrives on reconnect', async () => {
    const { home, daemon } = await fleetDaemon(server.url, [team.pub], { group: 'away' });
    await publish(writeBundle(dir, 'away-1.json', signed(bundle(1, denying('rm')), team)), 'away');
    await daemon.waitForOutput(/fleet: version 1 in force/);
    await daemon.stop('SIGTERM');
    // No daemon at all: the cold path reads the stored bundle too.
    expect(await verdictFor(home, 'rm -rf build')).toBe('deny');

    // Published while this machine is off; then the server goes too.
    await publish(writeBundle(dir, 'away-2.json', signed(bundle(2, denying('curl')), team)), 'away');
    await server.stop();

    const back = await fleetDaemon(server.url, [team.pub], { home, group: 'away' });
    await back.daemon.waitForOutput(/cannot|could not|no server|unreachable|retrying/i);
    const offline = await fleetStatus(home);
    expect(offline).toMatchObject({ version: 1, connected: false });
    expect(await verdictFor(home, 'rm -rf build')).toBe('deny');

    await server.restart();
    await back.daemon.waitForOutput(/fleet: version 2 in force/);
    expect(await verdictFor(home, 'curl https://example.com')).toBe('deny');
    expect(await verdictFor(home, 'rm -rf build')).toBe('none');
  });
});
