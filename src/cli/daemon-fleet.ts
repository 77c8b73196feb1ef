/**
 * `hookwerk daemon --fleet URL [--group G] --trust-key PUB…` [F-BUN-2]: the daemon's fleet side.
 * The keys are read at start (a bad one is a one-line error before anything listens); the stored
 * bundle is put in force at once, before NATS is even asked; NATS itself is loaded only here.
 * What `daemon status` shows of it: `fleet: {url, group, version, lastRefusal, audit}`; the
 * audit forwarder [F-AUD-1] sends the journal's records to the stream `hookwerk-audit`.
 */
import type { KeyObject } from 'node:crypto';
import type { AuditStatus } from '../fleet/audit-forwarder.ts';
import { BundleError } from '../fleet/bundle-file.ts';
import { readPublicKey } from '../fleet/bundle-keys.ts';
import { FleetPolicy } from '../fleet/fleet-policy.ts';
import type { FleetWatch } from '../fleet/fleet-watch.ts';
import { GROUP_PATTERN } from '../fleet/policy-bucket.ts';
import { redactUrls } from '../nats/redact-url.ts';
import { CliError } from './cli-error.ts';
import type { FleetCliOptions } from './fleet-cli-options.ts';
import { natsSecurityFromFlags } from './nats-cli-options.ts';

export interface FleetStatus {
  url: string;
  group: string;
  version: number | null;
  connected: boolean;
  lastRefusal: { version: number | null; reason: string; at: string } | null;
  /** [F-AUD-1] The audit forwarder's counts and cursor. */
  audit: AuditStatus;
}

export interface DaemonFleet {
  status(): FleetStatus;
  stop(): Promise<void>;
}

export async function startDaemonFleet(
  opts: FleetCliOptions,
  home: string,
  env: NodeJS.ProcessEnv,
  say: (line: string) => void,
): Promise<DaemonFleet | undefined> {
  const keysGiven = opts.trustKey ?? [];
  if (opts.fleet === undefined) {
    if (keysGiven.length > 0) throw new CliError('--trust-key goes with --fleet URL');
    return undefined;
  }
  const group = opts.group ?? 'default';
  if (!GROUP_PATTERN.test(group))
    throw new CliError(`--group must be 1 to 64 letters, digits, - or _, got ${JSON.stringify(group)}`);
  if (keysGiven.length === 0)
    throw new CliError('--fleet needs --trust-key PUB: the public key whose bundles this machine trusts');
  const keys: KeyObject[] = keysGiven.map((file) => {
    try {
      return readPublicKey(file);
    } catch (e) {
      throw e instanceof BundleError ? new CliError(`--trust-key ${e.message}`) : e;
    }
  });
  const security = natsSecurityFromFlags(opts);
  const policy = new FleetPolicy({ home, keys, env, say });
  // Loaded on use: only a fleet daemon loads NATS.
  const { startFleetWatch } = await import('../fleet/fleet-watch.ts');
  const watch: FleetWatch = startFleetWatch({ url: opts.fleet, group, security, policy, say });
  // [F-AUD-1] Every record of this home's journal also goes to the audit stream.
  const { startAuditForwarder } = await import('../fleet/audit-forwarder.ts');
  const audit = startAuditForwarder({ home, url: opts.fleet, security, say });
  const url = redactUrls(opts.fleet);
  return {
    status: () => ({ url, group, connected: watch.connected, ...policy.state, audit: audit.status() }),
    stop: async () => {
      await Promise.all([watch.stop(), audit.stop()]);
    },
  };
}
