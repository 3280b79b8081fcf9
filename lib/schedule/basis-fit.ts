import { expandRange } from './expand';
import type { ScheduleBasis, WeekScheduleInput } from './types';

const DAY_MS = 86_400_000;

/** How many of a system's bookings start and end on a slot of their room's schedule, read either way. */
export interface BasisFit {
  bookings: number;
  utc: number;
  local: number;
}

/**
 * Counts the bookings (not maintenance, which may take any span) that fall exactly on a slot of
 * their room's schedule when its minutes are read as UTC, and when read as the zone's local time.
 * Read in the wrong basis, a Stockholm schedule is an hour or two off every booking.
 */
export function scheduleBasisFit(input: {
  timeZone: string;
  schedules: ReadonlyMap<string, WeekScheduleInput>;
  resources: readonly { id: string; timeScheduleId: string | null }[];
  reservations: readonly { resourceId: string; startTime: string; endTime: string; ownerType: string }[];
}): BasisFit {
  const fit: BasisFit = { bookings: 0, utc: 0, local: 0 };
  const scheduleOf = new Map(input.resources.map((r) => [r.id, r.timeScheduleId ? input.schedules.get(r.timeScheduleId) : undefined]));
  const byRoom = new Map<string, { startMs: number; endMs: number }[]>();
  for (const r of input.reservations) {
    if (r.ownerType === 'Service' || !scheduleOf.get(r.resourceId)) continue;
    const list = byRoom.get(r.resourceId) ?? [];
    list.push({ startMs: Date.parse(r.startTime), endMs: Date.parse(r.endTime) });
    byRoom.set(r.resourceId, list);
  }
  for (const [roomId, bookings] of byRoom) {
    const schedule = scheduleOf.get(roomId)!;
    const from = Math.min(...bookings.map((b) => b.startMs)) - DAY_MS;
    const to = Math.max(...bookings.map((b) => b.endMs)) + DAY_MS;
    const slotsIn = (basis: ScheduleBasis) => new Set(expandRange(schedule, from, to, input.timeZone, basis).map((s) => `${s.startMs}/${s.endMs}`));
    const utc = slotsIn('utc');
    const local = slotsIn('local');
    for (const b of bookings) {
      const key = `${b.startMs}/${b.endMs}`;
      fit.bookings += 1;
      if (utc.has(key)) fit.utc += 1;
      if (local.has(key)) fit.local += 1;
    }
  }
  return fit;
}

/**
 * The basis the bookings say, when they fall on the schedule in one and not in the other: at
 * least five bookings, four in five on the schedule one way and at most one in five the other.
 * Null when they cannot tell (too few, both alike, as in a UTC zone, or neither).
 */
export function detectedBasis(fit: BasisFit): ScheduleBasis | null {
  if (fit.bookings < 5) return null;
  const good = (n: number) => n >= 0.8 * fit.bookings;
  const poor = (n: number) => n <= 0.2 * fit.bookings;
  if (good(fit.utc) && poor(fit.local)) return 'utc';
  if (good(fit.local) && poor(fit.utc)) return 'local';
  return null;
}
