/**
 * Run timeouts on one timer (src/runners/deadlines.ts): each fires once, in deadline order, never
 * after being cancelled, and cancelled entries do not pile up.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Deadlines } from '../src/runners/deadlines.ts';
import { waitFor } from './helpers.ts';

describe('Deadlines', () => {
  it('fires live deadlines in order, each once, and never a cancelled one', async () => {
    const d = new Deadlines();
    const fired: string[] = [];
    d.add(30, () => fired.push('c'));
    const b = d.add(20, () => fired.push('b'));
    d.add(10, () => fired.push('a'));
    d.add(40, () => fired.push('d'));
    b.cancel();
    await waitFor(() => fired.length === 3, 'three deadlines to fire');
    expect(fired).toEqual(['a', 'c', 'd']);
  });

  it('a deadline added after the armed one (runs one after another) fires too', async () => {
    const d = new Deadlines();
    const fired: number[] = [];
    const first = d.add(5, () => fired.push(1));
    first.cancel();
    d.add(15, () => fired.push(2));
    await waitFor(() => fired.length === 1, 'the second deadline to fire');
    expect(fired).toEqual([2]);
  });

  it('cancel after firing is a no-op', async () => {
    const d = new Deadlines();
    let n = 0;
    const e = d.add(1, () => n++);
    await waitFor(() => n === 1, 'the deadline to fire');
    e.cancel();
    e.cancel();
    expect(n).toBe(1);
    expect(d.size).toBe(0);
  });

  it('cancelled entries are dropped: with 10 000 runs started and finished, the heap stays small', () => {
    const d = new Deadlines();
    const live = [];
    for (let i = 0; i < 10_000; i++) {
      live.push(d.add(60_000, () => {}));
      // Ten in flight at a time, finishing out of order.
      if (live.length > 10) live.splice(i % 7 === 0 ? 0 : 5, 1)[0]?.cancel();
    }
    expect(d.size).toBeLessThanOrEqual(2 * live.length + 64);
    for (const e of live) e.cancel();
    expect(d.size).toBe(0);
  });

  it('property: with a fake clock, exactly the live entries due by then have fired, in order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ at: fc.integer({ min: 0, max: 1000 }), cancel: fc.boolean() }), {
          maxLength: 60,
        }),
        fc.integer({ min: 0, max: 1200 }),
        (entries, until) => {
          let now = 0;
          const d = new Deadlines(() => now);
          const fired: number[] = [];
          const handles = entries.map((e, i) => d.add(e.at, () => fired.push(i)));
          entries.forEach((e, i) => {
            if (e.cancel) handles[i]?.cancel();
          });
          // Drive the heap as its timer would, without waiting.
          now = until;
          d.fireDue();
          const want = entries
            .map((e, i) => ({ ...e, i }))
            .filter((e) => !e.cancel && e.at <= until)
            .sort((a, b) => a.at - b.at || 0)
            .map((e) => e.i);
          expect(fired.map((i) => entries[i]?.at)).toEqual(want.map((i) => entries[i]?.at));
          expect([...fired].sort((a, b) => a - b)).toEqual([...want].sort((a, b) => a - b));
        },
      ),
    );
  });
});
