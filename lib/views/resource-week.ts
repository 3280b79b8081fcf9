import 'server-only';
import { ApiError } from '@/lib/errors/api-error';
import type { Database } from '@/lib/db';
import { msg } from '@/lib/i18n/message';
import { partialLoadOf } from '@/lib/mirror/refresh';
import { mirrorSnapshot, structureSnapshot, type MirrorSnapshot, type SnapshotResource } from '@/lib/mirror/snapshot';
import { readReservations, stateRead } from '@/lib/mirror/store';
import { readTogether, type ReadResults } from '@/lib/db/read-together';
import type { MirrorReservation } from '@/lib/mirror/types';
import { weekRequestsOf, weekRequestsRead, type RequestRow } from '@/lib/reservations/lifecycle';
import { activationWindowOf, bookingHorizonEnd, daysAheadOf, markClosedSlots, releaseAtMs, type ClosureWindow } from '@/lib/booking-rules';
import { bookingRulesRead } from '@/lib/systems/booking-rules';
import { closureWindowsRead } from '@/lib/closures/read';
import {
  bookableUntil,
  instantOfWallTime,
  overlayReservations,
  reservationSlots,
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
import { wallClock } from '@/lib/schedule/zoned';
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
 * What a room's week is computed from besides the mirror's snapshot, read in one statement: the
 * system's state row, the room's requests around the week and the system's closures. `range`
 * must cover the week and a day either side in the system's zone (see anyZoneWeekRange).
 */
export function weekInputReads(deviceId: string, resourceId: string, range: { from: Date; to: Date }) {
  return {
    state: stateRead(deviceId),
    requests: weekRequestsRead(deviceId, resourceId.toLowerCase(), range.from, range.to),
    closures: closureWindowsRead(deviceId, range.from),
    rules: bookingRulesRead(deviceId),
  };
}
export type WeekInputs = ReadResults<ReturnType<typeof weekInputReads>>;

/** Clocks run at most 14 hours from UTC: a zone's week lies within its UTC week widened by this. */
const ZONE_SPREAD_MS = 14 * 3_600_000;

/**
 * A range that covers week `weekKey` (or the week of now) and a day either side in any zone, so
 * the inputs can be read in the statement that also reads the system (and its zone).
 */
export function anyZoneWeekRange(weekKey: string | undefined, nowMs: number): { from: Date; to: Date } {
  if (weekKey === undefined) return { from: new Date(nowMs - 7 * DAY_MS - DAY_MS - ZONE_SPREAD_MS), to: new Date(nowMs + 7 * DAY_MS + DAY_MS + ZONE_SPREAD_MS) };
  const week = weekFromKey(weekKey, 'UTC');
  return { from: new Date(week.startMs - DAY_MS - ZONE_SPREAD_MS), to: new Date(week.endMs + DAY_MS + ZONE_SPREAD_MS) };
}

/** The inputs of exactly [from, to), from inputs read over a range covering it (what the statement would have found). */
function within(inputs: WeekInputs, around: { from: Date; to: Date }): WeekInputs {
  const from = around.from.getTime();
  const to = around.to.getTime();
  return {
    state: inputs.state,
    // As the statement's comparisons: a request without times matches none of them.
    requests: inputs.requests.filter((r) => r.startTime !== null && r.endTime !== null && r.startTime.getTime() < to && r.startTime.getTime() > from - DAY_MS && r.endTime.getTime() > from),
    closures: inputs.closures.filter((c) => c.endMs > from),
    rules: inputs.rules,
  };
}

/**
 * The resource page: one week of a resource's slots (in the system's zone) with their states and
 * holders, the booking horizon and the neighbouring week keys. `weekKey` must be valid (callers
 * parse it with weekKeySchema); it defaults to the current week. During a first load whose rooms
 * and schedules are in (freshness.partial), the week's slots with the bookings read so far; every
 * other slot is 'loading' and none is bookable (lib/booking-rules reservations-known). `inputs`,
 * when the caller read them (weekInputReads over a covering range), saves the statement.
 */
export async function loadResourceWeek(
  deps: ViewDeps,
  system: SystemPublic,
  resourceId: string,
  weekKey?: string,
  inputs?: WeekInputs,
): Promise<ResourceWeekView> {
  const computed = await computeResourceWeek(deps, system, resourceId, weekKey, inputs);
  return computed.kind === 'view' ? computed.view : computed.compute();
}

/**
 * The week API's answer as JSON, held until something it shows could change: the same inputs
 * (state row and freshness, requests, closures, the system's settings) and no slot starting,
 * ending or coming within the booking horizon since, for at most WEEK_JSON_HOLD_MS. A warm grid
 * read then costs its statement and this comparison. `generatedAt` is when it was computed.
 * Answers during a first load are not held.
 */
export async function resourceWeekJson(deps: ViewDeps, system: SystemPublic, resourceId: string, weekKey: string | undefined, inputs: WeekInputs): Promise<string> {
  const computed = await computeResourceWeek(deps, system, resourceId, weekKey, inputs);
  if (computed.kind === 'view') return JSON.stringify(computed.view);
  let held = weekJsons.get(deps.db);
  if (!held) {
    held = new Map();
    weekJsons.set(deps.db, held);
  }
  const entry = held.get(computed.place);
  if (entry && entry.key === computed.key && computed.nowMs >= entry.computedAtMs && computed.nowMs < entry.validUntilMs) return entry.json;
  const view = computed.compute();
  const json = JSON.stringify(view);
  // A booking released (not activated in time) frees its slot at its release instant too.
  const nextRelease = computed.releases.reduce((next, at) => (at > computed.nowMs && at < next ? at : next), Number.POSITIVE_INFINITY);
  const validUntilMs = Math.min(computed.nowMs + WEEK_JSON_HOLD_MS, nextSlotChange(view.slots, computed.nowMs, view.horizonEnd - computed.nowMs), nextRelease);
  if (held.size >= WEEKS_PER_SNAPSHOT) held.clear();
  held.set(computed.place, { key: computed.key, json, computedAtMs: computed.nowMs, validUntilMs });
  return json;
}

/** The longest a week's JSON is held: the current week's key and "today" move on with the clock. */
export const WEEK_JSON_HOLD_MS = 30_000;
const weekJsons = new WeakMap<Database, Map<string, { key: string; json: string; computedAtMs: number; validUntilMs: number }>>();

/** The first instant after `nowMs` at which a slot's state could change by time alone (it starts, ends, or comes within the horizon). */
export function nextSlotChange(slots: readonly Pick<ScheduleSlot, 'startMs' | 'endMs'>[], nowMs: number, horizonMs: number): number {
  let next = Number.POSITIVE_INFINITY;
  for (const slot of slots) {
    for (const at of [slot.startMs, slot.endMs, slot.endMs - horizonMs]) if (at > nowMs && at < next) next = at;
  }
  return next;
}

/**
 * The week's view, or (warm, ready) a key naming everything it depends on and the means to
 * compute it: the JSON cache compares the key before paying for the computation.
 */
async function computeResourceWeek(
  deps: ViewDeps,
  system: SystemPublic,
  resourceId: string,
  weekKey: string | undefined,
  given: WeekInputs | undefined,
): Promise<{ kind: 'view'; view: ResourceWeekView } | { kind: 'warm'; place: string; key: string; nowMs: number; compute: () => ResourceWeekView; releases: readonly number[] }> {
  const now = deps.now?.() ?? new Date();
  const nowMs = now.getTime();
  const timeZone = system.timeZone;
  const current = weekKeyOf(nowMs, timeZone);
  const week = weekFromKey(weekKey ?? current, timeZone);
  const nav = { previous: shiftWeekKey(week.key, -1), next: shiftWeekKey(week.key, 1), current };
  const horizonEnd = bookingHorizonEnd(nowMs, system.bookingHorizonDays);
  // Not a room id at all: no such room (the reads below compare it as a uuid).
  if (!isUuid(resourceId)) throw new ApiError('not_found', msg('errors.noSuchResource'));
  // The state row, the room's week of requests and the system's closures: one statement (or
  // read by the caller, with the system, over a range covering any zone's week).
  const around = { from: new Date(week.startMs - DAY_MS), to: new Date(week.endMs + DAY_MS) };
  const read = given ? within(given, around) : await readTogether(deps.db, weekInputReads(system.deviceId, resourceId, around));
  const { freshness, state } = await systemMirror(deps, system.deviceId, read.state);
  const base = { system, week, horizonEnd, bookableUntil: null, freshness, nav, generatedAt: nowMs, requests: [], origins: [] };
  // The room group's activation window: an unused booking past it is released, as the service does.
  const activationMinutes = activationWindowOf(resourceId.toLowerCase(), read.rules);
  if (freshness.status === 'loading' || !state) {
    // A first load whose rooms and schedules are in: the week at once, its bookings as read so far.
    const partial = partialLoadOf(state);
    if (freshness.status !== 'loading' || !freshness.partial || !partial) return { kind: 'view', view: { ...base, resource: null, slots: [] } };
    const snapshot = await structureSnapshot(deps.db, system.deviceId, partial.generation);
    const resource = snapshot.resourceById.get(resourceId.toLowerCase());
    if (!resource) throw new ApiError('not_found', msg('errors.noSuchResource'));
    const daysAhead = daysAheadOf(resource.id, read.rules, (id) => snapshot.resourceById.get(id)?.name);
    const key = `${system.deviceId}|${partial.generation}|${resource.id}|${week.key}|${timeZone}|${system.scheduleBasis}|${system.bookingHorizonDays}|${JSON.stringify(daysAhead)}`;
    const week$ = reusedPartialWeek(deps.db, key, nowMs, async () => {
      const generation = { generation: partial.generation };
      const range = { from: new Date(week.startMs - DAY_MS), to: new Date(week.endMs + DAY_MS), resourceId: resource.id };
      const list = await readReservations(deps.db, system.deviceId, range, generation);
      const ownerLabel = await ownerLabelsFor(deps.db, system.deviceId, list, snapshot.groupById, generation);
      const laid = resource.scheduleListed ? weekSlotsOf(snapshot, resource, week, timeZone, system.scheduleBasis) : reservationSlots(list, week.startMs, week.endMs, timeZone);
      const slots = overlayReservations(laid, list, {
        now: nowMs,
        resourceId: resource.id,
        horizonEnd,
        ownerLabel,
        reservationsComplete: false,
        activationMinutes,
        daysAhead,
      });
      return withRequestsAndClosures(resource, slots, read);
    });
    return { kind: 'view', view: { ...base, bookableUntil: bookableUntilOf(resource, system, nowMs, horizonEnd, daysAhead), ...(await week$) } };
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
  const reservations = held;
  // The room group's "only N days ahead": the same rule the handler refuses by (lib/booking-rules).
  const daysAhead = daysAheadOf(resource.id, read.rules, (id) => snapshot.resourceById.get(id)?.name);
  const compute = (): ResourceWeekView => {
    // A room whose schedule the service does not list: its bookings at their own times (issue 47).
    const laid = resource.scheduleListed ? entry.slots : reservationSlots(reservations.list, week.startMs, week.endMs, timeZone);
    const slots = overlayReservations(laid, reservations.list, { now: nowMs, resourceId: resource.id, horizonEnd, ownerLabel: reservations.ownerLabel, activationMinutes, daysAhead });
    return { ...base, bookableUntil: bookableUntilOf(resource, system, nowMs, horizonEnd, daysAhead), ...withRequestsAndClosures(resource, slots, read) };
  };
  // Everything the answer depends on besides the clock: the system's settings, the room and week,
  // the freshness (from the state row and the policy), the reservations' generation and version,
  // the requests and closures read.
  const key = JSON.stringify([system, resource.id, week.key, nav.current, freshness, state.generation, state.refreshedAt, state.reservationsVersion, read.requests, read.closures, activationMinutes, daysAhead]);
  const releases: number[] = activationMinutes === null ? [] : reservations.list.map((r) => releaseAtMs({ startMs: Date.parse(r.startTime), endMs: Date.parse(r.endTime), status: r.status }, activationMinutes)).filter((at): at is number => at !== null);
  // A group's days ahead move on at local midnight: a slot of the next day comes within reach then.
  if (daysAhead) releases.push(nextLocalMidnight(nowMs, timeZone));
  return { kind: 'warm', place: `${system.deviceId}|${resource.id}|${week.key}`, key, nowMs, compute, releases };
}

/** "Bookable until" for the room (lib/schedule bookableUntil); null for a room without a listed schedule. */
function bookableUntilOf(resource: SnapshotResource, system: SystemPublic, nowMs: number, horizonEndMs: number, daysAhead: { days: number } | null): number | null {
  if (!resource.scheduleListed) return null;
  return bookableUntil(resource.schedule, { nowMs, horizonEndMs, daysAhead: daysAhead?.days ?? null, timeZone: system.timeZone, basis: system.scheduleBasis });
}

/** The next local midnight after `nowMs` in the zone. */
function nextLocalMidnight(nowMs: number, timeZone: string): number {
  const today = wallClock(nowMs, timeZone);
  return instantOfWallTime(today.year, today.month - 1, today.day + 1, 0, timeZone);
}

/**
 * A first load's week, computed at most once a second per room and week (per database handle) and
 * shared by every poll meanwhile: pages check every second, and on PGlite each read runs on the
 * thread that also writes the load's pages, so a second's staleness buys a load not slowed by its
 * watchers (the freshness itself is read per request).
 */
const PARTIAL_REUSE_MS = 1_000;
const partialWeeks = new WeakMap<Database, Map<string, { atMs: number; week: Promise<PartialWeek> }>>();
type PartialWeek = Pick<ResourceWeekView, 'resource' | 'slots' | 'requests' | 'origins' | 'noListedSchedule'>;

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
  const room = { id: resource.id, name: resource.name, description: resource.description };
  if (resource.scheduleListed) return { resource: room, slots, requests, origins };
  // No schedule listed: the bookings are shown, and no slot of it may be booked (the handler refuses too).
  for (const slot of slots) slot.bookable = false;
  return { resource: room, slots, requests, origins, noListedSchedule: true };
}
