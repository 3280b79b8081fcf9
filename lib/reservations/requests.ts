import 'server-only';
import { ApiError, ErrorCode, toApiError } from '@/lib/api/errors';
import type { SqlRunner } from '@/lib/db/sql-runner';
import type { EventBus } from '@/lib/events/bus';
import { markOutcomeUnknown, markRequestAccepted, resolveOpenRequest, toRequestView } from '@/lib/events/store';
import type { PortalEvent, RequestView } from '@/lib/events/types';
import { log } from '@/lib/log';
import { readReservations, readResources, readState, readTimeSchedules, readUserGroups } from '@/lib/mirror/store';
import type { MirrorReservation } from '@/lib/mirror/types';
import { expandRange, formatDayTime, formatClock } from '@/lib/schedule';
import { isServiceError, type Accepted, type ServiceClient } from '@/lib/service';
import { DEFAULT_BOOKING_HORIZON_DAYS } from '@/lib/systems/schemas';
import { NOT_SENT } from './reasons';
import { beyondBookingHorizon } from './rules/within-booking-horizon';
import { findResident, findUserName } from './residents';
import {
  IDEMPOTENCY_KEY_MAX,
  IDEMPOTENCY_KEY_PATTERN,
  bookingInputSchema,
  cancellationInputSchema,
  type BookingInput,
  type CancellationInput,
} from './schemas';

type Row = Record<string, unknown>;

export interface ReservationDeps {
  sql: SqlRunner;
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
}

/** What a booking or cancellation call answers: 202 with the request, or a stored first error. */
export type RequestAnswer = { status: 202; request: RequestView } | { status: number; error: { code: ErrorCode; message: string } };

/** Validates the Idempotency-Key header; a clear 400 for each way it can be wrong. */
export function parseIdempotencyKey(value: string | null): string {
  if (value === null || value === '') {
    throw new ApiError('bad_request', 'The Idempotency-Key header is required (a unique value per booking attempt, e.g. a UUID).');
  }
  if (value.length > IDEMPOTENCY_KEY_MAX) {
    throw new ApiError('bad_request', `The Idempotency-Key header must be at most ${IDEMPOTENCY_KEY_MAX} characters.`);
  }
  if (!IDEMPOTENCY_KEY_PATTERN.test(value)) {
    throw new ApiError('bad_request', 'The Idempotency-Key header may contain only letters, digits and _ - : .');
  }
  return value;
}

const iso = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string | Date).toISOString());

/** The answer a repeated key gets: the stored first error, or 202 with the request as it is now. */
function answerOf(row: Row): RequestAnswer {
  const first = row.first_answer as { status: number; code: ErrorCode; message: string } | null;
  if (first) return { status: first.status, error: { code: first.code, message: first.message } };
  return { status: 202, request: toRequestView(row) };
}

async function findByKey(sql: SqlRunner, requestedBy: string, key: string): Promise<Row | undefined> {
  const { rows } = await sql.query('SELECT * FROM reservation_requests WHERE requested_by = $1 AND idempotency_key = $2', [requestedBy, key]);
  return rows[0];
}

/** A key reused for another request is a client bug: say so rather than answer the wrong thing. */
function assertSameRequest(row: Row, expected: { kind: 'create' | 'cancel'; deviceId: string; resourceId?: string; residentUserId?: string; startMs?: number; endMs?: number; reservationId?: string }) {
  const same =
    row.kind === expected.kind &&
    row.device_id === expected.deviceId &&
    (expected.resourceId === undefined || row.resource_id === expected.resourceId) &&
    (expected.residentUserId === undefined || row.resident_user_id === expected.residentUserId) &&
    (expected.startMs === undefined || Date.parse(iso(row.start_time) ?? '') === expected.startMs) &&
    (expected.endMs === undefined || Date.parse(iso(row.end_time) ?? '') === expected.endMs) &&
    (expected.reservationId === undefined || row.reservation_id === expected.reservationId);
  if (!same) {
    throw new ApiError('unprocessable_entity', 'This Idempotency-Key was already used for a different request; use a new key for a new booking attempt.');
  }
}

async function requireLoaded(sql: SqlRunner, deviceId: string): Promise<void> {
  const state = await readState(sql, deviceId);
  if (!state?.refreshedAt) {
    throw new ApiError('service_unavailable', "This system's data is still loading. Please try again in a moment.", { 'Retry-After': '5' });
  }
}

function slotWords(startMs: number, endMs: number, timeZone: string): string {
  return `${formatDayTime(startMs, timeZone)}–${formatClock(endMs, timeZone)}`;
}

function publish(deps: ReservationDeps, events: PortalEvent[]) {
  if (events.length > 0) deps.bus.publish(events);
}

