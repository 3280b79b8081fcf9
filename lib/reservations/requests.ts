import 'server-only';
import { ApiError, ErrorCode, isErrorCode, renderApiError, toApiError } from '@/lib/errors/api-error';
import type { Locale } from '@/lib/i18n/config';
import { env } from '@/lib/env';
import { formatClock, formatDayTime } from '@/lib/i18n/format';
import { msg, type Message } from '@/lib/i18n/message';
import type { Database } from '@/lib/db';
import type { EventBus } from '@/lib/events/bus-types';
import type { PortalEvent, RequestView } from '@/lib/events/types';
import { log } from '@/lib/log';
import { partialLoadOf } from '@/lib/mirror/refresh';
import { readReservationById, readReservations, readResources, readState, readTimeSchedules, readUserGroups } from '@/lib/mirror/store';
import { expandRange, type ScheduleBasis } from '@/lib/schedule';
import { isServiceError, type Accepted, type ServiceClient } from '@/lib/service';
import { claimRequest, findByKey, markNotSent, markOutcomeUnknown, markRequestAccepted, readRequest, toRequestView, type NewRequest, type RequestRow } from './lifecycle';
import { NOT_SENT } from './reasons';
import {
  DEFAULT_BOOKING_HORIZON_DAYS,
  DEFAULT_BOOKING_QUOTA,
  isWithinQuota,
  quotaExceeded,
  bookingHorizonEnd,
  cancellationRefusedFor,
  alreadyStarted,
  hasStarted,
  isBeyondHorizon,
  isResidentAuthorized,
  isScheduledSlot,
  notAuthorized,
  notOnSchedule,
  slotRefusal,
  closureOver,
  roomClosed,
  type Refusal,
} from '@/lib/booking-rules';
import { readClosureWindows } from '@/lib/closures/read';
import { periodWords } from '@/lib/closures/period';
import { apartmentOf, heldPerResource, readApartmentHoldings } from './quota';
import { findResident, findUserName } from './residents';
import { IDEMPOTENCY_KEY_MAX, IDEMPOTENCY_KEY_PATTERN, type BookingInput, type CancellationInput } from './schemas';

export interface ReservationDeps {
  db: Database;
  client: ServiceClient;
  /** The system's API key; throws an ApiError when the system is not connected. */
  apiKeyFor: (deviceId: string) => Promise<string>;
  bus: EventBus;
  now?: () => Date;
}

/** Who asks: the signed-in portal user. */
export interface Requester {
  id: string;
  name: string;
}

/** The system as the caller already checked it (requireSystemAccess). */
export interface SystemContext {
  deviceId: string;
  name: string;
  timeZone: string;
  /** How far ahead it can be booked (default 28 days). */
  bookingHorizonDays?: number;
  /** What its schedules' minutes mean (default 'utc'). */
  scheduleBasis?: ScheduleBasis;
  /** Future bookings an apartment may hold per room (default 2). */
  bookingQuota?: number;
}

/** What a booking or cancellation call answers: 202 with the request, or a stored first error. */
export type RequestAnswer =
  | { status: 202; request: RequestView }
  | { status: number; error: { code: ErrorCode; message: string; reason?: string; text?: Message } };

/** Validates the Idempotency-Key header; a clear 400 for each way it can be wrong. */
export function parseIdempotencyKey(value: string | null): string {
  if (value === null || value === '') {
    throw new ApiError('bad_request', msg('errors.idempotencyKeyMissing'));
  }
  if (value.length > IDEMPOTENCY_KEY_MAX) {
    throw new ApiError('bad_request', msg('errors.idempotencyKeyTooLong', { max: IDEMPOTENCY_KEY_MAX }));
  }
  if (!IDEMPOTENCY_KEY_PATTERN.test(value)) {
    throw new ApiError('bad_request', msg('errors.idempotencyKeyCharacters'));
  }
  return value;
}

