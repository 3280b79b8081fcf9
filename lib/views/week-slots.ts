import 'server-only';
import type { MirrorSnapshot } from '@/lib/mirror/snapshot';
import { expandWeek, type ScheduleBasis, type ScheduleSlot, type WeekInfo, type WeekScheduleInput } from '@/lib/schedule';

/** Expanded weeks kept per snapshot; a week of a 100-room system's next free slots needs ~100. */
const WEEKS_PER_SNAPSHOT = 1024;
const expanded = new WeakMap<MirrorSnapshot, Map<string, readonly ScheduleSlot[]>>();

/**
 * A resource's slots of one local week, expanded once per generation and kept with its snapshot
 * (a schedule never changes within a generation): the week grid and the next free slots read the
 * same copy.
 */
export function weekSlotsOf(
  snapshot: MirrorSnapshot,
  resource: { id: string; schedule: WeekScheduleInput },
  week: WeekInfo,
  timeZone: string,
  basis: ScheduleBasis,
): readonly ScheduleSlot[] {
  let held = expanded.get(snapshot);
  if (!held) {
    held = new Map();
    expanded.set(snapshot, held);
  }
  const key = `${resource.id}|${week.key}|${timeZone}|${basis}`;
  let slots = held.get(key);
  if (!slots) {
    slots = expandWeek(resource.schedule, week, timeZone, basis);
    if (held.size >= WEEKS_PER_SNAPSHOT) held.clear();
    held.set(key, slots);
  }
  return slots;
}
