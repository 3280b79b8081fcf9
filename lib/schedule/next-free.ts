import { isBeyondHorizon } from '@/lib/booking-rules/within-booking-horizon';
import { isBookable } from '@/lib/booking-rules/slot-rules';
import { isWithinQuota } from '@/lib/booking-rules/within-quota';
import { expandRange, type ScheduleSlot } from './expand';
import type { ResourceKind } from './resource-kind';
import type { ScheduleBasis, WeekScheduleInput } from './types';

/**
 * "The next free slots for this apartment": pure and browser-safe. Walks forward from now a day at
 * a time over the rooms the apartment may book and stops as soon as it has enough, so a large
 * system with a four-week horizon costs a day or two of slots, not the whole horizon.
 */

export const DAY_PARTS = ['morning', 'afternoon', 'evening'] as const;
export type DayPart = (typeof DAY_PARTS)[number];
export const DEFAULT_NEXT_FREE_COUNT = 5;

const DAY_MS = 86_400_000;
const NOON = 12 * 60;
const FIVE_PM = 17 * 60;

/** The part of the day a local start time (minutes after local midnight) falls in. */
export function dayPartOf(startMinute: number): DayPart {
  if (startMinute < NOON) return 'morning';
  if (startMinute < FIVE_PM) return 'afternoon';
  return 'evening';
}

export interface NextFreeResource {
  id: string;
  name: string;
  kind: ResourceKind;
  schedule: WeekScheduleInput;
  /** May the apartment book it (its authorizations); unknown authorizations count as allowed. */
  allowed: boolean;
}

/** Something that occupies a stretch of a resource: a mirrored reservation or an open booking request. */
export interface BusyInterval {
  resourceId: string;
  startMs: number;
  endMs: number;
}

export interface NextFreeInput {
  resources: readonly NextFreeResource[];
  nowMs: number;
  /** bookingHorizonEnd(now, days): a slot must end by it. */
  horizonEndMs: number;
  timeZone: string;
  basis?: ScheduleBasis;
  busy: readonly BusyInterval[];
  /** The apartment's future bookings and open requests per resource id. */
  held: ReadonlyMap<string, number>;
  quota: number;
  kind?: ResourceKind;
  dayPart?: DayPart;
  count?: number;
  /** A further check per slot (a room group's rules, lib/booking-rules/group-rules.ts): false skips the slot. */
  admits?: (slot: { resourceId: string; startMs: number; endMs: number }) => boolean;
  /** The resource's slots starting in [fromMs, toMs), sorted by start; callers may cache them (default: expandRange). */
  slotsOf?: (resource: NextFreeResource, fromMs: number, toMs: number) => readonly ScheduleSlot[];
}

export interface FreeSlot {
  resourceId: string;
  resourceName: string;
  kind: ResourceKind;
  /** Upstream form, `yyyy-mm-ddThh:mmZ`, as the booking call wants it. */
  startTime: string;
  endTime: string;
  startMs: number;
  endMs: number;
  /** Local date and clock labels in the system's zone (the day is worded by the reader's language). */
  date: string;
  startLabel: string;
  endLabel: string;
  endsNextDay: boolean;
  dayPart: DayPart;
}

/** Busy intervals of one resource sorted by end, with a cursor that only moves forward (slots come in time order). */
class BusyCursor {
  private next = 0;
  constructor(private readonly list: BusyInterval[]) {
    list.sort((a, b) => a.endMs - b.endMs);
  }
  overlaps(startMs: number, endMs: number): boolean {
    const list = this.list;
    while (this.next < list.length && list[this.next]!.endMs <= startMs) this.next += 1;
    for (let i = this.next; i < list.length; i += 1) {
      const b = list[i]!;
      // Sorted by end: once an interval ends a day after this slot ends, none later can overlap
      // (reservations and slots last at most a day).
      if (b.endMs > endMs + DAY_MS) break;
      if (b.startMs < endMs && b.endMs > startMs) return true;
    }
    return false;
  }
}

/** The next `count` free slots from now across the resources, sorted by start, then resource name. */
export function nextFreeSlots(input: NextFreeInput): FreeSlot[] {
  const count = input.count ?? DEFAULT_NEXT_FREE_COUNT;
  if (count <= 0) return [];
  const { nowMs, horizonEndMs, timeZone, basis } = input;
  const slotsOf = input.slotsOf ?? ((r: NextFreeResource, from: number, to: number) => expandRange(r.schedule, from, to, timeZone, basis));
  const eligible = input.resources.filter(
    (r) => r.allowed && (input.kind === undefined || r.kind === input.kind) && isWithinQuota(input.held.get(r.id) ?? 0, input.quota),
  );
  if (eligible.length === 0) return [];
  const busyBy = new Map<string, BusyInterval[]>(eligible.map((r) => [r.id, []]));
  for (const b of input.busy) busyBy.get(b.resourceId)?.push(b);
  const cursors = new Map(eligible.map((r) => [r.id, new BusyCursor(busyBy.get(r.id) ?? [])]));

  const found: FreeSlot[] = [];
  // Slots must end by the horizon, so none starting at or after it can qualify.
  for (let from = nowMs; from < horizonEndMs && found.length < count; from += DAY_MS) {
    const to = Math.min(from + DAY_MS, horizonEndMs);
    const day: FreeSlot[] = [];
    for (const resource of eligible) {
      const cursor = cursors.get(resource.id)!;
      for (const slot of slotsOf(resource, from, to)) {
        const dayPart = dayPartOf(slot.startMinute);
        if (input.dayPart !== undefined && dayPart !== input.dayPart) continue;
        // The grid's and the handler's slot rules (slot-rules.ts); the room's group rules by `admits`.
        const overlapping = cursor.overlaps(slot.startMs, slot.endMs) ? 1 : 0;
        if (!isBookable({ startMs: slot.startMs, overlapping, beyondHorizon: isBeyondHorizon(slot, horizonEndMs) }, nowMs)) continue;
        if (input.admits && !input.admits({ resourceId: resource.id, startMs: slot.startMs, endMs: slot.endMs })) continue;
        day.push({
          resourceId: resource.id,
          resourceName: resource.name,
          kind: resource.kind,
          startTime: slot.startTime,
          endTime: slot.endTime,
          startMs: slot.startMs,
          endMs: slot.endMs,
          date: slot.date,
          startLabel: slot.startLabel,
          endLabel: slot.endLabel,
          endsNextDay: slot.endsNextDay,
          dayPart,
        });
      }
    }
    day.sort((a, b) => a.startMs - b.startMs || a.resourceName.localeCompare(b.resourceName) || a.resourceId.localeCompare(b.resourceId));
    found.push(...day);
  }
  return found.slice(0, count);
}
