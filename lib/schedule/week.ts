import { TZDate } from '@date-fns/tz';
import { msg, type Message } from '@/lib/i18n/message';
import { addDays, addWeeks, getISOWeek, getISOWeekYear, getISOWeeksInYear, startOfISOWeek } from 'date-fns';
import { z } from 'zod';
import { DAYS_PER_WEEK, type InstantInput, ScheduleInputError, requireMs } from './types';
import { isoDate, wallClock } from './zoned';

/**
 * Weeks as shown to people: Monday 00:00 to the next Monday 00:00 in the system's time zone,
 * named by ISO 8601 week keys such as `2026-W48` (the form kept in page URLs).
 */

export const WEEK_KEY_PATTERN = /^(\d{4})-W(\d{2})$/;
export const MIN_WEEK_YEAR = 1970;
/** Beyond this, dates leave what time-zone arithmetic handles; no laundry room is booked there. */
export const MAX_WEEK_YEAR = 2199;

/** Why a week key was refused, for a sentence in the reader's language (`error` is the API's English). */
export type WeekKeyProblem =
  | { kind: 'shape'; input: string }
  | { kind: 'year'; min: number; max: number }
  | { kind: 'week'; year: number; weeks: number; week: string };

export type WeekKeyParse =
  | { ok: true; key: string; year: number; week: number }
  | { ok: false; error: string; problem: WeekKeyProblem; message: Message };

/** Parses `YYYY-Www`; rejects other shapes, week 00, and week 53 in years that have 52 weeks. */
export function parseWeekKey(input: string): WeekKeyParse {
  const match = WEEK_KEY_PATTERN.exec(input);
  if (!match) {
    return { ok: false, error: `Week must look like 2026-W48, got "${truncate(input)}"`, problem: { kind: 'shape', input: truncate(input) }, message: msg('validation.weekMalformed') };
  }
  const year = Number(match[1]);
  const week = Number(match[2]);
  if (year < MIN_WEEK_YEAR || year > MAX_WEEK_YEAR) {
    return {
      ok: false,
      error: `Week year must be from ${MIN_WEEK_YEAR} to ${MAX_WEEK_YEAR}`,
      problem: { kind: 'year', min: MIN_WEEK_YEAR, max: MAX_WEEK_YEAR },
      message: msg('validation.weekYearRange', { min: String(MIN_WEEK_YEAR), max: String(MAX_WEEK_YEAR) }),
    };
  }
  const weeksInYear = getISOWeeksInYear(new Date(Date.UTC(year, 5, 1)));
  if (week < 1 || week > weeksInYear) {
    return {
      ok: false,
      error: `Week ${year} has weeks 01 to ${weeksInYear}, got ${match[2]}`,
      problem: { kind: 'week', year, weeks: weeksInYear, week: match[2]! },
      message: msg('validation.weekOutOfYear', { year: String(year), weeks: String(weeksInYear) }),
    };
  }
  return { ok: true, key: formatWeekKey(year, week), year, week };
}

/**
 * A page's `?week=`: the week it names, or none (the current week) with the problem when it is
 * mistyped, so that the page can show the current week and say why.
 */
export function weekParam(value: string | string[] | undefined): { key: string | undefined; problem: WeekKeyProblem | null } {
  const asked = Array.isArray(value) ? value[0] : value;
  if (asked === undefined || asked === '') return { key: undefined, problem: null };
  const parsed = parseWeekKey(asked);
  return parsed.ok ? { key: parsed.key, problem: null } : { key: undefined, problem: parsed.problem };
}

/** zod schema for a week key, e.g. a `?week=` search parameter. */
export const weekKeySchema = z.string().superRefine((value, ctx) => {
  const parsed = parseWeekKey(value);
  // The message is the catalogue key (lib/errors/validation.ts renders it in the caller's language).
  if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.message.key, params: parsed.message.values });
});

export function formatWeekKey(year: number, week: number): string {
  return `${String(year).padStart(4, '0')}-W${String(week).padStart(2, '0')}`;
}

/** True when the runtime knows this IANA zone (or offset) name. */
export function isValidTimeZone(timeZone: string): boolean {
  if (!timeZone) return false;
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone });
    return true;
  } catch {
    return false;
  }
}

export function assertTimeZone(timeZone: string): void {
  if (!isValidTimeZone(timeZone)) throw new ScheduleInputError(`Unknown time zone "${truncate(timeZone)}"`);
}

export interface LocalDay {
  /** Column index: 0 = Monday … 6 = Sunday. */
  index: number;
  /** Local calendar date, `yyyy-MM-dd`. */
  date: string;
  /** Local midnight at the start and end of the day, as UTC epoch milliseconds (23 or 25 h apart on DST days). */
  startMs: number;
  endMs: number;
}

