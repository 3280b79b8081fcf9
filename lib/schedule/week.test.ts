import { describe, expect, it } from 'vitest';
import { ScheduleInputError } from './types';
import { formatWeekKey, parseWeekKey, shiftWeekKey, weekFromKey, weekKeySchema, weekOf, weekParam } from './week';

const SE = 'Europe/Stockholm';
const HOUR = 3_600_000;
const at = (iso: string) => Date.parse(iso);

describe('weekOf', () => {
  it('gives the Monday-start local week with its key, bounds and local dates', () => {
    const week = weekOf(at('2026-11-25T12:00:00Z'), SE);
    expect(week.key).toBe('2026-W48');
    expect(week.startMs).toBe(at('2026-11-22T23:00:00Z')); // Monday 23 Nov 00:00 CET
    expect(week.endMs).toBe(at('2026-11-29T23:00:00Z'));
    expect(week.days.map((d) => d.date)).toEqual(['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27', '2026-11-28', '2026-11-29']);
    expect(week.days[0]).toMatchObject({ index: 0, date: '2026-11-23' });
    // Words are the components' (components/resource-week/slot-words.ts): none here.
    expect(Object.keys(week.days[0]!).sort()).toEqual(['date', 'endMs', 'index', 'startMs']);
  });

  it('uses the local date, not the UTC date, at the week boundary', () => {
    // Sunday 23:30 UTC is already Monday 00:30 in Stockholm, but still Sunday in New York.
    expect(weekOf(at('2026-11-29T23:30:00Z'), SE).key).toBe('2026-W49');
    expect(weekOf(at('2026-11-29T23:30:00Z'), 'America/New_York').key).toBe('2026-W48');
    expect(weekOf(at('2026-11-29T22:59:59Z'), SE).key).toBe('2026-W48');
  });

  it('names weeks by ISO week-year across New Year', () => {
    expect(weekOf(at('2026-12-31T12:00:00Z'), SE).key).toBe('2026-W53');
    expect(weekOf(at('2027-01-03T12:00:00Z'), SE).key).toBe('2026-W53');
    expect(weekOf(at('2024-12-30T12:00:00Z'), SE).key).toBe('2025-W01');
  });

  it('has a 23-hour Sunday in the spring DST week and a 25-hour Sunday in the autumn one', () => {
    const spring = weekFromKey('2026-W13', SE);
    expect(spring.days[6]!.date).toBe('2026-03-29');
    expect(spring.days[6]!.endMs - spring.days[6]!.startMs).toBe(23 * HOUR);
    expect(spring.endMs - spring.startMs).toBe(167 * HOUR);
    const autumn = weekFromKey('2026-W43', SE);
    expect(autumn.days[6]!.date).toBe('2026-10-25');
    expect(autumn.days[6]!.endMs - autumn.days[6]!.startMs).toBe(25 * HOUR);
    expect(autumn.endMs - autumn.startMs).toBe(169 * HOUR);
  });

  it('round-trips keys and agrees with weekOf', () => {
    for (const key of ['2026-W01', '2026-W13', '2026-W43', '2026-W53', '2027-W01', '2020-W53']) {
      const week = weekFromKey(key, SE);
      expect(week.key).toBe(key);
      expect(weekOf(week.startMs, SE).key).toBe(key);
      expect(weekOf(week.endMs - 1, SE).key).toBe(key);
      expect(weekOf(week.endMs, SE).key).toBe(shiftWeekKey(key, 1));
    }
  });

  it('rejects unknown time zones and invalid dates', () => {
    expect(() => weekOf(Date.now(), 'Mars/Olympus')).toThrow(ScheduleInputError);
    expect(() => weekOf(Number.NaN, SE)).toThrow(/not a valid date/);
  });
});

describe('parseWeekKey', () => {
  it.each([
    ['2026-48', /look like 2026-W48/],
    ['2026-W5', /look like/],
    ['2026-w48', /look like/],
    [' 2026-W48', /look like/],
    ['2026-W48 ', /look like/],
    ['', /look like/],
    ['2026-W00', /weeks 01 to 53, got 00/],
    ['2026-W54', /weeks 01 to 53/],
    ['2025-W53', /2025 has weeks 01 to 52, got 53/],
    ['1969-W10', /from 1970 to 2199/],
    ['9999-W52', /from 1970 to 2199/],
    ['2200-W01', /from 1970 to 2199/],
  ])('rejects %j', (input, message) => {
    const parsed = parseWeekKey(input);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toMatch(message);
    expect(weekKeySchema.safeParse(input).success).toBe(false);
    expect(() => weekFromKey(input, SE)).toThrow(ScheduleInputError);
  });

  it('accepts valid keys, including week 53 in long years', () => {
    expect(parseWeekKey('2026-W53')).toEqual({ ok: true, key: '2026-W53', year: 2026, week: 53 });
    expect(weekKeySchema.parse('2026-W01')).toBe('2026-W01');
    expect(formatWeekKey(2027, 3)).toBe('2027-W03');
  });

  it('says why in facts, for a sentence in the reader\'s language', () => {
    const problem = (input: string) => {
      const parsed = parseWeekKey(input);
      return parsed.ok ? null : parsed.problem;
    };
    expect(problem('2026-48')).toEqual({ kind: 'shape', input: '2026-48' });
    expect(problem('2025-W53')).toEqual({ kind: 'week', year: 2025, weeks: 52, week: '53' });
    expect(problem('1969-W10')).toEqual({ kind: 'year', min: 1970, max: 2199 });
  });

  it('keeps a long hostile input out of the message', () => {
    const parsed = parseWeekKey('x'.repeat(500));
    expect(!parsed.ok && parsed.error.length).toBeLessThan(100);
  });
});

describe('shiftWeekKey', () => {
  it('steps across years of 52 and 53 weeks', () => {
    expect(shiftWeekKey('2026-W53', 1)).toBe('2027-W01');
    expect(shiftWeekKey('2026-W52', 1)).toBe('2026-W53');
    expect(shiftWeekKey('2026-W01', -1)).toBe('2025-W52');
    expect(shiftWeekKey('2026-W48', 0)).toBe('2026-W48');
    expect(shiftWeekKey('2026-W48', -52)).toBe('2025-W48');
  });

  it('rejects bad keys and fractional shifts', () => {
    expect(() => shiftWeekKey('2026-W99', 1)).toThrow(ScheduleInputError);
    expect(() => shiftWeekKey('2026-W10', 0.5)).toThrow(/whole number/);
  });
});

describe('weekParam', () => {
  it('names the week of a good ?week=, none without one, and the problem of a mistyped one', () => {
    expect(weekParam('2026-W48')).toEqual({ key: '2026-W48', problem: null });
    expect(weekParam(['2026-W01', '2026-W02'])).toEqual({ key: '2026-W01', problem: null });
    expect(weekParam(undefined)).toEqual({ key: undefined, problem: null });
    expect(weekParam('')).toEqual({ key: undefined, problem: null });
    expect(weekParam('2026-W54')).toEqual({ key: undefined, problem: { kind: 'week', year: 2026, weeks: 53, week: '54' } });
    expect(weekParam('next')).toMatchObject({ key: undefined, problem: { kind: 'shape', input: 'next' } });
  });
});