/**
 * POST /api/reservations: checks that the resident may book the resource and that the slot is a
 * real, free slot; then records a 'sending' request under the caller's Idempotency-Key (a key
 * seen before answers its first answer, with no second upstream call), sends the booking upstream
 * once, and marks the request pending with the upstream's correlation id.
 */
type ExpectedRequest = Parameters<typeof assertSameRequest>[1];

/** The first answer to a key already used, or undefined for a new key. */
async function replayIfSeen(sql: SqlRunner, requestedBy: string, key: string, expected: ExpectedRequest): Promise<RequestAnswer | undefined> {
  const seen = await findByKey(sql, requestedBy, key);
  if (!seen) return undefined;
  assertSameRequest(seen, expected);
  return answerOf(seen);
}

/**
 * Records the request as 'sending' under the resource's booking lock and sends it once. A key that
 * was used meanwhile (a double click racing this one) gets the first answer instead. `insert`
 * refuses a clashing open request and inserts the row (ON CONFLICT DO NOTHING RETURNING *).
 */
async function claimAndSend(
  deps: ReservationDeps,
  claim: {
    resourceId: string;
    requestedBy: string;
    idempotencyKey: string;
    expected: ExpectedRequest;
    insert: (tx: SqlRunner) => Promise<Row | undefined>;
  },
  call: () => Promise<Accepted>,
): Promise<RequestAnswer> {
  const { requestedBy, idempotencyKey } = claim;
  const inserted = await deps.sql.transaction(async (tx): Promise<{ row: Row; fresh: boolean }> => {
    // One booking decision per resource at a time, so two managers cannot both claim a slot here.
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`portal-booking:${claim.resourceId}`]);
    const again = await findByKey(tx, requestedBy, idempotencyKey);
    if (again) return { row: again, fresh: false };
    const row = await claim.insert(tx);
    if (row) return { row, fresh: true };
    const raced = await findByKey(tx, requestedBy, idempotencyKey);
    if (!raced) throw new Error('idempotency row vanished');
    return { row: raced, fresh: false };
  });
  if (!inserted.fresh) {
    assertSameRequest(inserted.row, claim.expected);
    return answerOf(inserted.row);
  }
  return send(deps, inserted.row.id as string, call);
}

export async function requestBooking(
  deps: ReservationDeps,
  args: { requester: Requester; system: SystemContext; input: unknown; idempotencyKey: string },
): Promise<RequestAnswer> {
  const { requester, system, idempotencyKey } = args;
  const input: BookingInput = bookingInputSchema.parse(args.input);
  if (input.deviceId !== system.deviceId) throw new ApiError('bad_request', 'deviceId does not match the checked system.');
  const startMs = Date.parse(input.startTime);
  const endMs = Date.parse(input.endTime);
  const expected = { kind: 'create' as const, deviceId: input.deviceId, resourceId: input.resourceId, residentUserId: input.residentUserId, startMs, endMs };

  const replay = await replayIfSeen(deps.sql, requester.id, idempotencyKey, expected);
  if (replay) return replay;

  // The slot: a real slot of the resource's schedule, not started, free in the mirror.
  await requireLoaded(deps.sql, input.deviceId);
  const resource = (await readResources(deps.sql, input.deviceId)).find((r) => r.id === input.resourceId);
  if (!resource) throw new ApiError('not_found', `No resource ${input.resourceId} in ${system.name}.`);
  const schedule = (await readTimeSchedules(deps.sql, input.deviceId)).find((s) => s.id === resource.timeScheduleId);
  const words = slotWords(startMs, endMs, system.timeZone);
  const slot = schedule ? expandRange(schedule.schedule, startMs, startMs + 1, 'UTC').find((s) => s.startMs === startMs && s.endMs === endMs) : undefined;
  if (!slot) throw new ApiError('unprocessable_entity', `${words} is not a booking slot of ${resource.name}.`);
  const now = (deps.now?.() ?? new Date()).getTime();
  if (startMs <= now) throw new ApiError('unprocessable_entity', `The slot ${words} has already started; it can no longer be booked.`);
  const tooFar = beyondBookingHorizon(slot, now, system.bookingHorizonDays ?? DEFAULT_BOOKING_HORIZON_DAYS, { slot: `The slot ${words}`, resource: resource.name });
  if (tooFar) throw new ApiError('unprocessable_entity', tooFar);
  const taken = await readReservations(deps.sql, input.deviceId, { from: new Date(startMs), to: new Date(endMs), resourceId: resource.id });
  if (taken.length > 0) throw new ApiError('conflict', `The slot ${words} in ${resource.name} is already booked.`);

  // The resident: one of the system's users, authorized for this resource.
  const apiKey = await deps.apiKeyFor(input.deviceId);
  const resident = await findResident(deps.client, apiKey, input.deviceId, input.residentUserId, async (groupId) => (await readUserGroups(deps.sql, input.deviceId, [groupId]))[0]);
  if (!resident) throw new ApiError('unprocessable_entity', `The resident ${input.residentUserId} is not a user of ${system.name}.`);
  const group = resident.userGroupId ? (await readUserGroups(deps.sql, input.deviceId, [resident.userGroupId]))[0] : undefined;
  const apartment = group?.apartmentId || null;
  const who = apartment ? `Apartment ${apartment} (${resident.name})` : resident.name;
  // Unknown authorizations are not a refusal: the service checks them and answers UserNotAuthorized.
  if (resident.reservationResources && !resident.reservationResources.includes(resource.id)) {
    throw new ApiError('unprocessable_entity', `${who} is not allowed to book ${resource.name}.`);
  }

  return claimAndSend(
    deps,
    {
      resourceId: resource.id,
      requestedBy: requester.id,
      idempotencyKey,
      expected,
      async insert(tx) {
        const { rows: open } = await tx.query(
          `SELECT 1 FROM reservation_requests WHERE device_id = $1 AND resource_id = $2 AND kind = 'create'
              AND status IN ('sending', 'pending') AND start_time < $4 AND end_time > $3 LIMIT 1`,
          [input.deviceId, resource.id, new Date(startMs).toISOString(), new Date(endMs).toISOString()],
        );
        if (open.length > 0) throw new ApiError('conflict', `A booking of ${words} in ${resource.name} is already on its way; wait for its outcome.`);
        const { rows } = await tx.query(
          `INSERT INTO reservation_requests
             (kind, device_id, resource_id, resident_user_id, start_time, end_time, requested_by, requested_by_name, idempotency_key,
              resident_name, resident_apartment, resident_group_id, resource_name)
           VALUES ('create', $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
           ON CONFLICT (requested_by, idempotency_key) DO NOTHING
           RETURNING *`,
          [
            input.deviceId, resource.id, resident.userId, new Date(startMs).toISOString(), new Date(endMs).toISOString(),
            requester.id, requester.name, idempotencyKey, resident.name, apartment, resident.userGroupId, resource.name,
          ],
        );
        return rows[0];
      },
    },
    () => deps.client.reservations.create(apiKey, { userId: resident.userId, resourceId: resource.id, startTime: slot.startTime, endTime: slot.endTime }),
  );
}

