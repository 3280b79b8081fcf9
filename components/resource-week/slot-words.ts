// The week grid's words in the reader's language: slot names, states, the week's label and day
// headings. Pure functions of a translator and a locale (tested in both languages); the hooks at the
// bottom bind them to the page's language.
import { useLocale, useTranslations } from 'next-intl';
import { useMemo } from 'react';
import { memoTranslator } from '@/lib/i18n/memo-translator';
import type { Locale } from '@/lib/i18n/config';
import { formatDayLabel, formatDayMonth, formatShortDay, apartmentNumber } from '@/lib/i18n/format';
import { roomList } from '@/lib/booking-rules/room-list';
import type { LocalDay, Owner, ScheduleSlot, StatefulSlot, WeekInfo } from '@/lib/schedule';
import { type WallClock, wallClock } from '@/lib/schedule/zoned';

export type SlotT = ReturnType<typeof useTranslations<'slot'>>;
export type GridT = ReturnType<typeof useTranslations<'grid'>>;

/** "07:00–10:00", or "23:00–02:00 next day" for a slot crossing local midnight. */
export function slotTimeRange(slot: Pick<ScheduleSlot, 'startLabel' | 'endLabel' | 'endsNextDay'>, t: SlotT): string {
  const values = { start: slot.startLabel, end: slot.endLabel };
  return slot.endsNextDay ? t('timeRangeNextDay', values) : t('timeRange', values);
}

/** "3 h", "1 h 30 min", "45 min" (sv "3 tim", "1 tim 30 min"): a slot's length as a reader says it, not "180 minutes". */
export function slotLength(slot: Pick<ScheduleSlot, 'lengthMinutes'>, t: SlotT): string {
  return t('length', { hours: Math.floor(slot.lengthMinutes / 60), rest: slot.lengthMinutes % 60 });
}

/** "Monday 24 November" / "måndag 24 november": the local day the slot starts on. */
export function slotDayLabel(slot: Pick<ScheduleSlot, 'startMs' | 'timeZone'>, locale: Locale): string {
  return formatDayLabel(wallClock(slot.startMs, slot.timeZone), locale);
}

/** Who holds a slot, in words: "lägenhet 1203" / "apartment 1203", a resident's name as it is, "en boende". */
export function ownerText(owner: Owner, t: SlotT): string {
  switch (owner.kind) {
    case 'apartment':
      return t('owner.apartment', { apartment: apartmentNumber(owner.apartment) });
    case 'name':
      return owner.name;
    default:
      return t(`owner.${owner.kind}`);
  }
}

/**
 * What the slot holds, in words: "free", "booked by apartment 1203" ("was booked by …" once it
 * has ended), "maintenance 08:00–09:00" (a window covering only part of the slot names its own
 * times), "used by apartment 1203", "past", "being checked" (a first load has not read it yet).
 */
export function slotStateText(slot: StatefulSlot, t: SlotT, closedText?: ClosedText, locale: Locale = 'sv'): string {
  const text = stateText(slot, t, locale);
  if (!slot.closed || !closedText) return text;
  // A closed room: "Closed: reason" instead of "free", after what a slot still holds.
  const closed = closedText(slot.closed.reason);
  return slot.state === 'free' || slot.state === 'past' ? closed : `${text}; ${closed}`;
}

/** "Closed: pipe repair" (the closedSlot namespace), for a slot in a room closure. */
export type ClosedText = (reason: string) => string;

/**
 * The rule that keeps a free slot from being booked, as its sentence's values: the room group's
 * "only N days ahead" with its rooms in the reader's language; null for the system's horizon.
 */
export function daysAheadValues(slot: StatefulSlot, locale: Locale): { rooms: string; days: number } | null {
  return slot.daysAheadRule ? { rooms: roomList(slot.daysAheadRule.rooms, locale), days: slot.daysAheadRule.days } : null;
}

function stateText(slot: StatefulSlot, t: SlotT, locale: Locale): string {
  const partial = slot.reservation?.coverage === 'partial' ? ` ${slot.reservation.startLabel}–${slot.reservation.endLabel}` : '';
  switch (slot.state) {
    case 'free': {
      if (!slot.beyondHorizon || slot.isPast) return slot.released ? t('words.freeReleased') : t('words.free');
      const rule = daysAheadValues(slot, locale);
      return rule ? t('words.freeBeyondDaysAhead', rule) : t('words.freeBeyondHorizon');
    }
    case 'booked': {
      const owner = slot.ownerLabel ? ownerText(slot.ownerLabel, t) : t('words.aResident');
      const text = `${slot.isPast ? t('words.wasBookedBy', { owner }) : t('words.bookedBy', { owner })}${partial}`;
      return slot.pending?.kind === 'cancel' ? `${text}, ${t('words.cancellationPending')}` : text;
    }
    case 'pending':
      return slot.ownerLabel ? t('words.bookingPendingFor', { owner: ownerText(slot.ownerLabel, t) }) : t('words.bookingPending');
    case 'used':
      return `${t('words.usedBy', { owner: slot.ownerLabel ? ownerText(slot.ownerLabel, t) : t('words.aResident') })}${partial}`;
    case 'maintenance':
      return `${t('words.maintenance')}${partial}`;
    case 'past':
      return t('words.past');
    case 'loading':
      return t('words.checking');
  }
}

