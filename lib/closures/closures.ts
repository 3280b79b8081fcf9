import 'server-only';
import { ApiError, isApiError } from '@/lib/errors/api-error';
import type { Locale } from '@/lib/i18n/config';
import { env } from '@/lib/env';
import type { Database } from '@/lib/db';
import type { ClosureTarget } from '@/lib/db/schema';
import type { MessageData } from '@/lib/events/types';
import { msg } from '@/lib/i18n/message';
import { log } from '@/lib/log';
import { refreshSystem } from '@/lib/mirror/refresh';
import { readReservations, readResources, readUserGroups, readUsers } from '@/lib/mirror/store';
import type { MirrorResource, MirrorSource } from '@/lib/mirror/types';
import { findByKey, listBookingOrigins, toRequestView } from '@/lib/reservations/lifecycle';
import { requestCancellation, type ReservationDeps, type SystemContext } from '@/lib/reservations/requests';
import type { SystemPublic } from '@/lib/systems/schemas';
import { getSystem } from '@/lib/systems/store';
import { markClosureDoneIfSettled } from './settled';
import { localInstant, periodProblem, periodProblemMessage, periodWords } from './period';
import type { ClosureInput } from './schemas';
import {
  claimClosures,
  closureRequests,
  findClosureByKey,
  insertClosure,
  liftClosureRow,
  readClosure,
  recordTargetOutcome,
  releaseLease,
  renewLease,
  listActiveClosureRows,
  type ClosureRow,
} from './store';
import type { ClosureItem, ClosureItemState, ClosurePreview, ClosureView, PreviewBooking } from './types';

/**
 * Room closures: a manager closes rooms of a system for a period with a reason; the portal refuses
 * its own bookings there (lib/booking-rules/not-closed.ts) and cancels, on the residents' behalf,
 * the bookings it finds there when the closure is confirmed — each through the normal cancel flow
 * (requestCancellation) under a key derived from the closure and the reservation, so a closure run
 * twice or resumed after a restart never cancels twice.
 */

export interface ClosureDeps extends ReservationDeps {
  /** Builds the upstream source of a system's mirror (the preview and the confirmation refresh it first). */
  source: (deviceId: string) => Promise<MirrorSource>;
  /** Starts a new closure's job in the background (the portal's tracks it for the shutdown); default runClosureJob. */
  startJob?: (closureId: string) => Promise<void>;
}

/** Cancellations of one closure sent side by side (the service is a shared, rate-limited one). */
export const CLOSURE_CONCURRENCY = 2;
/** How long a job's claim on a closure lasts without renewal (renewed after every booking). */
export const CLOSURE_LEASE_SECONDS = 120;

/** The Idempotency-Key of a closure's cancellation of one booking: the same on every run. */
export function closureCancelKey(closureId: string, reservationId: string): string {
  return `closure:${closureId}:${reservationId}`;
}

const systemContext = (system: SystemPublic): SystemContext => ({
  deviceId: system.deviceId,
  name: system.name,
  timeZone: system.timeZone,
  bookingHorizonDays: system.bookingHorizonDays,
  scheduleBasis: system.scheduleBasis,
  bookingQuota: system.bookingQuota,
});

interface ResolvedInput {
  startMs: number;
  endMs: number;
  rooms: MirrorResource[];
}

/** The period as instants (checked: see ./period.ts) and the rooms (all of the system's mirror). */
async function resolveInput(db: Database, system: SystemPublic, input: ClosureInput, nowMs: number): Promise<ResolvedInput> {
  const startMs = localInstant(input.from, system.timeZone);
  if (startMs === null) throw new ApiError('unprocessable_entity', msg('errors.closureDateTime', { field: 'from' }));
  const endMs = localInstant(input.to, system.timeZone);
  if (endMs === null) throw new ApiError('unprocessable_entity', msg('errors.closureDateTime', { field: 'to' }));
  const problem = periodProblem(startMs, endMs, nowMs);
  if (problem) {
    const words = (locale: Locale) => ({ period: periodWords(startMs, endMs, system.timeZone, locale) });
    throw new ApiError('unprocessable_entity', periodProblemMessage(problem, words(env.PORTAL_DEFAULT_LOCALE).period), {}, words);
  }
  const resources = await readResources(db, system.deviceId);
  const byId = new Map(resources.map((r) => [r.id, r]));
  const unknown = input.resourceIds.filter((id) => !byId.has(id));
  if (unknown.length > 0) throw new ApiError('unprocessable_entity', msg('errors.closureNoSuchRoom', { count: unknown.length, system: system.name }));
  return { startMs, endMs, rooms: input.resourceIds.map((id) => byId.get(id)!) };
}