/** Reads one mirrored reservation by id. */
async function readReservation(sql: SqlRunner, deviceId: string, reservationId: string): Promise<MirrorReservation | undefined> {
  const { rows } = await sql.query(
    `SELECT r.* FROM mirror_reservations r JOIN mirror_state s ON s.device_id = r.device_id AND s.generation = r.generation
      WHERE r.device_id = $1 AND r.id = $2`,
    [deviceId, reservationId],
  );
  const row = rows[0];
  if (!row) return undefined;
  return {
    id: row.id as string,
    resourceId: row.resource_id as string,
    userId: (row.user_id as string | null) ?? null,
    ownerId: (row.owner_id as string | null) ?? null,
    ownerType: row.owner_type as MirrorReservation['ownerType'],
    status: row.status as MirrorReservation['status'],
    startTime: iso(row.start_time) ?? '',
    endTime: iso(row.end_time) ?? '',
    deviceId,
  };
}

/** DELETE /api/reservations/{id}: the same flow for cancelling a future booking. */
export async function requestCancellation(
  deps: ReservationDeps,
  args: { requester: Requester; system: SystemContext; input: unknown; idempotencyKey: string },
): Promise<RequestAnswer> {
  const { requester, system, idempotencyKey } = args;
  const input: CancellationInput = cancellationInputSchema.parse(args.input);
  if (input.deviceId !== system.deviceId) throw new ApiError('bad_request', 'deviceId does not match the checked system.');
  const expected = { kind: 'cancel' as const, deviceId: input.deviceId, reservationId: input.reservationId };
  const replay = await replayIfSeen(deps.sql, requester.id, idempotencyKey, expected);
  if (replay) return replay;

  await requireLoaded(deps.sql, input.deviceId);
  const reservation = await readReservation(deps.sql, input.deviceId, input.reservationId);
  if (!reservation) throw new ApiError('not_found', `No booking ${input.reservationId} in ${system.name}; it may have been cancelled already.`);
  const startMs = Date.parse(reservation.startTime);
  const endMs = Date.parse(reservation.endTime);
  const words = slotWords(startMs, endMs, system.timeZone);
  if (reservation.ownerType === 'Service') throw new ApiError('unprocessable_entity', `${words} is a maintenance window; it cannot be cancelled here.`);
  if (reservation.ownerType === 'Unknown') {
    throw new ApiError('unprocessable_entity', `${words} is held by an owner of a kind the portal does not know; cancel it in the service's own admin tool.`);
  }
  const now = (deps.now?.() ?? new Date()).getTime();
  if (startMs <= now) throw new ApiError('unprocessable_entity', `The booking ${words} has already started; it can no longer be cancelled.`);

  const apiKey = await deps.apiKeyFor(input.deviceId);
  const resource = (await readResources(deps.sql, input.deviceId)).find((r) => r.id === reservation.resourceId);
  const groupId = reservation.ownerType === 'Group' ? reservation.ownerId : null;
  const group = groupId ? (await readUserGroups(deps.sql, input.deviceId, [groupId]))[0] : undefined;
  const residentName = reservation.userId
    ? await findUserName(deps.client, apiKey, input.deviceId, reservation.userId).catch(() => null)
    : null;

  return claimAndSend(
    deps,
    {
      resourceId: reservation.resourceId,
      requestedBy: requester.id,
      idempotencyKey,
      expected,
      async insert(tx) {
        const { rows: open } = await tx.query(
          `SELECT 1 FROM reservation_requests WHERE reservation_id = $1 AND kind = 'cancel' AND status IN ('sending', 'pending') LIMIT 1`,
          [reservation.id],
        );
        if (open.length > 0) throw new ApiError('conflict', `A cancellation of ${words} is already on its way; wait for its outcome.`);
        const { rows } = await tx.query(
          `INSERT INTO reservation_requests
             (kind, device_id, resource_id, resident_user_id, reservation_id, start_time, end_time, requested_by, requested_by_name,
              idempotency_key, resident_name, resident_apartment, resident_group_id, resource_name)
           VALUES ('cancel', $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
           ON CONFLICT (requested_by, idempotency_key) DO NOTHING
           RETURNING *`,
          [
            input.deviceId, reservation.resourceId, reservation.userId, reservation.id, reservation.startTime, reservation.endTime,
            requester.id, requester.name, idempotencyKey, residentName, group?.apartmentId || null, groupId, resource?.name ?? null,
          ],
        );
        return rows[0];
      },
    },
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
      const events = await markOutcomeUnknown(deps.sql, requestId);
      publish(deps, events);
      return { status: 202, request: await readRequest(deps.sql, requestId) };
    }
    const known = toApiError(error);
    if (!known) log.error('booking request failed before it was sent', { requestId, error });
    const apiError = known ?? new ApiError('internal_server_error', 'The request could not be sent. Nothing was booked; please try again.');
    const status = ErrorCode[apiError.code];
    const events = await deps.sql.transaction(async (tx) => {
      await tx.query('UPDATE reservation_requests SET first_answer = $2::jsonb WHERE id = $1', [
        requestId,
        JSON.stringify({ status, code: apiError.code, message: apiError.message }),
      ]);
      return resolveOpenRequest(tx, { requestId }, { succeeded: false, errorCode: NOT_SENT, errorDescription: apiError.message, reservationId: null });
    });
    publish(deps, events);
    throw apiError;
  }
  const events = await markRequestAccepted(deps.sql, requestId, accepted.correlationId);
  publish(deps, events);
  return { status: 202, request: await readRequest(deps.sql, requestId) };
}

