/**
 * Addresses an HTTP hook may not reach unless it says `allowLinkLocal: true` (issue 11): link-local
 * ranges, where every cloud serves its instance metadata (and with it the machine's credentials)
 * to anyone on the host who asks. A hooks file that sends the agent's events there, or a name that
 * resolves there, would hand that service to whoever wrote the file.
 *
 * Node's BlockList also matches the IPv4-mapped forms (`::ffff:169.254.169.254`).
 */
import { BlockList, isIP } from 'node:net';
import { HookwerkError, type HookwerkErrorCode } from '../core/errors.ts';

/**
 * Made on first use, not at import: a BlockList is a native handle, which a V8 startup snapshot of
 * the engine cannot hold ([G-PERF-1], src/hook/snapshot-build.ts).
 */
let blocked: BlockList | undefined;

function blockList(): BlockList {
  if (blocked !== undefined) return blocked;
  const list = new BlockList();
  list.addSubnet('169.254.0.0', 16, 'ipv4'); // IPv4 link-local: AWS, GCP, Azure, OCI metadata 169.254.169.254, ECS 169.254.170.2
  list.addSubnet('fe80::', 10, 'ipv6'); // IPv6 link-local
  list.addAddress('fd00:ec2::254', 'ipv6'); // AWS instance metadata over IPv6
  list.addAddress('fd20:ce::254', 'ipv6'); // GCP metadata over IPv6
  list.addAddress('100.100.100.200', 'ipv4'); // Alibaba Cloud metadata (outside 169.254/16)
  blocked = list;
  return list;
}

/** The code on the error a guarded connection fails with; the runner turns it into `blocked_address`. */
export const BLOCKED_ADDRESS_CODE = 'BLOCKED_ADDRESS' satisfies HookwerkErrorCode;

/** Why `address` (an IP literal, no brackets) is refused, or `undefined`; a non-IP is never blocked here. */
export function blockedAddressReason(address: string): string | undefined {
  const family = isIP(address);
  if (family === 0) return undefined;
  if (!blockList().check(address, family === 4 ? 'ipv4' : 'ipv6')) return undefined;
  return `${address} is a link-local or cloud metadata address (set "allowLinkLocal": true on the hook to allow it)`;
}

/** A connection refused before it was made, because of where it would have gone. */
export class BlockedAddressError extends HookwerkError {
  constructor(host: string, address: string) {
    const reason = blockedAddressReason(address) ?? `${address} is blocked`;
    super('BLOCKED_ADDRESS', host === address ? reason : `${host} resolves to ${reason}`);
  }
}

/**
 * [L-RUN-5] (issue 11) Load time: why an HTTP hook's URL is refused for a literal link-local or
 * metadata host, or `undefined`. Names are checked when they are resolved, at connect time.
 */
export function literalHostProblem(url: string): string | undefined {
  let hostname: string;
  try {
    hostname = new URL(url).hostname;
  } catch {
    return undefined; // urlProblem() reports it
  }
  const address = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  const reason = blockedAddressReason(address);
  return reason === undefined ? undefined : `URL host ${reason}`;
}
