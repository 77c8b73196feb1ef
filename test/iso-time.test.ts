/**
 * [P-EV-2] The envelope's timestamp is `Date#toISOString()` of the emit time. The engine formats it
 * incrementally (only the milliseconds change within a second); it must give the same text for
 * any sequence of times, whatever came before.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoAt } from '../src/events/prx-events.ts';

/** Valid Date times, including years before 1970 and after 9999 (extended ISO years). */
const time = fc.integer({ min: -8.64e15, max: 8.64e15 });

describe('[P-EV-2] isoAt', () => {
  it('equals new Date(ms).toISOString() for any sequence of times', () => {
    fc.assert(
      fc.property(fc.array(time, { minLength: 1, maxLength: 40 }), (times) => {
        for (const ms of times) expect(isoAt(ms)).toBe(new Date(ms).toISOString());
      }),
    );
  });

  it('equals it for runs of nearby times (the incremental path: same second, next second)', () => {
    fc.assert(
      fc.property(
        time,
        fc.array(fc.integer({ min: -1500, max: 1500 }), { maxLength: 40 }),
        (start, steps) => {
          let ms = start;
          for (const step of steps) {
            ms = Math.max(-8.64e15, Math.min(8.64e15, ms + step));
            expect(isoAt(ms)).toBe(new Date(ms).toISOString());
          }
        },
      ),
    );
  });
});
