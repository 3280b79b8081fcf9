import { activationWindowOf, wasReleased } from '@/lib/booking-rules/group-rules';
import { expandRange, instantOfWallTime } from '@/lib/schedule/expand';
import type { ScheduleBasis, WeekScheduleInput } from '@/lib/schedule/types';
import { wallClock } from '@/lib/schedule/zoned';
import type { PortfolioUsageRow } from '@/lib/mirror/store';
import type { OccupancyFigures, ReportCounts } from './compute';

/**
 * The portfolio overview's arithmetic (issue 49): pure, no I/O. The database sums each system's
 * bookings per room and slot class (lib/mirror/store.ts readPortfolioUsage); the capacity comes
 * from the rooms' schedules here. The definitions are the report's (lib/reports/compute.ts), so a
 * system's figures here are its report's figures:
 *
 * - Slot time: the rooms' schedule slots clipped to the period (a slot may start the day before),
 *   less maintenance (reservations owned by `Service`). Booked share: booked ÷ bookable slot time.
 * - Bookings and no-shows: as countBooking — `Unused` bookings by users or groups that had ended,
 *   or that the service released (not activated within the room group's window), remembered ones
 *   the upstream no longer lists included.
 * - Evening / weekend: slots starting at EVENING_FROM_MINUTE or later on the local clock / on a
 *   local Saturday or Sunday, and the bookings starting in them; their booked share is the booked
 *   time of those bookings ÷ the bookable time of those slots.
 * - An idle room: no booking at all in the period.
 *
 * The sums equal the report's interval arithmetic when bookings sit in slots and overlap neither
 * each other nor maintenance — what the service guarantees, since it books slots and refuses a
 * taken one; portfolio.test.ts and portfolio-load.test.ts check both agree.
 */

/** Evening slots start at 17:00 local time or later. */
export const EVENING_FROM_MINUTE = 17 * 60;
/** How many systems each ranking lists. */
export const PORTFOLIO_TOP = 10;
/** The trend's lengths in months (the current month so far is the last). */
export const TREND_MONTH_CHOICES = [6, 12] as const;
export type TrendMonths = (typeof TREND_MONTH_CHOICES)[number];

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** A room's slot time in a span, milliseconds: all of it, and the evening and weekend slots'. */
export interface Capacity {
  slotMs: number;
  eveningMs: number;
  weekendMs: number;
}

/** The schedule's slot time in [startMs, endMs), expanded exactly as computeReport expands it. */
export function slotCapacity(schedule: WeekScheduleInput, startMs: number, endMs: number, timeZone: string, basis: ScheduleBasis): Capacity {
  const out: Capacity = { slotMs: 0, eveningMs: 0, weekendMs: 0 };
  for (const slot of expandRange(schedule, startMs - DAY_MS, endMs, timeZone, basis)) {
    const ms = Math.min(slot.endMs, endMs) - Math.max(slot.startMs, startMs);
    if (!(ms > 0)) continue;
    out.slotMs += ms;
    if (slot.startMinute >= EVENING_FROM_MINUTE) out.eveningMs += ms;
    if (slot.dayIndex >= 5) out.weekendMs += ms;
  }
  return out;
}

/** One group of sums the database answers: readPortfolioUsage's row, without the keys the loader groups by. */
export type UsageInput = Omit<PortfolioUsageRow, 'deviceId' | 'bucket'>;

/** Rule groups' activation windows (lib/booking-rules), as activationWindowOf reads them. */
export type ActivationRules = Parameters<typeof activationWindowOf>[1];

/** A slot class's bookable and booked minutes and booked share (null without such slot time). */
export interface ClassFigures {
  slotMinutes: number;
  bookedMinutes: number;
  share: number | null;
}

export interface PortfolioFigures extends OccupancyFigures {
  /** The evening slots, and the weekend slots. */
  evening: ClassFigures;
  weekend: ClassFigures;
}

export interface PortfolioRoom extends PortfolioFigures {
  resourceId: string;
  name: string;
  /** No booking at all in the period. */
  idle: boolean;
}

