import type { MirrorState } from './types';

/**
 * The mirror's refresh policy: whether a system's copy may be re-read from the upstream now and,
 * when not, why and when next. Pure (no I/O, no clock of its own), so every rule is tested here;
 * the claim in store.ts (claimRefresh) re-checks the same conditions in one conditional UPDATE,
 * which is what makes them hold across instances.
 *
 * Why it exists: the upstream has no "changed since" query, so seeing bookings made outside the
 * portal means re-paging every collection of a system (a large one: 523 requests). Without bounds
 * a viewed large system was re-read end to end about once a minute.
 */

/** A refresh not finished after this long is presumed dead and may be taken over. */
export const REFRESH_LEASE_SECONDS = 300;
/** Backoff after a failed refresh: 5 s, 10 s, 20 s … (or the freshness window, if longer) up to 5 min. */
export const REFRESH_BACKOFF_BASE_MS = 5_000;
export const REFRESH_BACKOFF_CAP_MS = 5 * 60_000;
/** The bucket holds at most this share of an hour's budget (a quarter: 600 requests of 2,400). */
export const BUDGET_BUCKET_HOURS = 0.25;

export interface RefreshPolicy {
  /**
   * At most one refresh per system starts within this long after the last one ended: the
   * freshness window while viewed (MIRROR_FRESHNESS_S), the background cadence for the worker.
   */
  windowMs: number;
  /** Upstream requests per system per hour (MIRROR_REQUEST_BUDGET_PER_HOUR); 0: no budget. */
  budgetPerHour: number;
}

/** What of the state row the policy reads. */
export type PolicyState = Pick<
  MirrorState,
  'refreshedAt' | 'refreshEndedAt' | 'refreshStartedAt' | 'consecutiveFailures' | 'nextRefreshAt' | 'budgetTokens' | 'budgetAt' | 'lastRequests'
>;

export type RefreshReason = 'first-load' | 'stale' | 'fresh' | 'backoff' | 'budget' | 'running';

export interface RefreshDecision {
  /** Whether a refresh may start now (the claim re-checks it atomically). */
  start: boolean;
  /** Why it may (first-load, stale) or may not (fresh, backoff, budget, running). */
  reason: RefreshReason;
  /** The earliest time the next refresh may start: now when `start`, null while one runs. */
  nextAt: Date | null;
  /** What holds the next refresh back beyond the window: the request budget or a failure's backoff. */
  deferredBy: 'budget' | 'backoff' | null;
}

/** Largest number of tokens the bucket holds. */
export function budgetCapacity(perHour: number): number {
  return perHour * BUDGET_BUCKET_HOURS;
}

/** Tokens added per second. */
export function budgetRefillPerSecond(perHour: number): number {
  return perHour / 3600;
}

/** The bucket at `now`: its stored level plus the refill since, at most full (a never-charged bucket is full). */
export function bucketTokens(state: Pick<PolicyState, 'budgetTokens' | 'budgetAt'> | null, perHour: number, now: Date): number {
  const capacity = budgetCapacity(perHour);
  if (!state || state.budgetTokens === null) return capacity;
  const elapsedS = Math.max(0, (now.getTime() - (state.budgetAt ?? now).getTime()) / 1000);
  return Math.min(capacity, state.budgetTokens + budgetRefillPerSecond(perHour) * elapsedS);
}

/**
 * What the bucket must hold before a refresh starts: what the last one cost (the next one will
 * cost about as much), or a full bucket when that is more than it holds — else a system larger
 * than the bucket could never refresh. It then goes into debt, repaid at the refill rate, so the
 * long-run rate stays within the budget either way.
 */
export function budgetNeed(lastRequests: number, perHour: number): number {
  return Math.min(lastRequests, budgetCapacity(perHour));
}

/** When the bucket holds what the next refresh needs (`now` if it does already); null without a budget. */
export function budgetReadyAt(state: PolicyState | null, perHour: number, now: Date): Date | null {
  if (perHour <= 0) return null;
  const missing = budgetNeed(state?.lastRequests ?? 0, perHour) - bucketTokens(state, perHour, now);
  if (missing <= 0) return now;
  return new Date(now.getTime() + Math.ceil((missing / budgetRefillPerSecond(perHour)) * 1000));
}

