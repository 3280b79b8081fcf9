import { expandRange, type ScheduleSlot } from '@/lib/schedule/expand';
import type { ScheduleBasis, WeekScheduleInput } from '@/lib/schedule/types';
import { wallClock } from '@/lib/schedule/zoned';

/**
 * The report arithmetic: pure, no I/O, safe in the browser. Everything is counted inside the
 * period's half-open span [startMs, endMs) in the system's time zone:
 *
 * - Slot time: the rooms' schedule slots, clipped to the period. Time under maintenance (a
 *   reservation owned by `Service`) is not bookable: it leaves both the slot time and the booked
 *   time, and maintenance is never counted as a booking.
 * - Booked share: booked minutes inside slots ÷ bookable slot minutes (null without slot time).
 * - Bookings: reservations by users, groups or unknown owners overlapping the period (a booking
 *   partly outside counts once, its minutes clipped). No-shows: `Unused` bookings by users or
 *   groups that had ended by `nowMs`, or that the service released (not activated in time); a
 *   future `Unused` booking has simply not happened yet.
 * - Weekday × hour: each booking counts once in every local (weekday, hour) it touches, read off
 *   the wall clock, so 23:00–02:00 counts in Mon 23, Tue 00 and Tue 01, and DST days have 23 or 25
 *   hours as their clocks do.
 */

export type ReportOwnerType = 'User' | 'Group' | 'Service' | 'Unknown';
export type ReportStatus = 'Used' | 'Unused' | 'Unknown';

export interface ReportRoomInput {
  id: string;
  name: string;
  schedule: WeekScheduleInput;
}

export interface ReportReservationInput {
  id: string;
  resourceId: string;
  /** A ReportOwnerType; other values read as an unknown owner. */
  ownerType: string;
  ownerId: string | null;
  userId: string | null;
  /** A ReportStatus; other values read as unknown. */
  status: string;
  startMs: number;
  endMs: number;
  /**
   * The service released it: `Unused` and not activated within its room group's window (issue 35).
   * A no-show from then on, ended or not; the upstream may no longer list it (mirror_released_no_shows).
   */
  released?: boolean;
}

export interface ReportApartmentInput {
  groupId: string;
  /** The apartment number (may be empty upstream). */
  apartment: string;
  /** The group's name, shown when the number is empty. */
  name: string;
}

/** A booking request the portal sent and that succeeded, for a slot in the period. */
export interface ReportPortalBookingInput {
  requestedBy: string;
  requestedByName: string | null;
  /** The account's e-mail address, when the account still exists. */
  requestedByEmail?: string | null;
}

export interface ReportInput {
  startMs: number;
  endMs: number;
  nowMs: number;
  timeZone: string;
  basis: ScheduleBasis;
  rooms: readonly ReportRoomInput[];
  reservations: readonly ReportReservationInput[];
  apartments: readonly ReportApartmentInput[];
  /** A user's group (apartment): user id → group id. */
  userGroup: ReadonlyMap<string, string>;
  portalBookings: readonly ReportPortalBookingInput[];
}

export interface ReportCounts {
  bookings: number;
  used: number;
  /** Every `Unused` booking, past or future. */
  unused: number;
  unknownStatus: number;
  /** Bookings not yet ended at `nowMs`. */
  upcoming: number;
  /** Ended bookings by users or groups: what the no-show rate divides by. */
  pastBookings: number;
  noShows: number;
  noShowRate: number | null;
}

export interface SlotShare {
  /** Local weekday of the slot's start, 0 = Monday. */
  weekday: number;
  startLabel: string;
  endLabel: string;
  occurrences: number;
  slotMinutes: number;
  bookedMinutes: number;
  share: number;
}

export interface OccupancyFigures {
  /** Bookable slot minutes (slot time minus maintenance). */
  slotMinutes: number;
  bookedMinutes: number;
  maintenanceMinutes: number;
  bookedShare: number | null;
  counts: ReportCounts;
}

