import { expandRange, expandWeek } from './expand';
import { type OverlayOptions, type StatefulSlot, overlayReservations } from './overlay';
import { DAYS_PER_WEEK, type InstantInput, type ScheduleBasis, type ScheduleReservation, type WeekScheduleInput, requireMs } from './types';
import { type WeekInfo, assertTimeZone, weekFromKey } from './week';
import { wallClock } from './zoned';

const MINUTE_MS = 60_000;
const WEEK_MS = 7 * 86_400_000;

/**
 * Occupancy of a set of slots. A slot is *reserved* when booked or used (by a User or Group);
 * maintenance slots are not available to residents, so they are left out of the capacity.
 *   share         = reserved / (total − maintenance) over every slot given (the whole week);
 *   upcomingShare = the same over the slots that have not ended yet.
 * A share is null when there is no capacity to share (no slots, or all maintenance).
 */
export interface OccupancyStats {
  total: number;
  maintenance: number;
  booked: number;
  used: number;
  free: number;
  /** Free slots that ended without a booking. */
  past: number;
  /** Slots a first load has not checked yet ('loading'): in the total, not in the capacity. */
  loading: number;
  capacity: number;
  reserved: number;
  share: number | null;
  upcomingCapacity: number;
  upcomingReserved: number;
  upcomingShare: number | null;
}

export function weekOccupancy(slots: readonly StatefulSlot[]): OccupancyStats {
  const stats: OccupancyStats = {
    total: slots.length,
    maintenance: 0,
    booked: 0,
    used: 0,
    free: 0,
    past: 0,
    loading: 0,
    capacity: 0,
    reserved: 0,
    share: null,
    upcomingCapacity: 0,
    upcomingReserved: 0,
    upcomingShare: null,
  };
  for (const slot of slots) {
    // A pending booking is not a reservation yet: the slot counts as free.
    stats[slot.state === 'pending' ? 'free' : slot.state] += 1;
    // Neither capacity nor reserved until known.
    if (slot.state === 'maintenance' || slot.state === 'loading') continue;
    const reserved = slot.state === 'booked' || slot.state === 'used';
    stats.capacity += 1;
    if (reserved) stats.reserved += 1;
    if (!slot.isPast) {
      stats.upcomingCapacity += 1;
      if (reserved) stats.upcomingReserved += 1;
    }
  }
  stats.share = stats.capacity > 0 ? stats.reserved / stats.capacity : null;
  stats.upcomingShare = stats.upcomingCapacity > 0 ? stats.upcomingReserved / stats.upcomingCapacity : null;
  return stats;
}

/** A resource with its Week schedule, as the occupancy functions need it. */
export interface ScheduledResource {
  id: string;
  schedule: WeekScheduleInput;
}

export interface ResourceWeekOccupancy {
  resourceId: string;
  weekKey: string;
  slots: StatefulSlot[];
  stats: OccupancyStats;
}

/** The week's slots and occupancy of every resource (reservations are matched by resourceId). */
export function occupancyByResourceWeek(input: {
  resources: readonly ScheduledResource[];
  reservations: readonly ScheduleReservation[];
  week: WeekInfo | string;
  timeZone: string;
  /** What the schedules' minutes mean (default 'utc'). */
  basis?: ScheduleBasis;
  now: InstantInput;
  ownerLabel?: OverlayOptions['ownerLabel'];
  horizonDays?: number;
}): ResourceWeekOccupancy[] {
  const week = typeof input.week === 'string' ? weekFromKey(input.week, input.timeZone) : input.week;
  const byResource = groupByResource(input.reservations);
  return input.resources.map((resource) => {
    const slots = overlayReservations(expandWeek(resource.schedule, week, input.timeZone, input.basis), byResource.get(resource.id) ?? [], {
      now: input.now,
      ownerLabel: input.ownerLabel,
      horizonDays: input.horizonDays,
    });
    return { resourceId: resource.id, weekKey: week.key, slots, stats: weekOccupancy(slots) };
  });
}

export interface HeatmapCell {
  /** Local weekday, 0 = Monday. */
  weekday: number;
  /** Local wall-clock minute the bucket starts at (0, 60, …). */
  minute: number;
  /** Slot-minutes available to residents in this cell, summed over resources and weeks. */
  capacityMinutes: number;
  reservedMinutes: number;
  /** reservedMinutes / capacityMinutes, or null when no slot touched the cell. */
  rate: number | null;
  /** Number of slot occurrences that touched the cell. */
  samples: number;
}

export interface Heatmap {
  timeZone: string;
  weeks: number;
  bucketMinutes: number;
  /** The window [fromMs, toMs): the last `weeks` × 7 days before now. */
  fromMs: number;
  toMs: number;
  /**
   * Bucket start minutes that hold any slot: the picture's rows. They run in time order starting
   * after the longest stretch without slots, so a schedule running past midnight reads
   * 07:00 … 23:00, 00:00, 01:00 rather than starting at midnight.
   */
  minutes: number[];
  /** One cell per weekday × row, row-major: cells[row * 7 + weekday]. */
  cells: HeatmapCell[];
  /** Up to three cells with the highest rate (ties: more samples first), for summaries. */
  busiest: HeatmapCell[];
  /** Overall reserved share of the window, null when there was no capacity. */
  overallRate: number | null;
}

/**
 * Booking rate per local weekday × time of day over a rolling window of the last `weeks` weeks
 * (default 8) before `now`. Only slots that started and ended inside the window count, so each
 * weekday/time is sampled about `weeks` times per slot and resource. A slot spreads its minutes
 * over the buckets it covers (in local wall-clock time; after midnight they go to the next
 * weekday), reserved when booked or used; maintenance slots add no capacity.
 */