/**
 * The wait after the `failures`-th failure in a row (1 = the first): the base (5 s, or the
 * freshness window if longer) doubled per failure, capped at 5 min (or the base, if longer); a
 * Retry-After the service sent is a floor.
 */
export function refreshBackoffMs(failures: number, freshnessMs = 0, retryAfterMs = 0): number {
  const base = Math.max(REFRESH_BACKOFF_BASE_MS, freshnessMs);
  const wait = Math.min(Math.max(REFRESH_BACKOFF_CAP_MS, base), base * 2 ** Math.min(Math.max(failures - 1, 0), 30));
  return Math.max(wait, retryAfterMs);
}

const later = (a: Date, b: Date | null): Date => (b && b.getTime() > a.getTime() ? b : a);

/**
 * Whether a refresh of this system may start at `now`, in this order: one running (a live lease)
 * is never doubled; a failure's backoff holds every refresh, a first load too; a system never
 * loaded then always loads (its first view has nothing to show otherwise); a copy within the
 * window is fresh; and a stale one waits for the budget.
 */
export function decideRefresh(state: PolicyState | null, policy: RefreshPolicy, now: Date): RefreshDecision {
  const t = now.getTime();
  if (state?.refreshStartedAt && t - state.refreshStartedAt.getTime() < REFRESH_LEASE_SECONDS * 1000) {
    return { start: false, reason: 'running', nextAt: null, deferredBy: null };
  }
  const budgetAt = budgetReadyAt(state, policy.budgetPerHour, now);
  if (state && state.consecutiveFailures > 0 && state.nextRefreshAt && t < state.nextRefreshAt.getTime()) {
    return { start: false, reason: 'backoff', nextAt: state.refreshedAt ? later(state.nextRefreshAt, budgetAt) : state.nextRefreshAt, deferredBy: 'backoff' };
  }
  if (!state?.refreshedAt) return { start: true, reason: 'first-load', nextAt: now, deferredBy: null };
  // The window runs from the end of the last refresh: one that took longer than the window (a
  // large system under load) must not start the next at once.
  const dueAt = new Date((state.refreshEndedAt ?? state.refreshedAt).getTime() + policy.windowMs);
  const deferredBy = budgetAt && budgetAt.getTime() > Math.max(t, dueAt.getTime()) ? 'budget' : null;
  if (t < dueAt.getTime()) return { start: false, reason: 'fresh', nextAt: later(dueAt, budgetAt), deferredBy };
  if (budgetAt && budgetAt.getTime() > t) return { start: false, reason: 'budget', nextAt: budgetAt, deferredBy: 'budget' };
  return { start: true, reason: 'stale', nextAt: now, deferredBy: null };
}

/** The default of MIRROR_STRUCTURE_EVERY: rooms, schedules and user groups are re-read every 10th re-read. */
export const STRUCTURE_EVERY_DEFAULT = 10;

/**
 * Whether a re-read pages the rooms, time schedules and user groups too, or only the reservations
 * (and the user list, one request) and carries the rest over from the copy it replaces: they
 * change rarely, and the budget is better spent on the reservations, where outside bookings are.
 * A first load, a copy with a list the service never ended and every `every`-th generation read
 * them all (`every` ≤ 1: always).
 */
export function structureDue(next: { generation: number; loaded: boolean; incomplete: boolean }, every: number): boolean {
  if (every <= 1 || !next.loaded || next.incomplete) return true;
  return next.generation % every === 0;
}

/** How often the background worker looks, in seconds: a tenth of its cadence, between 1 s and 1 min. */
export function backgroundIntervalSeconds(backgroundS: number): number {
  return Math.min(60, Math.max(1, Math.round(backgroundS * 100) / 1000));
}

/**
 * Reading a failed page again (issue 47): a page that failed after the client's read retries is
 * asked for again from the same continuation token after a backoff, so that one bad page never
 * makes a long read start over. `maxAttempts` failures of one page, or `maxWaitMs` waited in one
 * refresh, and the refresh fails as before (its own backoff, then a new read).
 */