export interface RoomReport extends OccupancyFigures {
  resourceId: string;
  name: string;
  busiest: SlotShare | null;
  quietest: SlotShare | null;
}

export interface ApartmentReport {
  groupId: string;
  apartment: string;
  name: string;
  bookings: number;
  pastBookings: number;
  noShows: number;
  noShowRate: number | null;
}

export interface ManagerReport {
  requestedBy: string;
  name: string;
  /** The account's e-mail address ('' when unknown): names a manager in the exports, never the account id. */
  email: string;
  bookings: number;
}

export interface ReportData {
  startMs: number;
  endMs: number;
  nowMs: number;
  timeZone: string;
  total: OccupancyFigures;
  rooms: RoomReport[];
  /** weekdayHour[weekday][hour]: bookings touching that local hour (weekday 0 = Monday). */
  weekdayHour: number[][];
  /** Slot times of week across rooms, by booked share: the busiest first / the quietest first. */
  busiest: SlotShare[];
  quietest: SlotShare[];
  /** Apartments with bookings, most bookings first. */
  apartments: ApartmentReport[];
  topNoShows: ApartmentReport[];
  /** Bookings whose owner the portal cannot place in an apartment (unknown owner type, user without group). */
  unplacedBookings: number;
  managers: ManagerReport[];
  portalBookings: number;
}

/** How many busiest/quietest slot times and top no-show apartments a report lists. */
export const REPORT_TOP = 5;

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

type Interval = readonly [number, number];

/** Sorted, disjoint union of intervals (empty ones dropped). */
export function mergeIntervals(list: Iterable<Interval>): Interval[] {
  const sorted = [...list].filter(([a, b]) => b > a).sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  const out: [number, number][] = [];
  for (const [a, b] of sorted) {
    const last = out.at(-1);
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
}

/** Intersection of two sorted disjoint lists. */
function intersect(x: readonly Interval[], y: readonly Interval[]): Interval[] {
  const out: Interval[] = [];
  let i = 0;
  let j = 0;
  while (i < x.length && j < y.length) {
    const a = Math.max(x[i]![0], y[j]![0]);
    const b = Math.min(x[i]![1], y[j]![1]);
    if (b > a) out.push([a, b]);
    if (x[i]![1] < y[j]![1]) i++;
    else j++;
  }
  return out;
}

/** Milliseconds of [a, b) covered by a sorted disjoint list (binary search to the first candidate). */
function coveredMs(list: readonly Interval[], a: number, b: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]![1] <= a) lo = mid + 1;
    else hi = mid;
  }
  let total = 0;
  for (let k = lo; k < list.length && list[k]![0] < b; k++) total += Math.min(b, list[k]![1]) - Math.max(a, list[k]![0]);
  return total;
}

const emptyCounts = (): ReportCounts => ({ bookings: 0, used: 0, unused: 0, unknownStatus: 0, upcoming: 0, pastBookings: 0, noShows: 0, noShowRate: null });

function addCounts(into: ReportCounts, from: ReportCounts): void {
  into.bookings += from.bookings;
  into.used += from.used;
  into.unused += from.unused;
  into.unknownStatus += from.unknownStatus;
  into.upcoming += from.upcoming;
  into.pastBookings += from.pastBookings;
  into.noShows += from.noShows;
}

const rate = (part: number, whole: number): number | null => (whole > 0 ? part / whole : null);

/**
 * The (weekday, hour) cells a span touches on the local wall clock, each once. The zone's offset
 * is read at both ends: when they agree (no change inside), the hours follow arithmetically;
 * across a DST change every hour is read from the clock.
 */
