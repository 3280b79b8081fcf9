import { msg } from '@/lib/i18n/message';
import type { Refusal, SlotWords } from './types';

export const DEFAULT_BOOKING_HORIZON_DAYS = 28;
const DAY_MS = 86_400_000;

/** The instant after which slots cannot be booked: now + the system's days (24-hour days). */
export function bookingHorizonEnd(nowMs: number, horizonDays: number = DEFAULT_BOOKING_HORIZON_DAYS): number {
  if (!Number.isFinite(horizonDays) || horizonDays < 0) throw new RangeError('horizonDays must be a non-negative number');
  return nowMs + horizonDays * DAY_MS;
}

/**
 * A slot must lie wholly within the horizon: the stricter reading, so the portal never offers a
 * slot the service may refuse (OutsideBookingWindow).
 */
export function isBeyondHorizon(slot: { endMs: number }, horizonEndMs: number): boolean {
  return slot.endMs > horizonEndMs;
}

export function tooFarAhead(words: SlotWords, horizonDays: number): Refusal {
  return {
    rule: 'within-booking-horizon',
    code: 'unprocessable_entity',
    message: msg('rules.tooFarAhead', { slot: words.slot, resource: words.resource, days: horizonDays }),
  };
}