export interface ResumeSettings {
  /** Failures of one page (each after the client's retries) before the refresh gives up. */
  maxAttempts: number;
  initialDelayMs: number;
  maxDelayMs: number;
  /** The most one refresh waits in all: below the lease, which each wait renews. */
  maxWaitMs: number;
}
export const RESUME_DEFAULT: ResumeSettings = { maxAttempts: 8, initialDelayMs: 1_000, maxDelayMs: 30_000, maxWaitMs: 240_000 };

/** The wait before the `attempt`-th new try of a page (1 = after its first failure): doubling, capped, the service's Retry-After a floor. */
export function resumeDelayMs(attempt: number, settings: Pick<ResumeSettings, 'initialDelayMs' | 'maxDelayMs'>, retryAfterMs = 0): number {
  const wait = Math.min(settings.maxDelayMs, settings.initialDelayMs * 2 ** Math.min(Math.max(attempt - 1, 0), 30));
  return Math.max(wait, retryAfterMs);
}

/**
 * How long a new try of a page waits for the request budget (0: none): the bucket as the state row
 * holds it (the claim took the refresh's expected cost from it already) must still hold what the
 * refresh spent beyond that and the try's own cost, else the try waits for the refill. Without an
 * enforced budget, and on a first load (always allowed, and charged), it never waits.
 */
export function resumeBudgetWaitMs(
  input: { state: Pick<PolicyState, 'budgetTokens' | 'budgetAt'> | null; spent: number; reserved: number; cost: number; firstLoad: boolean },
  budget: { perHour: number; enforce: boolean } | undefined,
  now: Date,
): number {
  if (!budget || !budget.enforce || budget.perHour <= 0 || input.firstLoad) return 0;
  const allowance = bucketTokens(input.state, budget.perHour, now) - Math.max(0, input.spent - input.reserved);
  const missing = input.cost - allowance;
  return missing <= 0 ? 0 : Math.ceil((missing / budgetRefillPerSecond(budget.perHour)) * 1000);
}

/** The default of MIRROR_BACKGROUND_CONCURRENCY: systems the background worker of one instance reads at once. */
export const BACKGROUND_CONCURRENCY_DEFAULT = 4;

/** One connected system as the background worker's plan sees it (state null: never touched). */
export interface BackgroundCandidate {
  deviceId: string;
  state: (PolicyState & { viewedAt: Date | null }) | null;
  /** The system's request budget per hour (its own, or the setting's). */
  budgetPerHour: number;
}

/**
 * The systems the background worker reads, in order (issue 49): those due by the policy at the
 * background cadence — every system never loaded (outside a failure's backoff), and copies older
 * than the cadence whose budget allows. The most recently opened first (viewed_at), then those
 * never loaded, then the oldest copies; ties by device id, so that every instance walks the same
 * order and their claims split the list instead of doubling it.
 */
export function backgroundQueue(candidates: readonly BackgroundCandidate[], windowMs: number, now: Date): string[] {
  const due = candidates.flatMap((c) => {
    const decision = decideRefresh(c.state, { windowMs, budgetPerHour: c.budgetPerHour }, now);
    return decision.start ? [{ ...c, neverLoaded: decision.reason === 'first-load' }] : [];
  });
  const viewed = (c: BackgroundCandidate) => c.state?.viewedAt?.getTime() ?? null;
  const copied = (c: BackgroundCandidate) => c.state?.refreshedAt?.getTime() ?? 0;
  due.sort((a, b) => {
    const va = viewed(a);
    const vb = viewed(b);
    if (va !== vb) return vb === null ? -1 : va === null ? 1 : vb - va;
    if (a.neverLoaded !== b.neverLoaded) return a.neverLoaded ? -1 : 1;
    return copied(a) - copied(b) || (a.deviceId < b.deviceId ? -1 : a.deviceId > b.deviceId ? 1 : 0);
  });
  return due.map((c) => c.deviceId);
}