/**
 * The answer a repeated key gets: the stored first error (its Message, when it was stored with one,
 * so it is answered in the language of whoever asks again), or 202 with the request as it is now.
 */
function answerOf(row: RequestRow): RequestAnswer {
  const first = row.firstAnswer;
  if (first) {
    const text = first.key ? msg(first.key as Message['key'], first.values) : undefined;
    // Stored from an ErrorCode (markNotSent); the schema keeps it as text.
    const code = isErrorCode(first.code) ? first.code : 'internal_server_error';
    return { status: first.status, error: { code, message: first.message, ...(first.reason ? { reason: first.reason } : {}), ...(text ? { text } : {}) } };
  }
  return { status: 202, request: toRequestView(row) };
}

/** A key reused for another request is a client bug: say so rather than answer the wrong thing. */
function assertSameRequest(row: RequestRow, expected: { kind: 'create' | 'cancel'; deviceId: string; resourceId?: string; residentUserId?: string; startMs?: number; endMs?: number; reservationId?: string }) {
  const same =
    row.kind === expected.kind &&
    row.deviceId === expected.deviceId &&
    (expected.resourceId === undefined || row.resourceId === expected.resourceId) &&
    (expected.residentUserId === undefined || row.residentUserId === expected.residentUserId) &&
    (expected.startMs === undefined || (row.startTime?.getTime() ?? NaN) === expected.startMs) &&
    (expected.endMs === undefined || (row.endTime?.getTime() ?? NaN) === expected.endMs) &&
    (expected.reservationId === undefined || row.reservationId === expected.reservationId);
  if (!same) {
    throw new ApiError('unprocessable_entity', msg('errors.idempotencyKeyReused'));
  }
}

const stillLoading = () => new ApiError('service_unavailable', msg('errors.stillLoading'), { 'Retry-After': '5' });

async function requireLoaded(db: Database, deviceId: string): Promise<void> {
  const state = await readState(db, deviceId);
  if (!state?.refreshedAt) throw stillLoading();
}

/** "tisdag 24 november kl. 07:00–10:00" / "Tuesday 24 November at 07:00–10:00". */
function slotWords(startMs: number, endMs: number, timeZone: string, locale: Locale = env.PORTAL_DEFAULT_LOCALE): string {
  return `${formatDayTime(startMs, timeZone, locale)}–${formatClock(endMs, timeZone)}`;
}

/** The slot's words, made again in the language of whoever is answered. */
function slotIn(startMs: number, endMs: number, timeZone: string) {
  return (locale: Locale) => ({ slot: slotWords(startMs, endMs, timeZone, locale) });
}

function refuse(refusal: Refusal, localValues?: (locale: Locale) => { slot: string }): never {
  // Not refused for good (the slot is still being checked): the client may try again shortly.
  const headers: Record<string, string> = refusal.code === 'service_unavailable' ? { 'Retry-After': '5' } : {};
  throw new ApiError(refusal.code, refusal.message, headers, localValues);
}

function publish(deps: ReservationDeps, events: PortalEvent[]) {
  if (events.length > 0) deps.bus.publish(events);
}

/**
 * POST /api/reservations: checks that the resident may book the resource, that the slot is a
 * real, free slot, and that the apartment is within its quota in the room; then records a
 * 'sending' request under the caller's Idempotency-Key (a key seen before answers its first
 * answer, with no second upstream call), sends the booking upstream once, and marks the request
 * pending with the upstream's correlation id.
 */
type ExpectedRequest = Parameters<typeof assertSameRequest>[1];

/** The first answer to a key already used, or undefined for a new key. */
async function replayIfSeen(db: Database, requestedBy: string, key: string, expected: ExpectedRequest): Promise<RequestAnswer | undefined> {
  const seen = await findByKey(db, requestedBy, key);
  if (!seen) return undefined;
  assertSameRequest(seen, expected);
  return answerOf(seen);
}

