// Pure and browser-safe: turns an upstream outcome code into a sentence a manager can act on, as
// a Message (lib/i18n/message.ts): made on the server, broadcast to readers of any language, and
// rendered by each reader's component (renderReasonValues adds the slot in the reader's words).

import type { Locale } from '@/lib/i18n/config';
import { formatClock, formatDayLabel } from '@/lib/i18n/format';
import { msg, type Message, type MessageValues } from '@/lib/i18n/message';
import { wallClock } from '@/lib/schedule/zoned';
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
  /** The slot, if known: each reader's component words its day in their language. */
  slot?: { startMs: number; endMs: number; timeZone: string } | null;
  /** The upstream's own description (used for numbers it states, such as the quota). */
  errorDescription?: string | null;
}

/** Who a reason names: "Apartment 1203", "Anna Berg" or "The resident" (messages select on `who`). */
export function residentLabel(ctx: Pick<ReasonContext, 'residentName' | 'residentApartment'>): { who: 'apartment' | 'name' | 'unknown'; apartment: string; name: string } {
  const apartment = ctx.residentApartment?.trim() ?? '';
  const name = ctx.residentName?.trim() ?? '';
  return { who: apartment ? 'apartment' : name ? 'name' : 'unknown', apartment, name };
}

const quotaOf = (description: string | null | undefined): number | null => {
  const match = /\b(\d{1,3})\b/.exec(description ?? '');
  return match ? Number(match[1]) : null;
};

/**
 * The reason as a Message, e.g. QuotaExceeded → "Apartment 1203 already has 2 future bookings in
 * Laundry room 1." / "Lägenhet 1203 har redan 2 kommande bokningar i Laundry room 1." Unknown
 * codes quote the upstream's description, then a generic line.
 */
export function describeOutcomeError(code: string | null | undefined, ctx: ReasonContext): Message {
  const room = ctx.resourceName?.trim() ?? '';
  const base: MessageValues = {
    ...residentLabel(ctx),
    room,
    roomKnown: room ? 'yes' : 'no',
    kind: ctx.kind,
    slotKnown: ctx.slot ? 'yes' : 'no',
    ...(ctx.slot ? { slotStartMs: ctx.slot.startMs, slotEndMs: ctx.slot.endMs, timeZone: ctx.slot.timeZone } : {}),
  };
  const description = ctx.errorDescription?.trim() || null;
  switch (code) {
    case 'SlotUnavailable':
      return msg('outcomes.reason.slotUnavailable', base);
    case 'InvalidTimeSlot':
      return msg('outcomes.reason.invalidTimeSlot', base);
    case 'QuotaExceeded': {
      const quota = quotaOf(ctx.errorDescription);
      return quota === null ? msg('outcomes.reason.quotaExceededUnknown', base) : msg('outcomes.reason.quotaExceeded', { ...base, quota });
    }
    case 'OutsideBookingWindow':
      return msg('outcomes.reason.outsideBookingWindow', base);
    case 'InPast':
      return msg('outcomes.reason.inPast', base);
    case 'UserNotAuthorized':
      return msg('outcomes.reason.userNotAuthorized', base);
    case 'UserNotFound':
      return msg('outcomes.reason.userNotFound', base);
    case 'ResourceNotFound':
      return msg('outcomes.reason.resourceNotFound', base);
    case 'ReservationNotFound':
      return msg('outcomes.reason.reservationNotFound');
    case 'NotCancellable':
      return msg('outcomes.reason.notCancellable');
    case 'InternalError':
      return msg('outcomes.reason.internalError');
    case NO_OUTCOME:
      return msg('outcomes.reason.noOutcome', { kind: ctx.kind });
    case NOT_SENT:
      return description ? msg('outcomes.reason.notSentBecause', { detail: description }) : msg('outcomes.reason.notSent');
    default:
      return description ? msg('outcomes.reason.upstream', { detail: description }) : msg('outcomes.reason.refused');
  }
}

/**
 * A reason's values as a reader renders them: the slot of the reason (kept as instants and the
 * system's zone) becomes `slot`, "Monday 24 November 07:00–10:00" in the reader's language.
 */
export function renderReasonValues(values: Readonly<Record<string, string | number>> | undefined, locale: Locale): Record<string, string | number> {
  const out: Record<string, string | number> = { ...values };
  const { slotStartMs, slotEndMs, timeZone } = out;
  if (typeof slotStartMs === 'number' && typeof slotEndMs === 'number' && typeof timeZone === 'string') {
    out.slot = `${formatDayLabel(wallClock(slotStartMs, timeZone), locale)} ${formatClock(slotStartMs, timeZone)}–${formatClock(slotEndMs, timeZone)}`;
  } else {
    out.slot = '';
  }
  return out;
}
