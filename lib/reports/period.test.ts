import { describe, expect, it } from 'vitest';
import { messageText } from '@/tests/message-text';
import { DEFAULT_MONTH_MIN_DAYS, defaultPreset, MAX_PERIOD_MONTHS, parsePeriod, presetPeriod } from './period';

const SE = 'Europe/Stockholm';
// Wednesday 25 November 2026, 00:30 in Stockholm (still the 24th in UTC).
const NOW = Date.UTC(2026, 10, 24, 23, 30);

const ok = (input: Parameters<typeof parsePeriod>[0]) => {
  const parsed = parsePeriod(input, SE, NOW);
  if (!parsed.ok) throw new Error(messageText(parsed.message));
  return parsed.period;
};
const refusal = (input: Parameters<typeof parsePeriod>[0], locale: 'en' | 'sv' = 'en') => {
  const parsed = parsePeriod(input, SE, NOW);
  if (parsed.ok) throw new Error('accepted');
  return messageText(parsed.message, locale);
};

describe('report periods', () => {
  it('takes the presets from today in the system zone, not in UTC', () => {
    expect(ok({ period: 'this-month' })).toMatchObject({ kind: 'this-month', from: '2026-11-01', to: '2026-11-30' });
    expect(ok({ period: 'month-to-date' })).toMatchObject({ kind: 'month-to-date', from: '2026-11-01', to: '2026-11-25' });
    expect(ok({ period: 'last-month' })).toMatchObject({ from: '2026-10-01', to: '2026-10-31' });
    expect(ok({ period: 'last-3-months' })).toMatchObject({ from: '2026-08-26', to: '2026-11-25' });
    expect(ok({ period: 'last-12-months' })).toMatchObject({ from: '2025-11-26', to: '2026-11-25' });
    expect(presetPeriod('last-month', SE, Date.UTC(2027, 0, 10))).toMatchObject({ from: '2026-12-01', to: '2026-12-31' });
  });

  it('spans whole local days: from local midnight to the midnight after the last day, DST days included', () => {
    const october = ok({ period: 'last-month' });
    expect(october.startMs).toBe(Date.UTC(2026, 8, 30, 22)); // 1 October 00:00 CEST
    expect(october.endMs).toBe(Date.UTC(2026, 9, 31, 23)); // 1 November 00:00 CET: 31 days and one hour
    const march = ok({ from: '2026-03-29', to: '2026-03-29' });
    expect(march.endMs - march.startMs).toBe(23 * 3_600_000);
  });

  it('accepts a custom period of up to 24 months, from and to inclusive', () => {
    expect(ok({ period: 'custom', from: '2026-01-01', to: '2026-03-31' })).toMatchObject({ kind: 'custom', from: '2026-01-01', to: '2026-03-31' });
    expect(ok({ from: '2025-01-01', to: '2026-12-31' }).to).toBe('2026-12-31');
    expect(ok({ from: '2026-02-28', to: '2026-02-28' }).from).toBe('2026-02-28');
  });

  it('refuses reversed, over-long, malformed and impossible periods with a sentence', () => {
    expect(refusal({ from: '2026-03-01', to: '2026-02-01' })).toBe('The period starts after it ends (2026-03-01 is after 2026-02-01).');
    expect(refusal({ from: '2024-01-01', to: '2026-01-01' })).toBe(`A period may span at most ${MAX_PERIOD_MONTHS} months.`);
    expect(refusal({ from: '2024-01-01', to: '2026-01-01' }, 'sv')).toBe('En period får vara högst 24 månader lång.');
    expect(refusal({ from: '2026-02-30', to: '2026-03-01' })).toBe('The from date must be a real date written YYYY-MM-DD, got “2026-02-30”.');
    expect(refusal({ from: '2026-1-1', to: '2026-03-01' })).toMatch(/^The from date/);
    expect(refusal({ from: "' OR 1=1 --", to: '2026-03-01' })).toMatch(/^The from date/);
    expect(refusal({ period: 'custom', from: '2026-01-01' })).toBe('A custom period needs both a from and a to date (YYYY-MM-DD).');
    expect(refusal({ period: 'forever' })).toBe('The period must be one of month-to-date, this-month, last-month, last-3-months, last-12-months, custom.');
  });
});

describe('the period a report opens on (issue 48)', () => {
  // Local midnight-and-a-half of a day of December 2026 in Stockholm (CET), as UTC.
  const on = (day: number) => Date.UTC(2026, 11, day, 0, 30) - 3_600_000;

  it('is last month on the 1st and while fewer than DEFAULT_MONTH_MIN_DAYS days of the month are over: no day of it still to come', () => {
    for (const day of [1, 2, DEFAULT_MONTH_MIN_DAYS]) {
      const parsed = parsePeriod({}, SE, on(day));
      expect(parsed.ok && parsed.period, `December ${day}`).toMatchObject({ kind: 'last-month', from: '2026-11-01', to: '2026-11-30' });
      expect(parsed.ok && parsed.period.endMs <= on(day)).toBe(true);
    }
  });

  it('is the month so far once enough of its days are over, never its days to come', () => {
    expect(defaultPreset(SE, on(DEFAULT_MONTH_MIN_DAYS + 1))).toBe('month-to-date');
    expect(ok({})).toMatchObject({ kind: 'month-to-date', from: '2026-11-01', to: '2026-11-25' });
    const parsed = parsePeriod({ period: '' }, SE, on(31));
    expect(parsed.ok && parsed.period).toMatchObject({ kind: 'month-to-date', from: '2026-12-01', to: '2026-12-31' });
  });

  it('counts the days in the system’s zone: 00:30 on the 15th in Stockholm is still the 14th in UTC', () => {
    const fifteenth = on(DEFAULT_MONTH_MIN_DAYS + 1);
    expect(new Date(fifteenth).getUTCDate()).toBe(DEFAULT_MONTH_MIN_DAYS);
    expect(defaultPreset(SE, fifteenth)).toBe('month-to-date');
    expect(defaultPreset('UTC', fifteenth)).toBe('last-month');
  });
});
