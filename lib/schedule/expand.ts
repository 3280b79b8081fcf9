import { DAYS_PER_WEEK, MINUTES_PER_DAY, type ScheduleBasis, type WeekScheduleInput, toWeekSchedule } from './types';
import { type WeekInfo, assertTimeZone, weekFromKey } from './week';
import { clock, isoDate, wallClock } from './zoned';

const MINUTE_MS = 60_000;
const DAY_MS = MINUTES_PER_DAY * MINUTE_MS;

/**
 * One concrete occurrence of a schedule slot.
 *
 * Placement rule: a slot belongs to the local day (in the system's zone) on which it *starts*.
 * The schedule's weekday is a UTC weekday, so a slot may land on another local weekday, e.g. the
 * UTC-Sunday 23:30 slot is shown on local Monday 00:30 in Stockholm. Because every occurrence
 * has exactly one start instant, and local weeks tile time without gaps, each occurrence appears
 * in exactly one week and one day column. In a DST week a slot near midnight can therefore occur
 * 6 or 8 times instead of 7 — it moved to the neighbouring week, it was neither lost nor doubled.
 */
export interface ScheduleSlot {
  /** `${startTime}/${endTime}` (an ISO 8601 interval), unique within one resource. */
  id: string;
  /** Start/end in the exact form the upstream create call wants: `yyyy-mm-ddThh:mmZ`. */
  startTime: string;
  endTime: string;
  startMs: number;
  endMs: number;
  lengthMinutes: number;
  /** Where the slot comes from in the Week schedule (UTC weekday 0 = Monday, index in that day). */
  scheduleDay: number;
  scheduleIndex: number;
  timeZone: string;
  /** Local day column (0 = Monday) and calendar date of the start. */
  dayIndex: number;
  date: string;
  /** Local 24-h clock times, "07:00" and "10:00". */
  startLabel: string;
  endLabel: string;
  /** True when the slot ends on a later local date than it starts (crosses local midnight). */
  endsNextDay: boolean;
  /** Local wall-clock minutes from the start day's midnight; `endMinute` exceeds 1440 when crossing midnight. */
  startMinute: number;
  endMinute: number;
}

/** Every slot of the local week `week`, sorted by start. */
export function expandWeek(schedule: WeekScheduleInput, week: WeekInfo | string, timeZone: string, basis: ScheduleBasis = 'utc'): ScheduleSlot[] {
  const info = typeof week === 'string' ? weekFromKey(week, timeZone) : week;
  if (info.timeZone !== timeZone) {
    // A WeekInfo built for another zone has other boundaries; rebuild it rather than mix them.
    return expandWeek(schedule, info.key, timeZone, basis);
  }
  return expandRange(schedule, info.startMs, info.endMs, timeZone, basis);
}

/**
 * How a basis turns a schedule's (day, minute) into an instant. 'utc': the schedule's days are UTC
 * days. 'local': each slot is a wall-clock time on a local weekday, so a 07:00–10:00 slot is
 * 07:00–10:00 on both sides of a DST change (its UTC instants move by the hour instead); a wall time
 * that does not exist (the hour skipped in spring) moves forward by the gap (02:30 → 03:30), one that
 * exists twice (autumn) is its first occurrence.
 */
interface DayClock {
  /** The first day (as a UTC-midnight timestamp naming the calendar date) whose slots may start in the range. */
  firstDay: number;
  /** The instant `minute` minutes after the start of `day` (minute may pass 1440). */
  at(day: number, minute: number): number;
}

function dayClock(basis: ScheduleBasis, fromMs: number, timeZone: string): DayClock {
  // A slot starts on its own day (start < 1440), so UTC days from the range's start suffice.
  if (basis === 'utc') return { firstDay: Math.floor(fromMs / DAY_MS) * DAY_MS, at: (day, minute) => day + minute * MINUTE_MS };
  // Local dates from the day before the range: a slot may start then and, across a change, still fall in it.
  const first = wallClock(fromMs - DAY_MS, timeZone);
  return {
    firstDay: Date.UTC(first.year, first.month - 1, first.day),
    at: (day, minute) => {
      const date = new Date(day);
      return instantOfWallTime(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate(), minute, timeZone);
    },
  };
}