export function weekdayHourCells(startMs: number, endMs: number, timeZone: string): number[] {
  const cells = new Set<number>();
  if (!(endMs > startMs)) return [];
  const offsetOf = (ms: number) => {
    const w = wallClock(ms, timeZone);
    return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - (ms - (((ms % 1000) + 1000) % 1000));
  };
  const startOffset = offsetOf(startMs);
  const steady = offsetOf(endMs - 1) === startOffset;
  let t = startMs;
  while (t < endMs) {
    let weekday: number;
    let hour: number;
    let intoHour: number;
    if (steady) {
      const local = t + startOffset;
      const dayNumber = Math.floor(local / DAY_MS);
      weekday = (((dayNumber + 3) % 7) + 7) % 7; // 1970-01-01 was a Thursday (3 from Monday)
      const msOfDay = local - dayNumber * DAY_MS;
      hour = Math.floor(msOfDay / HOUR_MS);
      intoHour = msOfDay - hour * HOUR_MS;
    } else {
      const w = wallClock(t, timeZone);
      weekday = w.weekday;
      hour = w.hour;
      intoHour = (w.minute * 60 + w.second) * 1000 + (((t % 1000) + 1000) % 1000);
    }
    cells.add(weekday * 24 + hour);
    t += HOUR_MS - intoHour;
  }
  return [...cells];
}

const isPersonal = (ownerType: string) => ownerType === 'User' || ownerType === 'Group';

function countBooking(counts: ReportCounts, r: ReportReservationInput, nowMs: number): void {
  counts.bookings++;
  if (r.status === 'Used') counts.used++;
  else if (r.status === 'Unused') counts.unused++;
  else counts.unknownStatus++;
  // A released booking is over: nobody came, and the service freed the slot.
  const ended = r.endMs <= nowMs || r.released === true;
  if (!ended) counts.upcoming++;
  if (ended && isPersonal(r.ownerType)) {
    counts.pastBookings++;
    if (r.status === 'Unused') counts.noShows++;
  }
}

interface SlotTally {
  weekday: number;
  startLabel: string;
  endLabel: string;
  occurrences: number;
  slotMs: number;
  bookedMs: number;
}

function tally(map: Map<string, SlotTally>, key: string, slot: ScheduleSlot, slotMs: number, bookedMs: number): void {
  let entry = map.get(key);
  if (!entry) {
    entry = { weekday: slot.dayIndex, startLabel: slot.startLabel, endLabel: slot.endLabel, occurrences: 0, slotMs: 0, bookedMs: 0 };
    map.set(key, entry);
  }
  entry.occurrences++;
  entry.slotMs += slotMs;
  entry.bookedMs += bookedMs;
}

const toShare = (t: SlotTally): SlotShare => ({
  weekday: t.weekday,
  startLabel: t.startLabel,
  endLabel: t.endLabel,
  occurrences: t.occurrences,
  slotMinutes: Math.round(t.slotMs / MINUTE_MS),
  bookedMinutes: Math.round(t.bookedMs / MINUTE_MS),
  share: t.bookedMs / t.slotMs,
});

/** Slot times with bookable time, busiest first (ties: earlier in the week first). */
function rankSlots(map: Map<string, SlotTally>): SlotShare[] {
  return [...map.values()]
    .filter((t) => t.slotMs > 0)
    .map(toShare)
    .sort((a, b) => b.share - a.share || a.weekday - b.weekday || a.startLabel.localeCompare(b.startLabel));
}

const quietFirst = (ranked: readonly SlotShare[]) =>
  [...ranked].sort((a, b) => a.share - b.share || a.weekday - b.weekday || a.startLabel.localeCompare(b.startLabel));

