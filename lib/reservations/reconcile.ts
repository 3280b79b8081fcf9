import 'server-only';
import type { Database } from '@/lib/db';
import type { EventBus } from '@/lib/events/bus-types';
import type { PortalEvent } from '@/lib/events/types';
import { log } from '@/lib/log';
import { isMissingEndpoint, type Reservation, type ServiceClient } from '@/lib/service';
import { claimDueRequests, markResent, settleFromTruth, type RequestRow } from './lifecycle';
import { NO_OUTCOME } from './reasons';
import { singleton } from '@/lib/singleton';

export const RECONCILE_INTERVAL_MS = 15_000;
const BATCH = 20;

export interface ReconcileDeps {
  db: Database;
  client: ServiceClient;
  apiKeyFor: (deviceId: string) => Promise<string>;
  bus: EventBus;
  now?: () => Date;
}

/**
 * When requests are looked at. `afterSeconds`: the window an accepted request's webhook has before
 * the reservations decide, and the longest any request stays pending. `unknownAfterSeconds`: how
 * soon a request whose send had an unknown effect is first checked (then again every pass) — a
 * booking found is settled at once; one not found waits for the window, since the service may
 * still be processing its queue.
 */
export interface ReconcileSettings {
  afterSeconds: number;
  unknownAfterSeconds: number;
}

const sameInstant = (a: string, b: Date | null) => Date.parse(a) === (b?.getTime() ?? NaN);

type Verdict = { settle: true; succeeded: boolean; reservationId: string | null } | { settle: false } | { resend: true };

/** The longest wait between two re-sends of a cancellation whose effect stays unknown. */
export const RESEND_BACKOFF_MAX_S = 300;

/**
 * When a cancellation re-sent `resends` times is looked at (and sent) again: doubling from the
 * unknown-outcome delay (at least a second), at most RESEND_BACKOFF_MAX_S apart.
 */
export function resendDelaySeconds(resends: number, unknownAfterSeconds: number): number {
  const base = Math.max(1, unknownAfterSeconds);
  return Math.min(RESEND_BACKOFF_MAX_S, base * 2 ** Math.min(resends, 20));
}

/**
 * A user's reservations. `users/{userId}/reservations` is beyond the interface document: a service
 * without it (404, 405) is read through the system's list, which the interface has.
 */
async function reservationsOfUser(deps: ReconcileDeps, apiKey: string, userId: string, listAll: () => Promise<Reservation[]>): Promise<Reservation[]> {
  try {
    return await deps.client.reservations.forUser(apiKey, userId);
  } catch (error) {
    if (!isMissingEndpoint(error)) throw error;
    return (await listAll()).filter((r) => r.userId === userId || r.ownerId === userId);
  }
}

/** What the service's reservations say about one request. */
async function judge(deps: ReconcileDeps, row: RequestRow, settings: ReconcileSettings): Promise<Verdict> {
  const { deviceId } = row;
  const userId = row.residentUserId;
  const apiKey = await deps.apiKeyFor(deviceId);
  const listAll = () => deps.client.reservations.list(apiKey, deviceId, { pageSize: 100 }).toArray({ limit: 100_000 });
  const mine: Reservation[] = userId ? await reservationsOfUser(deps, apiKey, userId, listAll) : [];
  // Not seen yet: a request whose answer was lost may still be in the service's queue, so it waits
  // out the window; an accepted one has had its window already (it is only claimed after it).
  const now = (deps.now?.() ?? new Date()).getTime();
  const createdMs = row.createdAt.getTime();
  const withinWindow = now - createdMs < settings.afterSeconds * 1000;
  const unknown = row.status === 'sending' || row.outcomeUnknownSince !== null;
  const notYet: Verdict = unknown && withinWindow ? { settle: false } : { settle: true, succeeded: false, reservationId: null };

  if (row.kind === 'create') {
    const groupId = row.residentGroupId;
    const matches = (r: Reservation) => r.resourceId === row.resourceId && sameInstant(r.startTime, row.startTime) && sameInstant(r.endTime, row.endTime);
    let found = mine.find(matches);
    if (!found && groupId) {
      // A group booking may be listed under the group only: look at the slot itself.
      found = (await listAll()).find((r) => matches(r) && r.ownerId === groupId);
    }
    return found ? { settle: true, succeeded: true, reservationId: found.id } : notYet;
  }
  const reservationId = row.reservationId;
  const stillThere = userId ? mine.some((r) => r.id === reservationId) : (await listAll()).some((r) => r.id === reservationId);
  if (!stillThere) return { settle: true, succeeded: true, reservationId };
  // Still there. A cancellation can still be made before the booking starts: one whose effect is
  // not known to have happened is sent again (same request, same key) rather than called failed —
  // a first send that never reached the service, or whose outcome was lost, must not leave the
  // booking held while the manager is told it failed. Once it has started, it cannot be cancelled.
  const started = (row.startTime?.getTime() ?? 0) <= now;
  if (started) return notYet.settle || row.resends > 0 ? { settle: true, succeeded: false, reservationId } : notYet;
  if (!notYet.settle && row.resends === 0) return notYet;
  return { resend: true };
}

