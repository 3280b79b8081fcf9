import { describe, expect, it } from 'vitest';
import { expandRange, expandWeek, instantOfWallTime } from './expand';

const SE = 'Europe/Stockholm';
// Every day 07:00 for 3 hours, and 01:30 for 90 minutes (it meets the spring gap and the autumn repeat).
const daily: [number, number][] = [
  [90, 90],
  [420, 180],
];
const week = Array.from({ length: 7 }, () => daily);
const at = (iso: string) => Date.parse(iso);
const labels = (slots: ReturnType<typeof expandWeek>, date: string) => slots.filter((s) => s.date === date).map((s) => `${s.startLabel}–${s.endLabel} ${s.startTime}`);

describe('the schedule time basis', () => {
  it('utc: minutes are UTC, so the local times move by an hour across a DST change', () => {
    const slots = expandWeek(week, '2026-W13', SE, 'utc');
    expect(labels(slots, '2026-03-28')).toEqual(['02:30–04:00 2026-03-28T01:30Z', '08:00–11:00 2026-03-28T07:00Z']);
    expect(labels(slots, '2026-03-29')).toEqual(['03:30–05:00 2026-03-29T01:30Z', '09:00–12:00 2026-03-29T07:00Z']);
  });

  it('local: minutes are wall clock in the zone, so 07:00–10:00 stays 07:00–10:00 through spring and autumn', () => {
    const spring = expandWeek(week, '2026-W13', SE, 'local');
    expect(labels(spring, '2026-03-28')).toEqual(['01:30–03:00 2026-03-28T00:30Z', '07:00–10:00 2026-03-28T06:00Z']);
    // 02:00–03:00 does not exist on 29 March: the 01:30 slot ends at 03:00 after 30 real minutes.
    expect(labels(spring, '2026-03-29')).toEqual(['01:30–03:00 2026-03-29T00:30Z', '07:00–10:00 2026-03-29T05:00Z']);
    expect(spring.find((s) => s.date === '2026-03-29' && s.startLabel === '01:30')?.lengthMinutes).toBe(30);
    const autumn = expandWeek(week, '2026-W43', SE, 'local');
    expect(labels(autumn, '2026-10-24')).toEqual(['01:30–03:00 2026-10-23T23:30Z', '07:00–10:00 2026-10-24T05:00Z']);
    // 02:00–03:00 happens twice on 25 October: the slot runs 150 real minutes, from the first 01:30.
    expect(labels(autumn, '2026-10-25')).toEqual(['01:30–03:00 2026-10-24T23:30Z', '07:00–10:00 2026-10-25T06:00Z']);
    expect(autumn.find((s) => s.date === '2026-10-25' && s.startLabel === '01:30')?.lengthMinutes).toBe(150);
    // Every week still has its 14 slots, each once.
    expect(spring).toHaveLength(14);
    expect(autumn).toHaveLength(14);
  });

  it('local: the weekday is the local one, and a range query finds exactly the slot that starts in it', () => {
    const monday = [[[1380, 120]], [], [], [], [], [], []] as [number, number][][];
    // Monday 23:00 local (CET) is 22:00Z on Monday: still the local Monday's slot, ending Tuesday 01:00.
    const [slot] = expandRange(monday, at('2026-11-23T00:00:00Z'), at('2026-11-30T00:00:00Z'), SE, 'local');
    expect(slot).toMatchObject({ startTime: '2026-11-23T22:00Z', endTime: '2026-11-24T00:00Z', startLabel: '23:00', endLabel: '01:00', endsNextDay: true, dayIndex: 0 });
    const start = at('2026-11-23T22:00:00Z');
    expect(expandRange(monday, start, start + 1, SE, 'local').map((s) => s.id)).toEqual([slot?.id]);
  });

  it('converts wall times to instants at, before and after a change', () => {
    expect(new Date(instantOfWallTime(2026, 2, 29, 60, SE)).toISOString()).toBe('2026-03-29T00:00:00.000Z');
    expect(new Date(instantOfWallTime(2026, 2, 29, 150, SE)).toISOString()).toBe('2026-03-29T01:30:00.000Z'); // 02:30 does not exist: 03:30, as the clock would say
    expect(new Date(instantOfWallTime(2026, 2, 29, 180, SE)).toISOString()).toBe('2026-03-29T01:00:00.000Z');
    expect(new Date(instantOfWallTime(2026, 9, 25, 150, SE)).toISOString()).toBe('2026-10-25T00:30:00.000Z'); // the first 02:30
    expect(new Date(instantOfWallTime(2026, 9, 25, 240, SE)).toISOString()).toBe('2026-10-25T03:00:00.000Z');
    expect(new Date(instantOfWallTime(2026, 0, 1, 420, 'UTC')).toISOString()).toBe('2026-01-01T07:00:00.000Z');
  });
});