/**
 * Refreshes the system's mirror and waits for it (one refresh per system at a time: a refresh
 * already running is shared). A refresh that fails or is another instance's leaves the copy held.
 * It bypasses the freshness window and the request budget, not the lease: the closure cancels the
 * bookings it finds, and one made at the door since the last refresh would be missed. It is
 * charged to the budget all the same (the views' next refreshes wait the longer); closures are
 * rare acts of a manager, so that cannot run up the service's load.
 */
async function refreshFirst(deps: ClosureDeps, deviceId: string): Promise<void> {
  try {
    await refreshSystem(deps.db, deviceId, await deps.source(deviceId), {
      freshnessMs: env.MIRROR_FRESHNESS_S * 1000,
      budget: { perHour: env.MIRROR_REQUEST_BUDGET_PER_HOUR, enforce: false },
    });
  } catch (error) {
    log.warn('closure: mirror refresh failed; using the copy held', { deviceId, error });
  }
}

/** The bookings on the rooms overlapping the period, with their holders; `willCancel` when not started. */
async function findBookings(db: Database, system: SystemPublic, resolved: ResolvedInput, nowMs: number): Promise<PreviewBooking[]> {
  const roomIds = new Set(resolved.rooms.map((r) => r.id));
  const names = new Map(resolved.rooms.map((r) => [r.id, r.name]));
  const found = (await readReservations(db, system.deviceId, { from: new Date(resolved.startMs), to: new Date(resolved.endMs) })).filter(
    // Maintenance windows (Service) are the service's own, not bookings.
    (r) => roomIds.has(r.resourceId) && r.ownerType !== 'Service',
  );
  // The holder named as the e-mail and the Requests page name them: the mirror's user (any group,
  // not only the owning groups'), else the name the portal booked it for.
  const userIds = new Set(found.flatMap((r) => (r.userId ? [r.userId] : [])));
  const users = new Map(userIds.size > 0 ? (await readUsers(db, system.deviceId)).filter((u) => userIds.has(u.id)).map((u) => [u.id, u]) : []);
  const groupOf = (r: (typeof found)[number]) => (r.ownerType === 'Group' ? r.ownerId : r.userId ? users.get(r.userId)?.userGroupId : null) ?? null;
  const groupIds = [...new Set(found.flatMap((r) => groupOf(r) ?? []))];
  const groups = new Map((groupIds.length > 0 ? await readUserGroups(db, system.deviceId, groupIds) : []).map((g) => [g.id, g]));
  const origins = new Map((await listBookingOrigins(db, system.deviceId, found.map((r) => r.id))).map((o) => [o.reservationId, o]));
  return found.map((r) => ({
    reservationId: r.id,
    resourceId: r.resourceId,
    resourceName: names.get(r.resourceId) ?? null,
    startTime: r.startTime,
    endTime: r.endTime,
    apartment: groups.get(groupOf(r) ?? '')?.apartmentId.trim() || null,
    residentName: (r.userId ? users.get(r.userId)?.name.trim() : undefined) || origins.get(r.id)?.residentName?.trim() || null,
    willCancel: Date.parse(r.startTime) > nowMs,
  }));
}

/** POST …/closures/preview: the bookings a closure would cancel (the mirror refreshed first); nothing is stored. */
export async function previewClosure(deps: ClosureDeps, system: SystemPublic, input: ClosureInput): Promise<ClosurePreview> {
  const nowMs = (deps.now?.() ?? new Date()).getTime();
  await resolveInput(deps.db, system, input, nowMs);
  await refreshFirst(deps, system.deviceId);
  const resolved = await resolveInput(deps.db, system, input, nowMs);
  const bookings = await findBookings(deps.db, system, resolved, nowMs);
  return {
    startTime: new Date(resolved.startMs).toISOString(),
    endTime: new Date(resolved.endMs).toISOString(),
    rooms: resolved.rooms.map((r) => ({ id: r.id, name: r.name })),
    bookings,
    toCancel: bookings.filter((b) => b.willCancel).length,
  };
}

/**
 * POST …/closures: stores the closure with the bookings to cancel, found again in the refreshed
 * mirror (never trusted from the client), and starts its job. A key used before returns that
 * closure (`fresh: false`) and starts nothing. `job` settles when this call's job does (tests).
 */
