import 'server-only';
import { ApiError } from '@/lib/api/errors';
import { mirrorSnapshot, type MirrorSnapshot, type SnapshotResource } from '@/lib/mirror/snapshot';
import { readReservations } from '@/lib/mirror/store';
import { listOpenRequests } from '@/lib/reservations/requests';
import {
  bookingHorizonEnd,
  expandWeek,
  overlayReservations,
  shiftWeekKey,
  weekFromKey,
  weekKeyOf,
  type ScheduleSlot,
  type WeekInfo,
} from '@/lib/schedule';
import type { SystemPublic } from '@/lib/systems/schemas';
import { systemMirror, type ViewDeps } from './freshness';
import { ownerLabelsFor } from './owner-labels';
import type { ResourceWeekView } from './types';

const DAY_MS = 86_400_000;

/**
 * A resource's slots of a week depend only on its schedule (fixed within a generation), the week
 * and the zone; every warm grid read of the same week would expand and label them again. Kept
 * per snapshot, so they go with the generation they were made from.
 */
const EXPANSIONS_PER_SNAPSHOT = 256;
const expansions = new WeakMap<MirrorSnapshot, Map<string, readonly ScheduleSlot[]>>();

function expandedWeek(snapshot: MirrorSnapshot, resource: SnapshotResource, week: WeekInfo, timeZone: string): readonly ScheduleSlot[] {
  let held = expansions.get(snapshot);
  if (!held) {
    held = new Map();
    expansions.set(snapshot, held);
  }
  const key = `${resource.id}|${week.key}|${timeZone}`;
  let slots = held.get(key);
  if (!slots) {
    slots = expandWeek(resource.schedule, week, timeZone);
    if (held.size >= EXPANSIONS_PER_SNAPSHOT) held.clear();
    held.set(key, slots);
  }
  return slots;
}

/**
 * The resource page: one week of a resource's slots (in the system's zone) with their states and
 * holders, the booking horizon and the neighbouring week keys. `weekKey` must be valid (callers
 * parse it with weekKeySchema); it defaults to the current week.
 */
export async function loadResourceWeek(
  deps: ViewDeps,
  system: SystemPublic,
  resourceId: string,
  weekKey?: string,
): Promise<ResourceWeekView> {
  const now = deps.now?.() ?? new Date();
  const nowMs = now.getTime();
  const timeZone = system.timeZone;
  const current = weekKeyOf(nowMs, timeZone);
  const week = weekFromKey(weekKey ?? current, timeZone);
  const nav = { previous: shiftWeekKey(week.key, -1), next: shiftWeekKey(week.key, 1), current };
  const horizonEnd = bookingHorizonEnd(nowMs);
  const { freshness, state } = await systemMirror(deps, system.deviceId);
  const base = { system, week, horizonEnd, freshness, nav, generatedAt: nowMs, requests: [] };
  if (freshness.status === 'loading' || !state) return { ...base, resource: null, slots: [] };

  const snapshot = await mirrorSnapshot(deps.sql, system.deviceId, state);
  const resource = snapshot?.resourceById.get(resourceId.toLowerCase());
  if (!snapshot || !resource) throw new ApiError('not_found', 'This system has no such resource.');
  // A slot starting in the week may have a reservation starting up to a day earlier or later.
  const reservations = await readReservations(deps.sql, system.deviceId, {
    from: new Date(week.startMs - DAY_MS),
    to: new Date(week.endMs + DAY_MS),
    resourceId: resource.id,
  });
  const ownerLabel = await ownerLabelsFor(deps.sql, system.deviceId, reservations, snapshot.groupById);
  const slots = overlayReservations(expandedWeek(snapshot, resource, week, timeZone), reservations, {
    now: nowMs,
    resourceId: resource.id,
    horizonEnd,
    ownerLabel,
  });
  const requests = await listOpenRequests(deps.sql, system.deviceId, resource.id, new Date(week.startMs - DAY_MS), new Date(week.endMs + DAY_MS));
  return { ...base, resource: { id: resource.id, name: resource.name, description: resource.description }, slots, requests };
}
