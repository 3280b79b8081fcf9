import type { WeekSchedule } from './seed';

/** Exact form of reservation times: yyyy-mm-ddThh:mmZ. */
export const TIME_RE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})Z$/;

/** Parses `yyyy-mm-ddThh:mmZ`; undefined if the form or the date itself is invalid. */
export function parseSlotTime(value: string): Date | undefined {
  const m = TIME_RE.exec(value);
  if (!m) return undefined;
  const date = new Date(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:00Z`);
  if (Number.isNaN(date.getTime())) return undefined;
  // Reject dates that roll over (2026-02-30) by formatting back.
  return date.toISOString().slice(0, 16) + 'Z' === value ? date : undefined;
}

/** Weekday of a UTC instant, 0 = Monday. */
export const weekdayOf = (date: Date) => (date.getUTCDay() + 6) % 7;

/**
 * True when [start, end) starts on a slot start of the Week schedule and ends on the end of that
 * slot or of a run of directly consecutive slots of the same day. Times are UTC minutes; a slot
 * may run past midnight (its end falls on the next day).
 */
export function fitsSchedule(schedule: WeekSchedule, start: Date, end: Date): boolean {
  const day = schedule[weekdayOf(start)] ?? [];
  const minute = start.getUTCHours() * 60 + start.getUTCMinutes();
  if (start.getUTCSeconds() !== 0 || start.getUTCMilliseconds() !== 0) return false;
  const first = day.findIndex(([slotStart]) => slotStart === minute);
  if (first < 0) return false;
  let endMs = start.getTime();
  for (let j = first; j < day.length; j++) {
    const [slotStart, length] = day[j]!;
    if (j > first) {
      const [prevStart, prevLength] = day[j - 1]!;
      if (slotStart !== prevStart + prevLength) break;
    }
    endMs += length * 60_000;
    if (endMs === end.getTime()) return true;
    if (endMs > end.getTime()) return false;
  }
  return false;
}
