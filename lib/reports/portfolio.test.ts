import { describe, expect, it } from 'vitest';
import { instantOfWallTime } from '@/lib/schedule/expand';
import {
  PORTFOLIO_TOP,
  computeMonth,
  computeSystemFigures,
  slotCapacity,
  summarisePortfolio,
  trendMonths,
  type PortfolioSystem,
  type SystemFigures,
  type UsageInput,
} from './portfolio';

const H = 3_600_000;
/** Monday 2 March 2026 00:00 UTC, and a week on. */
const MON = Date.UTC(2026, 2, 2);
const WEEK = 7 * 24 * H;
/** Every day 07:00–10:00 and 18:00–21:00 (UTC minutes). */
const twoSlots = Array.from({ length: 7 }, () => [
  [420, 180],
  [1080, 180],
]);

const usage = (over: Partial<UsageInput>): UsageInput => ({
  resourceId: 'room-a',
  evening: false,
  weekend: false,
  bookedMs: 0,
  maintenanceMs: 0,
  bookings: 0,
  used: 0,
  unused: 0,
  unknownStatus: 0,
  upcoming: 0,
  pastBookings: 0,
  noShows: 0,
  ongoing: [],
  ...over,
});

describe('slot capacity', () => {
  it('counts a week of two daily 3-hour slots: 42 h, 21 h of them evenings (18:00), 12 h on the weekend', () => {
    expect(slotCapacity(twoSlots, MON, MON + WEEK, 'UTC', 'utc')).toEqual({ slotMs: 42 * H, eveningMs: 21 * H, weekendMs: 12 * H });
  });

  it('clips slots to the period, one starting the day before included', () => {
    // 23:00–02:00 every day; the period starts Monday 00:00: Sunday's slot gives its last 2 hours.
    const late = Array.from({ length: 7 }, () => [[1380, 180]]);
    const day = slotCapacity(late, MON, MON + 24 * H, 'UTC', 'utc');
    // Sunday 23:00 (a weekend evening slot) reaches 2 h into Monday; Monday 23:00 gives 1 h.
    expect(day).toEqual({ slotMs: 3 * H, eveningMs: 3 * H, weekendMs: 2 * H });
  });

  it('reads evenings and weekends on the local clock: 16:00 UTC is 17:00 in Stockholm in winter', () => {
    const one = [[], [], [], [], [], [[960, 60]], []]; // Saturday 16:00 UTC
    expect(slotCapacity(one, MON, MON + WEEK, 'Europe/Stockholm', 'utc')).toEqual({ slotMs: H, eveningMs: H, weekendMs: H });
    expect(slotCapacity(one, MON, MON + WEEK, 'UTC', 'utc')).toEqual({ slotMs: H, eveningMs: 0, weekendMs: H });
  });
});

