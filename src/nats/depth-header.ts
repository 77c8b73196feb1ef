import { headers, type MsgHdrs } from '@nats-io/transport-node';

/** [N-BUS-1] The depth of a message travels in this header. */
export const DEPTH_HEADER = 'Hookwerk-Depth';

export function depthHeaders(depth: number): MsgHdrs {
  const h = headers();
  h.set(DEPTH_HEADER, String(depth));
  return h;
}

/**
 * [N-SEC-2] The depth a message claims, for the receiver to check against its limit. A missing
 * or unreadable header is depth 1 (a top-level event), and so is a claim of 0 or less: a header
 * can never reset a chain below where a fresh event starts. A claim above the limit is returned
 * as it is — the receiver drops it, so a loop through NATS ends (it used to read as 1 again).
 */
export function depthOf(h: MsgHdrs | undefined): number {
  const text = h?.get(DEPTH_HEADER).trim() ?? '';
  if (!/^[+-]?\d+$/.test(text)) return 1;
  const n = Number(text);
  return Math.max(n, 1);
}
