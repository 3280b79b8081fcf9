import { msg, type Message } from '@/lib/i18n/message';
import { instantOfWallTime } from '@/lib/schedule/expand';
import { wallClock } from '@/lib/schedule/zoned';

/**
 * The period a report or an export covers: whole local calendar days in the system's time zone,
 * `from` and `to` inclusive. Presets are relative to today in that zone; a custom period names its
 * days. Shared by reports, exports and their pages, so that one period means the same everywhere.
 */

export const PERIOD_PRESETS = ['month-to-date', 'this-month', 'last-month', 'last-3-months', 'last-12-months'] as const;
export type PeriodPreset = (typeof PERIOD_PRESETS)[number];
export type PeriodKind = PeriodPreset | 'custom';

/**
 * The month so far is the default once this many of its days are over; before that the report opens
 * on last month (issue 48: on the 1st, "this month" was 192 of 205 bookings still to come, and the
 * busiest slots ranked on bookings nobody had used yet).
 */
export const DEFAULT_MONTH_MIN_DAYS = 14;

/** A custom period may span at most this many months (a longer one is refused with a sentence). */
export const MAX_PERIOD_MONTHS = 24;

export interface Period {
  kind: PeriodKind;
  /** First and last local day, `yyyy-MM-dd`, inclusive. */
  from: string;
  to: string;
  /** Local midnight starting `from`, and local midnight after `to`: the half-open span [startMs, endMs). */
  startMs: number;
  endMs: number;
}

export type PeriodParse = { ok: true; period: Period } | { ok: false; message: Message };

export interface PeriodInput {
  period?: string | null;
  from?: string | null;
  to?: string | null;
}

interface Day {
  year: number;
  /** 1..12 */
  month: number;
  day: number;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function parseDay(text: string): Day | null {
  const match = DATE.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1970 || year > 2199 || month < 1 || month > 12 || day < 1) return null;
  if (day > daysInMonth(year, month)) return null;
  return { year, month, day };
}

const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();
const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const dayText = (d: Day) => `${pad(d.year, 4)}-${pad(d.month)}-${pad(d.day)}`;
const ordinal = (d: Day) => Date.UTC(d.year, d.month - 1, d.day) / 86_400_000;

function addDays(d: Day, days: number): Day {
  const date = new Date(Date.UTC(d.year, d.month - 1, d.day + days));
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

/** The same day `months` later (or earlier), clamped to the month's end (31 March − 1 month = 28/29 February). */
function addMonths(d: Day, months: number): Day {
  const index = d.year * 12 + (d.month - 1) + months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  return { year, month, day: Math.min(d.day, daysInMonth(year, month)) };
}

function build(kind: PeriodKind, from: Day, to: Day, timeZone: string): Period {
  const next = addDays(to, 1);
  return {
    kind,
    from: dayText(from),
    to: dayText(to),
    startMs: instantOfWallTime(from.year, from.month - 1, from.day, 0, timeZone),
    endMs: instantOfWallTime(next.year, next.month - 1, next.day, 0, timeZone),
  };
}

/** A preset's days, relative to the local date of `nowMs` in `timeZone`. */
export function presetPeriod(preset: PeriodPreset, timeZone: string, nowMs: number): Period {
  const w = wallClock(nowMs, timeZone);
  const today: Day = { year: w.year, month: w.month, day: w.day };
  const firstOfMonth: Day = { ...today, day: 1 };
  switch (preset) {
    case 'month-to-date':
      return build(preset, firstOfMonth, today, timeZone);
    case 'this-month':
      return build(preset, firstOfMonth, { ...today, day: daysInMonth(today.year, today.month) }, timeZone);
    case 'last-month': {
      const first = addMonths(firstOfMonth, -1);
      return build(preset, first, { ...first, day: daysInMonth(first.year, first.month) }, timeZone);
    }
    case 'last-3-months':
      return build(preset, addDays(addMonths(today, -3), 1), today, timeZone);
    case 'last-12-months':
      return build(preset, addDays(addMonths(today, -12), 1), today, timeZone);
  }
}

/**
 * The period a report opens on, one that has happened: the month so far once DEFAULT_MONTH_MIN_DAYS
 * of its days are over (local days in `timeZone`), else last month.
 */
export function defaultPreset(timeZone: string, nowMs: number): PeriodPreset {
  return wallClock(nowMs, timeZone).day > DEFAULT_MONTH_MIN_DAYS ? 'month-to-date' : 'last-month';
}

/** The default period's days (defaultPreset). */
export function defaultPeriod(timeZone: string, nowMs: number): Period {
  return presetPeriod(defaultPreset(timeZone, nowMs), timeZone, nowMs);
}

/**
 * `?period=last-month`, or `?period=custom&from=2026-01-01&to=2026-03-31` (`from`/`to` alone mean
 * custom); nothing at all is the default period (defaultPreset). Refused with a sentence: an unknown preset, a malformed or
 * impossible date, `from` after `to`, or a span over MAX_PERIOD_MONTHS months.
 */
export function parsePeriod(input: PeriodInput, timeZone: string, nowMs: number): PeriodParse {
  const { period, from, to } = input;
  const custom = period === 'custom' || ((period === null || period === undefined || period === '') && (Boolean(from) || Boolean(to)));
  if (!custom) {
    const preset = period || defaultPreset(timeZone, nowMs);
    if (!(PERIOD_PRESETS as readonly string[]).includes(preset)) {
      return { ok: false, message: msg('errors.periodUnknown', { presets: [...PERIOD_PRESETS, 'custom'].join(', ') }) };
    }
    return { ok: true, period: presetPeriod(preset as PeriodPreset, timeZone, nowMs) };
  }
  if (!from || !to) return { ok: false, message: msg('errors.periodNeedsDates') };
  const first = parseDay(from.slice(0, 32));
  const last = parseDay(to.slice(0, 32));
  if (!first) return { ok: false, message: msg('errors.periodBadDate', { field: 'from', value: from.slice(0, 32) }) };
  if (!last) return { ok: false, message: msg('errors.periodBadDate', { field: 'to', value: to.slice(0, 32) }) };
  if (ordinal(first) > ordinal(last)) return { ok: false, message: msg('errors.periodReversed', { from: dayText(first), to: dayText(last) }) };
  if (ordinal(last) >= ordinal(addMonths(first, MAX_PERIOD_MONTHS))) {
    return { ok: false, message: msg('errors.periodTooLong', { months: MAX_PERIOD_MONTHS }) };
  }
  return { ok: true, period: build('custom', first, last, timeZone) };
}
