// Pure and browser-safe: turns an upstream outcome code into a sentence a manager can act on.

import { OUTCOME_ERROR_CODES, type OutcomeErrorCode } from '@/lib/service/error-codes';

export { OUTCOME_ERROR_CODES, type OutcomeErrorCode };

/** Codes the portal itself sets on a request it resolved without an upstream outcome. */
export const NO_OUTCOME = 'NoOutcome';
export const NOT_SENT = 'NotSent';

export interface ReasonContext {
  kind: 'create' | 'cancel';
  /** Resident's name, if known. */
  residentName?: string | null;
  /** Apartment of the resident's group, if known ("1203"). */
  residentApartment?: string | null;
  resourceName?: string | null;
  /** Slot, already in words ("Monday 24 November, 07:00–10:00"), if known. */
  slotLabel?: string | null;
  /** The upstream's own description (used for numbers it states, such as the quota). */
  errorDescription?: string | null;
}

/** "Apartment 1203", "Anna Berg", or "The resident". */
export function residentLabel(ctx: Pick<ReasonContext, 'residentName' | 'residentApartment'>): string {
  if (ctx.residentApartment) return `Apartment ${ctx.residentApartment}`;
  if (ctx.residentName) return ctx.residentName;
  return 'The resident';
}

const quotaOf = (description: string | null | undefined): number | null => {
  const match = /\b(\d{1,3})\b/.exec(description ?? '');
  return match ? Number(match[1]) : null;
};

/**
 * The reason in plain words, e.g. QuotaExceeded → "Apartment 1203 already has 2 future bookings
 * in Laundry room 1." Unknown codes fall back to the upstream's description, then a generic line.
 */
export function describeOutcomeError(code: string | null | undefined, ctx: ReasonContext): string {
  const who = residentLabel(ctx);
  const room = ctx.resourceName ?? 'this room';
  const slot = ctx.slotLabel ? `the slot ${ctx.slotLabel}` : 'this slot';
  switch (code) {
    case 'SlotUnavailable':
      return `${capitalise(slot)} in ${room} is already booked by someone else.`;
    case 'InvalidTimeSlot':
      return `${capitalise(slot)} is not one of the booking times of ${room}.`;
    case 'QuotaExceeded': {
      const quota = quotaOf(ctx.errorDescription);
      return quota === null
        ? `${who} already has the most future bookings allowed in ${room}.`
        : `${who} already has ${quota} future booking${quota === 1 ? '' : 's'} in ${room}.`;
    }
    case 'OutsideBookingWindow':
      return `${capitalise(slot)} is too far ahead: ${room} cannot be booked that far in advance yet.`;
    case 'InPast':
      return `${capitalise(slot)} has already started, so it can no longer be ${ctx.kind === 'cancel' ? 'cancelled' : 'booked'}.`;
    case 'UserNotAuthorized':
      return `${who} is not allowed to book ${room}.`;
    case 'UserNotFound':
      return `${who} is no longer a resident of this system.`;
    case 'ResourceNotFound':
      return `${capitalise(room)} no longer exists in this system.`;
    case 'ReservationNotFound':
      return 'The booking no longer exists; it may have been cancelled already.';
    case 'NotCancellable':
      return 'This booking can no longer be cancelled: it has started, or it is a maintenance window.';
    case 'InternalError':
      return 'The reservation service failed to process the request. Please try again.';
    case NO_OUTCOME:
      return ctx.kind === 'cancel'
        ? 'No outcome arrived; the booking was not cancelled.'
        : 'No outcome arrived; the booking was not made.';
    case NOT_SENT:
      return ctx.errorDescription ?? 'The request could not be sent to the reservation service.';
    default:
      return ctx.errorDescription ?? 'The reservation service refused the request.';
  }
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