/**
 * The slot's accessible name: "Monday 24 November, 07:00–10:00, free" / "måndag 24 november,
 * 07:00–10:00, ledigt". A running slot ends in ", now"; a booked or maintenance slot that has
 * ended in ", past".
 */
export function slotAccessibleName(slot: StatefulSlot, t: SlotT, locale: Locale, closedText?: ClosedText, dayLabel = slotDayLabel(slot, locale)): string {
  const parts = [dayLabel, slotTimeRange(slot, t), slotStateText(slot, t, closedText, locale)];
  if (slot.isCurrent) parts.push(t('words.now'));
  else if (slot.isPast && slot.state !== 'past') parts.push(t('words.past'));
  return parts.join(', ');
}

/**
 * "23–29 November 2026", "30 November – 6 December 2026", "28 December 2026 – 3 January 2027"
 * (sv "23–29 november 2026", …). Built from the day and month names rather than Intl's formatRange,
 * whose spacing differs between ICU versions (Node's en-GB gives "23 – 29 November 2026" with thin
 * spaces), so the server's and the browser's text agree.
 */
export function weekRange(first: Readonly<WallClock>, last: Readonly<WallClock>, locale: Locale): string {
  if (first.year !== last.year) return `${formatDayMonth(first, locale, true)} – ${formatDayMonth(last, locale, true)}`;
  if (first.month !== last.month) return `${formatDayMonth(first, locale, false)} – ${formatDayMonth(last, locale, true)}`;
  return `${first.day}–${formatDayMonth(last, locale, true)}`;
}

/** "Week 48, 23–29 November 2026" / "v. 48, 23–29 november 2026"; spans months and years as needed. */
export function weekLabel(week: WeekInfo, t: GridT, locale: Locale): string {
  const first = wallClock(week.days[0]!.startMs, week.timeZone);
  const last = wallClock(week.days[week.days.length - 1]!.startMs, week.timeZone);
  return t('weekLabel', { week: week.week, range: weekRange(first, last, locale) });
}

/** A day column's heading, "Mon 24" / "mån 24", and its long form "Monday 24 November". */
export function dayHeading(day: Pick<LocalDay, 'startMs'>, timeZone: string, locale: Locale): { short: string; long: string } {
  const local = wallClock(day.startMs, timeZone);
  return { short: formatShortDay(local, locale), long: formatDayLabel(local, locale) };
}

/**
 * The slot words bound to the page's language. Remembered for the component's life (a week
 * repeats the same time ranges, states and days): see memoTranslator.
 */
export function useSlotWords() {
  const slotT = useTranslations('slot');
  const closedT = useTranslations('closedSlot');
  const locale = useLocale();
  return useMemo(() => slotWords(memoTranslator(slotT), memoTranslator(closedT), locale), [slotT, closedT, locale]);
}

function slotWords(t: SlotT, tClosed: ClosedT, locale: Locale) {
  const closedText: ClosedText = (reason) => tClosed('label', { reason });
  const days = new Map<string, string>();
  // A slot's local day: its `date` in its zone names it (the label is the same for every slot of the day).
  const dayLabel = (slot: Pick<ScheduleSlot, 'startMs' | 'timeZone' | 'date'>) => {
    const key = `${slot.timeZone}|${slot.date}`;
    let label = days.get(key);
    if (label === undefined) {
      label = slotDayLabel(slot, locale);
      days.set(key, label);
    }
    return label;
  };
  return {
    t,
    locale,
    closedText,
    timeRange: (slot: Pick<ScheduleSlot, 'startLabel' | 'endLabel' | 'endsNextDay'>) => slotTimeRange(slot, t),
    length: (slot: Pick<ScheduleSlot, 'lengthMinutes'>) => slotLength(slot, t),
    dayLabel,
    stateText: (slot: StatefulSlot) => slotStateText(slot, t, closedText, locale),
    /** The sentence of the rule that keeps a free slot from being booked (hover), or undefined. */
    ruleText: (slot: StatefulSlot) => {
      const rule = slot.state === 'free' && !slot.isPast && !slot.closed ? daysAheadValues(slot, locale) : null;
      return rule ? t('availability.beyondDaysAhead', rule) : undefined;
    },
    accessibleName: (slot: StatefulSlot) => slotAccessibleName(slot, t, locale, closedText, dayLabel(slot)),
  };
}

type ClosedT = ReturnType<typeof useTranslations<'closedSlot'>>;
