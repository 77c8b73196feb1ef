/**
 * Run counts of the property tests (issue 11). `npm test` uses the counts as written (a few
 * seconds per file); `HOOKWERK_PROPERTY_SCALE=50 npx vitest run test/properties-…` searches longer.
 */
const given = Number(process.env.HOOKWERK_PROPERTY_SCALE ?? '1');
const scale = Number.isFinite(given) && given > 0 ? given : 1;

export function runs(n: number): number {
  return Math.max(1, Math.round(n * scale));
}

/** A test timeout that grows with the scale (vitest's default of this repo is 30 s). */
export function timeout(ms = 30_000): number {
  return Math.max(ms, Math.round(ms * scale));
}
