import 'server-only';
import type { Database } from '@/lib/db';
import { log } from '@/lib/log';
import { isMissingEndpoint, isServiceError } from '@/lib/service/errors';
import type { SkippedItem, UserAccount } from '@/lib/service/schemas';
import { withRequestTally, type RequestTally } from '@/lib/service/request-tally';
import { carryStructure, claimRefreshWith, completeRefresh, failRefresh, isLeaseLost, readState, recordProgress, upsertLiveReservations, writeRefreshPage, type BudgetSettings, type RefreshCharge } from './store';
import type { MirrorCollection, MirrorErrorKind, MirrorPage, MirrorReservation, MirrorSource, MirrorState, MirrorUser, MirrorUsersStatus, MirrorWaitKind, SkippedSummary } from './types';
import { singleton } from '@/lib/singleton';
import { getMetrics } from '@/lib/observability/metrics';
import { releaseWindowsOf } from './released';
import { decideRefresh, REFRESH_LEASE_SECONDS, refreshBackoffMs, RESUME_DEFAULT, resumeBudgetWaitMs, resumeDelayMs, structureDue, type RefreshDecision, type ResumeSettings } from './policy';
import { DEFAULT_RETRY } from '@/lib/service/policies';
import type { PageResume } from '@/lib/service/paginator';

export { REFRESH_LEASE_SECONDS } from './policy';
const COLLECTIONS = ['resources', 'timeSchedules', 'userGroups', 'reservations'] as const;
/** Skipped items kept with their reasons; the counts cover all of them. */
export const SKIPPED_SAMPLES_MAX = 20;

/** What is true about a failure, by the service error's kind (never `instanceof`: see errors.ts). */
export function failureKindOf(error: unknown): MirrorErrorKind {
  if (isServiceError(error)) {
    switch (error.kind) {
      case 'unavailable':
        return 'unreachable';
      case 'contract':
      case 'list-too-large':
        return 'unreadable';
      case 'auth':
      case 'validation':
      case 'not-found':
        return 'refused';
      case 'rate-limited':
        return 'busy';
    }
  }
  // The portal's API error for "service unavailable" (e.g. a source that cannot reach it).
  if (typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'service_unavailable') return 'unreachable';
  return 'internal';
}

/**
 * What a refresh must respect besides the lease (which is never bypassed). Without options it is
 * an explicit one (tests, closures): only the lease. Views and the background worker pass their
 * window, the backoff and an enforced budget (lib/mirror/policy.ts).
 */
export interface RefreshOptions {
  /** When the caller decided (its now): the claim judges the window, backoff and budget at it. */
  at?: Date;
  /** The freshness window: the backoff's base when longer than 5 s. */
  freshnessMs?: number;
  /** One re-page per window: refused when a refresh ended less than this long ago (on any instance). */
  windowMs?: number;
  /** Refused within the backoff after a failure. */
  respectBackoff?: boolean;
  /** Charged with the requests the refresh makes; `enforce`: refused when the bucket is short. */
  budget?: BudgetSettings;
  /**
   * Rooms, time schedules and user groups are re-read every this many re-reads (MIRROR_STRUCTURE_EVERY;
   * policy.ts structureDue) and carried over from the copy replaced otherwise. Unset or ≤ 1: every time.
   */
  structureEvery?: number;
  /** Reading a page that failed after its retries again, from the same token (policy.ts ResumeSettings); false: never, the refresh fails. */
  resume?: Partial<ResumeSettings> | false;
}

/** What a failed page's error lets a refresh wait for: the service slowing it down, or not answering (an open circuit too). Else null: not worth another try. */
export function resumableKind(error: unknown): MirrorWaitKind | null {
  if (!isServiceError(error)) return null;
  if (error.kind === 'rate-limited') return 'busy';
  if (error.kind === 'unavailable') return 'unreachable';
  return null;
}

/** The most one new try of a page costs: the request and the client's read retries. */
const RESUME_TRY_REQUESTS = DEFAULT_RETRY.maxRetries + 1;

