import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns';
import { describe, expect, it } from 'vitest';
import { formatClock } from './labels';
import { clock, isoDate, wallClock } from './zoned';

const ZONES = ['Europe/Stockholm', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe', 'Pacific/Chatham', 'America/St_Johns', 'UTC'];
const HOUR = 3_600_000;

/** Instants around every DST change of 2026 in these zones, plus a spread over the years. */
function instants(): number[] {
  const list: number[] = [];
  for (let ms = Date.UTC(2026, 0, 1); ms < Date.UTC(2027, 0, 1); ms += 7 * HOUR + 17 * 60_000) list.push(ms);
  for (const iso of ['2026-03-29T01:00:00Z', '2026-10-25T01:00:00Z', '2026-03-08T07:00:00Z', '2026-11-01T06:00:00Z', '2026-04-04T15:00:00Z']) {
    const at = Date.parse(iso);
    for (let d = -3 * HOUR; d <= 3 * HOUR; d += 15 * 60_000) list.push(at + d, at + d - 1, at + d + 1);
  }
  for (const year of [1970, 1999, 2000, 2038, 2100]) list.push(Date.UTC(year, 0, 1), Date.UTC(year, 6, 1, 12, 34, 56));
  return list;
}

describe('zoned formatting', () => {
  it('agrees with date-fns + TZDate on the local date, clock and weekday', () => {
    for (const zone of ZONES) {
      for (const ms of instants()) {
        const local = new TZDate(ms, zone);
        const wall = wallClock(ms, zone);
        const expected = format(local, 'yyyy-MM-dd HH:mm');
        const actual = `${isoDate(wall)} ${clock(wall)}`;
        expect(actual, `${zone} ${new Date(ms).toISOString()}`).toBe(expected);
        expect(wall.weekday).toBe((local.getDay() + 6) % 7);
        expect(wall.second).toBe(local.getSeconds());
      }
    }
  });

  it('gives the local 24-hour clock time', () => {
    expect(formatClock(Date.parse('2026-11-24T06:00:00Z'), 'Europe/Stockholm')).toBe('07:00');
    expect(formatClock(Date.parse('2026-11-24T22:30:00Z'), 'Europe/Stockholm')).toBe('23:30');
  });

  it('rejects an unknown zone and an invalid instant, as date-fns did', () => {
    expect(() => wallClock(0, 'Mars/Olympus_Mons')).toThrow(RangeError);
    expect(() => wallClock(Number.NaN, 'UTC')).toThrow(RangeError);
  });
});
