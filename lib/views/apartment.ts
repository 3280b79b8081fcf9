import 'server-only';
import { closureNotes } from './closure-notes';
import { readClosureWindows } from '@/lib/closures/read';
import { ApiError } from '@/lib/errors/api-error';
import { msg } from '@/lib/i18n/message';
import { DEFAULT_BOOKING_HORIZON_DAYS, bookingHorizonEnd, closureOver, futureCount, groupBreach, hasStarted, lookBackMs, type HeldBooking, type RuleSet } from '@/lib/booking-rules';
import type { Database } from '@/lib/db';
import { mirrorSnapshot, type MirrorSnapshot, type SnapshotResource } from '@/lib/mirror/snapshot';
import { readReservations, readReservationsOfApartment, readUsers } from '@/lib/mirror/store';
import type { MirrorReservation, MirrorState, MirrorUserGroup } from '@/lib/mirror/types';
import { apartmentAuthorizations } from '@/lib/reservations/apartment-access';
import { listApartmentRequests, listBookingOrigins, listOpenBookingsInWindow, type ApartmentKeys } from '@/lib/reservations/lifecycle';
import { heldPerResource, readApartmentHistory, readApartmentHoldings } from '@/lib/reservations/quota';
import { formatClock, guessResourceKind, weekFromKey, weekKeyOf, shiftWeekKey, type ResourceKind, type ScheduleSlot, type WeekInfo } from '@/lib/schedule';
import { nextFreeSlots, type BusyInterval, type DayPart, type NextFreeResource } from '@/lib/schedule/next-free';
import type { ServiceClient } from '@/lib/service';
import type { SystemPublic } from '@/lib/systems/schemas';
import { readResourceKinds } from '@/lib/systems/store';
import { readBookingRules } from '@/lib/systems/booking-rules';
import { log } from '@/lib/log';
import { refreshApartmentBookings } from '@/lib/mirror/apartment-refresh';
import { budgetOf, systemMirror, type ViewDeps } from './freshness';
import { weekSlotsOf } from './week-slots';
import { HISTORY_LIMIT, PAST_WEEKS, type ApartmentBooking, type ApartmentRoom, type ApartmentTitle, type ApartmentView, type NextFreeView } from './apartment-types';

const DAY_MS = 86_400_000;

/** The views' dependencies and the upstream lookup of the apartment's authorizations. */
export interface ApartmentDeps extends ViewDeps {
  client: ServiceClient;
  /** The system's API key, or null when it is not connected (authorizations are then unknown). */
  apiKeyFor: (deviceId: string) => Promise<string | null | undefined>;
}

/** The apartment's number, else the group's name, else unnamed (labels may be empty upstream); pages word it. */
export function apartmentTitle(group: { apartmentId: string; name: string }): ApartmentTitle {
  const apartment = group.apartmentId.trim();
  const name = group.name.trim();
  return { kind: apartment ? 'apartment' : name ? 'name' : 'unnamed', apartment, name };
}

interface Loaded {
  state: MirrorState;
  snapshot: MirrorSnapshot;
  group: MirrorUserGroup;
  freshness: ApartmentView['freshness'];
}

/** The system's current mirror and the group in it; 404 for a group the system does not have (tampered ids). */
async function loadGroup(deps: ViewDeps, system: SystemPublic, groupId: string): Promise<Loaded> {
  const { freshness, state } = await systemMirror(deps, system.deviceId);
  if (freshness.status === 'loading' || !state) {
    throw new ApiError('service_unavailable', msg('errors.stillLoading'), { 'Retry-After': '5' });
  }
  const snapshot = await mirrorSnapshot(deps.db, system.deviceId, state);
  const group = snapshot?.groupById.get(groupId.toLowerCase());
  if (!snapshot || !group) throw new ApiError('not_found', msg('errors.noSuchApartment'));
  return { state, snapshot, group, freshness };
}

