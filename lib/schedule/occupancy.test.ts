import { describe, expect, it } from 'vitest';
import { expandWeek } from './expand';
import { type HeatmapCell, occupancyByResourceWeek, occupancyHeatmap, weekOccupancy } from './occupancy';
import { overlayReservations } from './overlay';
import { daily, laundry, reservation, serviceWindow } from '@/tests/schedule-fixtures';
import { type ScheduleReservation } from './types';

const SE = 'Europe/Stockholm';
const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();
const DAY = 86_400_000;

describe('weekOccupancy', () => {
  // Wednesday 25 November 2026, 11:00 local: Mon, Tue and the first Wed slot have ended.
  const now = at('2026-11-25T10:00:00Z');
  const list = [
    reservation('2026-11-23T06:00:00Z', '2026-11-23T09:00:00Z', { status: 'Used' }),
    reservation('2026-11-24T06:00:00Z', '2026-11-24T09:00:00Z'),
    reservation('2026-11-26T06:00:00Z', '2026-11-26T09:00:00Z'),
    reservation('2026-11-26T09:00:00Z', '2026-11-26T12:00:00Z'),
    serviceWindow('2026-11-26T23:00:00Z', '2026-11-27T23:00:00Z'), // all of Friday
  ];
  const slots = overlayReservations(expandWeek(laundry, '2026-W48', SE), list, { now });

  it('counts states and shares, leaving maintenance out of the capacity', () => {
    const stats = weekOccupancy(slots);
    expect(stats).toMatchObject({ total: 35, maintenance: 5, used: 1, booked: 3, capacity: 30, reserved: 4 });
    expect(stats.share).toBeCloseTo(4 / 30);
    // Not ended: Wed 10:00 onwards (4) + Thu (5) + Sat + Sun (10) = 19, of which 2 booked.
    expect(stats.upcomingCapacity).toBe(19);
    expect(stats.upcomingReserved).toBe(2);
    expect(stats.upcomingShare).toBeCloseTo(2 / 19);
    expect(stats.past + stats.free + stats.booked + stats.used + stats.maintenance).toBe(35);
  });

  it('has no share without capacity', () => {
    expect(weekOccupancy([])).toMatchObject({ share: null, upcomingShare: null, total: 0 });
    const closed = overlayReservations(expandWeek(daily([360, 180]), '2026-W48', SE), [serviceWindow('2026-11-01T00:00:00Z', '2026-12-31T00:00:00Z')], {
      now,
    });
    expect(weekOccupancy(closed)).toMatchObject({ maintenance: 7, share: null });
  });

  it('works per resource, matching reservations by resourceId', () => {
    const result = occupancyByResourceWeek({
      resources: [
        { id: 'R1', schedule: laundry },
        { id: 'R2', schedule: daily([360, 180]) },
        { id: 'R3', schedule: [] },
      ],
      reservations: [...list, reservation('2026-11-28T06:00:00Z', '2026-11-28T09:00:00Z', { resourceId: 'R2' })],
      week: '2026-W48',
      timeZone: SE,
      now,
    });
    expect(result.map((r) => [r.resourceId, r.weekKey, r.stats.total, r.stats.reserved])).toEqual([
      ['R1', '2026-W48', 35, 4],
      ['R2', '2026-W48', 7, 1],
      ['R3', '2026-W48', 0, 0],
    ]);
    expect(result[1]!.stats.share).toBeCloseTo(1 / 7);
    expect(result[2]!.stats.share).toBeNull();
  });
});

