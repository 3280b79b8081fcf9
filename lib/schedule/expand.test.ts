import { describe, expect, it } from 'vitest';
import { type ScheduleSlot, expandRange, expandWeek, serviceTime } from './expand';
import { ScheduleInputError, type WeekScheduleInput } from './types';
import { shiftWeekKey, weekFromKey } from './week';

const SE = 'Europe/Stockholm';
const at = (iso: string) => Date.parse(iso);
const MINUTE = 60_000;

/** Every day the same slots, in UTC minutes. */
const daily = (...slots: [number, number][]): number[][][] => Array.from({ length: 7 }, () => slots.map((s) => [...s]));
/** Five 3-hour slots from 06:00 UTC: 07–22 local in Stockholm winter. */
const laundry = daily([360, 180], [540, 180], [720, 180], [900, 180], [1080, 180]);

/** An oracle independent of date-fns: local date and clock time through Intl. */
const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

function localParts(ms: number, timeZone: string): { date: string; time: string; weekday: string } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      weekday: 'long',
    })
      .formatToParts(ms)
      .map((p) => [p.type, p.value]),
  );
  return { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}`, weekday: parts.weekday! };
}

/** Brute force: every occurrence of every schedule slot whose start lies in [from, to). */
function bruteForce(schedule: WeekScheduleInput, from: number, to: number): string[] {
  const ids: string[] = [];
  for (let day = Date.UTC(2000, 0, 3); day < to; day += 1440 * MINUTE) {
    if (day + 1440 * MINUTE < from) continue;
    const weekday = (new Date(day).getUTCDay() + 6) % 7; // 0 = Monday
    for (const [start, length] of schedule[weekday] ?? []) {
      const s = day + start! * MINUTE;
      if (s >= from && s < to) ids.push(`${serviceTime(s)}/${serviceTime(s + length! * MINUTE)}`);
    }
  }
  return ids.sort();
}

function checkAgainstOracle(slots: ScheduleSlot[], timeZone: string): void {
  for (const slot of slots) {
    const start = localParts(slot.startMs, timeZone);
    const end = localParts(slot.endMs, timeZone);
    expect(slot.date).toBe(start.date);
    expect(slot.startLabel).toBe(start.time);
    expect(slot.endLabel).toBe(end.time);
    expect(slot.dayIndex).toBe(WEEKDAYS.indexOf(start.weekday));
    expect(slot.endsNextDay).toBe(end.date !== start.date);
  }
}

/** Expands three consecutive weeks and checks they tile the brute-force occurrences exactly. */
function checkPartition(schedule: WeekScheduleInput, centreKey: string, timeZone: string): ScheduleSlot[][] {
  const keys = [shiftWeekKey(centreKey, -1), centreKey, shiftWeekKey(centreKey, 1)];
  const weeks = keys.map((key) => weekFromKey(key, timeZone));
  const expanded = weeks.map((week) => expandWeek(schedule, week, timeZone));
  const all = expanded.flat().map((s) => s.id);
  expect(new Set(all).size).toBe(all.length); // none twice across adjacent weeks
  expect([...all].sort()).toEqual(bruteForce(schedule, weeks[0]!.startMs, weeks[2]!.endMs)); // none lost
  expanded.forEach((slots, i) => {
    const week = weeks[i]!;
    for (const slot of slots) {
      expect(slot.startMs).toBeGreaterThanOrEqual(week.startMs);
      expect(slot.startMs).toBeLessThan(week.endMs);
      expect(week.days[slot.dayIndex]!.date).toBe(slot.date);
    }
    checkAgainstOracle(slots, timeZone);
  });
  return expanded;
}

describe('expandWeek', () => {
  it('expands an ordinary week into concrete slots with local labels', () => {
    const slots = expandWeek(laundry, '2026-W48', SE);
    expect(slots).toHaveLength(35);
    expect(slots[0]).toMatchObject({
      id: '2026-11-23T06:00Z/2026-11-23T09:00Z',
      startTime: '2026-11-23T06:00Z',
      endTime: '2026-11-23T09:00Z',
      lengthMinutes: 180,
      scheduleDay: 0,
      scheduleIndex: 0,
      dayIndex: 0,
      date: '2026-11-23',
      startLabel: '07:00',
      endLabel: '10:00',
      endsNextDay: false,
      startMinute: 420,
      endMinute: 600,
      timeZone: SE,
    });
    expect(slots.filter((s) => s.dayIndex === 6).map((s) => `${s.startLabel}–${s.endLabel}`)).toEqual([
      '07:00–10:00',
      '10:00–13:00',
      '13:00–16:00',
      '16:00–19:00',
      '19:00–22:00',
    ]);
    checkPartition(laundry, '2026-W48', SE);
  });

  it('places a slot crossing local midnight on the day it starts', () => {
    // 22:00 UTC + 3 h = 23:00–02:00 in Stockholm winter.
    const schedule = [[[1320, 180]], [], [], [], [], [], []];
    const [slot, ...rest] = expandWeek(schedule, '2026-W48', SE);
    expect(rest).toHaveLength(0);
    expect(slot).toMatchObject({
      date: '2026-11-23',
      dayIndex: 0,
      startLabel: '23:00',
      endLabel: '02:00',
      endsNextDay: true,
      startMinute: 1380,
      endMinute: 1560,
      startTime: '2026-11-23T22:00Z',
      endTime: '2026-11-24T01:00Z',
    });
  });

  it('places a slot crossing UTC midnight by its local start', () => {
    // Monday 23:00 UTC + 3 h runs into UTC Tuesday; locally it is Tuesday 00:00–03:00.
    const schedule = [[[1380, 180]], [], [], [], [], [], []];
    const [slot] = expandWeek(schedule, '2026-W48', SE);
    expect(slot).toMatchObject({
      scheduleDay: 0,
      dayIndex: 1,
      date: '2026-11-24',
      startLabel: '00:00',
      endLabel: '03:00',
      endsNextDay: false,
      endTime: '2026-11-24T02:00Z',
    });
  });

  it('shows a UTC-Sunday 23:30 slot on local Monday of the following week, once', () => {
    const schedule = [[], [], [], [], [], [], [[1410, 90]]];
    const [previous, current, next] = checkPartition(schedule, '2026-W48', SE);
    const first = current![0]!;
    expect(current).toHaveLength(1);
    expect(first).toMatchObject({ scheduleDay: 6, dayIndex: 0, date: '2026-11-23', startLabel: '00:30', endLabel: '02:00' });
    expect(first.startTime).toBe('2026-11-22T23:30Z'); // a Sunday in UTC
    expect(previous!.map((s) => s.startTime)).toEqual(['2026-11-15T23:30Z']);
    expect(next!.map((s) => s.startTime)).toEqual(['2026-11-29T23:30Z']);
  });

  it('leaves an empty day empty, and reads missing days as empty', () => {
    const schedule = daily([360, 180], [540, 180]);
    schedule[2] = [];
    const slots = expandWeek(schedule, '2026-W48', SE);
    expect(slots).toHaveLength(12);
    expect(slots.filter((s) => s.dayIndex === 2)).toEqual([]);
    const short = expandWeek([[[360, 180]], [[360, 180]]], '2026-W48', SE);
    expect(short.map((s) => s.dayIndex)).toEqual([0, 1]);
    expect(expandWeek([], '2026-W48', SE)).toEqual([]);
  });

  it('spring DST week in Stockholm: 35 slots, labels move an hour on Sunday, none lost or doubled', () => {
    const slots = expandWeek(laundry, '2026-W13', SE);
    expect(slots).toHaveLength(35);
    const firstOfDay = (day: number) => slots.find((s) => s.dayIndex === day)!.startLabel;
    expect([0, 1, 2, 3, 4, 5].map(firstOfDay)).toEqual(Array(6).fill('07:00'));
    expect(firstOfDay(6)).toBe('08:00'); // 29 March, summer time from 01:00 UTC
    expect(slots.filter((s) => s.dayIndex === 6).map((s) => s.endLabel)).toEqual(['11:00', '14:00', '17:00', '20:00', '23:00']);
    checkPartition(laundry, '2026-W13', SE);
  });

  it('spring DST week: a slot just before local midnight moves to the next week on the short Sunday', () => {
    const schedule = daily([1350, 60]); // 22:30 UTC: 23:30 in winter, 00:30 (next day) in summer
    const [before, dst, after] = checkPartition(schedule, '2026-W13', SE);
    expect(before).toHaveLength(7);
    expect(dst!.map((s) => `${s.date} ${s.startLabel}`)).toEqual([
      '2026-03-23 23:30',
      '2026-03-24 23:30',
      '2026-03-25 23:30',
      '2026-03-26 23:30',
      '2026-03-27 23:30',
      '2026-03-28 23:30',
    ]);
    expect(after).toHaveLength(7);
    expect(after![0]).toMatchObject({ date: '2026-03-30', startLabel: '00:30', startTime: '2026-03-29T22:30Z' });
  });

  it('autumn DST week in Stockholm: 35 slots, labels move back on Sunday, none lost or doubled', () => {
    const slots = expandWeek(laundry, '2026-W43', SE);
    expect(slots).toHaveLength(35);
    const firstOfDay = (day: number) => slots.find((s) => s.dayIndex === day)!.startLabel;
    expect([0, 1, 2, 3, 4, 5].map(firstOfDay)).toEqual(Array(6).fill('08:00'));
    expect(firstOfDay(6)).toBe('07:00'); // 25 October, winter time from 01:00 UTC
    checkPartition(laundry, '2026-W43', SE);
  });

  it('autumn DST week: the long Sunday holds the same UTC slot twice, at 00:30 and 23:30', () => {
    const schedule = daily([1350, 60]);
    const [before, dst, after] = checkPartition(schedule, '2026-W43', SE);
    expect(before).toHaveLength(7);
    expect(dst).toHaveLength(8);
    expect(dst!.filter((s) => s.dayIndex === 6).map((s) => `${s.startLabel} ${s.startTime}`)).toEqual([
      '00:30 2026-10-24T22:30Z',
      '23:30 2026-10-25T22:30Z',
    ]);
    expect(after).toHaveLength(7);
  });

  it('handles a slot running through the DST switch itself', () => {
    // Sunday 00:00 UTC for 3 h: 01:00 CET to 05:00 CEST in March (3 real hours, 4 on the wall clock).
    const schedule = [[], [], [], [], [], [], [[0, 180]]];
    const [slot] = expandWeek(schedule, '2026-W13', SE);
    expect(slot).toMatchObject({ startLabel: '01:00', endLabel: '05:00', lengthMinutes: 180, startMinute: 60, endMinute: 300 });
    // …and 02:00 CEST to 04:00 CET in October (3 real hours, 2 on the wall clock).
    const [autumn] = expandWeek(schedule, '2026-W43', SE);
    expect(autumn).toMatchObject({ startLabel: '02:00', endLabel: '04:00', lengthMinutes: 180 });
  });

  it('works in Asia/Kolkata (UTC+05:30): half-hour offsets shift slots to the next local day', () => {
    const schedule = daily([1080, 90], [1110, 60]); // 18:00 UTC = 23:30 IST, 18:30 UTC = 00:00 IST
    const [, slots] = checkPartition(schedule, '2026-W48', 'Asia/Kolkata');
    const monday = slots!.filter((s) => s.dayIndex === 0);
    expect(monday.map((s) => `${s.startLabel}–${s.endLabel}${s.endsNextDay ? '+1' : ''} from UTC day ${s.scheduleDay}`)).toEqual([
      '00:00–01:00 from UTC day 6', // Sunday 18:30 UTC
      '23:30–01:00+1 from UTC day 0',
    ]);
    expect(slots).toHaveLength(14);
  });

  it('works in America/New_York: early-UTC slots fall on the previous local day, across the November DST change', () => {
    // Tuesday 02:00 UTC = Monday 21:00 EST.
    const schedule = [[], [[120, 60]], [], [], [], [], []];
    const [slot] = expandWeek(schedule, '2026-W48', 'America/New_York');
    expect(slot).toMatchObject({ scheduleDay: 1, dayIndex: 0, date: '2026-11-23', startLabel: '21:00', endLabel: '22:00' });
    // Week 45 of 2026 contains the 1 November switch (first Sunday of November).
    checkPartition(daily([120, 60], [720, 180], [1410, 60]), '2026-W45', 'America/New_York');
    checkPartition(daily([120, 60], [720, 180], [1410, 60]), '2026-W11', 'America/New_York');
  });

  it('lists a slot the schedule repeats only once', () => {
    const schedule = [[[360, 180], [360, 180], [360, 120]], [], [], [], [], [], []];
    expect(expandWeek(schedule, '2026-W48', SE).map((s) => s.id)).toEqual([
      '2026-11-23T06:00Z/2026-11-23T08:00Z',
      '2026-11-23T06:00Z/2026-11-23T09:00Z',
    ]);
  });

  it.each([
    [[[[360, 180]], [], [], [], [], [], [], []], /at most 7 days/],
    [[[[1440, 60]]], /at \[0\]\[0\]\[0\].*0\.\.1439/],
    [[[[-1, 60]]], /0\.\.1439/],
    [[[[360, 0]]], /at \[0\]\[0\]\[1\].*at least 1 minute/],
    [[[[360, 1441]]], /at most 1440/],
    [[[[360.5, 60]]], /at \[0\]\[0\]\[0\]/],
    [[[[360]]], /at \[0\]\[0\]/],
    [[[[360, 60, 5]]], /at \[0\]\[0\]/],
  ])('rejects a malformed schedule %j', (schedule, message) => {
    expect(() => expandWeek(schedule as WeekScheduleInput, '2026-W48', SE)).toThrow(ScheduleInputError);
    expect(() => expandWeek(schedule as WeekScheduleInput, '2026-W48', SE)).toThrow(message);
  });

  it('rebuilds a WeekInfo made for another zone instead of mixing boundaries', () => {
    const utcWeek = weekFromKey('2026-W48', 'UTC');
    const slots = expandWeek(daily([1410, 30]), utcWeek, SE);
    expect(slots[0]!.startTime).toBe('2026-11-22T23:30Z');
  });
});

describe('expandRange', () => {
  it('returns occurrences whose start lies in [from, to)', () => {
    const slots = expandRange(laundry, at('2026-11-23T09:00:00Z'), at('2026-11-23T15:00:00Z'), SE);
    expect(slots.map((s) => s.startTime)).toEqual(['2026-11-23T09:00Z', '2026-11-23T12:00Z']);
    expect(expandRange(laundry, 10, 10, SE)).toEqual([]);
  });
});
