import { describe, expect, it } from 'vitest';
import { LARGE_REREAD_REQUESTS, evaluateSteady, reReadIntervalS, scaledBudget, simulateReReads, steadyFigures, type SteadyWindow } from './steady-target';

const K = LARGE_REREAD_REQUESTS;

describe('the re-reads the refresh policy allows a viewed system', () => {
  it('allows none in 10 minutes after the first load at the default budget (why (l) saw "0 requests/h")', () => {
    // 2,400/h, a bucket of 600: the first load leaves 77 tokens, a re-read needs 523.
    expect(simulateReReads({ seconds: 600, costPerReRead: K, refreshS: 27, budgetPerHour: 2400, freshnessS: 30, startTokens: 600 - K })).toEqual([]);
    // …the first ~11 minutes after it, then one every ~13 minutes.
    const hour = simulateReReads({ seconds: 3600, costPerReRead: K, refreshS: 27, budgetPerHour: 2400, freshnessS: 30, startTokens: 600 - K });
    expect(hour[0]).toBeCloseTo((K - (600 - K)) * 1.5, 0);
    expect(hour[1]! - hour[0]!).toBeCloseTo(reReadIntervalS(K, 2400)!, 6);
    expect(reReadIntervalS(K, 2400)! / 60).toBeCloseTo(13.1, 1);
  });

  it('fits n re-reads into the window at the scaled budget, from an empty bucket', () => {
    const budget = scaledBudget(K, 10, 4);
    expect(budget).toBe(14121);
    const starts = simulateReReads({ seconds: 600, costPerReRead: K, refreshS: 27, budgetPerHour: budget, freshnessS: 30, startTokens: 0 });
    expect(starts).toHaveLength(4);
    expect(starts[0]).toBeCloseTo(133.3, 0);
    expect(starts[3]).toBeCloseTo(533.3, 0);
  });

  it('paces re-reads by the freshness window after each one ends, without a budget', () => {
    const starts = simulateReReads({ seconds: 600, costPerReRead: K, refreshS: 27, budgetPerHour: 0, freshnessS: 30, startTokens: 0 });
    expect(starts.slice(0, 3)).toEqual([30, 87, 144]);
    expect(starts).toHaveLength(11);
  });

  it('paces them by the window when the budget would allow more', () => {
    const starts = simulateReReads({ seconds: 300, costPerReRead: K, refreshS: 27, budgetPerHour: 1_000_000, freshnessS: 30, startTokens: 0 });
    expect(starts.slice(0, 2)).toEqual([30, 87]);
  });
});

