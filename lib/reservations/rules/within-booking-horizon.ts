import { bookingHorizonEnd } from '@/lib/schedule/overlay';

/**
 * A slot can be booked only if it ends within the system's horizon (now + days). The grid shows
 * slots beyond it as not bookable (lib/schedule/overlay.ts, with the same end); the booking handler
 * refuses them with this sentence. Returns null when the slot is within the horizon.
 */
export function beyondBookingHorizon(slot: { endMs: number }, nowMs: number, horizonDays: number, words: { slot: string; resource: string }): string | null {
  if (slot.endMs <= bookingHorizonEnd(nowMs, horizonDays)) return null;
  return `${words.slot} is too far ahead: ${words.resource} can be booked at most ${horizonDays} day${horizonDays === 1 ? '' : 's'} in advance.`;
}