/** `busy`: the claim was refused (another refresh runs, or the window, backoff or budget says wait). */
export type RefreshOutcome = { status: 'refreshed'; pages: number; requests: number; structure: 'read' | 'carried' } | { status: 'busy' };

const inflight = singleton('mirror-refreshes', () => new Map<string, Promise<RefreshOutcome>>());

/**
 * Copies every collection of one system into a new generation, the four collections side by side
 * and each one page by page (each page's insert overlaps the next page's fetch), then switches
 * readers over. One refresh per system at a time: in this process by sharing the promise, across
 * processes by the lease in mirror_state.
 */
export function refreshSystem(db: Database, deviceId: string, source: MirrorSource, options: RefreshOptions = {}): Promise<RefreshOutcome> {
  const running = inflight.get(deviceId);
  if (running) return running;
  const startedAt = performance.now();
  const refresh = runRefresh(db, deviceId, source, options).then(
    (outcome) => {
      if (outcome.status === 'refreshed') observeRefresh('refreshed', startedAt);
      return outcome;
    },
    (error: unknown) => {
      observeRefresh('failed', startedAt);
      throw error;
    },
  ).finally(() => inflight.delete(deviceId));
  inflight.set(deviceId, refresh);
  return refresh;
}

function observeRefresh(result: 'refreshed' | 'failed', startedAt: number): void {
  getMetrics().mirrorRefreshDuration.observe({ result }, (performance.now() - startedAt) / 1000);
}