describe('the target of steady use (l)', () => {
  const budget = scaledBudget(K, 10, 4);
  const window: SteadyWindow = {
    seconds: 600,
    costPerReRead: K,
    refreshS: 27,
    budgetPerHour: budget,
    freshnessS: 30,
    startTokens: 0,
    requests: 4 * K,
    reReadStartsS: [134, 268, 402, 536],
    sampleS: 2,
  };

  it('is met by the re-reads the policy allows, and reports requests per re-read and re-reads per hour', () => {
    const v = evaluateSteady(window);
    expect(v).toMatchObject({ reReads: 4, expectedReReads: 4, requestsPerReRead: K, reReadsPerHour: 24, requestsPerHour: 4 * K * 6, minGapS: 134, met: true });
    expect(v.checks).toEqual({ withinBudget: true, reReadsAsExpected: true, onePerFreshnessWindow: true });
    expect(v.requestsAllowed).toBeCloseTo(budget / 6, 6);
  });

  it('fails when the requests go over what the budget allows in the window', () => {
    // A fifth re-read: 2,615 requests in 10 minutes against 2,353.5 the refill allows (15,690/h > 14,121/h).
    const v = evaluateSteady({ ...window, requests: 5 * K, reReadStartsS: [100, 200, 300, 400, 500] });
    expect(v.requestsPerHour).toBeGreaterThan(budget);
    expect(v.checks.withinBudget).toBe(false);
    expect(v.met).toBe(false);
    // Re-reads that cost more than the bucket reserved for them (a miscount) fail it too.
    expect(evaluateSteady({ ...window, requests: 4 * K + 300 }).met).toBe(false);
  });

  it('fails when no re-read happens (the old 10-minute window) or fewer than the policy allows less one', () => {
    expect(evaluateSteady({ ...window, requests: 0, reReadStartsS: [] })).toMatchObject({ reReads: 0, requestsPerReRead: null, met: false });
    expect(evaluateSteady({ ...window, requests: 2 * K, reReadStartsS: [134, 400] }).checks.reReadsAsExpected).toBe(false);
    expect(evaluateSteady({ ...window, requests: 3 * K, reReadStartsS: [134, 268, 402] }).met).toBe(true);
  });

  it('fails when two re-reads start within one freshness window (two instances re-paging at once)', () => {
    const v = evaluateSteady({ ...window, reReadStartsS: [134, 146, 402, 536] });
    expect(v.minGapS).toBe(12);
    expect(v.checks.onePerFreshnessWindow).toBe(false);
    expect(v.met).toBe(false);
    // Within the sampling step of the window still counts as apart.
    expect(evaluateSteady({ ...window, reReadStartsS: [134, 162, 402, 536] }).checks.onePerFreshnessWindow).toBe(true);
  });

  it('has no budget check without a budget', () => {
    const v = evaluateSteady({ ...window, budgetPerHour: 0, requests: 11 * K, reReadStartsS: [30, 87, 144, 201, 258, 315, 372, 429, 486, 543, 600] });
    expect(v.requestsAllowed).toBeNull();
    expect(v.checks.withinBudget).toBeNull();
    expect(v.met).toBe(true);
  });

  it('refuses a scaled budget without a window', () => {
    expect(() => scaledBudget(K, 0, 4)).toThrow();
  });
});

describe("the table's rows for (l)", () => {
  const budget = scaledBudget(K, 10, 4);
  const base = { seconds: 600, costPerReRead: K, refreshS: 27, budgetPerHour: budget, freshnessS: 30, startTokens: 0, sampleS: 2 };
  const input = (requests: number, reReadStartsS: number[]) => ({
    instances: 2,
    managers: 10,
    coldLoad: { ms: 27_000, requests: K, reservationPages: 500 },
    window: { seconds: 600, requests },
    budgetPerHour: budget,
    requestsPerHour: Math.round((requests * 3600) / 600),
    verdict: evaluateSteady({ ...base, requests, reReadStartsS }),
    unboundedPerHour: 33_000,
    rePageStartsS: reReadStartsS,
    views: { count: 1500, errors: 0, p50Ms: 8, p95Ms: 20, deferredByBudget: 1200 },
  });

  it('reports requests per re-read and re-reads per hour, met when the window kept to the policy', () => {
    const rows = steadyFigures(input(4 * K, [134, 268, 402, 536]), { freshnessS: 30, defaultBudgetPerHour: 2400 });
    const by = Object.fromEntries(rows.map((r) => [r.key, r]));
    expect(by.steadyScaledRequestsPerHour).toMatchObject({ value: 12552, met: true });
    expect(by.steadyReReads).toMatchObject({ value: 4, met: true, target: '≥ 3 (the policy allows 4)' });
    expect(by.steadyReReads!.note).toContain('24 re-reads/h');
    expect(by.steadyReReads!.note).toContain('at the default 2400/h one every 13.1 min');
    expect(by.steadyRequestsPerReRead).toMatchObject({ value: K, unit: 'requests' });
    expect(by.steadyMinReReadGapS).toMatchObject({ value: 134, met: true });
  });

  it('shows a window over the budget, or without re-reads, as not met', () => {
    const over = Object.fromEntries(steadyFigures(input(5 * K, [100, 200, 300, 400, 500]), { freshnessS: 30, defaultBudgetPerHour: 2400 }).map((r) => [r.key, r]));
    expect(over.steadyScaledRequestsPerHour!.met).toBe(false);
    const none = Object.fromEntries(steadyFigures(input(0, []), { freshnessS: 30, defaultBudgetPerHour: 2400 }).map((r) => [r.key, r]));
    expect(none.steadyReReads!.met).toBe(false);
    expect(none.steadyRequestsPerReRead!.value).toBeNull();
  });
});
