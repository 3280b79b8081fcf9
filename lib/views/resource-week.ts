import 'server-only';
import { ApiError } from '@/lib/api/errors';
import type { Database } from '@/lib/db';
import { msg } from '@/lib/i18n/message';
import { partialLoadOf } from '@/lib/mirror/refresh';
import { mirrorSnapshot, structureSnapshot, type MirrorSnapshot, type SnapshotResource } from '@/lib/mirror/snapshot';
import { readReservations, stateRead } from '@/lib/mirror/store';
import { readTogether } from '@/lib/db/read-together';
import type { MirrorReservation } from '@/lib/mirror/types';
import { weekRequestsOf, weekRequestsRead, type RequestRow } from '@/lib/reservations/lifecycle';
import { bookingHorizonEnd, markClosedSlots, type ClosureWindow } from '@/lib/booking-rules';
import { closureWindowsRead } from '@/lib/closures/read';
import {
  overlayReservations,
  shiftWeekKey,
  weekFromKey,
  weekKeyOf,
  type ScheduleBasis,
  type ScheduleReservation,
  type ScheduleSlot,
  type StatefulSlot,
  type WeekInfo,
  type Owner,
} from '@/lib/schedule';
import type { SystemPublic } from '@/lib/systems/schemas';
import { systemMirror, type ViewDeps } from './freshness';
import { isUuid } from './page-access';
import { weekSlotsOf } from './week-slots';
import { ownerLabelsFor } from './owner-labels';
import type { ResourceWeekView } from './types';

const DAY_MS = 86_400_000;

/**
 * What a warm grid read would otherwise compute again, per resource, week and zone, kept with the
 * generation's snapshot (so it goes with the generation it was made from): the expanded slots
 * (fixed by the schedule; the copy ./week-slots.ts keeps for every reader) and the week's
 * reservations with their owner labels, valid while the state row's reservations_version is the
 * one they were read under (every outcome applied in place bumps it, in the same transaction).
 */
interface WeekEntry {
  slots: readonly ScheduleSlot[];
  reservations?: { version: number; list: readonly MirrorReservation[]; ownerLabel: (r: ScheduleReservation) => Owner | null };
}
const WEEKS_PER_SNAPSHOT = 256;
const weekEntries = new WeakMap<MirrorSnapshot, Map<string, WeekEntry>>();

function weekEntry(snapshot: MirrorSnapshot, resource: SnapshotResource, week: WeekInfo, timeZone: string, basis: ScheduleBasis): WeekEntry {
  let held = weekEntries.get(snapshot);
  if (!held) {
    held = new Map();
    weekEntries.set(snapshot, held);
  }
  const key = `${resource.id}|${week.key}|${timeZone}|${basis}`;
  let entry = held.get(key);
  if (!entry) {
    entry = { slots: weekSlotsOf(snapshot, resource, week, timeZone, basis) };
    if (held.size >= WEEKS_PER_SNAPSHOT) held.clear();
    held.set(key, entry);
  }
  return entry;
}

