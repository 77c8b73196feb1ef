const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const RELATIVE = /^(\d{1,9})(s|m|h|d)$/;
/** An ISO-8601 date, or date and time (`2026-12-02`, `2026-12-02T03:22:51Z`, with an offset). */
const ISO = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/** The message for a `since` that `parseSince` cannot read. */
export const SINCE_FORMAT = 'an ISO time (2026-12-02T10:00:00Z) or a span back from now (30s, 10m, 2h, 1d)';

/**
 * `--since` / `?since=` [R-HOOK-3]: an ISO time, or `10m`, `2h`, `1d` back from `now`. Undefined
 * when it is neither. Without an offset a time is the machine's local time, and so is a date alone
 * (its midnight; JavaScript alone would read that one as UTC).
 */
export function parseSince(text: string, now: Date = new Date()): Date | undefined {
  const given = text.trim();
  const rel = RELATIVE.exec(given);
  if (rel !== null) {
    const unit = rel[2];
    if (unit !== 's' && unit !== 'm' && unit !== 'h' && unit !== 'd') return undefined;
    return new Date(now.getTime() - Number(rel[1]) * UNIT_MS[unit]);
  }
  if (!ISO.test(given)) return undefined;
  const ms = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(given) ? `${given}T00:00` : given);
  return Number.isNaN(ms) ? undefined : new Date(ms);
}