export interface PortfolioRoomInput {
  id: string;
  name: string;
  /** The room's slot time in the period (zero when the service lists no schedule for it). */
  capacity: Capacity;
}

export interface SystemFigures {
  total: PortfolioFigures;
  rooms: PortfolioRoom[];
  idleRooms: number;
}

export interface MonthFigures {
  slotMinutes: number;
  bookedMinutes: number;
  bookedShare: number | null;
  bookings: number;
  pastBookings: number;
  noShows: number;
  noShowRate: number | null;
}

const rate = (part: number, whole: number): number | null => (whole > 0 ? part / whole : null);
const emptyCounts = (): ReportCounts => ({ bookings: 0, used: 0, unused: 0, unknownStatus: 0, upcoming: 0, pastBookings: 0, noShows: 0, noShowRate: null });

interface Tally {
  counts: ReportCounts;
  bookedMs: number;
  maintenanceMs: number;
  evening: { bookedMs: number; maintenanceMs: number };
  weekend: { bookedMs: number; maintenanceMs: number };
}

const newTally = (): Tally => ({ counts: emptyCounts(), bookedMs: 0, maintenanceMs: 0, evening: { bookedMs: 0, maintenanceMs: 0 }, weekend: { bookedMs: 0, maintenanceMs: 0 } });

function addUsage(into: Tally, u: UsageInput, rules: ActivationRules, nowMs: number): void {
  const c = into.counts;
  c.bookings += u.bookings;
  c.used += u.used;
  c.unused += u.unused;
  c.unknownStatus += u.unknownStatus;
  c.upcoming += u.upcoming;
  c.pastBookings += u.pastBookings;
  c.noShows += u.noShows;
  // A started booking nobody activated in time was released: over, and (by a resident) a no-show.
  for (const o of u.ongoing) {
    if (!wasReleased({ startMs: o.startMs, endMs: o.endMs, status: 'Unused' }, activationWindowOf(o.resourceId.toLowerCase(), rules), nowMs)) continue;
    c.upcoming--;
    if (o.personal) {
      c.pastBookings++;
      c.noShows++;
    }
  }
  into.bookedMs += u.bookedMs;
  into.maintenanceMs += u.maintenanceMs;
  if (u.evening) {
    into.evening.bookedMs += u.bookedMs;
    into.evening.maintenanceMs += u.maintenanceMs;
  }
  if (u.weekend) {
    into.weekend.bookedMs += u.bookedMs;
    into.weekend.maintenanceMs += u.maintenanceMs;
  }
}

interface Ms {
  slotMs: number;
  bookedMs: number;
  maintenanceMs: number;
  eveningSlotMs: number;
  eveningBookedMs: number;
  weekendSlotMs: number;
  weekendBookedMs: number;
}

function figuresOf(ms: Ms, counts: ReportCounts): PortfolioFigures {
  return {
    slotMinutes: Math.round(ms.slotMs / MINUTE_MS),
    bookedMinutes: Math.round(ms.bookedMs / MINUTE_MS),
    maintenanceMinutes: Math.round(ms.maintenanceMs / MINUTE_MS),
    bookedShare: rate(ms.bookedMs, ms.slotMs),
    counts: { ...counts, noShowRate: rate(counts.noShows, counts.pastBookings) },
    evening: { slotMinutes: Math.round(ms.eveningSlotMs / MINUTE_MS), bookedMinutes: Math.round(ms.eveningBookedMs / MINUTE_MS), share: rate(ms.eveningBookedMs, ms.eveningSlotMs) },
    weekend: { slotMinutes: Math.round(ms.weekendSlotMs / MINUTE_MS), bookedMinutes: Math.round(ms.weekendBookedMs / MINUTE_MS), share: rate(ms.weekendBookedMs, ms.weekendSlotMs) },
  };
}

/**
 * One system's figures for the period: each room's and their sum. `usage` holds the period's
 * sums per room and slot class; rows of rooms not in `rooms` are not counted (as a report counts
 * only its rooms).
 */
