// Browser code imports this file: Intl-based formatting (./zoned) keeps date-fns out of the bundle.
import type { ScheduleSlot } from './expand';
import type { SlotState, StatefulSlot } from './overlay';
import type { WeekInfo } from './week';
import { clock, dayLabel, dayMonth, wallClock } from './zoned';

/** Local 24-h clock time, "07:00". */
export function formatClock(ms: number, timeZone: string): string {
  return clock(wallClock(ms, timeZone));
}

/** "Monday 24 November, 07:00". */
export function formatDayTime(ms: number, timeZone: string): string {
  const local = wallClock(ms, timeZone);
  return `${dayLabel(local)}, ${clock(local)}`;
}

/** "23 November 2026": the local date. */
export function formatDate(ms: number, timeZone: string): string {
  return dayMonth(wallClock(ms, timeZone), true);
}

/** "07:00–10:00", or "23:00–02:00 next day" for a slot crossing local midnight. */
export function slotTimeRange(slot: Pick<ScheduleSlot, 'startLabel' | 'endLabel' | 'endsNextDay'>): string {
  return `${slot.startLabel}–${slot.endLabel}${slot.endsNextDay ? ' next day' : ''}`;
}

/** Short visible name of a state. */
export const SLOT_STATE_NAMES: Record<SlotState, string> = {
  free: 'Free',
  booked: 'Booked',
  maintenance: 'Maintenance',
  used: 'Used',
  past: 'Past',
  pending: 'Pending',
};

/** The legend's name for a booking that has ended without being marked used. */
export const ENDED_BOOKING_NAME = 'Was booked';

/**
 * What the slot holds, in words: "free", "booked by apartment 1203" ("was booked by …" once it
 * has ended), "maintenance 08:00–09:00"
 * (a window covering only part of the slot names its own times), "used by apartment 1203", "past".
 */
export function slotStateText(slot: StatefulSlot): string {
  const partial =
    slot.reservation?.coverage === 'partial' ? ` ${slot.reservation.startLabel}–${slot.reservation.endLabel}` : '';
  switch (slot.state) {
    case 'free':
      return slot.beyondHorizon && !slot.isPast ? 'free, beyond the booking horizon' : 'free';
    case 'booked':
      return `${slot.isPast ? 'was booked' : 'booked'} by ${slot.ownerLabel ?? 'a resident'}${partial}${slot.pending?.kind === 'cancel' ? ', cancellation pending' : ''}`;
    case 'pending':
      return `booking pending${slot.ownerLabel ? ` for ${slot.ownerLabel}` : ''}`;
    case 'used':
      return `used by ${slot.ownerLabel ?? 'a resident'}${partial}`;
    case 'maintenance':
      return `maintenance${partial}`;
    case 'past':
      return 'past';
  }
}

/**
 * The slot's accessible name: "Monday 24 November, 07:00–10:00, free",
 * "…, booked by apartment 1203", "…, maintenance", "…, used by apartment 1203", "…, past".
 * A running slot ends in ", now"; a booked or maintenance slot that has ended in ", past".
 */
export function slotAccessibleName(slot: StatefulSlot): string {
  const parts = [slot.dayLabel, slotTimeRange(slot), slotStateText(slot)];
  if (slot.isCurrent) parts.push('now');
  else if (slot.isPast && slot.state !== 'past') parts.push('past');
  return parts.join(', ');
}

/** "Week 48, 23–29 November 2026"; spans months and years as needed. */
export function weekLabel(week: WeekInfo): string {
  const first = wallClock(week.days[0]!.startMs, week.timeZone);
  const last = wallClock(week.days[6]!.startMs, week.timeZone);
  let range: string;
  if (first.year !== last.year) range = `${dayMonth(first, true)} – ${dayMonth(last, true)}`;
  else if (first.month !== last.month) range = `${dayMonth(first, false)} – ${dayMonth(last, true)}`;
  else range = `${first.day}–${dayMonth(last, true)}`;
  return `Week ${week.week}, ${range}`;
}
