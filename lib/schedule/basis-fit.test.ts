import { describe, expect, it } from 'vitest';
import { detectedBasis, scheduleBasisFit } from './basis-fit';

// Every day 07:00–10:00 and 10:00–13:00, in the schedule's minutes.
const SCHEDULE = Array.from({ length: 7 }, () => [[420, 180], [600, 180]]);
const rooms = [{ id: 'r1', timeScheduleId: 's1' }];
const schedules = new Map([['s1', SCHEDULE]]);
// Winter in Stockholm: local = UTC + 1 h. 1–9 December 2026.
const days = Array.from({ length: 9 }, (_, i) => `2026-12-0${i + 1}`);
const booking = (start: string, end: string, ownerType = 'Group') => ({ resourceId: 'r1', startTime: start, endTime: end, ownerType });

describe('which basis the bookings fall on', () => {
  it('local: bookings at 07:00–10:00 Stockholm time (06:00Z) fit local time and not UTC; maintenance does not count', () => {
    const reservations = [...days.map((d) => booking(`${d}T06:00:00Z`, `${d}T09:00:00Z`)), booking('2026-12-02T11:15:00Z', '2026-12-02T11:45:00Z', 'Service')];
    const fit = scheduleBasisFit({ timeZone: 'Europe/Stockholm', schedules, resources: rooms, reservations });
    expect(fit).toEqual({ bookings: 9, utc: 0, local: 9 });
    expect(detectedBasis(fit)).toBe('local');
  });

  it('utc: bookings at 07:00Z fit UTC; in a UTC zone both fit and nothing is said; too few bookings say nothing', () => {
    const reservations = days.map((d) => booking(`${d}T07:00:00Z`, `${d}T10:00:00Z`));
    const fit = scheduleBasisFit({ timeZone: 'Europe/Stockholm', schedules, resources: rooms, reservations });
    expect(fit).toEqual({ bookings: 9, utc: 9, local: 0 });
    expect(detectedBasis(fit)).toBe('utc');
    expect(detectedBasis(scheduleBasisFit({ timeZone: 'UTC', schedules, resources: rooms, reservations }))).toBeNull();
    expect(detectedBasis(scheduleBasisFit({ timeZone: 'Europe/Stockholm', schedules, resources: rooms, reservations: reservations.slice(0, 4) }))).toBeNull();
  });

  it('says nothing when the bookings fit neither (a room whose schedule changed) or are split', () => {
    const off = days.map((d) => booking(`${d}T08:30:00Z`, `${d}T09:30:00Z`));
    expect(detectedBasis(scheduleBasisFit({ timeZone: 'Europe/Stockholm', schedules, resources: rooms, reservations: off }))).toBeNull();
    const split = days.map((d, i) => (i % 2 ? booking(`${d}T06:00:00Z`, `${d}T09:00:00Z`) : booking(`${d}T07:00:00Z`, `${d}T10:00:00Z`)));
    expect(detectedBasis(scheduleBasisFit({ timeZone: 'Europe/Stockholm', schedules, resources: rooms, reservations: split }))).toBeNull();
  });
});