describe('a system’s figures', () => {
  const capacity = slotCapacity(twoSlots, MON, MON + WEEK, 'UTC', 'utc');
  const rooms = [
    { id: 'room-a', name: 'Laundry A', capacity },
    { id: 'room-b', name: 'Laundry B', capacity },
  ];
  const rows = [
    // Three weekday-morning bookings: two used, one a no-show.
    usage({ bookedMs: 9 * H, bookings: 3, used: 2, unused: 1, pastBookings: 3, noShows: 1 }),
    // A Saturday evening: one used booking, and a maintenance window of 3 h.
    usage({ evening: true, weekend: true, bookedMs: 3 * H, maintenanceMs: 3 * H, bookings: 1, used: 1, pastBookings: 1 }),
    // A room the system does not list: not counted.
    usage({ resourceId: 'gone-room', bookedMs: 3 * H, bookings: 1, used: 1, pastBookings: 1 }),
  ];

  it('counts occupancy, evening and weekend shares, no-shows and idle rooms by hand', () => {
    const { rooms: out, total, idleRooms } = computeSystemFigures(rooms, rows, null, MON + WEEK);
    const [a, b] = out;
    // A: 42 h of slots less 3 h maintenance = 39 h bookable, 12 h booked.
    expect(a).toMatchObject({ slotMinutes: 39 * 60, bookedMinutes: 12 * 60, maintenanceMinutes: 180, idle: false });
    expect(a!.bookedShare).toBeCloseTo(12 / 39, 10);
    // Evenings: 21 h less the 3 h maintenance, 3 h booked. Weekend: 12 h less 3 h, 3 h booked.
    expect(a!.evening).toEqual({ slotMinutes: 18 * 60, bookedMinutes: 180, share: 3 / 18 });
    expect(a!.weekend).toEqual({ slotMinutes: 9 * 60, bookedMinutes: 180, share: 3 / 9 });
    expect(a!.counts).toEqual({ bookings: 4, used: 3, unused: 1, unknownStatus: 0, upcoming: 0, pastBookings: 4, noShows: 1, noShowRate: 0.25 });
    // B: nobody booked it: idle, 0 % of its 42 h, no no-show rate.
    expect(b).toMatchObject({ idle: true, slotMinutes: 42 * 60, bookedMinutes: 0, bookedShare: 0 });
    expect(b!.counts.noShowRate).toBeNull();
    expect(idleRooms).toBe(1);
    expect(total).toMatchObject({ slotMinutes: 81 * 60, bookedMinutes: 12 * 60 });
    expect(total.bookedShare).toBeCloseTo(12 / 81, 10);
    expect(total.evening.share).toBeCloseTo(3 / 39, 10);
    expect(total.counts).toMatchObject({ bookings: 4, noShows: 1, noShowRate: 0.25 });
  });

  it('counts a started unused booking as a no-show once its room group’s activation window has passed', () => {
    const now = MON + 3 * 24 * H + 8 * H; // Thursday 08:00, inside the 07:00–10:00 slot
    const ongoing = usage({
      bookedMs: 3 * H,
      bookings: 1,
      unused: 1,
      upcoming: 1,
      ongoing: [{ resourceId: 'room-a', startMs: now - H, endMs: now + 2 * H, personal: true }],
    });
    const rules = { groups: [{ resourceIds: ['room-a'], activationMinutes: 30 }] };
    expect(computeSystemFigures(rooms, [ongoing], rules, now).total.counts).toMatchObject({ upcoming: 0, pastBookings: 1, noShows: 1, noShowRate: 1 });
    // Without a window (or before it ends) the booking has simply not happened yet.
    expect(computeSystemFigures(rooms, [ongoing], null, now).total.counts).toMatchObject({ upcoming: 1, pastBookings: 0, noShows: 0, noShowRate: null });
    expect(computeSystemFigures(rooms, [ongoing], { groups: [{ resourceIds: ['room-a'], activationMinutes: 90 }] }, now).total.counts.noShows).toBe(0);
  });

  it('sums a month: slot time less maintenance, bookings and no-shows', () => {
    const month = computeMonth(42 * H, rows.slice(0, 2), null, MON + WEEK);
    expect(month).toEqual({ slotMinutes: 39 * 60, bookedMinutes: 12 * 60, bookedShare: 12 / 39, bookings: 4, pastBookings: 4, noShows: 1, noShowRate: 0.25 });
  });
});

describe('the trend’s months', () => {
  it('are local calendar months, oldest first, the last one up to the end of today', () => {
    const zone = 'Europe/Stockholm';
    const now = instantOfWallTime(2026, 2, 15, 12 * 60, zone); // 15 March 2026, 12:00
    const months = trendMonths(6, zone, now);
    expect(months.map((m) => m.key)).toEqual(['2025-10', '2025-11', '2025-12', '2026-01', '2026-02', '2026-03']);
    expect(months[0]!.startMs).toBe(Date.parse('2025-09-30T22:00:00Z')); // summer time: UTC+2
    expect(months[4]!.endMs).toBe(months[5]!.startMs);
    expect(months[5]!.endMs).toBe(Date.parse('2026-03-15T23:00:00Z'));
    expect(trendMonths(12, zone, now)[0]!.key).toBe('2025-04');
  });
});