async function apartmentKeysOf(db: Database, deviceId: string, groupId: string) {
  const members = await readUsers(db, deviceId, [groupId]);
  return { members, keys: { groupId, userIds: members.map((m) => m.id) } satisfies ApartmentKeys };
}

async function authorizationsOf(deps: ApartmentDeps, deviceId: string, group: MirrorUserGroup): Promise<ReadonlySet<string> | null> {
  const apiKey = await deps.apiKeyFor(deviceId).catch((error: unknown) => {
    log.warn('apartment authorizations unknown: no API key', { deviceId, error });
    return null;
  });
  return apiKey ? apartmentAuthorizations(deps.client, apiKey, deviceId, group) : null;
}

function kindOf(resource: SnapshotResource, kinds: ReadonlyMap<string, ResourceKind>): ResourceKind {
  return kinds.get(resource.id) ?? guessResourceKind(resource.name, resource.description);
}

function statusOf(status: string): ApartmentBooking['status'] {
  return status === 'Used' || status === 'Unused' ? status : 'Unknown';
}

/** The apartment page: residents, rooms with quota, bookings ahead and behind, open requests and history. */
export async function loadApartment(deps: ApartmentDeps, system: SystemPublic, groupId: string): Promise<ApartmentView> {
  return apartmentView(deps, system, await readApartment(deps, system, groupId));
}

/** The apartment page's two parts, sharing one read of the apartment (its group, users, holdings, rooms). */
export async function loadApartmentPage(deps: ApartmentDeps, system: SystemPublic, groupId: string): Promise<{ view: ApartmentView; nextFree: NextFreeView }> {
  const apartment = await readApartment(deps, system, groupId);
  const [view, nextFree] = await Promise.all([apartmentView(deps, system, apartment), nextFreeView(deps, system, apartment, {})]);
  return { view, nextFree };
}

/** What both the apartment view and its next free slots start from, read once. */
interface ApartmentRead extends Loaded {
  now: Date;
  members: Awaited<ReturnType<typeof apartmentKeysOf>>['members'];
  keys: ApartmentKeys;
  holdings: Awaited<ReturnType<typeof readApartmentHoldings>>;
  allowed: ReadonlySet<string> | null;
  kinds: ReadonlyMap<string, ResourceKind>;
  /** The system's rule groups (issue 35) and, when it has any, the apartment's bookings they count (past ones back the longest window). */
  rules: RuleSet | null;
  history: HeldBooking[];
}

async function readApartment(deps: ApartmentDeps, system: SystemPublic, groupId: string): Promise<ApartmentRead> {
  const now = deps.now?.() ?? new Date();
  const loaded = await loadGroup(deps, system, groupId);
  const { deviceId } = system;
  const { members, keys } = await apartmentKeysOf(deps.db, deviceId, loaded.group.id);
  await refreshBookingsOf(deps, deviceId, loaded.group.id, keys.userIds);
  const [holdings, allowed, kinds, rules] = await Promise.all([
    readApartmentHoldings(deps.db, deviceId, keys, now),
    authorizationsOf(deps, deviceId, loaded.group),
    readResourceKinds(deps.db, deviceId),
    readBookingRules(deps.db, deviceId),
  ]);
  const lookBack = Math.max(0, ...(rules?.groups ?? []).map(lookBackMs));
  const history = rules?.groups.length ? await readApartmentHistory(deps.db, deviceId, keys, now, new Date(now.getTime() - lookBack - DAY_MS)) : [];
  return { ...loaded, now, members, keys, holdings, allowed, kinds, rules, history };
}

/** How long the page waits for its apartment's bookings from the service before it shows the copy (the refresh goes on). */
const APARTMENT_REFRESH_WAIT_MS = 1_500;

/**
 * The apartment's users' bookings read from the service and put into the copy first
 * (lib/mirror/apartment-refresh.ts): bookings made at the door panel show on its page at once.
 * Waits at most APARTMENT_REFRESH_WAIT_MS; without an API key nothing is done.
 */
