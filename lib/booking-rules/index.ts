/**
 * The booking rules: small pure checks, one per file with its test, shared by the grid (which
 * slots are shown bookable, lib/schedule/overlay.ts) and the handler (what is refused,
 * lib/reservations/requests.ts), so the two cannot disagree. Browser-safe: no I/O, no server
 * module. A new rule goes in its own file here and into `slotRefusal` (when the grid can know it)
 * or the handler's resident checks (when only the resident's lookup can). The apartment quota
 * (within-quota) is counted by the handler and by the next-free search (lib/schedule/next-free.ts).
 */
import { alreadyStarted, hasStarted } from './not-started';
import { alreadyBooked, isSlotFree } from './slot-free';
import { isStateKnown, stillChecking } from './reservations-known';
import type { Refusal, SlotWords } from './types';
import { tooFarAhead } from './within-booking-horizon';

export * from './types';
export * from './slot-on-schedule';
export * from './not-started';
export * from './within-booking-horizon';
export * from './slot-free';
export * from './resident-authorized';
export * from './within-quota';
export * from './cancellable-owner';
export * from './not-closed';
export * from './reservations-known';
export * from './rule-set';
export * from './group-rules';
export * from './describe';

/** What the grid and the handler both know about a slot of the schedule. */
export interface SlotFacts {
  startMs: number;
  /** Reservations in the mirror overlapping the slot. */
  overlapping: number;
  /** The slot ends after the system's booking horizon (isBeyondHorizon). */
  beyondHorizon: boolean;
  /**
   * Whether every reservation that could overlap the slot has been read: false while a first load
   * is still reading them (reservations-known). Default true: the mirror holds a complete copy.
   */
  reservationsKnown?: boolean;
}

/** The first slot rule a booking would break, in the order the handler reports them; null = bookable. */
export function brokenSlotRule(
  slot: SlotFacts,
  nowMs: number,
): 'not-started' | 'within-booking-horizon' | 'reservations-known' | 'slot-free' | null {
  if (hasStarted(slot, nowMs)) return 'not-started';
  if (slot.beyondHorizon) return 'within-booking-horizon';
  if (!isStateKnown(slot.reservationsKnown ?? true)) return 'reservations-known';
  if (!isSlotFree(slot.overlapping)) return 'slot-free';
  return null;
}

/** The grid's question: may a booking of this slot be requested now? */
export function isBookable(slot: SlotFacts, nowMs: number): boolean {
  return brokenSlotRule(slot, nowMs) === null;
}

/** The handler's question: the refusal, in words, for a slot that may not be booked; null when it may. */
export function slotRefusal(slot: SlotFacts, nowMs: number, words: SlotWords, horizonDays: number): Refusal | null {
  switch (brokenSlotRule(slot, nowMs)) {
    case 'not-started':
      return alreadyStarted('create', words.slot);
    case 'within-booking-horizon':
      return tooFarAhead(words, horizonDays);
    case 'reservations-known':
      return stillChecking(words);
    case 'slot-free':
      return alreadyBooked(words);
    default:
      return null;
  }
}