/**
 * Sends a cancellation again under its request (its Idempotency-Key) and records it with its
 * backoff. A lost or refused-for-now answer is one more re-send: the next look sends again while
 * the booking is there. Returns the events of an outcome that arrived before the bookkeeping.
 */
async function resend(deps: ReconcileDeps, row: RequestRow, settings: ReconcileSettings): Promise<PortalEvent[]> {
  const now = (deps.now?.() ?? new Date()).getTime();
  const resendAfter = new Date(now + resendDelaySeconds(row.resends, settings.unknownAfterSeconds) * 1000);
  let correlationId: string | null = null;
  try {
    const apiKey = await deps.apiKeyFor(row.deviceId);
    correlationId = (await deps.client.reservations.cancel(apiKey, row.reservationId ?? '')).correlationId;
  } catch (error) {
    log.warn('a re-sent cancellation had no answer; sent again later', { requestId: row.id, resends: row.resends + 1, error });
  }
  return markResent(deps.db, row.id, { correlationId, resendAfter });
}

/**
 * Settles every request due by reading the service's reservations, so none is left pending when
 * its outcome never arrived, and none whose booking was made is called failed. Returns the events
 * it appended (also published).
 */
export async function reconcilePending(deps: ReconcileDeps, settings: ReconcileSettings | number): Promise<PortalEvent[]> {
  const due: ReconcileSettings = typeof settings === 'number' ? { afterSeconds: settings, unknownAfterSeconds: settings } : settings;
  const appended: PortalEvent[] = [];
  const seen = new Set<string>();
  for (;;) {
    const claimed = (await claimDueRequests(deps.db, due.afterSeconds, due.unknownAfterSeconds, BATCH)).filter((row) => !seen.has(row.id));
    for (const row of claimed) {
      seen.add(row.id);
      try {
        const verdict = await judge(deps, row, due);
        if ('resend' in verdict) {
          const events = await resend(deps, row, due);
          if (events.length > 0) deps.bus.publish(events);
          appended.push(...events);
          continue;
        }
        if (!verdict.settle) continue;
        const events = await settleFromTruth(deps.db, row, {
          succeeded: verdict.succeeded,
          errorCode: verdict.succeeded ? null : NO_OUTCOME,
          errorDescription: verdict.succeeded ? null : 'No outcome arrived from the reservation service.',
          reservationId: verdict.reservationId,
        });
        if (events.length > 0) deps.bus.publish(events);
        appended.push(...events);
      } catch (error) {
        // Tried again after another period (the claim moved updated_at).
        log.warn('could not reconcile a request', { requestId: row.id, error });
      }
    }
    if (claimed.length < BATCH) return appended;
  }
}

/** The process's reconciler: its timer, how to wake it (set once it runs) and its pass in progress. */
const reconciler = singleton('reconciler', () => ({
  timer: undefined as NodeJS.Timeout | undefined,
  wake: undefined as (() => void) | undefined,
  stop: undefined as (() => Promise<void>) | undefined,
}));

/** Runs reconcilePending every intervalMs in the background (one timer per process). */
export function startReconciler(
  deps: () => Promise<ReconcileDeps>,
  settings: ReconcileSettings,
  intervalMs = Math.min(RECONCILE_INTERVAL_MS, Math.max(1_000, (settings.unknownAfterSeconds * 1000) / 2)),
): void {
  if (reconciler.timer) return;
  let running: Promise<void> | undefined;
  let woken: NodeJS.Timeout | undefined;
  const pass = (due: ReconcileSettings) => {
    if (running) return;
    running = deps()
      .then((d) => reconcilePending(d, due))
      .then(() => undefined)
      .catch((error: unknown) => log.warn('reconciliation pass failed', { error }))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(() => pass(settings), intervalMs);
  timer.unref();
  reconciler.timer = timer;
  // An outcome that matched nothing: look at the requests waiting with an unknown outcome now.
  reconciler.wake = () => {
    if (woken) return;
    woken = setTimeout(() => {
      woken = undefined;
      pass({ ...settings, unknownAfterSeconds: 0 });
    }, 500);
    woken.unref();
  };
  reconciler.stop = async () => {
    clearInterval(timer);
    clearTimeout(woken);
    reconciler.timer = undefined;
    reconciler.wake = undefined;
    reconciler.stop = undefined;
    await running;
  };
}

/** Stops the reconciler (shutdown) and waits for the pass in progress; what it left is settled at the next start. */
export async function stopReconciler(): Promise<void> {
  await reconciler.stop?.();
}

/** Asks the running reconciler (if any in this process) for a pass over unknown outcomes soon. */
export function wakeReconciler(): void {
  reconciler.wake?.();
}
