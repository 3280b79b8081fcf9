/**
 * Wall-clock fields of an instant in an IANA zone, and its locale-free forms ("07:00",
 * "2026-11-24"); words such as "Monday 24 November" are lib/i18n/format.ts's, in the reader's
 * language. Built on one cached Intl.DateTimeFormat per zone
 * instead of date-fns + @date-fns/tz: a week's grid formats a few hundred instants per request on
 * the server, where TZDate + format cost ~50 µs each, and the browser bundle then needs neither
 * library. The output matches date-fns' patterns (zoned.test.ts compares them).
 */

export interface WallClock {
  year: number;
  /** 1..12 */
  month: number;
  /** 1..31 */
  day: number;
  /** 0..23 */
  hour: number;
  minute: number;
  second: number;
  /** 0 = Monday … 6 = Sunday (the grid's column order). */
  weekday: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    // Throws a RangeError for an unknown zone, as TZDate's formatting did.
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

// Slot boundaries repeat from request to request (the same week, the same few instants), so the
// last few thousand answers per zone are kept; formatToParts is the only costly step left.
const MEMO_LIMIT = 4096;
const memo = new Map<string, Map<number, Readonly<WallClock>>>();

/** The local calendar date and clock time of an instant in `timeZone`. */
export function wallClock(ms: number, timeZone: string): Readonly<WallClock> {
  let zone = memo.get(timeZone);
  const cached = zone?.get(ms);
  if (cached) return cached;
  const parts = formatterFor(timeZone).formatToParts(ms);
  let year = 0;
  let month = 1;
  let day = 1;
  let hour = 0;
  let minute = 0;
  let second = 0;
  let bc = false;
  for (const part of parts) {
    switch (part.type) {
      case 'year':
        year = Number(part.value);
        break;
      case 'month':
        month = Number(part.value);
        break;
      case 'day':
        day = Number(part.value);
        break;
      case 'hour':
        hour = Number(part.value) % 24;
        break;
      case 'minute':
        minute = Number(part.value);
        break;
      case 'second':
        second = Number(part.value);
        break;
      case 'era':
        bc = part.value.startsWith('B');
        break;
      default:
        break;
    }
  }
  if (bc) year = 1 - year;
  // Date.UTC's weekday of the local calendar date; setUTCFullYear keeps years 0..99 literal.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  const weekday = (date.getUTCDay() + 6) % 7;
  const result: Readonly<WallClock> = Object.freeze({ year, month, day, hour, minute, second, weekday });
  if (!zone) {
    zone = new Map();
    memo.set(timeZone, zone);
  }
  if (zone.size >= MEMO_LIMIT) zone.clear();
  zone.set(ms, result);
  return result;
}

const two = (n: number) => String(n).padStart(2, '0');
const yyyy = (n: number) => (n < 0 ? `-${String(-n).padStart(4, '0')}` : String(n).padStart(4, '0'));

/** `yyyy-MM-dd` */
export function isoDate(w: Readonly<WallClock>): string {
  return `${yyyy(w.year)}-${two(w.month)}-${two(w.day)}`;
}

/** `HH:mm` */
export function clock(w: Readonly<WallClock>): string {
  return `${two(w.hour)}:${two(w.minute)}`;
}