/**
 * Claims the request ('sending', lib/reservations/lifecycle.ts) and sends it once. A key that was
 * used meanwhile (a double click racing this one) gets the first answer instead; an open request
 * for the same slot or reservation is a 409 with `clash` as its sentence.
 */
async function claimAndSend(
  deps: ReservationDeps,
  request: NewRequest,
  expected: ExpectedRequest,
  clash: ApiError,
  call: () => Promise<Accepted>,
  guard?: (tx: Database) => Promise<void>,
): Promise<RequestAnswer> {
  const claimed = await claimRequest(deps.db, request, guard);
  if ('clash' in claimed) throw clash;
  if (!claimed.fresh) {
    assertSameRequest(claimed.row, expected);
    return answerOf(claimed.row);
  }
  return send(deps, claimed.row.id, call);
}

export async function requestBooking(
  deps: ReservationDeps,
  args: { requester: Requester; system: SystemContext; input: BookingInput; idempotencyKey: string },
): Promise<RequestAnswer> {
  const { requester, system, idempotencyKey, input } = args;
  if (input.deviceId !== system.deviceId) throw new ApiError('bad_request', msg('errors.deviceIdMismatch'));
  const startMs = Date.parse(input.startTime);
  const endMs = Date.parse(input.endTime);
  const expected = { kind: 'create' as const, deviceId: input.deviceId, resourceId: input.resourceId, residentUserId: input.residentUserId, startMs, endMs };

  const replay = await replayIfSeen(deps.db, requester.id, idempotencyKey, expected);
  if (replay) return replay;

  // The slot: a real slot of the resource's schedule, not started, free in the mirror. During a
  // first load whose rooms are in, the slot is judged against that load's rooms and schedules, and
  // refused as not known yet (reservations-known, the grid's rule): never taken as free.
  const state = await readState(deps.db, input.deviceId);
  const partial = partialLoadOf(state);
  if (!state?.refreshedAt && !partial) throw stillLoading();
  const reservationsKnown = Boolean(state?.refreshedAt);
  const generation = partial && !reservationsKnown ? { generation: partial.generation } : {};
  const resource = (await readResources(deps.db, input.deviceId, generation)).find((r) => r.id === input.resourceId);
  if (!resource) throw new ApiError('not_found', msg('errors.noSuchResourceIn', { resourceId: input.resourceId, system: system.name }));
  const schedule = (await readTimeSchedules(deps.db, input.deviceId, generation)).find((s) => s.id === resource.timeScheduleId);
  const words = { slot: slotWords(startMs, endMs, system.timeZone), resource: resource.name };
  const inLanguage = slotIn(startMs, endMs, system.timeZone);
  const slot = schedule
    ? expandRange(schedule.schedule, startMs, startMs + 1, system.timeZone, system.scheduleBasis).find((s) => isScheduledSlot(s, startMs, endMs))
    : undefined;
  if (!slot) refuse(notOnSchedule(words), inLanguage);
  // The same rules, in the same order, as the grid's `bookable` (lib/booking-rules).
  const now = (deps.now?.() ?? new Date()).getTime();
  const horizonDays = system.bookingHorizonDays ?? DEFAULT_BOOKING_HORIZON_DAYS;
  const beyondHorizon = isBeyondHorizon(slot, bookingHorizonEnd(now, horizonDays));
  const notYet = slotRefusal({ startMs, overlapping: 0, beyondHorizon, reservationsKnown }, now, words, horizonDays);
  if (notYet) refuse(notYet, inLanguage);
  // A room closure over the slot (lib/closures): refused with its reason and period.
  const closure = closureOver({ startMs, endMs }, resource.id, await readClosureWindows(deps.db, input.deviceId, new Date(startMs)));
  if (closure) {
    const period = (locale: Locale) => periodWords(closure.startMs, closure.endMs, system.timeZone, locale);
    refuse(roomClosed(words, closure.reason, period(env.PORTAL_DEFAULT_LOCALE)), (locale) => ({ ...inLanguage(locale), period: period(locale) }));
  }
  const taken = await readReservations(deps.db, input.deviceId, { from: new Date(startMs), to: new Date(endMs), resourceId: resource.id });
  const refusal = slotRefusal({ startMs, overlapping: taken.length, beyondHorizon }, now, words, horizonDays);
  if (refusal) refuse(refusal, inLanguage);

  // The resident: one of the system's users, authorized for this resource.
  const apiKey = await deps.apiKeyFor(input.deviceId);
  const resident = await findResident(deps.client, apiKey, input.deviceId, input.residentUserId, async (groupId) => (await readUserGroups(deps.db, input.deviceId, [groupId]))[0]);
  if (!resident) throw new ApiError('unprocessable_entity', msg('errors.residentNotInSystem', { residentUserId: input.residentUserId, system: system.name }));
  const group = resident.userGroupId ? (await readUserGroups(deps.db, input.deviceId, [resident.userGroupId]))[0] : undefined;
  const apartment = group?.apartmentId || null;
  if (!isResidentAuthorized(resident.reservationResources, resource.id)) refuse(notAuthorized({ apartment, name: resident.name }, resource.name));
  // The apartment's quota in this room, as the service counts it, with its requests still open:
  // counted under the resource's booking lock, so two requests of one apartment cannot both pass.
  const quota = system.bookingQuota ?? DEFAULT_BOOKING_QUOTA;
  const apartmentKeys = await apartmentOf(deps.db, input.deviceId, resident);
  const withinQuota = async (tx: Database) => {
    const holdings = await readApartmentHoldings(tx, input.deviceId, apartmentKeys, new Date(now));
    const held = heldPerResource(holdings).get(resource.id) ?? 0;
    if (!isWithinQuota(held, quota)) refuse(quotaExceeded({ apartment, name: resident.name }, resource.name, held, quota));
  };

  return claimAndSend(
    deps,
    {
      kind: 'create',
      deviceId: input.deviceId,
      resourceId: resource.id,
      residentUserId: resident.userId,
      reservationId: null,
      startTime: new Date(startMs).toISOString(),
      endTime: new Date(endMs).toISOString(),
      requestedBy: requester.id,
      requestedByName: requester.name,
      idempotencyKey,
      residentName: resident.name,
      residentApartment: apartment,
      residentGroupId: resident.userGroupId,
      resourceName: resource.name,
      note: input.note ?? null,
    },
    expected,
    new ApiError('conflict', msg('errors.bookingOnItsWay', { slot: words.slot, resource: resource.name }), {}, inLanguage),
    () => deps.client.reservations.create(apiKey, { userId: resident.userId, resourceId: resource.id, startTime: slot.startTime, endTime: slot.endTime }),
    withinQuota,
  );
}

