/**
 * One `stat` per path, as a stamp — existence, device, inode, size, modification and change time — so
 * that "would a fresh load read something else now?" is answered without reading anything: the
 * daemon's warm engines [R-HOOK-4] and the policy index of the fast path (`policy-index.ts`) both
 * ask it. Light on purpose: `hookwerk hook` loads it on every call.
 */
import { statSync } from 'node:fs';
import { errorCode } from '../core/errno.ts';

/**
 * File times come from the kernel's coarse clock, which may lag the wall clock by a tick: a
 * change this close to (or after) the start of a load may not be in what the load read.
 */
const CLOCK_SLACK_NS = 20_000_000n;

export interface SourceStamps {
  readonly stamps: ReadonlyMap<string, string>;
  /** Some path changed so near the load that the load may have missed it: reload next time. */
  readonly unsure: boolean;
}

export function stampOf(file: string): { stamp: string; changedNs: bigint } {
  try {
    const s = statSync(file, { bigint: true, throwIfNoEntry: false });
    if (s === undefined) return { stamp: 'absent', changedNs: 0n };
    // The change time moves with every write, rename or `touch -d` (which sets only the mtime); the
    // device tells a file system mounted over the path from the file it hides.
    return { stamp: `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`, changedNs: s.ctimeNs };
  } catch (e) {
    const code = errorCode(e);
    return { stamp: code === 'ENOTDIR' ? 'absent' : `error ${code ?? '?'}`, changedNs: 0n };
  }
}

/** Stamps `paths` right after a load that began at `loadStartMs` (wall clock). */
export function stampSources(paths: readonly string[], loadStartMs: number): SourceStamps {
  const since = BigInt(loadStartMs) * 1_000_000n - CLOCK_SLACK_NS;
  const stamps = new Map<string, string>();
  let unsure = false;
  for (const file of paths) {
    const { stamp, changedNs } = stampOf(file);
    stamps.set(file, stamp);
    if (changedNs >= since) unsure = true;
  }
  return { stamps, unsure };
}

/** True when a path's stamp differs from `seen` (or the last load was unsure). */
export function sourcesChanged(seen: SourceStamps): boolean {
  if (seen.unsure) return true;
  for (const [file, stamp] of seen.stamps) if (stampOf(file).stamp !== stamp) return true;
  return false;
}