export function computeSystemFigures(rooms: readonly PortfolioRoomInput[], usage: readonly UsageInput[], rules: ActivationRules, nowMs: number): SystemFigures {
  const byRoom = new Map<string, Tally>();
  for (const u of usage) {
    let tally = byRoom.get(u.resourceId);
    if (!tally) byRoom.set(u.resourceId, (tally = newTally()));
    addUsage(tally, u, rules, nowMs);
  }
  const sum: Ms = { slotMs: 0, bookedMs: 0, maintenanceMs: 0, eveningSlotMs: 0, eveningBookedMs: 0, weekendSlotMs: 0, weekendBookedMs: 0 };
  const counts = emptyCounts();
  let idleRooms = 0;
  const out = rooms.map((room): PortfolioRoom => {
    const t = byRoom.get(room.id) ?? newTally();
    const ms: Ms = {
      slotMs: room.capacity.slotMs - t.maintenanceMs,
      bookedMs: t.bookedMs,
      maintenanceMs: t.maintenanceMs,
      eveningSlotMs: room.capacity.eveningMs - t.evening.maintenanceMs,
      eveningBookedMs: t.evening.bookedMs,
      weekendSlotMs: room.capacity.weekendMs - t.weekend.maintenanceMs,
      weekendBookedMs: t.weekend.bookedMs,
    };
    for (const key of Object.keys(sum) as (keyof Ms)[]) sum[key] += ms[key];
    for (const key of ['bookings', 'used', 'unused', 'unknownStatus', 'upcoming', 'pastBookings', 'noShows'] as const) counts[key] += t.counts[key];
    const idle = t.counts.bookings === 0;
    if (idle) idleRooms++;
    return { resourceId: room.id, name: room.name, idle, ...figuresOf(ms, t.counts) };
  });
  return { total: figuresOf(sum, counts), rooms: out, idleRooms };
}

/** One system's month of the trend: its slot time then (every room's), and the month's sums. */
export function computeMonth(slotMs: number, usage: readonly UsageInput[], rules: ActivationRules, nowMs: number): MonthFigures {
  const t = newTally();
  for (const u of usage) addUsage(t, u, rules, nowMs);
  const bookable = slotMs - t.maintenanceMs;
  return {
    slotMinutes: Math.round(bookable / MINUTE_MS),
    bookedMinutes: Math.round(t.bookedMs / MINUTE_MS),
    bookedShare: rate(t.bookedMs, bookable),
    bookings: t.counts.bookings,
    pastBookings: t.counts.pastBookings,
    noShows: t.counts.noShows,
    noShowRate: rate(t.counts.noShows, t.counts.pastBookings),
  };
}

/** A local calendar month of the trend: `yyyy-MM`, and its span (the current month: up to the end of today). */
export interface TrendMonth {
  key: string;
  startMs: number;
  endMs: number;
}

/** The last `months` local months in `timeZone`, oldest first; the last is the current month so far (as 'month-to-date'). */
export function trendMonths(months: number, timeZone: string, nowMs: number): TrendMonth[] {
  const today = wallClock(nowMs, timeZone);
  const current = today.year * 12 + (today.month - 1);
  const startOf = (index: number) => instantOfWallTime(Math.floor(index / 12), index % 12, 1, 0, timeZone);
  const out: TrendMonth[] = [];
  for (let k = months - 1; k >= 0; k--) {
    const index = current - k;
    const endMs = k === 0 ? instantOfWallTime(today.year, today.month - 1, today.day + 1, 0, timeZone) : startOf(index + 1);
    out.push({ key: `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`, startMs: startOf(index), endMs });
  }
  return out;
}

/** A system as the portfolio lists it: its figures, or "not loaded yet" (no complete read of its mirror yet: a state, not a failure). */
export interface PortfolioSystemHead {
  deviceId: string;
  name: string;
  timeZone: string;
  area: string | null;
  city: string | null;
}

export type PortfolioSystem =
  | { system: PortfolioSystemHead; status: 'loaded'; figures: SystemFigures; months: MonthFigures[] }
  | { system: PortfolioSystemHead; status: 'notLoaded' };

export type LoadedSystem = Extract<PortfolioSystem, { status: 'loaded' }>;

