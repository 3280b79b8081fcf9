import { describe, expect, it } from 'vitest';
import { budgetIntervalS, outsideChangeBoundS, reservationsWithin } from './freshness-bound';

const DEFAULTS = { budgetPerHour: 2400, freshnessS: 30, backgroundS: 3600 };

describe('how long an outside change can stay unseen', () => {
  it('is the window plus a re-read for a small system, which the budget does not hold back', () => {
    // The demo system's largest: 12 requests, 0.4 s.
    expect(outsideChangeBoundS({ ...DEFAULTS, requestsPerReread: 12, rereadSeconds: 0.4 }, true)).toBeCloseTo(30.8, 5);
  });

  it('is held by the budget for the large system: 501 requests (reservations and users) at 2,400/h', () => {
    // 501 × 1.5 s = 751.5 s between starts, plus a 28 s re-read: about 13 min.
    const bound = outsideChangeBoundS({ ...DEFAULTS, requestsPerReread: 501, rereadSeconds: 28 }, true)!;
    expect(bound).toBeCloseTo(779.5, 5);
    expect(budgetIntervalS(501, 2400)).toBeCloseTo(751.5, 5);
    // Before: 523 requests a re-read (rooms, schedules and groups each time) and nothing shown before the end.
    expect(outsideChangeBoundS({ ...DEFAULTS, requestsPerReread: 523, rereadSeconds: 28 }, true)).toBeGreaterThan(bound);
    // An admin who doubles the budget halves the wait.
    expect(outsideChangeBoundS({ ...DEFAULTS, budgetPerHour: 4800, requestsPerReread: 501, rereadSeconds: 28 }, true)).toBeCloseTo(403.75, 5);
  });

  it('is the background cadence, its look and two re-reads when nobody views the system; none without one', () => {
    expect(outsideChangeBoundS({ ...DEFAULTS, requestsPerReread: 501, rereadSeconds: 28 }, false)).toBeCloseTo(3600 + 60 + 28 + 28, 5);
    expect(outsideChangeBoundS({ ...DEFAULTS, backgroundS: 0, requestsPerReread: 501, rereadSeconds: 28 }, false)).toBeNull();
  });

  it('has no budget term without a budget', () => {
    expect(outsideChangeBoundS({ ...DEFAULTS, budgetPerHour: 0, requestsPerReread: 501, rereadSeconds: 28 }, true)).toBe(30 + 28 + 28);
  });

  it('says what a budget buys: the reservations a viewed system may hold for a 60 s promise', () => {
    const settings = { freshnessS: 30, pageSeconds: 0.05, otherRequests: 2 };
    // 2,400/h refills 40 requests a minute: about 3,700 reservations are within 60 s.
    const atDefault = reservationsWithin(60, { ...settings, budgetPerHour: 2400 });
    expect(atDefault).toBeGreaterThanOrEqual(3_500);
    expect(atDefault).toBeLessThan(5_000);
    // 5,000 reservations within 60 s need about 3,300/h.
    expect(reservationsWithin(60, { ...settings, budgetPerHour: 3300 })).toBeGreaterThanOrEqual(5_000);
  });
});