export function occupancyHeatmap(
  resources: readonly ScheduledResource[],
  reservations: readonly ScheduleReservation[],
  options: { now: InstantInput; timeZone: string; basis?: ScheduleBasis; weeks?: number; bucketMinutes?: number },
): Heatmap {
  assertTimeZone(options.timeZone);
  const weeks = options.weeks ?? 8;
  const bucketMinutes = options.bucketMinutes ?? 60;
  if (!Number.isInteger(weeks) || weeks < 1 || weeks > 104) throw new RangeError('weeks must be a whole number from 1 to 104');
  if (!Number.isInteger(bucketMinutes) || bucketMinutes < 15 || 1440 % bucketMinutes !== 0) {
    throw new RangeError('bucketMinutes must divide a day and be at least 15');
  }
  const toMs = requireMs(options.now, 'now');
  const fromMs = toMs - weeks * WEEK_MS;
  const rowsPerDay = 1440 / bucketMinutes;
  const capacity = new Float64Array(DAYS_PER_WEEK * rowsPerDay);
  const reserved = new Float64Array(DAYS_PER_WEEK * rowsPerDay);
  const samples = new Uint32Array(DAYS_PER_WEEK * rowsPerDay);
  const byResource = groupByResource(reservations);
  let totalCapacity = 0;
  let totalReserved = 0;

  for (const resource of resources) {
    const slots = overlayReservations(
      expandRange(resource.schedule, fromMs, toMs, options.timeZone, options.basis),
      byResource.get(resource.id) ?? [],
      { now: toMs },
    );
    for (const slot of slots) {
      if (slot.endMs > toMs || slot.state === 'maintenance') continue;
      const isReserved = slot.state === 'booked' || slot.state === 'used';
      const touched = new Set<number>();
      // Walk the slot bucket by bucket in local time (DST shifts happen on whole hours).
      let cursor = slot.startMs;
      while (cursor < slot.endMs) {
        const local = wallClock(cursor, options.timeZone);
        const wall = local.hour * 60 + local.minute;
        const row = Math.floor(wall / bucketMinutes);
        // Zone offsets are whole seconds, so the local milliseconds are the instant's own.
        const boundary = cursor + ((row + 1) * bucketMinutes - wall) * MINUTE_MS - local.second * 1000 - (((cursor % 1000) + 1000) % 1000);
        const segmentEnd = Math.min(slot.endMs, boundary > cursor ? boundary : cursor + bucketMinutes * MINUTE_MS);
        const minutes = (segmentEnd - cursor) / MINUTE_MS;
        const index = row * DAYS_PER_WEEK + local.weekday;
        capacity[index]! += minutes;
        if (isReserved) reserved[index]! += minutes;
        touched.add(index);
        cursor = segmentEnd;
      }
      for (const index of touched) samples[index]! += 1;
      const slotMinutes = (slot.endMs - slot.startMs) / MINUTE_MS;
      totalCapacity += slotMinutes;
      if (isReserved) totalReserved += slotMinutes;
    }
  }

  const usedRows: number[] = [];
  for (let row = 0; row < rowsPerDay; row++) {
    let any = false;
    for (let d = 0; d < DAYS_PER_WEEK; d++) any ||= samples[row * DAYS_PER_WEEK + d]! > 0;
    if (any) usedRows.push(row);
  }
  const minutes: number[] = [];
  const cells: HeatmapCell[] = [];
  for (const row of rotateAfterLargestGap(usedRows, rowsPerDay)) {
    minutes.push(row * bucketMinutes);
    for (let weekday = 0; weekday < DAYS_PER_WEEK; weekday++) {
      const index = row * DAYS_PER_WEEK + weekday;
      const cap = capacity[index]!;
      cells.push({
        weekday,
        minute: row * bucketMinutes,
        capacityMinutes: cap,
        reservedMinutes: reserved[index]!,
        rate: cap > 0 ? reserved[index]! / cap : null,
        samples: samples[index]!,
      });
    }
  }
  const busiest = cells
    .filter((c) => c.rate !== null && c.rate > 0)
    .sort((a, b) => b.rate! - a.rate! || b.samples - a.samples || a.weekday - b.weekday || a.minute - b.minute)
    .slice(0, 3);
  return {
    timeZone: options.timeZone,
    weeks,
    bucketMinutes,
    fromMs,
    toMs,
    minutes,
    cells,
    busiest,
    overallRate: totalCapacity > 0 ? totalReserved / totalCapacity : null,
  };
}

/** Rows in circular order, starting just after the longest run of empty rows. */
function rotateAfterLargestGap(rows: readonly number[], rowsPerDay: number): number[] {
  if (rows.length < 2) return [...rows];
  let start = 0;
  let widest = -1;
  rows.forEach((row, i) => {
    const previous = rows[(i - 1 + rows.length) % rows.length]!;
    const gap = (row - previous - 1 + rowsPerDay) % rowsPerDay;
    if (gap > widest) {
      widest = gap;
      start = i;
    }
  });
  return [...rows.slice(start), ...rows.slice(0, start)];
}

function groupByResource(reservations: readonly ScheduleReservation[]): Map<string, ScheduleReservation[]> {
  const map = new Map<string, ScheduleReservation[]>();
  for (const r of reservations) {
    const list = map.get(r.resourceId);
    if (list) list.push(r);
    else map.set(r.resourceId, [r]);
  }
  return map;
}