/** DELETE /api/reservations/{id}: the same flow for cancelling a future booking. */
export async function requestCancellation(
  deps: ReservationDeps,
  args: { requester: Requester; system: SystemContext; input: CancellationInput; idempotencyKey: string; closureId?: string },
): Promise<RequestAnswer> {
  const { requester, system, idempotencyKey, input, closureId } = args;
  if (input.deviceId !== system.deviceId) throw new ApiError('bad_request', msg('errors.deviceIdMismatch'));
  const expected = { kind: 'cancel' as const, deviceId: input.deviceId, reservationId: input.reservationId };
  const replay = await replayIfSeen(deps.db, requester.id, idempotencyKey, expected);
  if (replay) return replay;

  await requireLoaded(deps.db, input.deviceId);
  const reservation = await readReservationById(deps.db, input.deviceId, input.reservationId);
  if (!reservation) throw new ApiError('not_found', msg('errors.noSuchBooking', { reservationId: input.reservationId, system: system.name }));
  const startMs = Date.parse(reservation.startTime);
  const endMs = Date.parse(reservation.endTime);
  const words = slotWords(startMs, endMs, system.timeZone);
  const inLanguage = slotIn(startMs, endMs, system.timeZone);
  const ownerRefusal = cancellationRefusedFor(reservation.ownerType, words);
  if (ownerRefusal) refuse(ownerRefusal, inLanguage);
  const now = (deps.now?.() ?? new Date()).getTime();
  if (hasStarted({ startMs }, now)) refuse(alreadyStarted('cancel', words), inLanguage);

  const apiKey = await deps.apiKeyFor(input.deviceId);
  const resource = (await readResources(deps.db, input.deviceId)).find((r) => r.id === reservation.resourceId);
  const groupId = reservation.ownerType === 'Group' ? reservation.ownerId : null;
  const group = groupId ? (await readUserGroups(deps.db, input.deviceId, [groupId]))[0] : undefined;
  const residentName = reservation.userId
    ? await findUserName(deps.client, apiKey, input.deviceId, reservation.userId).catch(() => null)
    : null;

  return claimAndSend(
    deps,
    {
      kind: 'cancel',
      deviceId: input.deviceId,
      resourceId: reservation.resourceId,
      residentUserId: reservation.userId,
      reservationId: reservation.id,
      startTime: reservation.startTime,
      endTime: reservation.endTime,
      requestedBy: requester.id,
      requestedByName: requester.name,
      idempotencyKey,
      residentName,
      residentApartment: group?.apartmentId || null,
      residentGroupId: groupId,
      resourceName: resource?.name ?? null,
      note: null,
      closureId: closureId ?? null,
    },
    expected,
    new ApiError('conflict', msg('errors.cancellationOnItsWay', { slot: words }), {}, inLanguage),
    () => deps.client.reservations.cancel(apiKey, reservation.id),
  );
}

