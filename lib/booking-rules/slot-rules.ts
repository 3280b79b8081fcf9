/**
 * The slot rules in the order the handler reports them, and the grid's question built on them.
 * Its own module (re-exported by the index) so that the browser's grid imports it without the rule
 * sets' zod schemas (rule-set.ts), which the index's `export *` would otherwise bring along.
 */
import { groupRuleRefusal } from './group-rules';
import { alreadyStarted, hasStarted } from './not-started';
import { alreadyBooked, isSlotFree } from './slot-free';
import { isStateKnown, stillChecking } from './reservations-known';
import type { Refusal, SlotWords } from './types';
import { tooFarAhead } from './within-booking-horizon';

/** What the grid and the handler both know about a slot of the schedule. */
export interface SlotFacts {
  startMs: number;
  /** Reservations in the mirror overlapping the slot. */
  overlapping: number;
  /** The slot ends after the system's booking horizon (isBeyondHorizon). */
  beyondHorizon: boolean;
  /**
   * The room's rule group allows booking only this many calendar days ahead and the slot starts
   * later (isBeyondDaysAhead); absent or null when it does not, or the room has no such rule. The
   * one group rule that does not depend on who books: the rest wait for the resident (the handler).
   */
  beyondDaysAhead?: number | null;
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
): 'not-started' | 'within-booking-horizon' | 'group-days-ahead' | 'reservations-known' | 'slot-free' | null {
  if (hasStarted(slot, nowMs)) return 'not-started';
  if (slot.beyondHorizon) return 'within-booking-horizon';
  if (slot.beyondDaysAhead != null) return 'group-days-ahead';
  if (!isStateKnown(slot.reservationsKnown ?? true)) return 'reservations-known';
  if (!isSlotFree(slot.overlapping)) return 'slot-free';
  return null;
}

/** The grid's question: may a booking of this slot be requested now? */
export function isBookable(slot: SlotFacts, nowMs: number): boolean {
  return brokenSlotRule(slot, nowMs) === null;
}

/**
 * The handler's question: the refusal, in words, for a slot that may not be booked; null when it
 * may. `words.rooms` names the room's rule group's rooms (describe.ts roomList) for its rule.
 */
export function slotRefusal(slot: SlotFacts, nowMs: number, words: SlotWords & { rooms?: string }, horizonDays: number): Refusal | null {
  switch (brokenSlotRule(slot, nowMs)) {
    case 'not-started':
      return alreadyStarted('create', words.slot);
    case 'within-booking-horizon':
      return tooFarAhead(words, horizonDays);
    case 'group-days-ahead':
      return groupRuleRefusal({ rule: 'days-ahead', days: slot.beyondDaysAhead ?? 0 }, {}, { slot: words.slot, rooms: words.rooms ?? words.resource });
    case 'reservations-known':
      return stillChecking(words);
    case 'slot-free':
      return alreadyBooked(words);
    default:
      return null;
  }
}