/** Every slot occurrence whose start lies in [fromMs, toMs), sorted by start (then end). */
export function expandRange(schedule: WeekScheduleInput, fromMs: number, toMs: number, timeZone: string, basis: ScheduleBasis = 'utc'): ScheduleSlot[] {
  assertTimeZone(timeZone);
  const days = toWeekSchedule(schedule);
  const slots: ScheduleSlot[] = [];
  const seen = new Set<string>();
  if (!(toMs > fromMs)) return slots;
  const clockOf = dayClock(basis, fromMs, timeZone);
  for (let day = clockOf.firstDay; clockOf.at(day, 0) < toMs; day += DAY_MS) {
    const scheduleDay = (new Date(day).getUTCDay() + 6) % DAYS_PER_WEEK;
    (days[scheduleDay] ?? []).forEach(([startMinute, length], scheduleIndex) => {
      const startMs = clockOf.at(day, startMinute);
      if (startMs < fromMs || startMs >= toMs) return;
      const endMs = clockOf.at(day, startMinute + length);
      // Locally, a slot wholly inside the skipped spring hour has no length: it does not occur.
      if (!(endMs > startMs)) return;
      const slot = makeSlot(startMs, endMs, scheduleDay, scheduleIndex, timeZone);
      // A schedule listing the same slot twice still yields one bookable slot.
      if (seen.has(slot.id)) return;
      seen.add(slot.id);
      slots.push(slot);
    });
  }
  return slots.sort((a, b) => a.startMs - b.startMs || a.endMs - b.endMs);
}

/**
 * Slots at the reservations' own times, for a room without a schedule to lay out (the service
 * lists none for it): one per distinct start and end starting in [fromMs, toMs), sorted by start,
 * so that its bookings can still be shown where they are. `scheduleDay` and `scheduleIndex` are -1:
 * they come from no schedule, and none of them is a slot that could be booked.
 */
export function reservationSlots(reservations: readonly { startTime: string | Date; endTime: string | Date }[], fromMs: number, toMs: number, timeZone: string): ScheduleSlot[] {
  assertTimeZone(timeZone);
  const slots = new Map<string, ScheduleSlot>();
  for (const r of reservations) {
    const startMs = new Date(r.startTime).getTime();
    const endMs = new Date(r.endTime).getTime();
    if (!(endMs > startMs) || startMs < fromMs || startMs >= toMs) continue;
    const slot = makeSlot(startMs, endMs, -1, -1, timeZone);
    if (!slots.has(slot.id)) slots.set(slot.id, slot);
  }
  return [...slots.values()].sort((a, b) => a.startMs - b.startMs || a.endMs - b.endMs);
}

/** The instant at which the clocks of `timeZone` show `minute` minutes after midnight of the date (month 0-based). */
export function instantOfWallTime(year: number, month: number, day: number, minute: number, timeZone: string): number {
  const asUtc = Date.UTC(year, month, day, 0, minute);
  const offsetAt = (ms: number) => {
    const w = wallClock(ms, timeZone);
    return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - (ms - (((ms % 1000) + 1000) % 1000));
  };
  // The zone's offsets a day either side cover any change on this date: a wall time that exists
  // once matches one of them, twice (autumn) two — the earlier wins — and never (spring) none: then
  // the offset before the change moves it forward by the gap, as the clock would.
  const before = offsetAt(asUtc - DAY_MS);
  const matches = [before, offsetAt(asUtc), offsetAt(asUtc + DAY_MS)]
    .map((offset) => asUtc - offset)
    .filter((ms) => asUtc - offsetAt(ms) === ms);
  return matches.length > 0 ? Math.min(...matches) : asUtc - before;
}

function makeSlot(startMs: number, endMs: number, scheduleDay: number, scheduleIndex: number, timeZone: string): ScheduleSlot {
  const start = wallClock(startMs, timeZone);
  const end = wallClock(endMs, timeZone);
  const date = isoDate(start);
  const endDate = isoDate(end);
  const startMinute = start.hour * 60 + start.minute;
  const endsNextDay = endDate !== date;
  const endMinute = end.hour * 60 + end.minute + (endsNextDay ? MINUTES_PER_DAY : 0);
  const startTime = serviceTime(startMs);
  const endTime = serviceTime(endMs);
  return {
    id: `${startTime}/${endTime}`,
    startTime,
    endTime,
    startMs,
    endMs,
    lengthMinutes: Math.round((endMs - startMs) / MINUTE_MS),
    scheduleDay,
    scheduleIndex,
    timeZone,
    dayIndex: start.weekday,
    date,
    startLabel: clock(start),
    endLabel: clock(end),
    endsNextDay,
    startMinute,
    endMinute,
  };
}

/** `yyyy-mm-ddThh:mmZ`, the upstream's form for reservation times. */
export function serviceTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16) + 'Z';
}
