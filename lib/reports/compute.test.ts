import { describe, expect, it } from 'vitest';
import { instantOfWallTime } from '@/lib/schedule/expand';
import { computeReport, mergeIntervals, sumFigures, weekdayHourCells, type ReportInput, type ReportReservationInput } from './compute';

const TZ = 'Europe/Stockholm';
/** An instant by Stockholm wall clock (month 1-based). */
const at = (y: number, m: number, d: number, h: number, min = 0) => instantOfWallTime(y, m - 1, d, h * 60 + min, TZ);
const every = (slots: [number, number][]) => Array.from({ length: 7 }, () => slots);

let nextId = 0;
function res(ownerType: string, status: string, startMs: number, endMs: number, owner: string | null = 'g1', resourceId = 'room-a'): ReportReservationInput {
  nextId++;
  return {
    id: `r${nextId}`,
    resourceId,
    ownerType,
    ownerId: owner,
    userId: ownerType === 'User' ? owner : null,
    status,
    startMs,
    endMs,
  };
}

function input(over: Partial<ReportInput>): ReportInput {
  return {
    startMs: at(2026, 3, 2, 0),
    endMs: at(2026, 3, 9, 0),
    nowMs: at(2026, 3, 5, 12),
    timeZone: TZ,
    basis: 'local',
    rooms: [{ id: 'room-a', name: 'Laundry A', schedule: every([[420, 180]]) }],
    reservations: [],
    apartments: [
      { groupId: 'g1', apartment: '1001', name: 'Lgh 1001' },
      { groupId: 'g2', apartment: '1002', name: 'Lgh 1002' },
    ],
    userGroup: new Map([['u1', 'g2']]),
    portalBookings: [],
    ...over,
  };
}

const cell = (report: { weekdayHour: number[][] }, weekday: number, hour: number) => report.weekdayHour[weekday]![hour];
const cellsSet = (report: { weekdayHour: number[][] }) =>
  report.weekdayHour.flatMap((hours, d) => hours.flatMap((n, h) => (n > 0 ? [`${d}:${h}=${n}`] : [])));

describe('computeReport: a week of 07:00–10:00 slots (Mon 2 – Sun 8 March 2026, now Thu 12:00)', () => {
  const report = computeReport(
    input({
      reservations: [
        res('Group', 'Used', at(2026, 3, 2, 7), at(2026, 3, 2, 10)), // Mon, used
        res('User', 'Unused', at(2026, 3, 3, 7), at(2026, 3, 3, 10), 'u1'), // Tue, past Unused: a no-show (apartment 1002)
        res('Service', 'Unused', at(2026, 3, 4, 7), at(2026, 3, 4, 10), null), // Wed, maintenance
        res('Group', 'Unused', at(2026, 3, 6, 7), at(2026, 3, 6, 10)), // Fri, future Unused: not a no-show
      ],
    }),
  );

  it('takes maintenance out of slot time and never counts it as a booking', () => {
    // 7 slots × 180 min = 1260, minus Wednesday's 180 under maintenance.
    expect(report.total.slotMinutes).toBe(1080);
    expect(report.total.maintenanceMinutes).toBe(180);
    expect(report.total.bookedMinutes).toBe(540);
    expect(report.total.bookedShare).toBe(0.5);
    expect(report.total.counts.bookings).toBe(3);
    expect(cell(report, 2, 7)).toBe(0);
  });

  it('counts a past Unused booking as a no-show and a future one not', () => {
    expect(report.total.counts).toEqual({ bookings: 3, used: 1, unused: 2, unknownStatus: 0, upcoming: 1, pastBookings: 2, noShows: 1, noShowRate: 0.5 });
    expect(report.rooms[0]!.counts.noShows).toBe(1);
  });

  it('places bookings in apartments, users through their group, and ranks the no-shows', () => {
    expect(report.apartments).toEqual([
      { groupId: 'g1', apartment: '1001', name: 'Lgh 1001', bookings: 2, pastBookings: 1, noShows: 0, noShowRate: 0 },
      { groupId: 'g2', apartment: '1002', name: 'Lgh 1002', bookings: 1, pastBookings: 1, noShows: 1, noShowRate: 1 },
    ]);
    expect(report.topNoShows.map((a) => [a.apartment, a.noShows, a.noShowRate])).toEqual([['1002', 1, 1]]);
    expect(report.unplacedBookings).toBe(0);
  });

  it('counts bookings per weekday and hour', () => {
    expect(cellsSet(report)).toEqual(['0:7=1', '0:8=1', '0:9=1', '1:7=1', '1:8=1', '1:9=1', '4:7=1', '4:8=1', '4:9=1']);
  });

  it('ranks slot times by booked share, leaving out the one with no bookable time', () => {
    expect(report.busiest.map((s) => [s.weekday, s.startLabel, s.endLabel, s.share])).toEqual([
      [0, '07:00', '10:00', 1],
      [1, '07:00', '10:00', 1],
      [4, '07:00', '10:00', 1],
      [3, '07:00', '10:00', 0],
      [5, '07:00', '10:00', 0],
    ]);
    expect(report.quietest.map((s) => s.weekday)).toEqual([3, 5, 6, 0, 1]);
    expect(report.quietest.some((s) => s.weekday === 2)).toBe(false);
    expect(report.rooms[0]!.busiest?.weekday).toBe(0);
    expect(report.rooms[0]!.quietest?.weekday).toBe(6);
  });
});