async function runRefresh(db: Database, deviceId: string, source: MirrorSource, options: RefreshOptions): Promise<RefreshOutcome> {
  const claim = await claimRefreshWith(db, deviceId, REFRESH_LEASE_SECONDS, {
    at: options.at,
    respectBackoff: options.respectBackoff,
    windowSeconds: options.windowMs === undefined ? undefined : options.windowMs / 1000,
    budget: options.budget,
  });
  if (claim === null) return { status: 'busy' };
  const generation = claim.generation + 1;
  const startedAt = new Date();
  // The cost: every request that left (retries, a token request), counted at the transport; at
  // least the pages pulled (a source that is not the HTTP client counts its pages).
  const tally: RequestTally = { requests: 0 };
  let pulls = 0;
  const charge = (): RefreshCharge => {
    const requests = Math.max(tally.requests, pulls);
    getMetrics().mirrorRefreshRequests.inc({ system: deviceId }, requests);
    return { requests, reserved: claim.reserved, at: new Date(), budget: options.budget };
  };
  let pages = 0;
  let failed = false;
  const incompleteLists: MirrorCollection[] = [];
  const skipped: SkippedSummary = { total: 0, counts: {}, samples: [] };
  const noteSkipped = (collection: MirrorCollection, items: readonly SkippedItem[]) => {
    if (items.length === 0) return;
    skipped.total += items.length;
    skipped.counts[collection] = (skipped.counts[collection] ?? 0) + items.length;
    for (const item of items) {
      if (skipped.samples.length >= SKIPPED_SAMPLES_MAX) break;
      skipped.samples.push({ collection, id: item.id, reason: item.reason });
    }
  };
  // One chain of writes (the database takes them one at a time anyway); the fetches of the four
  // collections run side by side, since only each collection's own pages must follow one another.
  let writes: Promise<void> = Promise.resolve();
  const chain = (step: () => Promise<void>): Promise<void> => {
    const next = writes.then(step);
    // A failed write fails the chain after it, so every later write is skipped.
    writes = next;
    // Observed by the collection's loop; this keeps a failure meanwhile from being "unhandled".
    next.catch(() => undefined);
    return next;
  };
  // Reservations written so far: the progress a first load shows, carried by the per-page update.
  let reservationsRead = 0;
  // Collections waiting to read a failed page again (issue 47), and how long this refresh has waited.
  const waits = new Map<string, { until: Date; kind: MirrorWaitKind }>();
  let waitedMs = 0;
  const latestWait = () => [...waits.values()].sort((a, b) => b.until.getTime() - a.until.getTime())[0] ?? null;
  const write = (kind: (typeof COLLECTIONS)[number] | 'users', page: readonly unknown[], resumed = false): Promise<void> => {
    pages += 1;
    const done = pages;
    if (kind === 'reservations') reservationsRead += page.length;
    const read = reservationsRead;
    // The page a collection waited for has come: its wait is over (another's may not be).
    const waiting = resumed ? { waiting: latestWait() } : {};
    return chain(async () => {
      await writeRefreshPage(db, deviceId, claim.refreshId, { kind, generation, items: page }, done, { reservationsRead: read, ...waiting });
      // A re-read's reservations go into the copy readers see as they arrive (new and changed
      // ones; deletions only at the switch, when the whole list is known).
      if (kind === 'reservations' && claim.loaded) await upsertLiveReservations(db, deviceId, claim.generation, page as readonly MirrorReservation[]);
    });
  };
  // Rooms, schedules and groups change rarely: most re-reads carry them over and spend the budget
  // on the reservations (policy.ts structureDue).
  const readStructure = structureDue({ generation, loaded: claim.loaded, incomplete: claim.incomplete }, options.structureEvery ?? 1);
  // Once resources and time schedules are all written, views may show the rooms and their slots
  // while the reservations are still read (issue 20): one more update, once per refresh.
  let structureLeft = 2;
  const structureWritten = () => {
    structureLeft -= 1;
    if (structureLeft === 0 && !failed) void chain(() => recordProgress(db, deviceId, claim.refreshId, null, { structureGeneration: generation }));
  };
  const settings: ResumeSettings | null = options.resume === false ? null : { ...RESUME_DEFAULT, ...options.resume };
  /**
   * A page after the first that failed after the client's retries: asked for again from the same token after a
   * backoff (the Retry-After a floor), within the request budget and the refresh's wait cap, while
   * the progress says the refresh waits for the service. Giving up fails the refresh as before.
   */
  const resumeFor = (kind: (typeof COLLECTIONS)[number]): PageResume => async ({ error, attempt, pagesRead }) => {
    const waitKind = resumableKind(error);
    // A list whose first page fails has nothing to lose by failing (an outage shows as one at once).
    if (!settings || waitKind === null || failed || pagesRead === 0 || attempt > settings.maxAttempts) return false;
    const retryAfterS = isServiceError(error) && 'retryAfterSeconds' in error ? (error.retryAfterSeconds ?? 0) : 0;
    let delayMs = resumeDelayMs(attempt, settings, retryAfterS * 1000);
    const budget = options.budget;
    if (budget?.enforce && budget.perHour > 0 && claim.loaded) {
      const state = await readState(db, deviceId);
      const spent = Math.max(tally.requests, pulls);
      delayMs = Math.max(delayMs, resumeBudgetWaitMs({ state, spent, reserved: claim.reserved, cost: RESUME_TRY_REQUESTS, firstLoad: false }, budget, new Date()));
    }
    if (waitedMs + delayMs > settings.maxWaitMs) return false;
    waitedMs += delayMs;
    const wait = { until: new Date(Date.now() + delayMs), kind: waitKind };
    waits.set(kind, wait);
    // Says so (and renews the lease, so the wait is not taken for a stall).
    await chain(() => recordProgress(db, deviceId, claim.refreshId, null, { waiting: latestWait() }));
    log.warn('mirror: a page failed after its retries; reading it again from where the list stopped', {
      deviceId,
      collection: kind,
      attempt,
      delayMs,
      reason: waitKind,
      status: isServiceError(error) ? error.status : undefined,
      pagesRead: pages,
    });
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    return !failed;
  };
  const copy = async (kind: (typeof COLLECTIONS)[number]): Promise<void> => {
    if (!readStructure && kind !== 'reservations') {
      // Carried over in one step (resources), the others with it; nothing is requested.
      if (kind === 'resources') await chain(() => carryStructure(db, deviceId, claim.generation, generation).then(() => undefined));
      if (kind === 'resources' || kind === 'timeSchedules') structureWritten();
      return;
    }
    try {
      let previous: Promise<void> = Promise.resolve();
      for await (const page of source[kind](deviceId, { resume: resumeFor(kind) }) as AsyncIterable<MirrorPage<unknown>>) {
        pulls += 1;
        const resumed = waits.delete(kind);
        // The insert of page n overlaps the fetch of page n+1, and no more than that.
        await previous;
        if (failed) return;
        const items = Array.isArray(page) ? (page as readonly unknown[]) : (page as { items: readonly unknown[] }).items;
        if (!Array.isArray(page)) noteSkipped(kind, (page as { skipped: readonly SkippedItem[] }).skipped);
        // The list did not end: what was read is kept; the collection is marked incomplete.
        if (!Array.isArray(page) && (page as { incomplete?: string }).incomplete) incompleteLists.push(kind);
        previous = write(kind, items, resumed);
      }
      await previous;
      if (kind === 'resources' || kind === 'timeSchedules') structureWritten();
    } catch (error) {
      // The request that failed counts as well (approximately: a failed write is not one).
      pulls += 1;
      failed = true;
      throw error;
    }
  };
  // The user list is beyond the interface document: a service without it (404/405) leaves the
  // portal without one, and one that fails to send it now must not fail the whole refresh (the
  // previous list is kept). Only the write of what was read can fail the refresh.
  const copyUsers = async (): Promise<MirrorUsersStatus | 'failed'> => {
    if (!source.users) return 'unavailable';
    let page: MirrorPage<UserAccount>;
    try {
      pulls += 1;
      page = await source.users(deviceId);
    } catch (error) {
      if (isMissingEndpoint(error)) return 'unavailable';
      if (!isServiceError(error)) throw error;
      log.warn('mirror: the user list could not be read; keeping the previous one', { deviceId, kind: error.kind });
      return 'failed';
    }
    const items = isBarePage(page) ? page : page.items;
    if (!isBarePage(page)) noteSkipped('users', page.skipped);
    // Ids arrive canonical (lib/service/schemas.ts canonicalId).
    const users = items.map((u): MirrorUser => ({ id: u.userId, name: u.name, email: u.email, userGroupId: u.userGroupId }));
    if (failed) return 'failed';
    await write('users', users);
    return 'loaded';
  };
  try {
    // A refresh taken over from a crashed one must not show that one's structure as its own.
    await recordProgress(db, deviceId, claim.refreshId, null, { reservationsRead: 0, structureGeneration: null });
    const [users, ...results] = await withRequestTally(tally, () => Promise.allSettled([copyUsers(), ...COLLECTIONS.map(copy)]));
    await writes;
    const rejected = [users, ...results].find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (rejected) throw rejected.reason;
    const usersStatus = users.status === 'fulfilled' ? users.value : 'failed';
    const cost = charge();
    const incomplete = { lists: incompleteLists, retryAfterMs: refreshBackoffMs(claim.consecutiveFailures + 1, options.freshnessMs ?? 0) };
    // Unused bookings the service released since the last read: remembered as no-shows (decision 025).
    const released = await releaseWindowsOf(db, deviceId, new Date(Math.max(Date.now(), options.at?.getTime() ?? 0)));
    await completeRefresh(db, deviceId, claim.refreshId, generation, startedAt, pages, skipped, usersStatus, cost, incomplete, released);
    if (incompleteLists.length > 0) log.warn('mirror: refreshed with lists the service did not end; kept what was read', { deviceId, lists: incompleteLists });
    if (skipped.total > 0) log.warn('mirror: refreshed without items the service sent unreadable', { deviceId, counts: skipped.counts });
    return { status: 'refreshed', pages, requests: cost.requests, structure: readStructure ? 'read' : 'carried' };
  } catch (error) {
    await writes.catch(() => undefined);
    const cost = charge();
    if (isLeaseLost(error)) {
      // It ran past its lease without writing (a stalled upstream or process) and another claim
      // took the system over: that refresh owns the row and the generation now; this one stops.
      log.warn('mirror: a refresh lost its lease to another and stopped', { deviceId, pages });
      return { status: 'busy' };
    }
    const message = error instanceof Error ? error.message : 'refresh failed';
    // A Retry-After the service sent is a floor for the next attempt.
    const retryAfterS = isServiceError(error) && 'retryAfterSeconds' in error ? (error.retryAfterSeconds ?? 0) : 0;
    const retryAfterMs = refreshBackoffMs(claim.consecutiveFailures + 1, options.freshnessMs ?? 0, retryAfterS * 1000);
    // A failed refresh is charged too: its requests reached the service all the same.
    await failRefresh(db, deviceId, claim.refreshId, generation, { message, kind: failureKindOf(error), retryAfterMs }, cost).catch((cleanupError: unknown) =>
      log.error('mirror: could not record a failed refresh', { deviceId, error: cleanupError }),
    );
    throw error;
  }
}

