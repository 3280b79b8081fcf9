import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns';
import type { ScheduleSlot } from './expand';
import type { SlotState, StatefulSlot } from './overlay';
import type { WeekInfo } from './week';

/** Local 24-h clock time, "07:00". */
export function formatClock(ms: number, timeZone: string): string {
  return format(new TZDate(ms, timeZone), 'HH:mm');
}

/** "Monday 24 November, 07:00". */
export function formatDayTime(ms: number, timeZone: string): string {
  return format(new TZDate(ms, timeZone), 'EEEE d MMMM, HH:mm');
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

/**
 * What the slot holds, in words: "free", "booked by apartment 1203", "maintenance 08:00–09:00"
 * (a window covering only part of the slot names its own times), "used by apartment 1203", "past".
 */
export function slotStateText(slot: StatefulSlot): string {
  const partial =
    slot.reservation?.coverage === 'partial' ? ` ${slot.reservation.startLabel}–${slot.reservation.endLabel}` : '';
  switch (slot.state) {
    case 'free':
      return slot.beyondHorizon && !slot.isPast ? 'free, beyond the booking horizon' : 'free';
    case 'booked':
      return `booked by ${slot.ownerLabel ?? 'a resident'}${partial}${slot.pending?.kind === 'cancel' ? ', cancellation pending' : ''}`;
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
  const first = new TZDate(week.days[0]!.startMs, week.timeZone);
  const last = new TZDate(week.days[6]!.startMs, week.timeZone);
  let range: string;
  if (first.getFullYear() !== last.getFullYear()) range = `${format(first, 'd MMMM yyyy')} – ${format(last, 'd MMMM yyyy')}`;
  else if (first.getMonth() !== last.getMonth()) range = `${format(first, 'd MMMM')} – ${format(last, 'd MMMM yyyy')}`;
  else range = `${format(first, 'd')}–${format(last, 'd MMMM yyyy')}`;
  return `Week ${week.week}, ${range}`;
}
