import type { Locale } from '@/lib/i18n/config';
import { formatClock, formatDate, formatDayTime } from '@/lib/i18n/format';
import { msg, type Message } from '@/lib/i18n/message';
import { instantOfWallTime } from '@/lib/schedule/expand';

/** A closure may last at most this long. */
export const CLOSURE_MAX_DAYS = 90;
/** A closure may start at most this long before now (the form is filled in "from now"). */
export const CLOSURE_PAST_GRACE_MS = 15 * 60_000;
const DAY_MS = 86_400_000;

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/**
 * The instant a local date-time ("2026-11-24T13:00", as a datetime-local input gives it) names in
 * `timeZone`; null when it is not such a date-time or names no real day (2026-02-30). A wall time
 * skipped by a spring clock change moves forward by the gap, one that repeats in autumn is the
 * earlier of the two (lib/schedule instantOfWallTime).
 */
export function localInstant(value: string, timeZone: string): number | null {
  const m = LOCAL.exec(value);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1).map((v) => (v === undefined ? 0 : Number(v))) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  const probe = new Date(Date.UTC(year, month - 1, day));
  if (probe.getUTCMonth() !== month - 1 || probe.getUTCDate() !== day) return null;
  return instantOfWallTime(year, month - 1, day, hour * 60 + minute, timeZone) + second * 1000;
}

/** Which period rule a closure breaks (each has its sentence below); null when it may be stored. */
export type PeriodProblem = 'endNotAfterStart' | 'tooLong' | 'endsInPast' | 'startsInPast';

/** The pure checks of a closure's period [startMs, endMs) at `nowMs`, in the order they are reported. */
export function periodProblem(startMs: number, endMs: number, nowMs: number): PeriodProblem | null {
  if (endMs <= startMs) return 'endNotAfterStart';
  if (endMs - startMs > CLOSURE_MAX_DAYS * DAY_MS) return 'tooLong';
  if (endMs <= nowMs) return 'endsInPast';
  if (startMs < nowMs - CLOSURE_PAST_GRACE_MS) return 'startsInPast';
  return null;
}

/** The sentence for a period problem; `period` is the period in words ("Tue 24 Nov 13:00 – 17:00"). */
export function periodProblemMessage(problem: PeriodProblem, period: string): Message {
  switch (problem) {
    case 'endNotAfterStart':
      return msg('errors.closureEndNotAfterStart', { period });
    case 'tooLong':
      return msg('errors.closureTooLong', { period, days: CLOSURE_MAX_DAYS });
    case 'endsInPast':
      return msg('errors.closureEndsInPast', { period });
    case 'startsInPast':
      return msg('errors.closureStartsInPast', { period, minutes: CLOSURE_PAST_GRACE_MS / 60_000 });
  }
}

/** Whether [aStart, aEnd) and [bStart, bEnd) share a moment. */
export function overlaps(aStart: number, aEnd: number, bStart: number, bEnd: number): boolean {
  return aStart < bEnd && aEnd > bStart;
}

/**
 * A closure's period in words, in the system's zone: "Tuesday 24 November at 13:00–17:00" within
 * one day, else both ends with their day.
 */
export function periodWords(startMs: number, endMs: number, timeZone: string, locale: Locale): string {
  const sameDay = formatDate(startMs, timeZone, locale) === formatDate(endMs - 1, timeZone, locale);
  return sameDay
    ? `${formatDayTime(startMs, timeZone, locale)}–${formatClock(endMs, timeZone)}`
    : `${formatDayTime(startMs, timeZone, locale)} – ${formatDayTime(endMs, timeZone, locale)}`;
}
