/**
 * [F-BUN-2] A daemon's fleet policy: each bundle that arrives is checked — a bundle at all, signed
 * by a trusted key over unchanged content, newer than the one in force, its tests passing — and
 * only then stored and put in force (`fleet-store.ts`); otherwise it is refused and the refusal
 * (version and reason) is what `hookwerk daemon status` shows. Bundles are considered one at a
 * time, in arrival order: a slow test run cannot let an older bundle overtake a newer one.
 */
import type { KeyObject } from 'node:crypto';
import { errorMessage } from '../core/errno.ts';
import type { Bundle } from './bundle.ts';
import { BundleError, parseBundle } from './bundle-file.ts';
import { bundleRefusal } from './bundle-keys.ts';
import { bundleTestFailure } from './bundle-tests.ts';
import { type FleetStore, fleetStoreOf, storeBundle, storedBundle, writePolicy } from './fleet-store.ts';

export interface FleetRefusal {
  /** The version the bundle claimed; null when it was no readable bundle. */
  version: number | null;
  reason: string;
  at: string;
}

export interface FleetState {
  /** The version in force; null before the first bundle. */
  version: number | null;
  lastRefusal: FleetRefusal | null;
}

export interface FleetPolicyOptions {
  home: string;
  keys: readonly KeyObject[];
  env: NodeJS.ProcessEnv;
  /** Told of each bundle applied or refused (the daemon's log). */
  say?: (line: string) => void;
}

export class FleetPolicy {
  readonly #store: FleetStore;
  readonly #opts: FleetPolicyOptions;
  #inForce: Bundle | undefined;
  #lastRefusal: FleetRefusal | null = null;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(opts: FleetPolicyOptions) {
    this.#opts = opts;
    this.#store = fleetStoreOf(opts.home);
    this.#loadStored();
  }

  get state(): FleetState {
    return { version: this.#inForce?.version ?? null, lastRefusal: this.#lastRefusal };
  }

  /** Considers a bundle's text (from NATS); resolves once it is applied or refused. */
  consider(text: string): Promise<'applied' | 'refused' | 'same'> {
    const next = this.#queue.then(() => this.#consider(text));
    this.#queue = next.catch(() => {});
    return next;
  }

  /** The bundle kept from an earlier run, checked again: the keys trusted may have changed since. */
  #loadStored(): void {
    let bundle: Bundle | undefined;
    try {
      bundle = storedBundle(this.#store);
    } catch (e) {
      this.#refuse(null, `the stored bundle ${this.#store.bundleFile}: ${errorMessage(e)}`);
      return;
    }
    if (bundle === undefined) return;
    const refusal = bundleRefusal(bundle, this.#opts.keys);
    if (refusal !== undefined) {
      this.#refuse(bundle.version, `the stored bundle ${this.#store.bundleFile}: ${refusal}`);
      return;
    }
    writePolicy(this.#store, bundle);
    this.#inForce = bundle;
  }

  async #consider(text: string): Promise<'applied' | 'refused' | 'same'> {
    let bundle: Bundle;
    try {
      bundle = parseBundle(text);
    } catch (e) {
      if (!(e instanceof BundleError)) throw e;
      return this.#refuse(null, e.message);
    }
    const refusal = bundleRefusal(bundle, this.#opts.keys);
    if (refusal !== undefined) return this.#refuse(bundle.version, refusal);
    const current = this.#inForce;
    if (current !== undefined && bundle.version === current.version && bundle.sha256 === current.sha256)
      return 'same';
    if (current !== undefined && bundle.version <= current.version)
      return this.#refuse(bundle.version, `older than the version in force (${current.version})`);
    const failed = await bundleTestFailure(bundle, this.#opts.home, this.#opts.env);
    if (failed !== undefined) return this.#refuse(bundle.version, failed);
    try {
      storeBundle(this.#store, bundle);
    } catch (e) {
      // Not stored is not in force: the old bundle stays, and status says why.
      return this.#refuse(bundle.version, `cannot keep it in ${this.#store.dir}: ${errorMessage(e)}`);
    }
    this.#inForce = bundle;
    this.#opts.say?.(`fleet: version ${bundle.version} in force (sha256 ${bundle.sha256.slice(0, 12)}…)`);
    return 'applied';
  }

  #refuse(version: number | null, reason: string): 'refused' {
    this.#lastRefusal = { version, reason, at: new Date().toISOString() };
    this.#opts.say?.(`fleet: refused ${version === null ? 'a bundle' : `version ${version}`}: ${reason}`);
    return 'refused';
  }
}