async function refreshBookingsOf(deps: ApartmentDeps, deviceId: string, groupId: string, userIds: readonly string[]): Promise<void> {
  if (userIds.length === 0) return;
  const apiKey = await deps.apiKeyFor(deviceId).catch(() => null);
  if (!apiKey) return;
  const refresh = refreshApartmentBookings({ db: deps.db, client: deps.client, apiKey, freshnessMs: deps.freshnessMs, budgetPerHour: await budgetOf(deps, deviceId), now: deps.now }, deviceId, groupId, userIds);
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([refresh, new Promise<void>((resolve) => (timer = setTimeout(resolve, APARTMENT_REFRESH_WAIT_MS)))]).finally(() => clearTimeout(timer));
}

async function apartmentView(deps: ApartmentDeps, system: SystemPublic, apartment: ApartmentRead): Promise<ApartmentView> {
  const { now, state, snapshot, group, freshness, members, keys, holdings, allowed, kinds } = apartment;
  const nowMs = now.getTime();
  const { deviceId, timeZone } = system;
  const [past, history, closures] = await Promise.all([
    readReservationsOfApartment(deps.db, deviceId, keys, { from: new Date(nowMs - PAST_WEEKS * 7 * DAY_MS), to: now }),
    listApartmentRequests(deps.db, deviceId, keys, HISTORY_LIMIT),
    readClosureWindows(deps.db, deviceId, now),
  ]);
  const held = heldPerResource(holdings);
  const quota = system.bookingQuota;
  const rooms: ApartmentRoom[] = snapshot.resources.map((r) => {
    const base = { resourceId: r.id, name: r.name, kind: kindOf(r, kinds), allowed: allowed ? allowed.has(r.id) : null, closures: closureNotes(closures, r.id) };
    // A room in a rule group (issue 35): the group's bookings at a time, counted over all its rooms; no such limit, no quota to reach.
    const group = apartment.rules?.groups.find((g) => g.resourceIds.includes(r.id));
    if (group) {
      const n = futureCount(group, apartment.history, nowMs);
      if (group.maxFuture === null) return { ...base, held: held.get(r.id) ?? 0, quota, atQuota: false };
      // The same count the booking check uses (futureCount, as groupBreach's max-future rule), over the group's rooms.
      const shared = group.resourceIds.length > 1 ? { groupRooms: group.resourceIds.map((id) => snapshot.resourceById.get(id.toLowerCase())?.name || id) } : {};
      return { ...base, held: n, quota: group.maxFuture, atQuota: n >= group.maxFuture, ...shared };
    }
    const n = held.get(r.id) ?? 0;
    return { ...base, held: n, quota, atQuota: n >= quota };
  });

  const pastBookings = past.filter((r) => r.ownerType !== 'Service' && Date.parse(r.endTime) <= nowMs);
  const origins = new Map((await listBookingOrigins(deps.db, deviceId, [...holdings.bookings, ...pastBookings].map((r) => r.id))).map((o) => [o.reservationId, o]));
  const nameOf = new Map(members.map((m) => [m.id, m.name]));
  const toBooking = (r: MirrorReservation): ApartmentBooking => {
    const startMs = Date.parse(r.startTime);
    const endMs = Date.parse(r.endTime);
    const origin = origins.get(r.id);
    const resource = snapshot.resourceById.get(r.resourceId);
    return {
      reservationId: r.id,
      resourceId: r.resourceId,
      resourceName: resource?.name ?? '',
      roomListed: resource !== undefined,
      startTime: r.startTime,
      endTime: r.endTime,
      startMs,
      endMs,
      timeLabel: `${formatClock(startMs, timeZone)}–${formatClock(endMs, timeZone)}`,
      bookedByName: origin?.requestedByName ?? null,
      bookedThroughPortal: origin !== undefined,
      residentName: (r.userId ? nameOf.get(r.userId) : undefined) || origin?.residentName || null,
      status: statusOf(r.status),
      cancellable: !hasStarted({ startMs }, nowMs),
    };
  };
  // Open requests: those in the (capped) history, and the open bookings however old their request.
  const open = history.filter((r) => r.status === 'sending' || r.status === 'pending');
  const openIds = new Set(open.map((r) => r.id));
  for (const r of holdings.open) if (!openIds.has(r.id)) open.push(r);
  return {
    system: { deviceId, name: system.name, timeZone, bookingQuota: quota, bookingHorizonDays: system.bookingHorizonDays ?? DEFAULT_BOOKING_HORIZON_DAYS },
    group: { id: group.id, name: group.name, apartmentId: group.apartmentId, referenceId: group.referenceId },
    title: apartmentTitle(group),
    residents: members.map((m) => ({ userId: m.id, name: m.name, email: m.email })),
    residentsKnown: state.usersRefreshedAt !== null,
    authorizationsKnown: allowed !== null,
    rooms,
    upcoming: holdings.bookings.map(toBooking),
    past: pastBookings.map(toBooking).sort((a, b) => b.startMs - a.startMs),
    pastWeeks: PAST_WEEKS,
    open,
    history,
    historyLimit: HISTORY_LIMIT,
    freshness,
    generatedAt: nowMs,
  };
}