/** Shared between callers (memoised, frozen): treat as read-only. */
export interface WeekInfo {
  key: string;
  year: number;
  week: number;
  timeZone: string;
  /** Local Monday 00:00 (inclusive) and next Monday 00:00 (exclusive), UTC epoch milliseconds. */
  startMs: number;
  endMs: number;
  days: LocalDay[];
}

// Weeks are pure functions of (key, zone) and cost ~1 ms of date-fns work to build, and every
// grid request asks for the current one and the shown one: both are kept. Bounded, so that a
// crawler walking through years of `?week=` cannot grow it without end.
const WEEK_MEMO_LIMIT = 512;
const weeksByKey = new Map<string, WeekInfo>();
/** Per zone, the week asked for last by instant: "now" stays in it for a week. */
const lastWeekOf = new Map<string, WeekInfo>();

function remember(week: WeekInfo): WeekInfo {
  if (weeksByKey.size >= WEEK_MEMO_LIMIT) weeksByKey.clear();
  weeksByKey.set(`${week.timeZone}|${week.key}`, week);
  return week;
}

/** The week (in the system's zone) that contains the instant. */
export function weekOf(date: InstantInput, timeZone: string): WeekInfo {
  const ms = requireMs(date, 'date');
  const last = lastWeekOf.get(timeZone);
  // Weeks tile time without gaps, so an instant inside a known week's bounds belongs to it.
  if (last && last.startMs <= ms && ms < last.endMs) return last;
  assertTimeZone(timeZone);
  const local = new TZDate(ms, timeZone);
  const week = buildWeek(startOfISOWeek(local), timeZone);
  lastWeekOf.set(timeZone, week);
  return remember(week);
}

/** The week named by a key, in the system's zone. Throws ScheduleInputError on a bad key. */
export function weekFromKey(key: string, timeZone: string): WeekInfo {
  const known = weeksByKey.get(`${timeZone}|${key}`);
  if (known) return known;
  assertTimeZone(timeZone);
  const parsed = parseWeekKey(key);
  if (!parsed.ok) throw new ScheduleInputError(parsed.error);
  // 4 January is always in ISO week 1.
  const firstMonday = startOfISOWeek(new TZDate(parsed.year, 0, 4, timeZone));
  return remember(buildWeek(addWeeks(firstMonday, parsed.week - 1), timeZone));
}

// Every grid read names its neighbouring weeks; the answers are pure and few.
const shifted = new Map<string, string>();

/** The key `delta` weeks after `key` (negative for earlier weeks); for previous/next navigation. */
export function shiftWeekKey(key: string, delta: number): string {
  const memoKey = `${key}|${delta}`;
  const known = shifted.get(memoKey);
  if (known !== undefined) return known;
  const result = computeShiftedWeekKey(key, delta);
  if (shifted.size >= WEEK_MEMO_LIMIT) shifted.clear();
  shifted.set(memoKey, result);
  return result;
}

function computeShiftedWeekKey(key: string, delta: number): string {
  const parsed = parseWeekKey(key);
  if (!parsed.ok) throw new ScheduleInputError(parsed.error);
  if (!Number.isInteger(delta)) throw new ScheduleInputError('Week shift must be a whole number');
  // Calendar arithmetic only, so any fixed zone gives the same answer.
  const monday = addWeeks(startOfISOWeek(new TZDate(parsed.year, 0, 4, 'UTC')), parsed.week - 1 + delta);
  return formatWeekKey(getISOWeekYear(monday), getISOWeek(monday));
}

/** The key of the week that contains the instant in the given zone. */
export function weekKeyOf(date: InstantInput, timeZone: string): string {
  return weekOf(date, timeZone).key;
}

function buildWeek(monday: TZDate, timeZone: string): WeekInfo {
  const days: LocalDay[] = [];
  for (let index = 0; index < DAYS_PER_WEEK; index++) {
    const start = addDays(monday, index);
    const end = addDays(monday, index + 1);
    const local = wallClock(start.getTime(), timeZone);
    days.push(
      Object.freeze({
        index,
        date: isoDate(local),
        startMs: start.getTime(),
        endMs: end.getTime(),
      }),
    );
  }
  return Object.freeze({
    key: formatWeekKey(getISOWeekYear(monday), getISOWeek(monday)),
    year: getISOWeekYear(monday),
    week: getISOWeek(monday),
    timeZone,
    startMs: monday.getTime(),
    endMs: addWeeks(monday, 1).getTime(),
    days: Object.freeze(days) as LocalDay[],
  });
}

function truncate(value: string): string {
  return value.length > 40 ? `${value.slice(0, 40)}…` : value;
}
