import { describe, expect, it } from 'vitest';
import { generate, SCHEDULES } from './seed';
import { fitsSchedule, parseSlotTime } from './slots';

const t = (v: string) => parseSlotTime(v)!;

describe('parseSlotTime', () => {
  it('accepts exactly yyyy-mm-ddThh:mmZ', () => {
    expect(parseSlotTime('2026-11-26T06:00Z')?.toISOString()).toBe('2026-11-26T06:00:00.000Z');
  });
  it.each(['2026-11-26T06:00:00Z', '2026-11-26T06:00', '2026-11-26 06:00Z', '2026-02-30T06:00Z', '2026-11-26T25:00Z', '2026-11-26T06:00+01:00'])(
    'refuses %s',
    (value) => expect(parseSlotTime(value)).toBeUndefined(),
  );
});

describe('fitsSchedule (UTC minutes, weekday 0 = Monday)', () => {
  // 2026-11-26 is a Thursday (weekday 3); 2026-11-30 a Monday.
  it('accepts one slot and a run of consecutive slots of one day', () => {
    expect(fitsSchedule(SCHEDULES.threeHour, t('2026-11-26T06:00Z'), t('2026-11-26T09:00Z'))).toBe(true);
    expect(fitsSchedule(SCHEDULES.threeHour, t('2026-11-26T09:00Z'), t('2026-11-26T15:00Z'))).toBe(true);
  });
  it('refuses times off the slot boundaries', () => {
    expect(fitsSchedule(SCHEDULES.threeHour, t('2026-11-26T07:00Z'), t('2026-11-26T10:00Z'))).toBe(false);
    expect(fitsSchedule(SCHEDULES.threeHour, t('2026-11-26T06:00Z'), t('2026-11-26T08:00Z'))).toBe(false);
    expect(fitsSchedule(SCHEDULES.threeHour, t('2026-11-26T18:00Z'), t('2026-11-27T09:00Z'))).toBe(false);
  });
  it('accepts a slot that runs past midnight and uses the weekday of its start', () => {
    // Irregular: Monday 21:00 + 240 min ends Tuesday 01:00.
    expect(fitsSchedule(SCHEDULES.irregular, t('2026-11-30T21:00Z'), t('2026-12-01T01:00Z'))).toBe(true);
    // The same times on a Tuesday are not a slot.
    expect(fitsSchedule(SCHEDULES.irregular, t('2026-12-01T21:00Z'), t('2026-12-02T01:00Z'))).toBe(false);
    // Thursday has no slots at all.
    expect(fitsSchedule(SCHEDULES.irregular, t('2026-11-26T06:00Z'), t('2026-11-26T09:00Z'))).toBe(false);
  });
  it('does not join slots separated by a gap', () => {
    // Irregular Wednesday: 06:00, 07:30, 09:00 (90 min each) then 20:00.
    expect(fitsSchedule(SCHEDULES.irregular, t('2026-12-02T06:00Z'), t('2026-12-02T10:30Z'))).toBe(true);
    expect(fitsSchedule(SCHEDULES.irregular, t('2026-12-02T09:00Z'), t('2026-12-02T23:00Z'))).toBe(false);
  });
});

