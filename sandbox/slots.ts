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

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Weekday (0 = Monday) and minute of the day of an instant: in UTC, or on the clocks of `timeZone`. */
function weekdayAndMinute(date: Date, timeZone: string | undefined): { weekday: number; minute: number } {
  if (!timeZone) return { weekday: weekdayOf(date), minute: date.getUTCHours() * 60 + date.getUTCMinutes() };
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', { timeZone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    formatters.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(date).map((p) => [p.type, p.value]));
  const weekday = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].indexOf(parts.weekday ?? '');
  return { weekday, minute: Number(parts.hour) * 60 + Number(parts.minute) };
}

/**
 * True when [start, end) starts on a slot start of the Week schedule and ends on the end of that
 * slot or of a run of directly consecutive slots of the same day. Times are UTC minutes, or — when
 * the sandbox runs with a schedule time zone — wall-clock minutes in that zone (then the end is
 * compared on the clock too, so a slot across a DST change keeps its wall-clock end). A slot may run
 * past midnight (its end falls on the next day).
 */
export function fitsSchedule(schedule: WeekSchedule, start: Date, end: Date, timeZone?: string): boolean {
  const { weekday, minute } = weekdayAndMinute(start, timeZone);
  const day = schedule[weekday] ?? [];
  if (start.getUTCSeconds() !== 0 || start.getUTCMilliseconds() !== 0) return false;
  const first = day.findIndex(([slotStart]) => slotStart === minute);
  if (first < 0) return false;
  const durationMinutes = (end.getTime() - start.getTime()) / 60_000;
  const endClock = timeZone ? weekdayAndMinute(end, timeZone) : undefined;
  let wallEnd = minute;
  for (let j = first; j < day.length; j++) {
    const [slotStart, length] = day[j]!;
    if (j > first) {
      const [prevStart, prevLength] = day[j - 1]!;
      if (slotStart !== prevStart + prevLength) break;
    }
    wallEnd += length;
    if (endClock) {
      // On the clock: the end shows the run's end minute, and the real duration is the wall
      // duration give or take the hour a DST change adds or takes.
      const wallDuration = wallEnd - minute;
      if (wallEnd % 1440 === endClock.minute && Math.abs(durationMinutes - wallDuration) <= 60) return true;
      if (durationMinutes < wallDuration - 60) return false;
      continue;
    }
    if (wallEnd - minute === durationMinutes) return true;
    if (wallEnd - minute > durationMinutes) return false;
  }
  return false;
}