function isBarePage<T>(page: MirrorPage<T>): page is readonly T[] {
  return Array.isArray(page);
}

/** The last failure, when the last refresh failed: its kind, and when the next attempt may start. */
export interface MirrorFailure {
  lastError: string | null;
  lastErrorAt: Date | null;
  lastErrorKind: MirrorErrorKind | null;
  retryAt: Date | null;
}

/**
 * A first load whose resources and time schedules are complete (MirrorState.structureGeneration):
 * the reservations read so far, and the last complete load's count as the estimate of the total
 * (null when there was none: items come in no order, so a load cannot estimate its own).
 */
export interface PartialLoad {
  generation: number;
  reservationsRead: number;
  reservationsExpected: number | null;
}

/** The partial first load the state describes, if any. */
export function partialLoadOf(state: MirrorState | null): PartialLoad | null {
  if (!state || state.refreshedAt || !state.refreshing || state.structureGeneration === null) return null;
  return { generation: state.structureGeneration, reservationsRead: state.reservationsRead, reservationsExpected: state.reservationsLoaded };
}

/** When the next refresh may start (null: now, or while one runs), and what holds it back beyond the window. */
export interface MirrorSchedule {
  nextRefreshAt: Date | null;
  deferredBy: RefreshDecision['deferredBy'];
  /** The running refresh waits for the service to read a failed page again (MirrorState.waiting). */
  waiting: MirrorState['waiting'];
}

