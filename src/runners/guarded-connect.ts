/**
 * The HTTP pool's connector with the blocked-address rule applied where the address is chosen
 * (issue 11): a literal host is checked before connecting, a name inside the socket's own `lookup`,
 * so the addresses checked are the ones the socket then connects to — no second resolution a DNS
 * answer could change in between (no TOCTOU). A name with any blocked address is refused whole:
 * nothing is connected, not even its other addresses.
 */
import dns from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import type { buildConnector } from 'undici';
import { BlockedAddressError, blockedAddressReason } from './blocked-address.ts';

/** `dns.lookup`, or a stand-in with its shape (tests map names to addresses with one). */
export type HostLookup = LookupFunction;

/** `lookup` that fails with a BlockedAddressError when any address it found is blocked. */
function guardedLookup(lookup: HostLookup): HostLookup {
  return (hostname, options, callback) => {
    lookup(hostname, options, (err, address, family) => {
      if (err !== null) {
        callback(err, address, family);
        return;
      }
      const found = typeof address === 'string' ? [address] : address.map((a) => a.address);
      const blocked = found.find((a) => blockedAddressReason(a) !== undefined);
      if (blocked !== undefined) callback(new BlockedAddressError(hostname, blocked), address, family);
      else callback(null, address, family);
    });
  };
}

/**
 * An undici connector, made with undici's `buildConnector` (the caller's: undici is loaded with
 * the first HTTP call [G-PERF-1]). `guarded`: blocked addresses are refused (the default for every hook);
 * otherwise only `lookup` is applied (a hook with `allowLinkLocal: true`).
 */
export function hookConnector(
  opts: { guarded: boolean; lookup?: HostLookup },
  build: typeof buildConnector,
): buildConnector.connector {
  const lookup = opts.lookup ?? dns.lookup;
  if (!opts.guarded) return build({ lookup });
  const connect = build({ lookup: guardedLookup(lookup) });
  return (options, callback) => {
    // An IP literal never reaches `lookup`: check it here, before any socket exists.
    if (isIP(options.hostname) !== 0 && blockedAddressReason(options.hostname) !== undefined) {
      callback(new BlockedAddressError(options.hostname, options.hostname), null);
      return;
    }
    connect(options, callback);
  };
}