export async function createClosure(
  deps: ClosureDeps,
  args: { requester: { id: string; name: string }; system: SystemPublic; input: ClosureInput; idempotencyKey: string },
): Promise<{ closure: ClosureView; fresh: boolean; job: Promise<void> }> {
  const { requester, system, input, idempotencyKey } = args;
  const seen = await findClosureByKey(deps.db, requester.id, idempotencyKey);
  if (seen) {
    if (seen.deviceId !== system.deviceId) throw new ApiError('unprocessable_entity', msg('errors.idempotencyKeyReused'));
    return { closure: await closureView(deps.db, seen), fresh: false, job: Promise.resolve() };
  }
  const nowMs = (deps.now?.() ?? new Date()).getTime();
  await resolveInput(deps.db, system, input, nowMs);
  await refreshFirst(deps, system.deviceId);
  const resolved = await resolveInput(deps.db, system, input, nowMs);
  const targets: ClosureTarget[] = (await findBookings(deps.db, system, resolved, nowMs))
    .filter((b) => b.willCancel)
    .map((b) => ({ reservationId: b.reservationId, resourceId: b.resourceId, startTime: b.startTime, endTime: b.endTime, apartment: b.apartment, residentName: b.residentName }));
  const { row, fresh } = await insertClosure(deps.db, {
    deviceId: system.deviceId,
    resourceIds: resolved.rooms.map((r) => r.id),
    startsAt: new Date(resolved.startMs),
    endsAt: new Date(resolved.endMs),
    reason: input.reason,
    createdBy: requester.id,
    createdByName: requester.name,
    idempotencyKey,
    targets,
  });
  if (row.deviceId !== system.deviceId) throw new ApiError('unprocessable_entity', msg('errors.idempotencyKeyReused'));
  const job = fresh && row.status === 'cancelling' ? (deps.startJob ?? ((id: string) => runClosureJob(deps, id)))(row.id) : Promise.resolve();
  return { closure: await closureView(deps.db, row), fresh, job };
}

/**
 * Runs a closure's cancellations if no one else is (its lease, lib/closures/store.ts). Never
 * throws: a failure is logged and the closure left for the worker to resume.
 */
export async function runClosureJob(deps: ClosureDeps, closureId: string, shouldStop: () => boolean = () => false): Promise<void> {
  try {
    const [row] = await claimClosures(deps.db, CLOSURE_LEASE_SECONDS, 1, [closureId]);
    if (row) await runClosure(deps, row, shouldStop);
  } catch (error) {
    log.error('closure job failed; the worker resumes it', { closureId, error });
  }
}

/** What a cancellation refused before a request was recorded means for the target. */
function refusedOutcome(error: unknown): NonNullable<ClosureTarget['outcome']> {
  if (isApiError(error)) {
    if (error.text.key === 'errors.noSuchBooking') return { kind: 'gone' };
    if (error.text.key === 'rules.startedCancellation') return { kind: 'started' };
    if (error.text.key === 'errors.cancellationOnItsWay') return { kind: 'elsewhere' };
    const values = Object.fromEntries(Object.entries(error.text.values ?? {}).filter((e): e is [string, string | number] => typeof e[1] === 'string' || typeof e[1] === 'number'));
    return { kind: 'failed', key: error.text.key, values };
  }
  return { kind: 'failed', key: 'errors.internal' };
}

/**
 * Sends the cancellation of every target that has neither a request nor a recorded outcome, at
 * most CLOSURE_CONCURRENCY at a time, as the closure's creator. One target's failure is recorded
 * and never stops the others. Done when every target is gone or definitely refused (./settled.ts).
 */
export async function runClosure(deps: ClosureDeps, row: ClosureRow, shouldStop: () => boolean = () => false): Promise<void> {
  const system = await getSystem(deps.db, row.deviceId);
  if (!system) return;
  // The creator's id keys the requests; a creator since removed still names them (requested_by is text).
  const requester = { id: row.createdBy ?? `closure:${row.id}`, name: row.createdByName ?? '' };
  const withRequest = new Set((await closureRequests(deps.db, row.id)).map((r) => r.reservationId));
  const todo = row.targets.map((target, index) => ({ target, index })).filter(({ target }) => !target.outcome && !withRequest.has(target.reservationId));
  let next = 0;
  const lane = async () => {
    while (next < todo.length && !shouldStop()) {
      const { target, index } = todo[next++]!;
      const idempotencyKey = closureCancelKey(row.id, target.reservationId);
      try {
        await requestCancellation(deps, {
          requester,
          system: systemContext(system),
          input: { deviceId: row.deviceId, reservationId: target.reservationId },
          idempotencyKey,
          closureId: row.id,
        });
      } catch (error) {
        // A refusal after the request was recorded (not sent) is told by the request itself.
        if (!(await findByKey(deps.db, requester.id, idempotencyKey))) {
          if (!isApiError(error)) log.error('closure: cancellation failed', { closureId: row.id, reservationId: target.reservationId, error });
          await recordTargetOutcome(deps.db, row.id, index, refusedOutcome(error));
        }
      }
      await renewLease(deps.db, row.id, CLOSURE_LEASE_SECONDS);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CLOSURE_CONCURRENCY, todo.length) }, lane));
  // Done only when every target is gone or definitely refused; a cancellation still waiting for
  // its outcome (or re-sent by the reconciler) leaves it 'cancelling', and its resolution marks it.
  if (!(await deps.db.transaction((tx) => markClosureDoneIfSettled(tx, row.id)))) await releaseLease(deps.db, row.id);
}

