/**
 * [F-BUN-2] A daemon's link to its fleet: connects to NATS (retrying for as long as the daemon
 * runs — until then, and whenever the server is gone, the stored bundle stays in force), binds to
 * the bucket `hookwerk-policy` (waiting until a publisher made it), and watches its group's key:
 * the current value first, then each new one, each handed to the `FleetPolicy`. After a reconnect
 * the watch starts again from the current value, so a bundle published while this machine was
 * offline arrives as soon as it is back. Loaded only by a daemon started with `--fleet`.
 */
import type { KV, KvWatchEntry } from '@nats-io/kv';
import { errorMessage } from '../core/errno.ts';
import { defaultNatsName } from '../nats/engine-nats.ts';
import { NatsLink } from '../nats/nats-link.ts';
import type { NatsSecurity } from '../nats/nats-options.ts';
import { redactUrls } from '../nats/redact-url.ts';
import type { FleetPolicy } from './fleet-policy.ts';
import { openPolicyBucket } from './policy-bucket.ts';

/** Each connection attempt's wait; the client itself retries within it. */
const CONNECT_TRY_MS = 2000;
/** Between two tries to bind to a bucket no publisher has made yet. */
const BUCKET_RETRY_MS = 250;

export interface FleetWatchOptions {
  url: string;
  group: string;
  security: NatsSecurity;
  policy: FleetPolicy;
  say: (line: string) => void;
}

export interface FleetWatch {
  /** NATS answers now. */
  readonly connected: boolean;
  stop(): Promise<void>;
}

type Iter = AsyncIterable<KvWatchEntry> & { stop(): void };

export function startFleetWatch(opts: FleetWatchOptions): FleetWatch {
  let stopped = false;
  let link: NatsLink | undefined;
  let iter: Iter | undefined;
  let generation = 0;
  const say = (line: string) => opts.say(`fleet: ${redactUrls(line)}`);

  /** Watches until the iterator ends (a reconnect or stop ends it). */
  const watch = async (kv: KV, mine: number) => {
    const it = await kv.watch({ key: opts.group });
    if (stopped || mine !== generation) {
      it.stop();
      return;
    }
    iter = it;
    for await (const entry of it) {
      if (entry.operation !== 'PUT') continue;
      await opts.policy.consider(entry.string());
    }
  };

  /**
   * Binds to the bucket and watches; when that fails, or the watch ends on its own (the bucket
   * was deleted and made again…), tries again while this generation lasts.
   */
  const follow = async (l: NatsLink, mine: number) => {
    let told = false;
    while (!stopped && mine === generation) {
      try {
        const kv = await openPolicyBucket(l.nc, opts.security.inboxPrefix);
        await watch(kv, mine);
      } catch (e) {
        if (stopped || mine !== generation) return;
        if (!told) say(`waiting for the bucket hookwerk-policy (${errorMessage(e)})`);
        told = true;
      }
      if (stopped || mine !== generation) return;
      await new Promise((resolve) => setTimeout(resolve, BUCKET_RETRY_MS));
    }
  };

  const restart = () => {
    generation++;
    iter?.stop();
    iter = undefined;
    if (link !== undefined && !stopped) void follow(link, generation);
  };

  const run = async () => {
    let told = false;
    while (!stopped) {
      try {
        link = await NatsLink.open({
          servers: [opts.url],
          connectTimeoutMs: CONNECT_TRY_MS,
          name: defaultNatsName(),
          logger: { info: (m) => say(m), warn: (m) => say(m), error: (m) => say(m) },
          security: opts.security,
        });
        break;
      } catch (e) {
        if (!told) say(`${errorMessage(e)}; the stored bundle stays in force, retrying`);
        told = true;
      }
    }
    if (stopped || link === undefined) {
      await link?.close();
      return;
    }
    say(`connected to ${link.servers}, watching group ${opts.group}`);
    link.onReconnect(restart);
    void follow(link, generation);
  };
  const running = run();

  return {
    get connected() {
      return link?.connected ?? false;
    },
    async stop() {
      stopped = true;
      iter?.stop();
      await running;
      await link?.close();
    },
  };
}