describe('seeded data', () => {
  const now = new Date('2026-11-25T10:00:00Z');
  it('is the same for the same seed and differs for another', () => {
    expect(generate('demo', 1, now, 2)).toEqual(generate('demo', 1, now, 2));
    expect(generate('demo', 2, now, 2).systems[0]!.id).not.toBe(generate('demo', 1, now, 2).systems[0]!.id);
  });
  it('demo: 3 systems, 2–5 resources, 40–120 apartments, 40–80 % occupancy, two approvals', () => {
    const data = generate('demo', 1, now, 2);
    expect(data.systems).toHaveLength(3);
    expect(data.approvals.map((a) => a.deviceIds.length)).toEqual([2, 1]);
    for (const system of data.systems) {
      const resources = data.resources.filter((r) => r.deviceId === system.id);
      expect(resources.length).toBeGreaterThanOrEqual(2);
      expect(resources.length).toBeLessThanOrEqual(5);
      const groups = data.groups.filter((g) => g.deviceId === system.id);
      expect(groups.length).toBeGreaterThanOrEqual(40);
      expect(groups.length).toBeLessThanOrEqual(120);
    }
    // Occupancy per resource: reservations over the slots its schedule offers in the 11 weeks.
    for (const resource of data.resources) {
      const schedule = data.schedules.find((x) => x.id === resource.timeScheduleId)!.schedule;
      const slots = 11 * schedule.reduce((n, day) => n + day.length, 0);
      const booked = data.reservations.filter((r) => r.resourceId === resource.id).length;
      expect(booked / slots).toBeGreaterThan(0.3);
      expect(booked / slots).toBeLessThan(0.85);
    }
    const past = data.reservations.filter((r) => r.endTime < now.toISOString());
    expect(past.filter((r) => r.status === 'Used').length / past.length).toBeGreaterThan(0.7);
    expect(data.reservations.some((r) => r.ownerType === 'Service')).toBe(true);
    expect(data.reservations.some((r) => r.startTime > new Date(now.getTime() + 14 * 86_400_000).toISOString())).toBe(true);
    expect(data.users.some((u) => u.email.includes('+'))).toBe(true);
    expect(data.users.some((u) => /[A-Z]/.test(u.email))).toBe(true);
    expect(data.residents.some((r) => / /.test(r.apartmentId))).toBe(true);
    expect(data.residents.some((r) => r.apartmentId.includes('/'))).toBe(true);
  });
  it('never seeds more future bookings per apartment and resource than the quota', () => {
    const data = generate('demo', 3, now, 2);
    const counts = new Map<string, number>();
    for (const r of data.reservations) {
      if (r.ownerType !== 'Group' || r.endTime <= now.toISOString()) continue;
      const key = `${r.ownerId}:${r.resourceId}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    expect(Math.max(...counts.values())).toBeLessThanOrEqual(2);
  });
  it('large: one system, 100 resources, 2,000 apartments, 50,000 reservations', () => {
    const data = generate('large', 1, now, 2);
    expect(data.systems).toHaveLength(1);
    expect(data.resources).toHaveLength(100);
    expect(data.groups).toHaveLength(2000);
    expect(data.reservations).toHaveLength(50_000);
  });
});

describe('fitsSchedule with a schedule time zone (wall-clock minutes, local weekday)', () => {
  const SE = 'Europe/Stockholm';
  it('reads the schedule on the clocks of the zone, not in UTC', () => {
    // Thursday 26 November, CET (UTC+1): the 06:00–09:00 slot is 05:00Z–08:00Z.
    expect(fitsSchedule(SCHEDULES.threeHour, t('2026-11-26T05:00Z'), t('2026-11-26T08:00Z'), SE)).toBe(true);
    expect(fitsSchedule(SCHEDULES.threeHour, t('2026-11-26T06:00Z'), t('2026-11-26T09:00Z'), SE)).toBe(false);
    expect(fitsSchedule(SCHEDULES.threeHour, t('2026-11-26T08:00Z'), t('2026-11-26T14:00Z'), SE)).toBe(true);
  });
  it('keeps the wall-clock times across DST changes', () => {
    // Sunday 29 March (CEST from 02:00): 06:00–09:00 local is 04:00Z–07:00Z; the UTC reading's 05:00Z is wrong.
    expect(fitsSchedule(SCHEDULES.threeHour, t('2026-03-29T04:00Z'), t('2026-03-29T07:00Z'), SE)).toBe(true);
    expect(fitsSchedule(SCHEDULES.threeHour, t('2026-03-29T05:00Z'), t('2026-03-29T08:00Z'), SE)).toBe(false);
    // Sunday 25 October (CET from 03:00): 06:00–09:00 local is 05:00Z–08:00Z again.
    expect(fitsSchedule(SCHEDULES.threeHour, t('2026-10-25T05:00Z'), t('2026-10-25T08:00Z'), SE)).toBe(true);
    expect(fitsSchedule(SCHEDULES.threeHour, t('2026-10-24T04:00Z'), t('2026-10-24T07:00Z'), SE)).toBe(true);
  });
});