export interface PortfolioRankings {
  fullest: LoadedSystem[];
  emptiest: LoadedSystem[];
  fullestEvenings: LoadedSystem[];
  highestNoShows: LoadedSystem[];
}

export interface PortfolioSummary {
  total: PortfolioFigures;
  loaded: number;
  notLoaded: number;
  rooms: number;
  idleRooms: number;
  rankings: PortfolioRankings;
  /** The loaded systems' months summed, oldest first (keys as the first system's zone names them). */
  trend: (MonthFigures & { key: string })[];
}

const byName = (a: LoadedSystem, b: LoadedSystem) => a.system.name.localeCompare(b.system.name) || a.system.deviceId.localeCompare(b.system.deviceId);

/** Systems ranked by a share, highest first (`ascending`: lowest first); systems without the share are left out. */
function rank(list: readonly LoadedSystem[], share: (s: LoadedSystem) => number | null, ascending = false): LoadedSystem[] {
  return list
    .filter((s) => share(s) !== null)
    .sort((a, b) => (ascending ? share(a)! - share(b)! : share(b)! - share(a)!) || byName(a, b))
    .slice(0, PORTFOLIO_TOP);
}

/** The portfolio's sum, rankings and trend over its loaded systems. */
export function summarisePortfolio(systems: readonly PortfolioSystem[], monthKeys: readonly string[]): PortfolioSummary {
  const loaded = systems.filter((s): s is LoadedSystem => s.status === 'loaded');
  const counts = emptyCounts();
  const sum: Ms = { slotMs: 0, bookedMs: 0, maintenanceMs: 0, eveningSlotMs: 0, eveningBookedMs: 0, weekendSlotMs: 0, weekendBookedMs: 0 };
  let rooms = 0;
  let idleRooms = 0;
  for (const s of loaded) {
    const f = s.figures.total;
    // Summed from the systems' rounded minutes: the sum's shares differ from exact ones by far under 0.1 %.
    sum.slotMs += f.slotMinutes * MINUTE_MS;
    sum.bookedMs += f.bookedMinutes * MINUTE_MS;
    sum.maintenanceMs += f.maintenanceMinutes * MINUTE_MS;
    sum.eveningSlotMs += f.evening.slotMinutes * MINUTE_MS;
    sum.eveningBookedMs += f.evening.bookedMinutes * MINUTE_MS;
    sum.weekendSlotMs += f.weekend.slotMinutes * MINUTE_MS;
    sum.weekendBookedMs += f.weekend.bookedMinutes * MINUTE_MS;
    for (const key of ['bookings', 'used', 'unused', 'unknownStatus', 'upcoming', 'pastBookings', 'noShows'] as const) counts[key] += f.counts[key];
    rooms += s.figures.rooms.length;
    idleRooms += s.figures.idleRooms;
  }
  const trend = monthKeys.map((key, i) => {
    let slotMinutes = 0;
    let bookedMinutes = 0;
    let bookings = 0;
    let pastBookings = 0;
    let noShows = 0;
    for (const s of loaded) {
      const m = s.months[i];
      if (!m) continue;
      slotMinutes += m.slotMinutes;
      bookedMinutes += m.bookedMinutes;
      bookings += m.bookings;
      pastBookings += m.pastBookings;
      noShows += m.noShows;
    }
    return { key, slotMinutes, bookedMinutes, bookedShare: rate(bookedMinutes, slotMinutes), bookings, pastBookings, noShows, noShowRate: rate(noShows, pastBookings) };
  });
  return {
    total: figuresOf(sum, counts),
    loaded: loaded.length,
    notLoaded: systems.length - loaded.length,
    rooms,
    idleRooms,
    rankings: {
      fullest: rank(loaded, (s) => s.figures.total.bookedShare),
      emptiest: rank(loaded, (s) => s.figures.total.bookedShare, true),
      fullestEvenings: rank(loaded, (s) => s.figures.total.evening.share),
      highestNoShows: rank(loaded, (s) => s.figures.total.counts.noShowRate),
    },
    trend,
  };
}