/** Each target's state: from its request when it made one, else from its recorded outcome. */
export async function closureView(db: Database, row: ClosureRow, roomNames?: ReadonlyMap<string, string>): Promise<ClosureView> {
  const names = roomNames ?? new Map((await readResources(db, row.deviceId)).map((r) => [r.id, r.name]));
  const requests = new Map((await closureRequests(db, row.id)).map((r) => [r.reservationId, r]));
  const counts = { total: row.targets.length, waiting: 0, sent: 0, cancelled: 0, failed: 0, skipped: 0 };
  const items: ClosureItem[] = row.targets.map((t) => {
    const request = requests.get(t.reservationId);
    let state: ClosureItemState;
    let reason: MessageData | null = null;
    if (request) {
      state = request.status === 'succeeded' ? 'cancelled' : request.status === 'failed' ? 'failed' : 'sent';
      reason = request.status === 'failed' ? (toRequestView(request).reason ?? null) : null;
    } else if (t.outcome) {
      state = t.outcome.kind === 'failed' ? 'failed' : t.outcome.kind === 'gone' ? 'gone' : 'skipped';
      if (t.outcome.kind === 'failed') reason = { key: t.outcome.key ?? 'errors.internal', ...(t.outcome.values ? { values: t.outcome.values } : {}) };
    } else {
      state = 'waiting';
    }
    if (state === 'gone') counts.skipped += 1;
    else counts[state] += 1;
    return {
      reservationId: t.reservationId,
      resourceId: t.resourceId,
      resourceName: names.get(t.resourceId) ?? null,
      startTime: t.startTime,
      endTime: t.endTime,
      apartment: t.apartment ?? null,
      residentName: t.residentName ?? null,
      requestId: request?.id ?? null,
      state,
      reason,
    };
  });
  return {
    id: row.id,
    deviceId: row.deviceId,
    rooms: row.resourceIds.map((id) => ({ id, name: names.get(id) ?? null })),
    startTime: row.startsAt.toISOString(),
    endTime: row.endsAt.toISOString(),
    reason: row.reason,
    createdByName: row.createdByName,
    createdAt: row.createdAt.toISOString(),
    status: row.status,
    finishedAt: row.finishedAt?.toISOString() ?? null,
    liftedAt: row.liftedAt?.toISOString() ?? null,
    progress: counts,
    items,
  };
}

/** GET …/closures/{id}: one closure with its progress. */
export async function readClosureView(db: Database, system: SystemPublic, closureId: string): Promise<ClosureView> {
  const row = await readClosure(db, system.deviceId, closureId);
  if (!row) throw new ApiError('not_found', msg('errors.closureNotFound', { system: system.name }));
  return closureView(db, row);
}

/** GET …/closures: the system's closures in force or to come, earliest first, with their progress. */
export async function listClosures(db: Database, system: SystemPublic, now = new Date()): Promise<ClosureView[]> {
  const rows = await listActiveClosureRows(db, system.deviceId, now);
  const names = new Map((await readResources(db, system.deviceId)).map((r) => [r.id, r.name]));
  return Promise.all(rows.map((row) => closureView(db, row, names)));
}

/**
 * DELETE …/closures/{id}: lifts the closure (rooms may be booked again). The bookings it cancelled
 * are not restored, and a job still running finishes what was confirmed.
 */
export async function liftClosure(db: Database, system: SystemPublic, closureId: string, user: { id: string }): Promise<ClosureView> {
  const row = await readClosure(db, system.deviceId, closureId);
  if (!row) throw new ApiError('not_found', msg('errors.closureNotFound', { system: system.name }));
  if (!(await liftClosureRow(db, system.deviceId, closureId, user.id))) throw new ApiError('conflict', msg('errors.closureAlreadyLifted'));
  const lifted = await readClosure(db, system.deviceId, closureId);
  return closureView(db, lifted ?? row);
}
