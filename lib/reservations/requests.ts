import 'server-only';
import { ApiError } from '@/lib/errors/api-error';
import { msg } from '@/lib/i18n/message';
import { lookBackMs } from '@/lib/booking-rules';
import { checkCancellation, checkGroupRules, checkQuota, checkResident, checkSlot } from './booking/check-rules';
import { claimAndSend } from './booking/claim';
import { gatherCancellationFacts, gatherCancellationNames, gatherResidentFacts, gatherSlotFacts, heldForGroup, heldInRoom } from './booking/gather-facts';
import { bookingOnItsWay, cancellationOnItsWay, deviceIdMismatch, noSuchBooking } from './booking/refusals';
import { replayIfSeen } from './booking/replay';
import type { Requester, RequestAnswer, ReservationDeps, SystemContext } from './booking/types';
import { IDEMPOTENCY_KEY_MAX, IDEMPOTENCY_KEY_PATTERN, type BookingInput, type CancellationInput } from './schemas';

export type { Requester, RequestAnswer, ReservationDeps, SystemContext } from './booking/types';

/**
 * A booking or a cancellation as a pipeline (lib/reservations/booking/): replay a key seen before
 * → gather the facts → apply the rules → claim the request → send it once. The wording of every
 * refusal is in booking/refusals.ts.
 */

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
 * POST /api/reservations: the resident may book the resource, the slot is a real, free slot, and
 * the apartment is within its quota in the room; then a 'sending' request is recorded under the
 * caller's Idempotency-Key (a key seen before answers its first answer, with no second upstream
 * call), sent upstream once, and marked pending with the upstream's correlation id.
 */
export async function requestBooking(
  deps: ReservationDeps,
  args: { requester: Requester; system: SystemContext; input: BookingInput; idempotencyKey: string },
): Promise<RequestAnswer> {
  const { requester, system, idempotencyKey, input } = args;
  if (input.deviceId !== system.deviceId) throw deviceIdMismatch();
  const ask = { resourceId: input.resourceId, startMs: Date.parse(input.startTime), endMs: Date.parse(input.endTime) };
  const expected = { kind: 'create' as const, deviceId: input.deviceId, resourceId: input.resourceId, residentUserId: input.residentUserId, startMs: ask.startMs, endMs: ask.endMs };

  const replay = await replayIfSeen(deps.db, requester.id, idempotencyKey, expected);
  if (replay) return replay;

  const now = (deps.now?.() ?? new Date()).getTime();
  const slotFacts = await gatherSlotFacts(deps.db, input.deviceId, ask);
  const { resource, slot, words, inLanguage } = checkSlot(slotFacts, ask, system, now);
  const residentFacts = await gatherResidentFacts(deps, input.deviceId, input.residentUserId);
  const { resident, apartment, apartmentKeys } = checkResident(residentFacts, input.residentUserId, resource, system);
  // The quota counted under the resource's booking lock, so two requests of one apartment cannot both pass:
  // the room's rule group where the system states one (issue 35), else the quota per room.
  const group = slotFacts.rules?.groups.find((g) => g.resourceIds.includes(resource.id));
  const who = { apartment, name: resident.name };
  const withinQuota = group
    ? async (tx: typeof deps.db) => {
        // Every booking not yet ended, and back a day more than the window (its days are calendar days in the system's zone).
        const from = new Date(Math.min(now, ask.startMs - lookBackMs(group) - 86_400_000));
        checkGroupRules(group, await heldForGroup(tx, input.deviceId, apartmentKeys, new Date(now), from), ask, system, who, slotFacts.roomNames, now);
      }
    : async (tx: typeof deps.db) => checkQuota(await heldInRoom(tx, input.deviceId, apartmentKeys, resource.id, new Date(now)), system, who, resource.name);

  return claimAndSend(
    deps,
    {
      kind: 'create',
      deviceId: input.deviceId,
      resourceId: resource.id,
      residentUserId: resident.userId,
      reservationId: null,
      startTime: new Date(ask.startMs).toISOString(),
      endTime: new Date(ask.endMs).toISOString(),
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
    bookingOnItsWay(words, inLanguage),
    () => deps.client.reservations.create(residentFacts.apiKey, { userId: resident.userId, resourceId: resource.id, startTime: slot.startTime, endTime: slot.endTime }),
    withinQuota,
  );
}

/** DELETE /api/reservations/{id}: the same pipeline for cancelling a future booking. */
export async function requestCancellation(
  deps: ReservationDeps,
  args: { requester: Requester; system: SystemContext; input: CancellationInput; idempotencyKey: string; closureId?: string },
): Promise<RequestAnswer> {
  const { requester, system, idempotencyKey, input, closureId } = args;
  if (input.deviceId !== system.deviceId) throw deviceIdMismatch();
  const expected = { kind: 'cancel' as const, deviceId: input.deviceId, reservationId: input.reservationId };
  const replay = await replayIfSeen(deps.db, requester.id, idempotencyKey, expected);
  if (replay) return replay;

  const reservation = await gatherCancellationFacts(deps, input.deviceId, input.reservationId);
  if (!reservation) throw noSuchBooking(input.reservationId, system);
  const { words, inLanguage } = checkCancellation(reservation, system, (deps.now?.() ?? new Date()).getTime());
  const { apiKey, groupId, resource, group, residentName } = await gatherCancellationNames(deps, input.deviceId, reservation);

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
    cancellationOnItsWay(words, inLanguage),
    () => deps.client.reservations.cancel(apiKey, reservation.id),
  );
}