async function readRequest(sql: SqlRunner, requestId: string): Promise<RequestView> {
  const { rows } = await sql.query('SELECT * FROM reservation_requests WHERE id = $1', [requestId]);
  return toRequestView(rows[0] ?? {});
}

/** Recent requests of the given systems ('all' for admins), newest first. */
export async function listRequests(sql: SqlRunner, deviceIds: readonly string[] | 'all', limit: number): Promise<RequestView[]> {
  if (deviceIds !== 'all' && deviceIds.length === 0) return [];
  const { rows } =
    deviceIds === 'all'
      ? await sql.query('SELECT * FROM reservation_requests ORDER BY created_at DESC, id LIMIT $1', [limit])
      : await sql.query('SELECT * FROM reservation_requests WHERE device_id = ANY($1::uuid[]) ORDER BY created_at DESC, id LIMIT $2', [deviceIds, limit]);
  return rows.map(toRequestView);
}

/** Open requests touching [from, to) of one resource: the grid shows them as pending. */
export async function listOpenRequests(sql: SqlRunner, deviceId: string, resourceId: string, from: Date, to: Date): Promise<RequestView[]> {
  const { rows } = await sql.query(
    `SELECT * FROM reservation_requests WHERE device_id = $1 AND resource_id = $2 AND status IN ('sending', 'pending')
        AND start_time < $4 AND end_time > $3 ORDER BY created_at`,
    [deviceId, resourceId, from.toISOString(), to.toISOString()],
  );
  return rows.map(toRequestView);
}