export type MirrorStatus =
  | ({ status: 'loading'; pagesFetched: number; refreshing: boolean; partial: PartialLoad | null } & MirrorFailure & MirrorSchedule)
  | ({ status: 'ready'; refreshedAt: Date; refreshing: boolean; incomplete: MirrorCollection[] | null } & MirrorFailure & MirrorSchedule);

/** What page views refresh by: the freshness window (MIRROR_FRESHNESS_S) and the request budget (0: none). */
export interface ViewRefreshPolicy {
  freshnessMs: number;
  budgetPerHour: number;
  /** MIRROR_STRUCTURE_EVERY (unset: rooms, schedules and groups re-read every time). */
  structureEvery?: number;
}

/** The policy's decision for a page view (lib/mirror/policy.ts), the window being the freshness window. */
export function viewDecision(state: MirrorState | null, policy: ViewRefreshPolicy, now: Date): RefreshDecision {
  return decideRefresh(state, { windowMs: policy.freshnessMs, budgetPerHour: policy.budgetPerHour }, now);
}

/** The claim's conditions for a refresh a page view starts: window, backoff, and the budget enforced. */
export function viewRefreshOptions(policy: ViewRefreshPolicy, now: Date): RefreshOptions {
  return {
    at: now,
    freshnessMs: policy.freshnessMs,
    windowMs: policy.freshnessMs,
    respectBackoff: true,
    budget: policy.budgetPerHour > 0 ? { perHour: policy.budgetPerHour, enforce: true } : undefined,
    structureEvery: policy.structureEvery,
  };
}

// Systems whose stale copy waits for the budget, so that it is logged once each time that starts
// (about once per re-page of a large system), not per view.
const budgetBound = singleton('mirror-budget-bound', () => new Set<string>());