/** The resources' slots in [fromMs, toMs), from the weeks ./week-slots.ts keeps with the snapshot. */
function slotsCache(snapshot: MirrorSnapshot, timeZone: string, basis: SystemPublic['scheduleBasis']) {
  const weeks = new Map<string, WeekInfo>();
  const weekOf = (key: string): WeekInfo => {
    let week = weeks.get(key);
    if (!week) {
      week = weekFromKey(key, timeZone);
      weeks.set(key, week);
    }
    return week;
  };
  return (resource: NextFreeResource, fromMs: number, toMs: number): readonly ScheduleSlot[] => {
    const out: ScheduleSlot[] = [];
    const last = weekKeyOf(toMs - 1, timeZone);
    for (let key = weekKeyOf(fromMs, timeZone); ; key = shiftWeekKey(key, 1)) {
      for (const s of weekSlotsOf(snapshot, resource, weekOf(key), timeZone, basis)) if (s.startMs >= fromMs && s.startMs < toMs) out.push(s);
      if (key === last) break;
    }
    return out;
  };
}

/** How far the first read looks ahead; doubled while the answer could still change beyond it. */
const FIRST_WINDOW_MS = 2 * DAY_MS;

/**
 * The next free slots the apartment could book, across the rooms it may book and is under its
 * quota in. Reads only the reservations and open requests of the window it needs: two days first,
 * widened until the last slot found lies a day before the window's end (a slot lasts at most a
 * day, so none beyond could come before it) or the window reaches the horizon.
 */
export async function loadNextFree(
  deps: ApartmentDeps,
  system: SystemPublic,
  groupId: string,
  options: NextFreeOptions = {},
): Promise<NextFreeView> {
  return nextFreeView(deps, system, await readApartment(deps, system, groupId), options);
}

type NextFreeOptions = { kind?: ResourceKind; dayPart?: DayPart; count?: number };

