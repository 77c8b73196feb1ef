/**
 * [F-BUN-2] The JetStream key-value bucket `hookwerk-policy`: one key per group of daemons, its
 * value the signed bundle's text. Publishers create it (the daemon role may not: F-SEC-1);
 * daemons only bind to it and watch their key. Loaded only by `policy publish` and a daemon
 * with `--fleet`: no hook call ever imports NATS.
 */

import { jetstream } from '@nats-io/jetstream';
import type { KV } from '@nats-io/kv';
import { Kvm } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';

export const POLICY_BUCKET = 'hookwerk-policy';
/** Versions kept per group: enough to see what went out last, bounded. */
const HISTORY = 5;
/** The bucket's bytes at most (F-SEC-1, like N-SEC-3: no client fills the server's disk through it). */
const MAX_BUCKET_BYTES = 64 * 1024 * 1024;

/** A group name is a key of the bucket: letters, digits, `-` and `_`. */
export const GROUP_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** The bucket, created when missing (publishers). */
export function createPolicyBucket(nc: NatsConnection): Promise<KV> {
  return new Kvm(nc).create(POLICY_BUCKET, { history: HISTORY, max_bytes: MAX_BUCKET_BYTES });
}

/**
 * The bucket, which must exist (daemons: they may not create it). A watch delivers to an inbox
 * of its own: under `inboxPrefix` when the server gives this role one (N-SEC-1, F-SEC-1).
 */
export function openPolicyBucket(nc: NatsConnection, inboxPrefix?: string): Promise<KV> {
  const js = jetstream(nc, inboxPrefix !== undefined ? { watcherPrefix: inboxPrefix } : {});
  return new Kvm(js).open(POLICY_BUCKET);
}
