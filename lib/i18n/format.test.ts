import { describe, expect, it } from 'vitest';
import { wallClock } from '@/lib/schedule/zoned';
import {
  formatClock,
  formatDate,
  formatDateRange,
  formatDayLabel,
  formatDayMonth,
  formatDayTime,
  formatList,
  formatNumber,
  formatPercent,
  formatShortDay,
  formatShortWeekday,
  formatWeekdayName,
} from './format';

const STOCKHOLM = 'Europe/Stockholm';
// Sunday 29 March 2026: clocks go from 02:00 to 03:00 in Stockholm (UTC+1 → UTC+2).
const beforeSpringChange = Date.UTC(2026, 2, 29, 0, 30); // 01:30 local
const afterSpringChange = Date.UTC(2026, 2, 29, 1, 30); // 03:30 local
// Sunday 25 October 2026: 03:00 back to 02:00 (UTC+2 → UTC+1); 02:30 happens twice.
const firstHalfPastTwo = Date.UTC(2026, 9, 25, 0, 30);
const secondHalfPastTwo = Date.UTC(2026, 9, 25, 1, 30);

describe('dates and times in Swedish and English', () => {
  it('names the local day of an instant, in each language', () => {
    const monday = wallClock(Date.UTC(2026, 10, 23, 23, 30), STOCKHOLM); // Tuesday 00:30 in Stockholm
    expect(formatDayLabel(monday, 'sv')).toBe('tisdag 24 november');
    expect(formatDayLabel(monday, 'en')).toBe('Tuesday 24 November');
    expect(formatShortDay(monday, 'sv')).toBe('tis 24');
    expect(formatShortDay(monday, 'en')).toBe('Tue 24');
    expect(formatShortWeekday(monday, 'sv')).toBe('tis');
    expect(formatWeekdayName(0, 'sv')).toBe('måndag');
    expect(formatWeekdayName(6, 'en')).toBe('Sunday');
    expect(formatDayMonth(monday, 'sv', false)).toBe('24 november');
    expect(formatDayMonth(monday, 'en')).toBe('24 November 2026');
  });

  it('keeps 24-hour local clock times across the spring DST change', () => {
    expect(formatClock(beforeSpringChange, STOCKHOLM)).toBe('01:30');
    expect(formatClock(afterSpringChange, STOCKHOLM)).toBe('03:30');
    expect(formatDayTime(beforeSpringChange, STOCKHOLM, 'sv')).toBe('söndag 29 mars kl. 01:30');
    expect(formatDayTime(afterSpringChange, STOCKHOLM, 'sv')).toBe('söndag 29 mars kl. 03:30');
    expect(formatDayTime(afterSpringChange, STOCKHOLM, 'en')).toBe('Sunday 29 March at 03:30');
  });

  it('shows the repeated hour of the autumn DST change twice, as the clock on the wall did', () => {
    expect(formatDayTime(firstHalfPastTwo, STOCKHOLM, 'sv')).toBe('söndag 25 oktober kl. 02:30');
    expect(formatDayTime(secondHalfPastTwo, STOCKHOLM, 'sv')).toBe('söndag 25 oktober kl. 02:30');
    expect(formatDayTime(secondHalfPastTwo, STOCKHOLM, 'en')).toBe('Sunday 25 October at 02:30');
  });

  it('gives the date of the system zone, not of the server or UTC', () => {
    const lateEvening = Date.UTC(2026, 11, 31, 23, 15); // 00:15 on 1 January in Stockholm
    expect(formatDate(lateEvening, STOCKHOLM, 'sv')).toBe('1 januari 2027');
    expect(formatDate(lateEvening, 'America/New_York', 'en')).toBe('31 December 2026');
  });

  it('spans weeks within a month, across months and across years', () => {
    const w = (y: number, m: number, d: number) => ({ year: y, month: m, day: d, hour: 0, minute: 0, second: 0, weekday: 0 });
    expect(formatDateRange(w(2026, 11, 23), w(2026, 11, 29), 'sv')).toBe('23–29 november 2026');
    expect(formatDateRange(w(2026, 11, 30), w(2026, 12, 6), 'sv')).toBe('30 november–6 december 2026');
    expect(formatDateRange(w(2026, 12, 28), w(2027, 1, 3), 'sv')).toBe('28 december 2026–3 januari 2027');
    expect(formatDateRange(w(2026, 11, 23), w(2026, 11, 29), 'en').replace(/\s/g, ' ')).toBe('23 – 29 November 2026');
  });
});

describe('numbers and lists', () => {
  it('groups digits and writes decimals the way each language does', () => {
    expect(formatNumber(12345.5, 'sv').replace(/\s/g, ' ')).toBe('12 345,5');
    expect(formatNumber(12345.5, 'en')).toBe('12,345.5');
  });

  it('writes percentages with the language’s spacing', () => {
    expect(formatPercent(0.425, 'sv').replace(/\s/g, ' ')).toBe('43 %');
    expect(formatPercent(0.425, 'en')).toBe('43%');
    expect(formatPercent(1, 'en')).toBe('100%');
  });

  it('joins lists with the language’s own words', () => {
    expect(formatList(['Tvättstuga 1', 'Tvättstuga 2', 'Torkrum'], 'sv')).toBe('Tvättstuga 1, Tvättstuga 2 och Torkrum');
    expect(formatList(['A', 'B', 'C'], 'en')).toBe('A, B and C');
    expect(formatList(['A', 'B'], 'sv', 'or')).toBe('A eller B');
    expect(formatList(['A'], 'en')).toBe('A');
  });
});

describe('apartmentNumber', () => {
  it('drops a leading LGH (or the word in any spelling) so labels never say "Apt LGH 6001"', async () => {
    const { apartmentNumber } = await import('./format');
    expect(apartmentNumber('LGH 6001')).toBe('6001');
    expect(apartmentNumber('lgh6001')).toBe('6001');
    expect(apartmentNumber('Lägenhet 1203')).toBe('1203');
    expect(apartmentNumber(' B/4003 ')).toBe('B/4003');
    expect(apartmentNumber('LGH')).toBe('LGH');
    expect(apartmentNumber(null)).toBe('');
  });
});
