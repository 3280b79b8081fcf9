import 'server-only';
import type { RuleSet } from '@/lib/booking-rules';
import { readClosureWindows } from '@/lib/closures/read';
import type { Database } from '@/lib/db';
import { partialLoadOf } from '@/lib/mirror/refresh';
import { readReservationById, readReservations, readResources, readState, readTimeSchedules, readUserGroups } from '@/lib/mirror/store';
import type { ApartmentKeys } from '../lifecycle';
import { apartmentOf, heldPerResource, readApartmentHistory, readApartmentHoldings } from '../quota';
import { readBookingRules } from '@/lib/systems/booking-rules';
import { findResident, findUserName, type Resident } from '../residents';
import { stillLoading } from './refusals';
import type { ReservationDeps } from './types';

type Resources = Awaited<ReturnType<typeof readResources>>;
type Schedules = Awaited<ReturnType<typeof readTimeSchedules>>;
type Group = Awaited<ReturnType<typeof readUserGroups>>[number];

/** What the mirror says about a slot asked for: everything the slot rules need, read at once. */
export interface SlotFacts {
  /** False during a first load whose rooms are in but whose bookings are not. */
  reservationsKnown: boolean;
  resource: Resources[number] | undefined;
  schedule: Schedules[number] | undefined;
  closures: Awaited<ReturnType<typeof readClosureWindows>>;
  /** The mirror's bookings overlapping the slot in that room (none read while not known). */
  taken: readonly unknown[];
  /** The system's booking rules by group of rooms (null: the quota per room). */
  rules: RuleSet | null;
  /** Every room's name, for a group's rules in words. */
  roomNames: ReadonlyMap<string, string>;
}

/**
 * Step 2a, the slot's facts in one read: the mirror's state, then (together) the room, its
 * schedule, the closures and the bookings over the slot. During a first load whose rooms are in,
 * the rooms and schedules are that load's (the grid's rule: the slot is judged, never taken as free).
 */
export async function gatherSlotFacts(db: Database, deviceId: string, ask: { resourceId: string; startMs: number; endMs: number }): Promise<SlotFacts> {
  const state = await readState(db, deviceId);
  const partial = partialLoadOf(state);
  if (!state?.refreshedAt && !partial) throw stillLoading();
  const reservationsKnown = Boolean(state?.refreshedAt);
  const generation = partial && !reservationsKnown ? { generation: partial.generation } : {};
  const [resources, schedules, closures, taken, rules] = await Promise.all([
    readResources(db, deviceId, generation),
    readTimeSchedules(db, deviceId, generation),
    readClosureWindows(db, deviceId, new Date(ask.startMs)),
    reservationsKnown ? readReservations(db, deviceId, { from: new Date(ask.startMs), to: new Date(ask.endMs), resourceId: ask.resourceId }) : Promise.resolve([]),
    readBookingRules(db, deviceId),
  ]);
  const resource = resources.find((r) => r.id === ask.resourceId);
  const schedule = resource ? schedules.find((s) => s.id === resource.timeScheduleId) : undefined;
  return { reservationsKnown, resource, schedule, closures, taken, rules, roomNames: new Map(resources.map((r) => [r.id, r.name])) };
}

/** What the upstream and the mirror say about the resident a booking is for. */
export interface ResidentFacts {
  apiKey: string;
  resident: Resident | null;
  group: Group | undefined;
  apartmentKeys: ApartmentKeys | null;
}

/**
 * Step 2b, the resident's facts: asked of the upstream (cached, lib/reservations/residents.ts)
 * only once the slot passed its rules, so a refused slot costs no upstream call; with the
 * resident's group and apartment from the mirror.
 */
export async function gatherResidentFacts(deps: ReservationDeps, deviceId: string, residentUserId: string): Promise<ResidentFacts> {
  const apiKey = await deps.apiKeyFor(deviceId);
  const resident = await findResident(deps.client, apiKey, deviceId, residentUserId, async (groupId) => (await readUserGroups(deps.db, deviceId, [groupId]))[0]);
  if (!resident) return { apiKey, resident, group: undefined, apartmentKeys: null };
  const [group, apartmentKeys] = await Promise.all([
    resident.userGroupId ? readUserGroups(deps.db, deviceId, [resident.userGroupId]).then((groups) => groups[0]) : Promise.resolve(undefined),
    apartmentOf(deps.db, deviceId, resident),
  ]);
  return { apiKey, resident, group, apartmentKeys };
}

/** A rule group's facts, read inside the claim's transaction: the apartment's bookings from `from` on and its open requests. */
export function heldForGroup(tx: Database, deviceId: string, apartment: ApartmentKeys, now: Date, from: Date) {
  return readApartmentHistory(tx, deviceId, apartment, now, from);
}

/** The quota fact, read inside the claim's transaction: the apartment's bookings and open requests in the room. */
export async function heldInRoom(tx: Database, deviceId: string, apartment: ApartmentKeys, resourceId: string, now: Date): Promise<number> {
  return heldPerResource(await readApartmentHoldings(tx, deviceId, apartment, now)).get(resourceId) ?? 0;
}

/** A cancellation's facts: the booking, its room, its group and the resident's name. */
export async function gatherCancellationFacts(deps: ReservationDeps, deviceId: string, reservationId: string) {
  const state = await readState(deps.db, deviceId);
  if (!state?.refreshedAt) throw stillLoading();
  return readReservationById(deps.db, deviceId, reservationId);
}

/** After the owner and time rules passed: the names the request records (the upstream asked for the resident's). */
export async function gatherCancellationNames(deps: ReservationDeps, deviceId: string, reservation: { resourceId: string; ownerType: string; ownerId: string | null; userId: string | null }) {
  const apiKey = await deps.apiKeyFor(deviceId);
  const groupId = reservation.ownerType === 'Group' ? reservation.ownerId : null;
  const [resources, groups, residentName] = await Promise.all([
    readResources(deps.db, deviceId),
    groupId ? readUserGroups(deps.db, deviceId, [groupId]) : Promise.resolve([]),
    reservation.userId ? findUserName(deps.client, apiKey, deviceId, reservation.userId).catch(() => null) : Promise.resolve(null),
  ]);
  return { apiKey, groupId, resource: resources.find((r) => r.id === reservation.resourceId), group: groups[0], residentName };
}
