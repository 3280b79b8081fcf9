import { isBeyondDaysAhead } from '@/lib/booking-rules/group-rules';
import { isBookable } from '@/lib/booking-rules/slot-rules';
import { isBeyondHorizon } from '@/lib/booking-rules/within-booking-horizon';
import { expandRange, instantOfWallTime } from './expand';
import type { ScheduleBasis, WeekScheduleInput } from './types';
import { wallClock } from './zoned';

const DAY_MS = 86_400_000;
/** How far before the limit a room's last slot is looked for: a week's schedule and a day. */
const LOOK_BACK_MS = 8 * DAY_MS;

export interface RoomHorizon {
  nowMs: number;
  /** The system's horizon (bookingHorizonEnd): a slot must end by it. */
  horizonEndMs: number;
  /** The room's rule group's days ahead (lib/booking-rules rule-set.ts), or null. */
  daysAhead: number | null;
  timeZone: string;
  basis?: ScheduleBasis;
}

/**
 * "Bookable until": the end of the room's last slot that the earliest horizon applying to it still
 * lets be booked (the system's horizon, its rule group's days ahead), judged by the slot rules the
 * handler applies (slot-rules.ts) — so it names a slot's end, not the clock's minute, and moves
 * only when a slot comes within reach. Null when no slot of the room is within reach.
 */
export function bookableUntil(schedule: WeekScheduleInput, horizon: RoomHorizon): number | null {
  const { nowMs, horizonEndMs, daysAhead, timeZone, basis } = horizon;
  let limit = horizonEndMs;
  if (daysAhead !== null) {
    // Slots must start before the local midnight that ends the last day allowed.
    const today = wallClock(nowMs, timeZone);
    limit = Math.min(limit, instantOfWallTime(today.year, today.month - 1, today.day + daysAhead + 1, 0, timeZone));
  }
  let until: number | null = null;
  for (const slot of expandRange(schedule, Math.max(nowMs, limit - LOOK_BACK_MS), limit + DAY_MS, timeZone, basis)) {
    const beyondDaysAhead = daysAhead !== null && isBeyondDaysAhead(slot.startMs, nowMs, daysAhead, timeZone) ? daysAhead : null;
    const facts = { startMs: slot.startMs, overlapping: 0, beyondHorizon: isBeyondHorizon(slot, horizonEndMs), beyondDaysAhead };
    if (isBookable(facts, nowMs) && (until === null || slot.endMs > until)) until = slot.endMs;
  }
  return until;
}
