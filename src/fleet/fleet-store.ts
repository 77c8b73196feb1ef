/**
 * [F-BUN-2] Where a daemon keeps the fleet bundle in force, so that it works offline and after a
 * restart: `<home>/.hookwerk/fleet/bundle.json` (the signed bundle as received: checked again at
 * each start) and `policy.json` beside it (its policy: what the engines read, `fleetPolicyFile`).
 * The bundle is written first: a crash between the two leaves a newer bundle whose policy the
 * next start writes again; never a policy without its signed bundle.
 */
import path from 'node:path';
import { writeFileAtomic } from '../core/atomic-write.ts';
import { readSourceFile } from '../core/read-source.ts';
import { fleetPolicyFile } from '../dialects/surfaces/policy-files.ts';
import { type Bundle, bundleText } from './bundle.ts';
import { MAX_BUNDLE_BYTES, readBundleIfAny } from './bundle-file.ts';

export interface FleetStore {
  readonly dir: string;
  readonly bundleFile: string;
  readonly policyFile: string;
}

export function fleetStoreOf(home: string): FleetStore {
  const policyFile = fleetPolicyFile(home);
  const dir = path.dirname(policyFile);
  return { dir, bundleFile: path.join(dir, 'bundle.json'), policyFile };
}

/** The stored bundle, unchecked; undefined when there is none. Throws BundleError when it is malformed. */
export function storedBundle(store: FleetStore): Bundle | undefined {
  return readBundleIfAny(store.bundleFile);
}

/**
 * Puts `bundle` in force: each file replaced by a rename, so an engine loading at that moment
 * reads the old policy or the new one, never half of each.
 */
export function storeBundle(store: FleetStore, bundle: Bundle): void {
  writeFileAtomic(store.bundleFile, bundleText(bundle), { privateDir: true });
  writePolicy(store, bundle);
}

/** The stored bundle's policy, written again when the file differs (a crash, a hand edit). */
export function writePolicy(store: FleetStore, bundle: Bundle): void {
  const now = readSourceFile(store.policyFile, MAX_BUNDLE_BYTES);
  if (now.kind === 'text' && now.text === bundle.policy) return;
  writeFileAtomic(store.policyFile, bundle.policy, { privateDir: true, followSymlink: false });
}