describe('occupancyHeatmap', () => {
  // Monday 15 February 2027, 12:00 UTC: the 8-week window (from 21 December) has no DST change.
  const now = at('2027-02-15T12:00:00Z');
  const cell = (cells: HeatmapCell[], weekday: number, minute: number) => cells.find((c) => c.weekday === weekday && c.minute === minute);

  /** Books the 07:00–10:00 local slot (06:00 UTC) on every Tuesday of the window. */
  function tuesdays(resourceId = 'R1'): ScheduleReservation[] {
    const out: ScheduleReservation[] = [];
    for (let day = at('2026-12-22T06:00:00Z'); day < now; day += 7 * DAY) {
      out.push(reservation(iso(day), iso(day + 3 * 3_600_000), { resourceId }));
    }
    return out;
  }

  it('gives the booking rate per weekday and local hour with sample counts', () => {
    const map = occupancyHeatmap([{ id: 'R1', schedule: daily([360, 180]) }], tuesdays(), { now, timeZone: SE });
    expect(map).toMatchObject({ weeks: 8, bucketMinutes: 60, toMs: now, fromMs: now - 56 * DAY, minutes: [420, 480, 540] });
    expect(map.cells).toHaveLength(21);
    expect(cell(map.cells, 1, 420)).toMatchObject({ rate: 1, samples: 8, capacityMinutes: 480, reservedMinutes: 480 });
    expect(cell(map.cells, 1, 540)?.rate).toBe(1);
    expect(cell(map.cells, 0, 420)).toMatchObject({ rate: 0, samples: 8 }); // Monday 15 Feb 07:00 is in the window and ended
    expect(cell(map.cells, 3, 480)?.rate).toBe(0);
    expect(map.busiest.map((c) => [c.weekday, c.minute])).toEqual([
      [1, 420],
      [1, 480],
      [1, 540],
    ]);
    expect(map.overallRate).toBeCloseTo(8 / 56);
  });

  it('combines resources and leaves maintenance out', () => {
    const resources = [
      { id: 'R1', schedule: daily([360, 180]) },
      { id: 'R2', schedule: daily([360, 180]) },
    ];
    const list = [...tuesdays('R1'), serviceWindow('2027-02-01T00:00:00Z', '2027-02-08T00:00:00Z', { resourceId: 'R2' })];
    const map = occupancyHeatmap(resources, list, { now, timeZone: SE });
    // Tuesday: R1 booked 8 times, R2 free 7 times (one week under maintenance).
    expect(cell(map.cells, 1, 420)).toMatchObject({ samples: 15, rate: 8 / 15 });
    expect(cell(map.cells, 4, 420)).toMatchObject({ samples: 15, rate: 0 });
  });

  it('spreads 90-minute slots over the hours they cover', () => {
    const map = occupancyHeatmap([{ id: 'R1', schedule: daily([600, 90]) }], [], { now, timeZone: SE }); // 11:00–12:30 local
    expect(map.minutes).toEqual([660, 720]);
    expect(cell(map.cells, 2, 660)?.capacityMinutes).toBe(8 * 60);
    expect(cell(map.cells, 2, 720)?.capacityMinutes).toBe(8 * 30);
    expect(map.busiest).toEqual([]);
  });

  it('puts the part of a slot after midnight on the next weekday', () => {
    // Monday 22:00 UTC + 3 h = Monday 23:00 – Tuesday 02:00 local.
    const schedule = [[[1320, 180]], [], [], [], [], [], []];
    const list: ScheduleReservation[] = [reservation('2027-02-08T22:00:00Z', '2027-02-09T01:00:00Z')];
    const map = occupancyHeatmap([{ id: 'R1', schedule }], list, { now, timeZone: SE });
    expect(map.minutes).toEqual([1380, 0, 60]); // evening first, then past midnight
    expect(map.cells.slice(0, 7).every((c) => c.minute === 1380)).toBe(true);
    expect(cell(map.cells, 0, 1380)).toMatchObject({ samples: 8, rate: 1 / 8 });
    expect(cell(map.cells, 1, 0)).toMatchObject({ samples: 8, rate: 1 / 8 });
    expect(cell(map.cells, 1, 1380)?.rate).toBeNull(); // nothing on Tuesday 23:00
  });

  it('follows slots to their local hour across a DST change', () => {
    // Window 6 Feb – 3 Apr 2027 holds the 28 March switch: 06:00 UTC is 07:00 before, 08:00 after.
    const map = occupancyHeatmap([{ id: 'R1', schedule: daily([360, 60]) }], [], { now: at('2027-04-03T12:00:00Z'), timeZone: SE });
    expect(map.minutes).toEqual([420, 480]);
    const samples = map.cells.reduce((sum, c) => sum + c.samples, 0);
    expect(samples).toBe(56); // every occurrence counted once
    expect(cell(map.cells, 6, 480)?.samples).toBe(1); // the only summer-time Sunday in the window
  });

  it('only counts slots that have ended, inside the window', () => {
    const map = occupancyHeatmap([{ id: 'R1', schedule: daily([360, 180]) }], [], { now: at('2027-02-15T07:00:00Z'), timeZone: SE, weeks: 1 });
    // 8 Feb 07:00 – 15 Feb 07:00 UTC: Tue–Sun have ended, Monday 15 Feb is still running and 8 Feb started before the window.
    expect(cell(map.cells, 0, 420)?.samples).toBe(0);
    expect(cell(map.cells, 1, 420)?.samples).toBe(1);
  });

  it('rejects bad options', () => {
    expect(() => occupancyHeatmap([], [], { now, timeZone: SE, weeks: 0 })).toThrow(RangeError);
    expect(() => occupancyHeatmap([], [], { now, timeZone: SE, bucketMinutes: 7 })).toThrow(RangeError);
    expect(() => occupancyHeatmap([], [], { now, timeZone: 'Nowhere/Land' })).toThrow(/Unknown time zone/);
    expect(occupancyHeatmap([], [], { now, timeZone: SE })).toMatchObject({ cells: [], minutes: [], overallRate: null });
  });
});
