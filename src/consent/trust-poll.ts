/**
 * [L-TRUST-7] Approvals and revocations take effect in a running engine within 1 s: the trust
 * store's identity is looked at (one stat) at most every TRUST_POLL_MS, on the gate's path.
 */
import { statSync } from 'node:fs';
import type { ConsentPolicy } from './project-admission.ts';
import { trustStorePath } from './trust-store.ts';

const TRUST_POLL_MS = 250;

export class TrustPoll {
  readonly #policy: ConsentPolicy;
  #seenAt = 0;
  #signature = '';

  constructor(policy: ConsentPolicy) {
    this.#policy = policy;
  }

  /** Remembers the store as it is now (right after the gate sources were loaded). */
  seen(home: string): void {
    this.#signature = this.#signatureOf(home);
    this.#seenAt = Date.now();
  }

  /** True when the store changed since `seen` (looked at once per TRUST_POLL_MS at most). */
  changed(home: string): boolean {
    if (this.#policy.kind !== 'store') return false;
    const now = Date.now();
    if (now - this.#seenAt < TRUST_POLL_MS) return false;
    this.#seenAt = now;
    return this.#signatureOf(home) !== this.#signature;
  }

  #signatureOf(home: string): string {
    if (this.#policy.kind !== 'store') return '';
    try {
      const s = statSync(trustStorePath(home), { bigint: true });
      return `${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
    } catch {
      return 'absent';
    }
  }
}
