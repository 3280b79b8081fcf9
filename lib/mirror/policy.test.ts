import { describe, expect, it } from 'vitest';
import {
  bucketTokens,
  budgetCapacity,
  budgetNeed,
  budgetReadyAt,
  backgroundQueue,
  decideRefresh,
  REFRESH_BACKOFF_CAP_MS,
  REFRESH_LEASE_SECONDS,
  refreshBackoffMs,
  RESUME_DEFAULT,
  resumeBudgetWaitMs,
  resumeDelayMs,
  type PolicyState,
} from './policy';

const T0 = new Date('2026-11-24T10:00:00Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

/** A copy read at T0 - 60 s by a refresh that ended at T0, with a full bucket. */
function state(change: Partial<PolicyState> = {}): PolicyState {
  return {
    refreshedAt: at(-60),
    refreshEndedAt: T0,
    refreshStartedAt: null,
    consecutiveFailures: 0,
    nextRefreshAt: null,
    budgetTokens: null,
    budgetAt: null,
    lastRequests: 10,
    ...change,
  };
}

const VIEWED = { windowMs: 30_000, budgetPerHour: 2400 };

describe('decideRefresh', () => {
  it('loads a system never loaded at once, whatever the budget', () => {
    expect(decideRefresh(null, VIEWED, T0)).toMatchObject({ start: true, reason: 'first-load' });
    const broke = state({ refreshedAt: null, refreshEndedAt: null, budgetTokens: -5_000, budgetAt: T0, lastRequests: 523 });
    expect(decideRefresh(broke, VIEWED, T0)).toMatchObject({ start: true, reason: 'first-load' });
  });

  it('leaves a copy alone within the window after the last refresh ended, and says when it is due', () => {
    expect(decideRefresh(state(), VIEWED, at(29))).toEqual({ start: false, reason: 'fresh', nextAt: at(30), deferredBy: null });
  });

  it('refreshes a stale copy once the window has passed since the end (not the start) of the last refresh', () => {
    // Read 60 s before T0 (older than the window), but that refresh only ended at T0.
    expect(decideRefresh(state(), VIEWED, T0).start).toBe(false);
    expect(decideRefresh(state(), VIEWED, at(30))).toMatchObject({ start: true, reason: 'stale', nextAt: at(30) });
  });

  it('uses the background cadence as the window for systems nobody views', () => {
    const background = { windowMs: 3_600_000, budgetPerHour: 2400 };
    expect(decideRefresh(state(), background, at(3599))).toMatchObject({ start: false, reason: 'fresh', nextAt: at(3600) });
    expect(decideRefresh(state(), background, at(3600))).toMatchObject({ start: true, reason: 'stale' });
  });

  it('never starts a second refresh while one holds a live lease, and takes over a dead one', () => {
    const running = state({ refreshStartedAt: at(10) });
    expect(decideRefresh(running, VIEWED, at(60))).toEqual({ start: false, reason: 'running', nextAt: null, deferredBy: null });
    expect(decideRefresh(running, VIEWED, at(10 + REFRESH_LEASE_SECONDS))).toMatchObject({ start: true, reason: 'stale' });
  });

  it('holds every refresh during the backoff after a failure, a first load too', () => {
    const failed = state({ consecutiveFailures: 2, nextRefreshAt: at(90) });
    expect(decideRefresh(failed, VIEWED, at(60))).toEqual({ start: false, reason: 'backoff', nextAt: at(90), deferredBy: 'backoff' });
    expect(decideRefresh(failed, VIEWED, at(90))).toMatchObject({ start: true, reason: 'stale' });
    const neverLoaded = state({ refreshedAt: null, refreshEndedAt: null, consecutiveFailures: 1, nextRefreshAt: at(5) });
    expect(decideRefresh(neverLoaded, VIEWED, at(1))).toMatchObject({ start: false, reason: 'backoff', nextAt: at(5) });
  });

  it('defers a stale copy until the bucket holds what the last refresh cost, and says when', () => {
    // 2,400 an hour refill 2 every 3 s; the last refresh cost 523 and left 100 in the bucket.
    const short = state({ lastRequests: 523, budgetTokens: 100, budgetAt: T0 });
    const decision = decideRefresh(short, VIEWED, at(60));
    // 100 + 60 s × 2/3 = 140 tokens at T0 + 60 s: 383 missing, 574.5 s of refill.
    expect(decision).toEqual({ start: false, reason: 'budget', nextAt: at(634.5), deferredBy: 'budget' });
    expect(decideRefresh(short, VIEWED, at(634.5))).toMatchObject({ start: true, reason: 'stale' });
  });

  it('says the budget holds back the next refresh already while the copy is fresh', () => {
    const short = state({ lastRequests: 523, budgetTokens: 0, budgetAt: T0 });
    const decision = decideRefresh(short, VIEWED, at(10));
    expect(decision).toMatchObject({ start: false, reason: 'fresh', deferredBy: 'budget' });
    // 523 tokens at 2/3 a second (rounded up to the millisecond, so the claim then agrees).
    expect(decision.nextAt!.getTime() - at(784.5).getTime()).toBeGreaterThanOrEqual(0);
    expect(decision.nextAt!.getTime() - at(784.5).getTime()).toBeLessThanOrEqual(1);
  });

  it('ignores the bucket without a budget', () => {
    const broke = state({ lastRequests: 523, budgetTokens: -10_000, budgetAt: T0 });
    expect(decideRefresh(broke, { windowMs: 30_000, budgetPerHour: 0 }, at(30))).toMatchObject({ start: true, reason: 'stale', deferredBy: null });
  });
});

describe('the request budget', () => {
  it('is a bucket of a quarter hour, full until charged, refilled continuously up to full', () => {
    expect(budgetCapacity(2400)).toBe(600);
    expect(bucketTokens(null, 2400, T0)).toBe(600);
    expect(bucketTokens({ budgetTokens: -100, budgetAt: T0 }, 2400, at(150))).toBe(0);
    expect(bucketTokens({ budgetTokens: 500, budgetAt: T0 }, 2400, at(3600))).toBe(600);
    // A decision time before the last charge (clocks) refills nothing rather than draining.
    expect(bucketTokens({ budgetTokens: 50, budgetAt: T0 }, 2400, at(-60))).toBe(50);
  });

  it('asks for the last refresh cost, or a full bucket for a system larger than the bucket', () => {
    expect(budgetNeed(14, 2400)).toBe(14);
    expect(budgetNeed(523, 2400)).toBe(523);
    expect(budgetNeed(5_000, 2400)).toBe(600);
    // A refresh larger than the bucket starts on a full one and leaves it in debt.
    const big = state({ lastRequests: 5_000, budgetTokens: 600 - 5_000, budgetAt: T0 });
    expect(budgetReadyAt(big, 2400, T0)).toEqual(at(7_500));
  });

  it('keeps a small system viewed all the time at its freshness window, and a large one near the budget', () => {
    // Simulates a system viewed continuously for hours: each refresh starts as soon as allowed.
    const simulate = (cost: number, durationS: number, hours: number) => {
      let s = state({ refreshedAt: null, refreshEndedAt: null, lastRequests: 0 });
      let t = 0;
      let requests = 0;
      let refreshes = 0;
      while (t < hours * 3600) {
        const decision = decideRefresh(s, VIEWED, at(t));
        if (!decision.start) {
          t = (decision.nextAt!.getTime() - T0.getTime()) / 1000;
          continue;
        }
        const tokens = bucketTokens(s, 2400, at(t)) - s.lastRequests;
        const end = t + durationS;
        s = { ...s, refreshedAt: at(t), refreshEndedAt: at(end), budgetTokens: bucketTokens({ budgetTokens: tokens, budgetAt: at(t) }, 2400, at(end)) - (cost - s.lastRequests), budgetAt: at(end), lastRequests: cost };
        requests += cost;
        refreshes += 1;
        t = end;
      }
      return { requests, refreshes };
    };
    // 14 requests, 1 s: one refresh per 31 s, within the budget.
    const small = simulate(14, 1, 4);
    expect(small.refreshes).toBeGreaterThanOrEqual(Math.floor((4 * 3600) / 31) - 1);
    expect(small.requests / 4).toBeLessThan(2400);
    // 523 requests, 27 s: bounded by the budget (plus one bucket) over four hours.
    const large = simulate(523, 27, 4);
    expect(large.requests).toBeLessThanOrEqual(4 * 2400 + 600);
    expect(large.requests).toBeGreaterThan(4 * 2400 - 2 * 523);
  });
});

describe('refreshBackoffMs', () => {
  it('doubles from 5 s (or the freshness window, if longer) per failure in a row, up to 5 min', () => {
    expect([1, 2, 3, 4].map((n) => refreshBackoffMs(n))).toEqual([5_000, 10_000, 20_000, 40_000]);
    expect(refreshBackoffMs(30)).toBe(REFRESH_BACKOFF_CAP_MS);
    expect(refreshBackoffMs(1, 30_000)).toBe(30_000);
    expect(refreshBackoffMs(2, 30_000)).toBe(60_000);
    expect(refreshBackoffMs(10, 30_000)).toBe(REFRESH_BACKOFF_CAP_MS);
    // A window longer than the cap is the cap.
    expect(refreshBackoffMs(3, 600_000)).toBe(600_000);
  });

  it('takes a Retry-After the service sent as a floor', () => {
    expect(refreshBackoffMs(1, 0, 120_000)).toBe(120_000);
    expect(refreshBackoffMs(4, 0, 1_000)).toBe(40_000);
  });
});

describe('reading a failed page again', () => {
  it('waits 1 s, 2 s, 4 s … up to 30 s, and never less than the Retry-After', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map((n) => resumeDelayMs(n, RESUME_DEFAULT))).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
    expect(resumeDelayMs(1, RESUME_DEFAULT, 7_000)).toBe(7_000);
    expect(resumeDelayMs(6, RESUME_DEFAULT, 7_000)).toBe(30_000);
    // The waits of all attempts stay within the refresh's cap.
    expect(Array.from({ length: RESUME_DEFAULT.maxAttempts }, (_, i) => resumeDelayMs(i + 1, RESUME_DEFAULT)).reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(RESUME_DEFAULT.maxWaitMs);
  });

  it('spends within the request budget: waits for the refill when the bucket cannot pay for the try beyond what the refresh spent', () => {
    const budget = { perHour: 2_400, enforce: true };
    const held = (tokens: number) => ({ budgetTokens: tokens, budgetAt: T0 });
    // 100 left after the claim's reservation; 40 spent beyond it; a try costs 4.
    expect(resumeBudgetWaitMs({ state: held(100), spent: 540, reserved: 500, cost: 4, firstLoad: false }, budget, T0)).toBe(0);
    // 10 left, 8 spent beyond: 2 missing, refilled at 2,400/h (0.67/s) in 3 s.
    expect(resumeBudgetWaitMs({ state: held(10), spent: 508, reserved: 500, cost: 4, firstLoad: false }, budget, T0)).toBe(3_000);
    // A bucket in debt waits until it is paid back and the try fits.
    expect(resumeBudgetWaitMs({ state: held(-20), spent: 500, reserved: 500, cost: 4, firstLoad: false }, budget, T0)).toBe(36_000);
    // Refilled meanwhile.
    expect(resumeBudgetWaitMs({ state: held(-20), spent: 500, reserved: 500, cost: 4, firstLoad: false }, budget, at(36))).toBe(0);
    // A first load, no budget, or one not enforced never waits.
    expect(resumeBudgetWaitMs({ state: held(-20), spent: 900, reserved: 0, cost: 4, firstLoad: true }, budget, T0)).toBe(0);
    expect(resumeBudgetWaitMs({ state: held(-20), spent: 900, reserved: 0, cost: 4, firstLoad: false }, undefined, T0)).toBe(0);
    expect(resumeBudgetWaitMs({ state: held(-20), spent: 900, reserved: 0, cost: 4, firstLoad: false }, { perHour: 2_400, enforce: false }, T0)).toBe(0);
  });
});

