import { intlLocale, type Locale } from '@/lib/i18n/config';
import { clock, wallClock, type WallClock } from '@/lib/schedule/zoned';

/**
 * Dates, times, numbers and lists in a reader's language, through Intl with the locale passed in
 * (browser-safe: components and lib/ alike). Calendar dates are formatted from the wall clock of
 * the system's own zone (lib/schedule/zoned.ts), so "Monday" is the Monday of the laundry room,
 * whatever zone the server or the browser runs in. Clock times are 24-hour in every language the
 * portal has ("07:00").
 */

// "LGH 6001", "Lgh. 6001", "lägenhet 6001", "Apt 6001": the service's numbers sometimes carry
// the word that every message already says.
const APARTMENT_WORD = /^\s*(?:lgh|lägenhet|lagenhet|apartment|apt)\.?\s*(?=\S)/i;

/**
 * The same leading word as a PostgreSQL regular expression (its ARE reads this source alike; use
 * it with the 'i' flag): retention writes "Resident in LGH {apartment}" in SQL (issue 47: "LGH LGH 1001").
 */
export const APARTMENT_WORD_PATTERN = APARTMENT_WORD.source;

/**
 * An apartment number as the messages want it ("Apartment {apartment}" / "Lägenhet {apartment}"):
 * trimmed, a leading "LGH" or similar dropped, so no label says "Apt LGH 6001". The one formatter
 * for every label, e-mail, feed and sheet that names an apartment.
 */
export function apartmentNumber(raw: string | null | undefined): string {
  const text = (raw ?? '').trim();
  const stripped = text.replace(APARTMENT_WORD, '');
  return stripped === '' ? text : stripped;
}

const cache = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat | Intl.ListFormat>();

function dateFormat(locale: Locale, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `d|${locale}|${JSON.stringify(options)}`;
  let format = cache.get(key) as Intl.DateTimeFormat | undefined;
  if (!format) {
    format = new Intl.DateTimeFormat(intlLocale(locale), options);
    cache.set(key, format);
  }
  return format;
}

function numberFormat(locale: Locale, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `n|${locale}|${JSON.stringify(options)}`;
  let format = cache.get(key) as Intl.NumberFormat | undefined;
  if (!format) {
    format = new Intl.NumberFormat(intlLocale(locale), options);
    cache.set(key, format);
  }
  return format;
}

function listFormat(locale: Locale, type: Intl.ListFormatType): Intl.ListFormat {
  const key = `l|${locale}|${type}`;
  let format = cache.get(key) as Intl.ListFormat | undefined;
  if (!format) {
    format = new Intl.ListFormat(intlLocale(locale), { type, style: 'long' });
    cache.set(key, format);
  }
  return format;
}

/** The wall-clock date as a UTC instant: formatted in UTC, it shows exactly that calendar date. */
function civil(w: Pick<WallClock, 'year' | 'month' | 'day'>): number {
  const date = new Date(0);
  date.setUTCFullYear(w.year, w.month - 1, w.day);
  return date.getTime();
}

const UTC = { timeZone: 'UTC' } as const;

/** "måndag 24 november" / "Monday 24 November". */
export function formatDayLabel(w: Readonly<WallClock>, locale: Locale): string {
  return dateFormat(locale, { ...UTC, weekday: 'long', day: 'numeric', month: 'long' }).format(civil(w));
}

/** "mån 24" / "Mon 24": a grid column's heading. */
export function formatShortDay(w: Readonly<WallClock>, locale: Locale): string {
  return dateFormat(locale, { ...UTC, weekday: 'short', day: 'numeric' }).format(civil(w));
}

/** "mån" / "Mon". */
export function formatShortWeekday(w: Readonly<WallClock>, locale: Locale): string {
  return dateFormat(locale, { ...UTC, weekday: 'short' }).format(civil(w));
}

/** "måndag" / "Monday": weekday `index` 0 = Monday … 6 = Sunday. */
export function formatWeekdayName(index: number, locale: Locale, width: 'long' | 'short' = 'long'): string {
  // 2024-01-01 was a Monday.
  return dateFormat(locale, { ...UTC, weekday: width }).format(Date.UTC(2024, 0, 1 + index));
}

/** "24 november 2026" / "24 November 2026"; without the year when `withYear` is false. */
export function formatDayMonth(w: Readonly<WallClock>, locale: Locale, withYear = true): string {
  return dateFormat(locale, withYear ? { ...UTC, day: 'numeric', month: 'long', year: 'numeric' } : { ...UTC, day: 'numeric', month: 'long' }).format(civil(w));
}

/** The local date of an instant in a zone: "24 november 2026". */
export function formatDate(ms: number, timeZone: string, locale: Locale): string {
  return formatDayMonth(wallClock(ms, timeZone), locale, true);
}

/** The local clock time of an instant in a zone, "07:00" (24-hour in every language). */
export function formatClock(ms: number, timeZone: string): string {
  return clock(wallClock(ms, timeZone));
}

/** "tisdag 24 november kl. 07:00" / "Tuesday 24 November at 07:00": Intl's own joining words. */
export function formatDayTime(ms: number, timeZone: string, locale: Locale): string {
  const local = wallClock(ms, timeZone);
  const instant = civil(local) + (local.hour * 60 + local.minute) * 60_000;
  return dateFormat(locale, { ...UTC, weekday: 'long', day: 'numeric', month: 'long', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(instant);
}

/** A span of calendar days, "23–29 november 2026", "30 nov. – 6 dec. 2026" (Intl's own range rules). */
export function formatDateRange(from: Readonly<WallClock>, to: Readonly<WallClock>, locale: Locale): string {
  return dateFormat(locale, { ...UTC, day: 'numeric', month: 'long', year: 'numeric' }).formatRange(civil(from), civil(to));
}

/** "1 234,5" / "1,234.5". */
export function formatNumber(value: number, locale: Locale, options: Intl.NumberFormatOptions = {}): string {
  return numberFormat(locale, options).format(value);
}

/** A share 0..1 as a whole percentage: "43 %" / "43%". */
export function formatPercent(share: number, locale: Locale): string {
  return numberFormat(locale, { style: 'percent', maximumFractionDigits: 0 }).format(share);
}

/** "A, B och C" / "A, B and C"; `or` gives "A, B eller C". */
export function formatList(items: readonly string[], locale: Locale, type: 'and' | 'or' = 'and'): string {
  return listFormat(locale, type === 'and' ? 'conjunction' : 'disjunction').format(items);
}

const relativeFormats = new Map<Locale, Intl.RelativeTimeFormat>();

/**
 * How long ago, by the largest whole unit up to hours: "12 seconds ago", "2 minutes ago",
 * "3 hours ago" / "för 2 minuter sedan". `elapsedMs` below zero counts as now.
 */
export function formatAgo(elapsedMs: number, locale: Locale): string {
  let format = relativeFormats.get(locale);
  if (!format) {
    format = new Intl.RelativeTimeFormat(intlLocale(locale), { numeric: 'always', style: 'long' });
    relativeFormats.set(locale, format);
  }
  const seconds = Math.max(0, Math.round(elapsedMs / 1000));
  if (seconds < 60) return format.format(-seconds, 'second');
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return format.format(-minutes, 'minute');
  return format.format(-Math.floor(minutes / 60), 'hour');
}