function noteDecision(deviceId: string, decision: RefreshDecision, state: MirrorState | null, policy: ViewRefreshPolicy): void {
  if (decision.reason !== 'budget') {
    budgetBound.delete(deviceId);
    return;
  }
  if (budgetBound.has(deviceId)) return;
  budgetBound.add(deviceId);
  log.info('mirror: refreshes of a viewed system wait for its request budget', {
    deviceId,
    lastRequests: state?.lastRequests ?? 0,
    budgetPerHour: policy.budgetPerHour,
    nextRefreshAt: decision.nextAt?.toISOString() ?? null,
  });
}

/**
 * At most this many refreshes started by views run in one process at once (issue 49: one search
 * started 554 first loads against a pool of 10 connections). Beyond it a view is answered from
 * what is held; the background worker, which loads the most recently opened systems first, or a
 * later view starts the refresh.
 */
export const VIEW_REFRESHES_MAX = 4;
const viewRefreshes = singleton('mirror-view-refreshes', () => ({ running: 0 }));

/** How many refreshes views of this process have running (VIEW_REFRESHES_MAX at most). */
export function viewRefreshesRunning(): number {
  return viewRefreshes.running;
}

/**
 * The refreshes one request over many systems may start (a search, the reports overview): each
 * start takes one, none is started once they are gone (issue 49: no request fans out).
 */
export interface RefreshAllowance {
  left: number;
}

/** An allowance of `n` starts. */
export const refreshAllowance = (n: number): RefreshAllowance => ({ left: n });

/**
 * Stale-while-revalidate: never-loaded systems start loading (the caller shows progress), stale
 * ones are served as they are while one refresh runs in the background, when the policy lets one
 * start (lib/mirror/policy.ts) and this process runs fewer than VIEW_REFRESHES_MAX for views (and
 * the request's `allowance`, if any, has one left). `known` is the state the caller has just read,
 * to save reading it again.
 */
export async function ensureFresh(
  db: Database,
  deviceId: string,
  source: () => MirrorSource | Promise<MirrorSource>,
  policy: ViewRefreshPolicy,
  now = new Date(),
  known?: MirrorState | null,
  allowance?: RefreshAllowance,
): Promise<MirrorStatus> {
  const state: MirrorState | null = known !== undefined ? known : await readState(db, deviceId);
  const loaded = state?.refreshedAt ?? null;
  let refreshing = state?.refreshing ?? false;
  const decision = viewDecision(state, policy, now);
  noteDecision(deviceId, decision, state, policy);
  if (decision.start && !inflight.has(deviceId) && viewRefreshes.running < VIEW_REFRESHES_MAX && (allowance === undefined || allowance.left > 0)) {
    if (allowance) allowance.left -= 1;
    refreshing = true;
    viewRefreshes.running += 1;
    void Promise.resolve(source())
      .then((s) => refreshSystem(db, deviceId, s, viewRefreshOptions(policy, now)))
      .catch((error: unknown) => log.warn('mirror refresh failed', { deviceId, error }))
      .finally(() => {
        viewRefreshes.running -= 1;
      });
  }
  const failure: MirrorFailure = {
    lastError: state?.lastError ?? null,
    lastErrorAt: state?.lastErrorAt ?? null,
    lastErrorKind: state?.lastError ? (state.lastErrorKind ?? 'internal') : null,
    retryAt: state?.lastError ? (state.nextRefreshAt ?? null) : null,
  };
  const schedule: MirrorSchedule = { nextRefreshAt: decision.start ? null : decision.nextAt, deferredBy: decision.deferredBy, waiting: state?.waiting ?? null };
  refreshing = refreshing || inflight.has(deviceId);
  if (!loaded) return { status: 'loading', pagesFetched: state?.pagesFetched ?? 0, refreshing, partial: partialLoadOf(state), ...failure, ...schedule };
  return { status: 'ready', refreshedAt: loaded, refreshing, incomplete: state?.incompleteLists ?? null, ...failure, ...schedule };
}

/** Resolves when the system's refresh in this process (if any) has settled. */
export async function waitForRefresh(deviceId: string): Promise<void> {
  await inflight.get(deviceId)?.catch(() => undefined);
}