/**
 * Sends the upstream call once. Accepted → pending with its correlation id. A definite refusal
 * (4xx, 429, the breaker open, no token, a connection refused) → failed "not sent" with the reason,
 * and that error is the answer (also to a repeated key). Anything else that went wrong after the
 * request left — a timeout, a broken connection, a 5xx, an unreadable 2xx — may have been acted on:
 * the request stays pending ("sent, waiting for the service's answer") and the reconciler settles
 * it from the service's reservations, so the portal never calls a booking that was made "failed".
 */
async function send(deps: ReservationDeps, requestId: string, call: () => Promise<Accepted>): Promise<RequestAnswer> {
  let accepted: Accepted;
  try {
    accepted = await call();
  } catch (error) {
    if (isServiceError(error) && error.effect === 'unknown') {
      log.warn('booking request sent, outcome unknown; the reconciler settles it', {
        requestId,
        kind: error.kind,
        operation: error.operation,
        status: error.status,
        detail: error.message,
      });
      const events = await markOutcomeUnknown(deps.db, requestId);
      publish(deps, events);
      return { status: 202, request: await readRequest(deps.db, requestId) };
    }
    const known = toApiError(error);
    if (!known) log.error('booking request failed before it was sent', { requestId, error });
    const apiError = known ?? new ApiError('internal_server_error', msg('errors.notSent'));
    // Kept for a repeated key: the Message (answered in the asker's language) and its sentence in
    // the portal's default language (the request's failure reason).
    const answer = {
      status: ErrorCode[apiError.code],
      code: apiError.code,
      message: await renderApiError(apiError, env.PORTAL_DEFAULT_LOCALE),
      reason: apiError.reason,
      key: apiError.text.key,
      ...(apiError.text.values ? { values: apiError.text.values as Record<string, string | number> } : {}),
    };
    const events = await markNotSent(deps.db, requestId, answer, NOT_SENT);
    publish(deps, events);
    throw apiError;
  }
  const events = await markRequestAccepted(deps.db, requestId, accepted.correlationId);
  publish(deps, events);
  return { status: 202, request: await readRequest(deps.db, requestId) };
}
