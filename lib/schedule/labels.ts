// Browser code imports this file: Intl-based formatting (./zoned) keeps date-fns out of the bundle.
// Words for people (states, day names, "next day") are the components' own, from the message
// catalogue in the reader's language (components/resource-week/slot-words.ts); only locale-free
// forms live here.
import { formatDate as formatLocalDate, formatDayLabel } from '@/lib/i18n/format';
import { clock, wallClock } from './zoned';

/** Local 24-h clock time, "07:00". */
export function formatClock(ms: number, timeZone: string): string {
  return clock(wallClock(ms, timeZone));
}

/**
 * "Monday 24 November, 07:00", in English.
 * @deprecated Use formatDayTime from lib/i18n/format.ts with the reader's locale; kept until the
 * booking, apartment and request code (other areas) stop calling it.
 */
export function formatDayTime(ms: number, timeZone: string): string {
  const local = wallClock(ms, timeZone);
  return `${formatDayLabel(local, 'en')}, ${clock(local)}`;
}

/**
 * "23 November 2026", in English.
 * @deprecated Use formatDate from lib/i18n/format.ts with the reader's locale.
 */
export function formatDate(ms: number, timeZone: string): string {
  return formatLocalDate(ms, timeZone, 'en');
}