async function nextFreeView(deps: ApartmentDeps, system: SystemPublic, apartment: ApartmentRead, options: NextFreeOptions): Promise<NextFreeView> {
  const { now, state, snapshot, holdings, allowed, kinds, rules, history } = apartment;
  const nowMs = now.getTime();
  const count = options.count ?? 5;
  const { deviceId, timeZone } = system;
  const held = new Map(heldPerResource(holdings));
  const quota = system.bookingQuota;
  // A room in a rule group is judged by its group, slot by slot (as the booking handler does), not by the quota per room.
  const groupOfRoom = (resourceId: string) => rules?.groups.find((g) => g.resourceIds.includes(resourceId));
  for (const id of held.keys()) if (groupOfRoom(id)) held.delete(id);
  // A closed room's slots are refused by the handler (closureOver): never suggested either.
  const closures = await readClosureWindows(deps.db, deviceId, now);
  const admits = (slot: { resourceId: string; startMs: number; endMs: number }) => {
    if (closureOver(slot, slot.resourceId, closures)) return false;
    const group = groupOfRoom(slot.resourceId);
    return !group || groupBreach(group, history, slot, nowMs, timeZone) === null;
  };
  const resources: NextFreeResource[] = snapshot.resources.map((r) => ({
    id: r.id,
    name: r.name,
    kind: kindOf(r, kinds),
    schedule: r.schedule,
    allowed: allowed ? allowed.has(r.id) : true,
  }));
  const groupFull = (id: string) => {
    const group = groupOfRoom(id);
    return group?.maxFuture != null && futureCount(group, history, nowMs) >= group.maxFuture;
  };
  const atQuota = resources
    .filter((r) => r.allowed && (groupOfRoom(r.id) ? groupFull(r.id) : (held.get(r.id) ?? 0) >= quota) && (!options.kind || r.kind === options.kind))
    .map((r) => r.name);
  const horizonEndMs = bookingHorizonEnd(nowMs, system.bookingHorizonDays ?? DEFAULT_BOOKING_HORIZON_DAYS);
  const slotsOf = slotsCache(snapshot, timeZone, system.scheduleBasis);
  const base = { resources, nowMs, timeZone, basis: system.scheduleBasis, held, quota, kind: options.kind, dayPart: options.dayPart, count, slotsOf, admits };
  const sameGeneration = snapshot.generation === state.generation && snapshot.refreshedAtMs === (state.refreshedAt?.getTime() ?? null);
  for (let window = FIRST_WINDOW_MS; ; window *= 4) {
    const limit = Math.min(horizonEndMs, nowMs + window);
    const [reservations, open] = await Promise.all([
      busyReservations(deps.db, deviceId, snapshot, sameGeneration ? state.reservationsVersion : null, nowMs, limit),
      listOpenBookingsInWindow(deps.db, deviceId, now, new Date(limit)),
    ]);
    const busy: BusyInterval[] = [
      ...reservations,
      ...open.flatMap((r) => (r.resourceId && r.startTime && r.endTime ? [{ resourceId: r.resourceId, startMs: Date.parse(r.startTime), endMs: Date.parse(r.endTime) }] : [])),
    ];
    const slots = nextFreeSlots({ ...base, horizonEndMs: limit, busy });
    const lastStart = slots.at(-1)?.startMs ?? Infinity;
    if (limit >= horizonEndMs || (slots.length >= count && lastStart <= limit - DAY_MS)) {
      return { slots, kind: options.kind ?? null, dayPart: options.dayPart ?? null, count, atQuota, timeZone, generatedAt: nowMs };
    }
  }
}

/**
 * The reservations of [fromMs, toMs) as busy intervals, kept with the generation's snapshot while
 * the state row's reservations_version is the one they were read under (every outcome applied in
 * place bumps it), as resource-week.ts keeps a week's. A read takes a day more than asked, so the
 * copy keeps serving while "now" moves on; a version of null (another generation) is never kept.
 */
interface BusyEntry {
  version: number;
  fromMs: number;
  toMs: number;
  list: readonly BusyInterval[];
}
const busyEntries = new WeakMap<MirrorSnapshot, BusyEntry>();

async function busyReservations(db: Database, deviceId: string, snapshot: MirrorSnapshot, version: number | null, fromMs: number, toMs: number): Promise<readonly BusyInterval[]> {
  const held = busyEntries.get(snapshot);
  if (version !== null && held && held.version === version && held.fromMs <= fromMs && held.toMs >= toMs) return held.list;
  const readTo = toMs + DAY_MS;
  const rows = await readReservations(db, deviceId, { from: new Date(fromMs), to: new Date(readTo) });
  const list = rows.map((r) => ({ resourceId: r.resourceId, startMs: Date.parse(r.startTime), endMs: Date.parse(r.endTime) }));
  if (version !== null) busyEntries.set(snapshot, { version, fromMs, toMs: readTo, list });
  return list;
}
