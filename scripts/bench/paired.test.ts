import { describe, expect, it } from 'vitest';
import { measurePairs, median, overheadMet, pairedOverhead, quantile } from './paired';

describe('the lookup overhead as paired differences', () => {
  it('takes quantiles between ranks', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(quantile([0, 10, 20, 30, 40], 0.25)).toBe(10);
    expect(Number.isNaN(median([]))).toBe(true);
  });

  it('is the median of the per-pair differences, which a drifting upstream does not move', () => {
    // The upstream's answer time at moment t drifts (the machine's and the service's load); the
    // portal adds 3 ms to each call.
    const upstream = (t: number) => 40 + 2 * t;
    const n = 21;
    // Within a pair both calls meet the same moment.
    const paired = pairedOverhead(Array.from({ length: n }, (_, i) => ({ directMs: upstream(i), portalMs: upstream(i) + 3 })));
    expect(paired.medianMs).toBe(3);
    expect(paired.n).toBe(n);
    // The same calls as two series one after the other (the former measure): the drift between
    // them lands in the difference of the medians.
    const apart = pairedOverhead(Array.from({ length: n }, (_, i) => ({ directMs: upstream(i), portalMs: upstream(n + i) + 3 })));
    expect(apart.differenceOfMediansMs).toBe(2 * n + 3);
  });

  it('reports the spread of the differences', () => {
    const o = pairedOverhead([1, 2, 3, 4, 5].map((d) => ({ directMs: 50, portalMs: 50 + d })));
    expect(o).toMatchObject({ medianMs: 3, p25Ms: 2, p75Ms: 4, n: 5, directMedianMs: 50, portalMedianMs: 53, differenceOfMediansMs: 3 });
    expect(overheadMet(o)).toBe(true);
  });

  it('fails the 5 ms target when the median difference is over it', () => {
    const pairs = [10, 11, 12, 13, 14].map((d, i) => ({ directMs: 40 + i, portalMs: 40 + i + d / 2 }));
    const o = pairedOverhead(pairs);
    expect(o.medianMs).toBe(6);
    expect(overheadMet(o)).toBe(false);
    expect(overheadMet({ medianMs: 5 })).toBe(true);
    expect(() => pairedOverhead([])).toThrow();
  });

  it('measures the direct call first, then the portal, pair by pair, after the warm-up', async () => {
    const calls: string[] = [];
    const pairs = await measurePairs(
      2,
      1,
      (i) => `q${i}`,
      (q) => {
        calls.push(`direct ${q}`);
        return Promise.resolve(10);
      },
      (q) => {
        calls.push(`portal ${q}`);
        return Promise.resolve(14);
      },
    );
    expect(calls).toEqual(['direct q0', 'portal q0', 'direct q1', 'portal q1', 'direct q2', 'portal q2']);
    expect(pairs).toEqual([
      { directMs: 10, portalMs: 14 },
      { directMs: 10, portalMs: 14 },
    ]);
  });
});