describe('backgroundQueue (issue 49)', () => {
  const HOUR = 3_600_000;
  const never = (change: Partial<PolicyState> = {}) => state({ refreshedAt: null, refreshEndedAt: null, ...change });
  const old = (ageS: number) => state({ refreshedAt: at(-ageS - 60), refreshEndedAt: at(-ageS) });
  const c = (deviceId: string, s: PolicyState | null, viewedAt: Date | null = null, budgetPerHour = 2400) => ({
    deviceId,
    state: s ? { ...s, viewedAt } : null,
    budgetPerHour,
  });

  it('takes every system never loaded and every copy older than the cadence, nothing else', () => {
    const queue = backgroundQueue(
      [c('fresh', old(60)), c('untouched', null), c('never', never()), c('stale', old(2 * 3600)), c('running', never({ refreshStartedAt: at(-10) }))],
      HOUR,
      T0,
    );
    expect(queue.sort()).toEqual(['never', 'stale', 'untouched']);
  });

  it('leaves out a first load within its backoff and a stale copy whose budget is short', () => {
    const failing = never({ consecutiveFailures: 2, nextRefreshAt: at(30) });
    const broke = state({ refreshedAt: at(-3 * 3600), refreshEndedAt: at(-3 * 3600), budgetTokens: -1_000, budgetAt: T0, lastRequests: 50 });
    expect(backgroundQueue([c('failing', failing), c('broke', broke), c('ok', null)], HOUR, T0)).toEqual(['ok']);
    // Past its backoff it is due again.
    expect(backgroundQueue([c('failing', failing)], HOUR, at(31))).toEqual(['failing']);
  });

  it('orders the most recently opened first, then those never loaded, then the oldest copies; ties by device id', () => {
    const queue = backgroundQueue(
      [
        c('b-never', null),
        c('stale-2h', old(2 * 3600)),
        c('a-never', never()),
        c('stale-5h', old(5 * 3600)),
        c('viewed-stale', old(2 * 3600), at(-300)),
        c('viewed-never', never(), at(-60)),
        c('viewed-long-ago', never(), at(-86_400)),
      ],
      HOUR,
      T0,
    );
    expect(queue).toEqual(['viewed-never', 'viewed-stale', 'viewed-long-ago', 'a-never', 'b-never', 'stale-5h', 'stale-2h']);
  });

  it('gives every instance the same order for the same rows (their claims then split the list)', () => {
    const rows = Array.from({ length: 50 }, (_, i) => c(`d-${String(i).padStart(2, '0')}`, i % 3 === 0 ? null : old(2 * 3600 + i), i % 7 === 0 ? at(-i) : null));
    const shuffled = [...rows].sort(() => 0.5 - Math.random());
    expect(backgroundQueue(shuffled, HOUR, T0)).toEqual(backgroundQueue(rows, HOUR, T0));
  });
});