describe('computeReport: edge cases', () => {
  it('excludes only the maintained part of a slot, also when a booking overlaps it', () => {
    const report = computeReport(
      input({
        startMs: at(2026, 3, 5, 0),
        endMs: at(2026, 3, 6, 0),
        reservations: [res('Service', 'Unknown', at(2026, 3, 5, 7), at(2026, 3, 5, 8), null), res('Group', 'Used', at(2026, 3, 5, 7), at(2026, 3, 5, 10))],
      }),
    );
    expect(report.total.slotMinutes).toBe(120);
    expect(report.total.bookedMinutes).toBe(120);
    expect(report.total.bookedShare).toBe(1);
    expect(report.total.counts.bookings).toBe(1);
  });

  it('splits a midnight-crossing booking across days and clips one reaching before the period', () => {
    // Slots 22:00–02:00; the period is Mon 2 and Tue 3 March.
    const report = computeReport(
      input({
        startMs: at(2026, 3, 2, 0),
        endMs: at(2026, 3, 4, 0),
        nowMs: at(2026, 3, 10, 0),
        rooms: [{ id: 'room-a', name: 'A', schedule: every([[1320, 240]]) }],
        reservations: [
          res('Group', 'Used', at(2026, 3, 1, 22), at(2026, 3, 2, 2)), // Sun 22–Mon 02: only Mon 00–02 is inside
          res('Group', 'Used', at(2026, 3, 2, 23), at(2026, 3, 3, 2)), // Mon 23–Tue 02
          res('Group', 'Used', at(2026, 3, 4, 0), at(2026, 3, 4, 2)), // Wed 00–02: after the period
        ],
      }),
    );
    // Slot time: Sun's slot clipped to 120, Mon's 240, Tue's clipped to 120.
    expect(report.total.slotMinutes).toBe(480);
    expect(report.total.bookedMinutes).toBe(120 + 180);
    expect(report.total.bookedShare).toBe(0.625);
    expect(report.total.counts.bookings).toBe(2);
    expect(cellsSet(report)).toEqual(['0:0=1', '0:1=1', '0:23=1', '1:0=1', '1:1=1']);
  });

  it('reads hours off the wall clock on DST days', () => {
    // Sunday 29 March 2026: Stockholm skips 02:00–03:00. A 00:00–06:00 local slot lasts 5 hours.
    const spring = computeReport(
      input({
        startMs: at(2026, 3, 29, 0),
        endMs: at(2026, 3, 30, 0),
        nowMs: at(2026, 4, 1, 0),
        rooms: [{ id: 'room-a', name: 'A', schedule: every([[0, 360]]) }],
        reservations: [res('Group', 'Used', at(2026, 3, 29, 1), at(2026, 3, 29, 4))],
      }),
    );
    expect(spring.total.slotMinutes).toBe(300);
    expect(spring.total.bookedMinutes).toBe(120);
    expect(spring.total.bookedShare).toBe(0.4);
    expect(cellsSet(spring)).toEqual(['6:1=1', '6:3=1']);

    // Sunday 25 October 2026: 02:00–03:00 happens twice; the slot lasts 7 hours, the booking's hour 02 counts once.
    const autumn = computeReport(
      input({
        startMs: at(2026, 10, 25, 0),
        endMs: at(2026, 10, 26, 0),
        nowMs: at(2026, 11, 1, 0),
        rooms: [{ id: 'room-a', name: 'A', schedule: every([[0, 360]]) }],
        reservations: [res('Group', 'Used', at(2026, 10, 25, 1), at(2026, 10, 25, 4))],
      }),
    );
    expect(autumn.total.slotMinutes).toBe(420);
    expect(autumn.total.bookedMinutes).toBe(240);
    expect(cellsSet(autumn)).toEqual(['6:1=1', '6:2=1', '6:3=1']);
  });

  it('labels UTC-basis slots by the local clock', () => {
    const report = computeReport(
      input({
        basis: 'utc',
        rooms: [{ id: 'room-a', name: 'A', schedule: every([[360, 180]]) }],
        reservations: [res('Group', 'Used', Date.UTC(2026, 2, 2, 6), Date.UTC(2026, 2, 2, 9))],
      }),
    );
    expect(report.busiest[0]).toMatchObject({ weekday: 0, startLabel: '07:00', endLabel: '10:00', share: 1, occurrences: 1, slotMinutes: 180 });
    expect(report.total.slotMinutes).toBe(7 * 180);
  });

  it('counts unplaced owners and portal bookings per manager', () => {
    const report = computeReport(
      input({
        reservations: [
          res('User', 'Used', at(2026, 3, 2, 7), at(2026, 3, 2, 10), 'u-without-group'),
          res('Unknown', 'Unused', at(2026, 3, 3, 7), at(2026, 3, 3, 10), 'x'),
        ],
        portalBookings: [
          { requestedBy: 'anna@example.se', requestedByName: 'Anna' },
          { requestedBy: 'bo@example.se', requestedByName: null },
          { requestedBy: 'anna@example.se', requestedByName: 'Anna' },
        ],
      }),
    );
    expect(report.unplacedBookings).toBe(2);
    expect(report.apartments).toEqual([]);
    // An Unknown owner's past Unused booking is a booking but not a no-show.
    expect(report.total.counts).toMatchObject({ bookings: 2, unused: 1, pastBookings: 1, noShows: 0 });
    expect(report.managers).toEqual([
      { requestedBy: 'anna@example.se', name: 'Anna', email: '', bookings: 2 },
      { requestedBy: 'bo@example.se', name: 'bo@example.se', email: '', bookings: 1 },
    ]);
    expect(report.portalBookings).toBe(3);
  });

  it('has no share without slot time', () => {
    const report = computeReport(input({ rooms: [{ id: 'room-a', name: 'A', schedule: [] }] }));
    expect(report.total.bookedShare).toBeNull();
    expect(report.total.counts.noShowRate).toBeNull();
    expect(report.busiest).toEqual([]);
  });
});

describe('helpers', () => {
  it('merges intervals', () => {
    expect(mergeIntervals([[5, 7], [1, 3], [2, 4], [7, 8], [9, 9]])).toEqual([[1, 4], [5, 8]]);
  });

  it('finds the hours a span touches, each once', () => {
    expect(weekdayHourCells(at(2026, 3, 2, 9, 30), at(2026, 3, 2, 10, 0), TZ)).toEqual([9]);
    expect(weekdayHourCells(at(2026, 3, 8, 23, 30), at(2026, 3, 9, 0, 30), TZ)).toEqual([6 * 24 + 23, 0]);
  });

  it('sums systems', () => {
    const a = computeReport(input({ reservations: [res('Group', 'Used', at(2026, 3, 2, 7), at(2026, 3, 2, 10))] }));
    const sum = sumFigures([a.total, a.total]);
    expect(sum.slotMinutes).toBe(2 * 1260);
    expect(sum.bookedMinutes).toBe(360);
    expect(sum.counts.bookings).toBe(2);
  });
});