describe('the portfolio', () => {
  const head = (name: string) => ({ deviceId: `dev-${name}`, name, timeZone: 'UTC', area: null, city: null });
  const figures = (slotMinutes: number, bookedMinutes: number, pastBookings: number, noShows: number, eveningShare: number | null): SystemFigures => ({
    total: {
      slotMinutes,
      bookedMinutes,
      maintenanceMinutes: 0,
      bookedShare: slotMinutes > 0 ? bookedMinutes / slotMinutes : null,
      counts: { bookings: pastBookings, used: pastBookings - noShows, unused: noShows, unknownStatus: 0, upcoming: 0, pastBookings, noShows, noShowRate: pastBookings > 0 ? noShows / pastBookings : null },
      evening: { slotMinutes: 60, bookedMinutes: eveningShare === null ? 0 : eveningShare * 60, share: eveningShare },
      weekend: { slotMinutes: 0, bookedMinutes: 0, share: null },
    },
    rooms: [],
    idleRooms: bookedMinutes === 0 ? 1 : 0,
  });
  const month = { slotMinutes: 100, bookedMinutes: 50, bookedShare: 0.5, bookings: 10, pastBookings: 10, noShows: 2, noShowRate: 0.2 };
  const loaded = (name: string, f: SystemFigures): PortfolioSystem => ({ system: head(name), status: 'loaded', figures: f, months: [month, month] });
  const systems: PortfolioSystem[] = [
    loaded('Alpha', figures(1000, 800, 10, 1, 0.9)),
    loaded('Beta', figures(1000, 200, 10, 5, 0.1)),
    loaded('Gamma', figures(1000, 500, 0, 0, null)),
    { system: head('Delta'), status: 'notLoaded' },
  ];

  it('ranks the fullest, the emptiest, the fullest evenings and the highest no-show rates, leaving out systems without the figure', () => {
    const s = summarisePortfolio(systems, ['2026-01', '2026-02']);
    const names = (list: readonly PortfolioSystem[]) => list.map((x) => x.system.name);
    expect(names(s.rankings.fullest)).toEqual(['Alpha', 'Gamma', 'Beta']);
    expect(names(s.rankings.emptiest)).toEqual(['Beta', 'Gamma', 'Alpha']);
    expect(names(s.rankings.fullestEvenings)).toEqual(['Alpha', 'Beta']);
    expect(names(s.rankings.highestNoShows)).toEqual(['Beta', 'Alpha']);
    expect(s).toMatchObject({ loaded: 3, notLoaded: 1, idleRooms: 0 });
    expect(s.total).toMatchObject({ slotMinutes: 3000, bookedMinutes: 1500, bookedShare: 0.5 });
    expect(s.total.counts).toMatchObject({ pastBookings: 20, noShows: 6, noShowRate: 0.3 });
    expect(s.trend).toEqual([
      { key: '2026-01', slotMinutes: 300, bookedMinutes: 150, bookedShare: 0.5, bookings: 30, pastBookings: 30, noShows: 6, noShowRate: 0.2 },
      { key: '2026-02', slotMinutes: 300, bookedMinutes: 150, bookedShare: 0.5, bookings: 30, pastBookings: 30, noShows: 6, noShowRate: 0.2 },
    ]);
  });

  it(`lists at most ${PORTFOLIO_TOP} systems per ranking`, () => {
    const many = Array.from({ length: PORTFOLIO_TOP + 5 }, (_, i) => loaded(`S${String(i).padStart(2, '0')}`, figures(1000, i * 10, 10, 1, 0.5)));
    const s = summarisePortfolio(many, []);
    expect(s.rankings.fullest).toHaveLength(PORTFOLIO_TOP);
    expect(s.rankings.fullest[0]!.system.name).toBe(`S${PORTFOLIO_TOP + 4}`);
    // Equal no-show rates: by name.
    expect(s.rankings.highestNoShows[0]!.system.name).toBe('S00');
  });
});