export function computeReport(input: ReportInput): ReportData {
  const { startMs, endMs, nowMs, timeZone, basis } = input;
  const byRoom = new Map<string, ReportReservationInput[]>();
  for (const r of input.reservations) {
    if (!(r.endMs > startMs && r.startMs < endMs)) continue;
    let list = byRoom.get(r.resourceId);
    if (!list) byRoom.set(r.resourceId, (list = []));
    list.push(r);
  }

  // Rooms usually share a few schedules: expand each distinct one once. A slot may start up to a
  // day before the period and still reach into it.
  // Each slot's time-of-week key is made once per schedule too: a year of 100 rooms is ~500k slots.
  const expanded = new Map<string, { slots: ScheduleSlot[]; keys: string[] }>();
  const slotsOf = (schedule: WeekScheduleInput) => {
    const key = JSON.stringify(schedule);
    let held = expanded.get(key);
    if (!held) {
      const slots = expandRange(schedule, startMs - DAY_MS, endMs, timeZone, basis).filter((s) => s.endMs > startMs);
      held = { slots, keys: slots.map((s) => `${s.dayIndex}|${s.startLabel}|${s.endLabel}`) };
      expanded.set(key, held);
    }
    return held;
  };

  const groups = new Map(input.apartments.map((a) => [a.groupId.toLowerCase(), a]));
  const apartmentTallies = new Map<string, ApartmentReport>();
  let unplacedBookings = 0;
  const weekdayHour = Array.from({ length: 7 }, () => new Array<number>(24).fill(0));
  const allSlots = new Map<string, SlotTally>();
  const total: OccupancyFigures = { slotMinutes: 0, bookedMinutes: 0, maintenanceMinutes: 0, bookedShare: null, counts: emptyCounts() };
  let totalSlotMs = 0;
  let totalBookedMs = 0;
  let totalMaintenanceMs = 0;

  const rooms: RoomReport[] = input.rooms.map((room) => {
    const reservations = byRoom.get(room.id) ?? [];
    const clip = (r: ReportReservationInput): Interval => [Math.max(r.startMs, startMs), Math.min(r.endMs, endMs)];
    const maintenance = mergeIntervals(reservations.filter((r) => r.ownerType === 'Service').map(clip));
    const booked = mergeIntervals(reservations.filter((r) => r.ownerType !== 'Service').map(clip));
    const bookedInMaintenance = intersect(booked, maintenance);
    const counts = emptyCounts();
    const roomSlots = new Map<string, SlotTally>();
    let slotMs = 0;
    let bookedMs = 0;
    let maintenanceMs = 0;
    const { slots, keys } = slotsOf(room.schedule);
    for (let i = 0; i < slots.length; i++) {
      const slot = slots[i]!;
      const a = Math.max(slot.startMs, startMs);
      const b = Math.min(slot.endMs, endMs);
      if (!(b > a)) continue;
      const down = maintenance.length > 0 ? coveredMs(maintenance, a, b) : 0;
      const bookable = b - a - down;
      const used = coveredMs(booked, a, b) - (bookedInMaintenance.length > 0 ? coveredMs(bookedInMaintenance, a, b) : 0);
      slotMs += bookable;
      bookedMs += used;
      maintenanceMs += down;
      tally(roomSlots, keys[i]!, slot, bookable, used);
      tally(allSlots, keys[i]!, slot, bookable, used);
    }
    for (const r of reservations) {
      if (r.ownerType === 'Service') continue;
      countBooking(counts, r, nowMs);
      const [a, b] = clip(r);
      for (const cell of weekdayHourCells(a, b, timeZone)) weekdayHour[Math.floor(cell / 24)]![cell % 24]!++;
      const groupId =
        r.ownerType === 'Group' && r.ownerId ? r.ownerId.toLowerCase() : r.ownerType === 'User' ? input.userGroup.get(r.userId ?? r.ownerId ?? '')?.toLowerCase() : undefined;
      const group = groupId ? groups.get(groupId) : undefined;
      if (!group) {
        unplacedBookings++;
        continue;
      }
      let entry = apartmentTallies.get(group.groupId);
      if (!entry) {
        entry = { groupId: group.groupId, apartment: group.apartment, name: group.name, bookings: 0, pastBookings: 0, noShows: 0, noShowRate: null };
        apartmentTallies.set(group.groupId, entry);
      }
      entry.bookings++;
      if (r.endMs <= nowMs || r.released === true) {
        entry.pastBookings++;
        if (r.status === 'Unused') entry.noShows++;
      }
    }
    counts.noShowRate = rate(counts.noShows, counts.pastBookings);
    addCounts(total.counts, counts);
    totalSlotMs += slotMs;
    totalBookedMs += bookedMs;
    totalMaintenanceMs += maintenanceMs;
    const ranked = rankSlots(roomSlots);
    return {
      resourceId: room.id,
      name: room.name,
      slotMinutes: Math.round(slotMs / MINUTE_MS),
      bookedMinutes: Math.round(bookedMs / MINUTE_MS),
      maintenanceMinutes: Math.round(maintenanceMs / MINUTE_MS),
      bookedShare: rate(bookedMs, slotMs),
      counts,
      busiest: ranked[0] ?? null,
      quietest: ranked.at(-1) ?? null,
    };
  });

  total.counts.noShowRate = rate(total.counts.noShows, total.counts.pastBookings);
  total.slotMinutes = Math.round(totalSlotMs / MINUTE_MS);
  total.bookedMinutes = Math.round(totalBookedMs / MINUTE_MS);
  total.maintenanceMinutes = Math.round(totalMaintenanceMs / MINUTE_MS);
  total.bookedShare = rate(totalBookedMs, totalSlotMs);

  const apartments = [...apartmentTallies.values()].map((a) => ({ ...a, noShowRate: rate(a.noShows, a.pastBookings) }));
  apartments.sort((a, b) => b.bookings - a.bookings || a.apartment.localeCompare(b.apartment) || a.groupId.localeCompare(b.groupId));
  const topNoShows = apartments
    .filter((a) => a.noShows > 0)
    .sort((a, b) => b.noShows - a.noShows || (b.noShowRate ?? 0) - (a.noShowRate ?? 0) || a.apartment.localeCompare(b.apartment))
    .slice(0, REPORT_TOP);

  const managerTallies = new Map<string, ManagerReport>();
  for (const p of input.portalBookings) {
    let entry = managerTallies.get(p.requestedBy);
    if (!entry) managerTallies.set(p.requestedBy, (entry = { requestedBy: p.requestedBy, name: '', email: '', bookings: 0 }));
    entry.bookings++;
    if (!entry.name && p.requestedByName) entry.name = p.requestedByName;
    if (!entry.email && p.requestedByEmail) entry.email = p.requestedByEmail;
  }
  const managers = [...managerTallies.values()]
    .map((m) => ({ ...m, name: m.name || m.email || m.requestedBy }))
    .sort((a, b) => b.bookings - a.bookings || a.name.localeCompare(b.name));

  const ranked = rankSlots(allSlots);
  return {
    startMs,
    endMs,
    nowMs,
    timeZone,
    total,
    rooms,
    weekdayHour,
    busiest: ranked.slice(0, REPORT_TOP),
    quietest: quietFirst(ranked).slice(0, REPORT_TOP),
    apartments,
    topNoShows,
    unplacedBookings,
    managers,
    portalBookings: input.portalBookings.length,
  };
}

/** Several systems' reports side by side and summed: the manager's overview. */
export function sumFigures(list: readonly OccupancyFigures[]): OccupancyFigures {
  const counts = emptyCounts();
  let slotMinutes = 0;
  let bookedMinutes = 0;
  let maintenanceMinutes = 0;
  for (const f of list) {
    addCounts(counts, f.counts);
    slotMinutes += f.slotMinutes;
    bookedMinutes += f.bookedMinutes;
    maintenanceMinutes += f.maintenanceMinutes;
  }
  counts.noShowRate = rate(counts.noShows, counts.pastBookings);
  return { slotMinutes, bookedMinutes, maintenanceMinutes, bookedShare: rate(bookedMinutes, slotMinutes), counts };
}