/**
 * The resource page: one week of a resource's slots (in the system's zone) with their states and
 * holders, the booking horizon and the neighbouring week keys. `weekKey` must be valid (callers
 * parse it with weekKeySchema); it defaults to the current week. During a first load whose rooms
 * and schedules are in (freshness.partial), the week's slots with the bookings read so far; every
 * other slot is 'loading' and none is bookable (lib/booking-rules reservations-known).
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
  const horizonEnd = bookingHorizonEnd(nowMs, system.bookingHorizonDays);
  // Not a room id at all: no such room (the reads below compare it as a uuid).
  if (!isUuid(resourceId)) throw new ApiError('not_found', msg('errors.noSuchResource'));
  // The state row, the room's week of requests and the system's closures: one statement.
  const around = { from: new Date(week.startMs - DAY_MS), to: new Date(week.endMs + DAY_MS) };
  const read = await readTogether(deps.db, {
    state: stateRead(system.deviceId),
    requests: weekRequestsRead(system.deviceId, resourceId.toLowerCase(), around.from, around.to),
    closures: closureWindowsRead(system.deviceId, around.from),
  });
  const { freshness, state } = await systemMirror(deps, system.deviceId, read.state);
  const base = { system, week, horizonEnd, freshness, nav, generatedAt: nowMs, requests: [], origins: [] };
  if (freshness.status === 'loading' || !state) {
    // A first load whose rooms and schedules are in: the week at once, its bookings as read so far.
    const partial = partialLoadOf(state);
    if (freshness.status !== 'loading' || !freshness.partial || !partial) return { ...base, resource: null, slots: [] };
    const snapshot = await structureSnapshot(deps.db, system.deviceId, partial.generation);
    const resource = snapshot.resourceById.get(resourceId.toLowerCase());
    if (!resource) throw new ApiError('not_found', msg('errors.noSuchResource'));
    const key = `${system.deviceId}|${partial.generation}|${resource.id}|${week.key}|${timeZone}|${system.scheduleBasis}|${system.bookingHorizonDays}`;
    const week$ = reusedPartialWeek(deps.db, key, nowMs, async () => {
      const generation = { generation: partial.generation };
      const range = { from: new Date(week.startMs - DAY_MS), to: new Date(week.endMs + DAY_MS), resourceId: resource.id };
      const list = await readReservations(deps.db, system.deviceId, range, generation);
      const ownerLabel = await ownerLabelsFor(deps.db, system.deviceId, list, snapshot.groupById, generation);
      const slots = overlayReservations(weekSlotsOf(snapshot, resource, week, timeZone, system.scheduleBasis), list, {
        now: nowMs,
        resourceId: resource.id,
        horizonEnd,
        ownerLabel,
        reservationsComplete: false,
      });
      return withRequestsAndClosures(resource, slots, read);
    });
    return { ...base, ...(await week$) };
  }

  const snapshot = await mirrorSnapshot(deps.db, system.deviceId, state);
  const resource = snapshot?.resourceById.get(resourceId.toLowerCase());
  if (!snapshot || !resource) throw new ApiError('not_found', msg('errors.noSuchResource'));
  const entry = weekEntry(snapshot, resource, week, timeZone, system.scheduleBasis);
  // Only a snapshot of the very generation the state row names may hold its reservations.
  const sameGeneration = snapshot.generation === state.generation && snapshot.refreshedAtMs === (state.refreshedAt?.getTime() ?? null);
  let held = sameGeneration && entry.reservations?.version === state.reservationsVersion ? entry.reservations : undefined;
  if (!held) {
    // A slot starting in the week may have a reservation starting up to a day earlier or later.
    const list = await readReservations(deps.db, system.deviceId, { ...around, resourceId: resource.id });
    held = { version: state.reservationsVersion, list, ownerLabel: await ownerLabelsFor(deps.db, system.deviceId, list, snapshot.groupById) };
    if (sameGeneration) entry.reservations = held;
  }
  const slots = overlayReservations(entry.slots, held.list, {
    now: nowMs,
    resourceId: resource.id,
    horizonEnd,
    ownerLabel: held.ownerLabel,
  });
  return { ...base, ...withRequestsAndClosures(resource, slots, read) };
}

/**
 * A first load's week, computed at most once a second per room and week (per database handle) and
 * shared by every poll meanwhile: pages check every second, and on PGlite each read runs on the
 * thread that also writes the load's pages, so a second's staleness buys a load not slowed by its
 * watchers (the freshness itself is read per request).
 */
const PARTIAL_REUSE_MS = 1_000;
const partialWeeks = new WeakMap<Database, Map<string, { atMs: number; week: Promise<PartialWeek> }>>();
type PartialWeek = Pick<ResourceWeekView, 'resource' | 'slots' | 'requests' | 'origins'>;

function reusedPartialWeek(db: Database, key: string, nowMs: number, compute: () => Promise<PartialWeek>): Promise<PartialWeek> {
  let held = partialWeeks.get(db);
  if (!held) {
    held = new Map();
    partialWeeks.set(db, held);
  }
  const hit = held.get(key);
  if (hit && nowMs >= hit.atMs && nowMs - hit.atMs < PARTIAL_REUSE_MS) return hit.week;
  const entry = { atMs: nowMs, week: compute() };
  if (held.size >= WEEKS_PER_SNAPSHOT) held.clear();
  held.set(key, entry);
  entry.week.catch(() => {
    if (held.get(key) === entry) held.delete(key);
  });
  return entry.week;
}

/** The week's open requests, portal origins and room closures (read with the state row), added to its slots. */
function withRequestsAndClosures(
  resource: SnapshotResource,
  slots: StatefulSlot[],
  read: { requests: readonly RequestRow[]; closures: readonly ClosureWindow[] },
): PartialWeek {
  // Bookings (not Service windows) may have been made through the portal: the dialog says by whom.
  const booked = new Set<string>();
  for (const slot of slots) for (const r of slot.reservations) if (r.ownerType !== 'Service') booked.add(r.id);
  const { open: requests, origins } = weekRequestsOf(read.requests, booked);
  // Their slots are closed: shown "Closed: reason", never bookable.
  markClosedSlots(slots, resource.id, read.closures);
  return { resource: { id: resource.id, name: resource.name, description: resource.description }, slots, requests, origins };
}
