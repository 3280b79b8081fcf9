import 'server-only';
import { activationWindowOf, bookingHorizonEnd, daysAheadOf, releaseAtMs, withClosedSlots, type RuleSet } from '@/lib/booking-rules';
import { bookingRulesRead } from '@/lib/systems/booking-rules';
import { readTogether } from '@/lib/db/read-together';
import { closureWindowsRead } from '@/lib/closures/read';
import { mirrorSnapshot, type MirrorSnapshot } from '@/lib/mirror/snapshot';
import { readReservations } from '@/lib/mirror/store';
import type { MirrorReservation } from '@/lib/mirror/types';
import { listOpenBookingsInWindow } from '@/lib/reservations/lifecycle';
import {
  MAX_WEEK_YEAR,
  MIN_WEEK_YEAR,
  instantOfWallTime,
  overlayReservations,
  weekOf,
  type LocalDay,
  type Owner,
  type ScheduleReservation,
  type StatefulSlot,
  type WeekInfo,
} from '@/lib/schedule';
import { applyOpenRequests, type SlotRequest } from '@/lib/schedule/pending';
import { isoDate, wallClock } from '@/lib/schedule/zoned';
import type { SystemPublic } from '@/lib/systems/schemas';
import type { RequestView } from '@/lib/events/types';
import { systemMirror, type ViewDeps } from './freshness';
import { ownerLabelsFor } from './owner-labels';
import type { Freshness } from './types';
import { weekSlotsOf } from './week-slots';

const DAY_MS = 86_400_000;
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

export type BuildingMode = 'day' | 'week';

/** What a booked slot shows: the default words and counts, or the apartment that holds it (`?show=apartments`). */
export type BuildingShow = 'default' | 'apartments';

/** Why the address's day or view was refused (the page says so and shows today instead). */
export type BuildingParamProblem = { kind: 'day'; input: string } | { kind: 'view'; input: string } | { kind: 'room'; input: string } | { kind: 'show'; input: string };

export interface BuildingParams {
  /** Local calendar date `yyyy-MM-dd`; undefined = today in the system's zone. */
  day: string | undefined;
  mode: BuildingMode;
  onlyFree: boolean;
  /** One room only (the phone's room switcher); undefined = every room. */
  roomId: string | undefined;
  show: BuildingShow;
  problems: BuildingParamProblem[];
}

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
const truncate = (value: string) => (value.length > 40 ? `${value.slice(0, 40)}…` : value);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A real calendar date `yyyy-MM-dd` within the years the week keys allow, else null. */
export function parseDay(input: string): string | null {
  const match = DATE_PATTERN.exec(input);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < MIN_WEEK_YEAR || year > MAX_WEEK_YEAR) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return input;
}

/**
 * The page's search parameters: `?day=yyyy-MM-dd`, `?view=day|week`, `?free=1`, `?room=<id>`,
 * `?show=apartments`.
 * Anything mistyped falls back to its default and is named in `problems` (never silently).
 */
export function buildingParams(query: Record<string, string | string[] | undefined>): BuildingParams {
  const problems: BuildingParamProblem[] = [];
  const dayAsked = first(query.day);
  let day: string | undefined;
  if (dayAsked) {
    day = parseDay(dayAsked) ?? undefined;
    if (!day) problems.push({ kind: 'day', input: truncate(dayAsked) });
  }
  const viewAsked = first(query.view);
  let mode: BuildingMode = 'day';
  if (viewAsked === 'week' || viewAsked === 'day') mode = viewAsked;
  else if (viewAsked) problems.push({ kind: 'view', input: truncate(viewAsked) });
  const roomAsked = first(query.room);
  let roomId: string | undefined;
  if (roomAsked) {
    if (UUID.test(roomAsked)) roomId = roomAsked.toLowerCase();
    else problems.push({ kind: 'room', input: truncate(roomAsked) });
  }
  const showAsked = first(query.show);
  let show: BuildingShow = 'default';
  if (showAsked === 'apartments') show = 'apartments';
  else if (showAsked) problems.push({ kind: 'show', input: truncate(showAsked) });
  const free = first(query.free);
  return { day, mode, onlyFree: free === '1' || free === 'true' || free === 'on', roomId, show, problems };
}

export interface BuildingRoom {
  id: string;
  name: string;
  description: string;
  /** The window's slots (those starting in it), with their states, earliest first. */
  slots: StatefulSlot[];
  /** Slots a booking may be requested for now (the grid's `bookable`). */
  free: number;
  /** Slots booked, used, pending or under maintenance. */
  taken: number;
}

export interface BuildingView {
  system: SystemPublic;
  mode: BuildingMode;
  /** The day asked for, and the ISO week that contains it (both local to the system's zone). */
  day: LocalDay;
  week: WeekInfo;
  /** The shown days: one, or the week's seven. */
  days: LocalDay[];
  /** Dates of the neighbouring day or week (as the mode steps) and today's. */
  nav: { previous: string; next: string; today: string };
  freshness: Freshness;
  /** Every room of the system (for the room switcher), sorted by name. */
  allRooms: { id: string; name: string }[];
  /** The rooms shown after the filters, sorted by name. */
  rooms: BuildingRoom[];
  /** The asked room is not one of the system's (the page says so). */
  unknownRoom: boolean;
  horizonEnd: number;
  generatedAt: number;
}

/**
 * What a warm read would otherwise read again: a week's reservations of every room (one query),
 * grouped by room, with their owner labels, valid while the state row's reservations_version is
 * the one they were read under. Kept with the generation's snapshot, a few weeks per system.
 */
interface HeldWeek {
  version: number;
  byResource: Map<string, MirrorReservation[]>;
  ownerLabel: (r: ScheduleReservation) => Owner | null;
  /** The last overlay of every room's week (see overlaidWeek). */
  overlay?: HeldOverlay;
}

/**
 * Every room's week overlaid at `nowMs`: the same answer for any later instant before the next
 * instant at which a slot starts or ends (past, running, bookable change) or leaves the booking
 * horizon (`changes`, sorted). A warm read within it does no overlay work at all.
 */
interface HeldOverlay {
  nowMs: number;
  horizonDays: number;
  basis: string;
  /** The booking rules it was overlaid with (their activation windows release unused bookings). */
  rules: RuleSet | null;
  changes: Float64Array;
  byResource: Map<string, StatefulSlot[]>;
}
const WEEKS_HELD = 16;
const heldWeeks = new WeakMap<MirrorSnapshot, Map<string, HeldWeek>>();

async function weekReservations(deps: ViewDeps, snapshot: MirrorSnapshot, week: WeekInfo, version: number, sameGeneration: boolean): Promise<HeldWeek> {
  let held = heldWeeks.get(snapshot);
  if (!held) {
    held = new Map();
    heldWeeks.set(snapshot, held);
  }
  const known = held.get(week.key);
  if (sameGeneration && known?.version === version) return known;
  // A slot starting in the week may have a reservation starting up to a day earlier or later.
  const list = await readReservations(deps.db, snapshot.deviceId, { from: new Date(week.startMs - DAY_MS), to: new Date(week.endMs + DAY_MS) });
  const byResource = new Map<string, MirrorReservation[]>();
  for (const r of list) {
    let of = byResource.get(r.resourceId);
    if (!of) byResource.set(r.resourceId, (of = []));
    of.push(r);
  }
  const entry: HeldWeek = { version, byResource, ownerLabel: await ownerLabelsFor(deps.db, snapshot.deviceId, list, snapshot.groupById) };
  // Another generation's copy is used once, for this read, and not kept.
  if (sameGeneration) {
    if (held.size >= WEEKS_HELD) held.clear();
    held.set(week.key, entry);
  }
  return entry;
}

/** Index of the first value > ms in a sorted array. */
function firstAfter(sorted: Float64Array, ms: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! <= ms) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Every room's slots of the week with their states at `nowMs` (held until a slot's state could
 * change). The slot objects are shared by every read that finds them held: never change them in
 * place (closures are marked on copies by withClosedSlots).
 */
function overlaidWeek(snapshot: MirrorSnapshot, held: HeldWeek, week: WeekInfo, system: SystemPublic, nowMs: number, horizonEnd: number, rules: RuleSet | null): Map<string, StatefulSlot[]> {
  const prior = held.overlay;
  if (prior && JSON.stringify(prior.rules) === JSON.stringify(rules) && prior.horizonDays === system.bookingHorizonDays && prior.basis === system.scheduleBasis && prior.nowMs <= nowMs) {
    // Unchanged while no slot boundary (nor a slot end shifted by the horizon) lies in (then, now].
    const next = firstAfter(prior.changes, prior.nowMs);
    if (next >= prior.changes.length || prior.changes[next]! > nowMs) return prior.byResource;
  }
  const horizonMs = horizonEnd - nowMs;
  const byResource = new Map<string, StatefulSlot[]>();
  const changes: number[] = [];
  for (const resource of snapshot.resources) {
    const expanded = weekSlotsOf(snapshot, resource, week, system.timeZone, system.scheduleBasis);
    for (const slot of expanded) changes.push(slot.startMs, slot.endMs, slot.endMs - horizonMs);
    const list = held.byResource.get(resource.id) ?? [];
    // An unused booking not activated within its group's window is released then (as the service does).
    const activationMinutes = activationWindowOf(resource.id, rules);
    for (const r of activationMinutes === null ? [] : list) {
      const at = releaseAtMs({ startMs: Date.parse(r.startTime), endMs: Date.parse(r.endTime), status: r.status }, activationMinutes);
      if (at !== null) changes.push(at);
    }
    // The room group's "only N days ahead", as the handler refuses it (lib/booking-rules).
    const daysAhead = daysAheadOf(resource.id, rules, (id) => snapshot.resourceById.get(id)?.name);
    byResource.set(resource.id, overlayReservations(expanded, list, { now: nowMs, resourceId: resource.id, horizonEnd, ownerLabel: held.ownerLabel, activationMinutes, daysAhead }));
  }
  // Days ahead move on at local midnight: the next day's slots come within reach then.
  if (rules?.groups.some((g) => g.daysAhead !== null)) {
    const today = wallClock(nowMs, system.timeZone);
    changes.push(instantOfWallTime(today.year, today.month - 1, today.day + 1, 0, system.timeZone));
  }
  held.overlay = { nowMs, horizonDays: system.bookingHorizonDays, basis: system.scheduleBasis, rules, changes: Float64Array.from(changes).sort(), byResource };
  return byResource;
}

function ownerOfRequest(r: RequestView): Owner | null {
  if (r.residentApartment) return { kind: 'apartment', apartment: r.residentApartment };
  return r.residentName ? { kind: 'name', name: r.residentName } : null;
}

/** The local day `date` (yyyy-MM-dd) in the zone, with the week that contains it. */
function localDay(date: string, timeZone: string): { day: LocalDay; week: WeekInfo } {
  const [year, month, dayOfMonth] = date.split('-').map(Number) as [number, number, number];
  const startMs = instantOfWallTime(year, month - 1, dayOfMonth, 0, timeZone);
  const week = weekOf(startMs, timeZone);
  const day = week.days.find((d) => d.date === date) ?? week.days[0]!;
  return { day, week };
}

/** The date `delta` calendar days after `date`. */
function shiftDate(date: string, delta: number): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const shifted = new Date(Date.UTC(year, month - 1, day + delta));
  return shifted.toISOString().slice(0, 10);
}

const TAKEN = new Set<StatefulSlot['state']>(['booked', 'used', 'pending', 'maintenance']);

/** The mirror as read once for a span of whole weeks: its freshness, its snapshot, and the kept rooms' slots. */
interface SpanRead {
  freshness: Freshness;
  snapshot: MirrorSnapshot | null;
  rooms: { resource: MirrorSnapshot['resources'][number]; slots: StatefulSlot[] }[];
}

/**
 * Every kept room's slots of the ISO weeks `weeks` (in order, none twice), with their states at
 * now, open requests and closures — from the mirror read once for the whole span: one freshness
 * check, one read of the open requests and one of the closures and rules for [from, to), and each
 * week's reservations (held per week). `window` limits the slots to those starting in [from, to).
 */
async function readSpan(
  deps: ViewDeps,
  system: SystemPublic,
  span: { weeks: readonly WeekInfo[]; from: number; to: number; window: boolean; nowMs: number; horizonEnd: number },
  keep: (resourceId: string, snapshot: MirrorSnapshot) => boolean,
): Promise<SpanRead> {
  const { nowMs, horizonEnd } = span;
  const { freshness, state } = await systemMirror(deps, system.deviceId);
  if (freshness.status === 'loading' || !state) return { freshness, snapshot: null, rooms: [] };
  const snapshot = await mirrorSnapshot(deps.db, system.deviceId, state);
  if (!snapshot) return { freshness, snapshot: null, rooms: [] };

  const sameGeneration = snapshot.generation === state.generation && snapshot.refreshedAtMs === (state.refreshedAt?.getTime() ?? null);
  const { from, to } = span;
  const [helds, open, { closures, rules }] = await Promise.all([
    Promise.all(span.weeks.map((week) => weekReservations(deps, snapshot, week, state.reservationsVersion, sameGeneration))),
    listOpenBookingsInWindow(deps.db, system.deviceId, new Date(from - DAY_MS), new Date(to + DAY_MS)),
    // Room closures (lib/closures: one range scan of their partial index) and the booking rules
    // (their activation windows release unused bookings), in one statement.
    readTogether(deps.db, { closures: closureWindowsRead(system.deviceId, new Date(from - DAY_MS)), rules: bookingRulesRead(system.deviceId) }),
  ]);
  const openByResource = new Map<string, SlotRequest[]>();
  for (const r of open) {
    if (!r.resourceId) continue;
    let of = openByResource.get(r.resourceId);
    if (!of) openByResource.set(r.resourceId, (of = []));
    of.push({ ...r, label: ownerOfRequest(r) });
  }

  const overlaid = span.weeks.map((week, i) => overlaidWeek(snapshot, helds[i]!, week, system, nowMs, horizonEnd, rules));
  const rooms: SpanRead['rooms'] = [];
  for (const resource of snapshot.resources) {
    if (!keep(resource.id, snapshot)) continue;
    let slots = overlaid.length === 1 ? (overlaid[0]!.get(resource.id) ?? []) : overlaid.flatMap((week) => week.get(resource.id) ?? []);
    if (span.window) slots = slots.filter((s) => s.startMs >= from && s.startMs < to);
    const requests = openByResource.get(resource.id);
    if (requests) slots = applyOpenRequests(slots, requests, nowMs);
    // Closed slots ("Closed: reason", never bookable), marked on copies: the held slots are shared.
    slots = withClosedSlots(slots, resource.id, closures);
    rooms.push({ resource, slots });
  }
  return { freshness, snapshot, rooms };
}

/**
 * The building view: every room of a system for one local day or its ISO week, from the mirror
 * read once (the generation's rooms and schedules from the snapshot, the week's reservations of all
 * rooms in one query, the open booking requests in one), each room's slots expanded, overlaid and
 * judged bookable by the same code as the room's week grid (lib/views/resource-week.ts).
 */
export async function loadBuildingView(deps: ViewDeps, system: SystemPublic, params: Pick<BuildingParams, 'day' | 'mode' | 'onlyFree' | 'roomId'>): Promise<BuildingView> {
  const nowMs = (deps.now?.() ?? new Date()).getTime();
  const timeZone = system.timeZone;
  const today = isoDate(wallClock(nowMs, timeZone));
  const { day, week } = localDay(params.day ?? today, timeZone);
  const step = params.mode === 'week' ? 7 : 1;
  const nav = { previous: shiftDate(day.date, -step), next: shiftDate(day.date, step), today };
  const days = params.mode === 'week' ? week.days : [day];
  const from = params.mode === 'week' ? week.startMs : day.startMs;
  const to = params.mode === 'week' ? week.endMs : day.endMs;
  const horizonEnd = bookingHorizonEnd(nowMs, system.bookingHorizonDays);
  const { roomId } = params;
  const read = await readSpan(deps, system, { weeks: [week], from, to, window: params.mode === 'day', nowMs, horizonEnd }, (id, snapshot) => roomId === undefined || !snapshot.resourceById.has(roomId) || id === roomId);
  const base = { system, mode: params.mode, day, week, days, nav, freshness: read.freshness, horizonEnd, generatedAt: nowMs };
  if (!read.snapshot) return { ...base, allRooms: [], rooms: [], unknownRoom: false };
  const snapshot = read.snapshot;
  const unknownRoom = roomId !== undefined && !snapshot.resourceById.has(roomId);
  const rooms: BuildingRoom[] = [];
  for (const { resource, slots } of read.rooms) {
    let free = 0;
    let taken = 0;
    for (const slot of slots) {
      if (slot.bookable) free += 1;
      else if (TAKEN.has(slot.state)) taken += 1;
    }
    if (params.onlyFree && free === 0) continue;
    rooms.push({ id: resource.id, name: resource.name, description: resource.description, slots, free, taken });
  }
  return { ...base, allRooms: snapshot.resources.map((r) => ({ id: r.id, name: r.name })), rooms, unknownRoom };
}

/** A span of local days as `loadBuildingSpan` reads it: how current, and each room's slots. */
export interface BuildingSpan {
  freshness: Freshness;
  /** Every room of the system, sorted by name, with its slots starting on the span's days, earliest first. */
  rooms: { id: string; name: string; slots: StatefulSlot[] }[];
}

/**
 * Every room's slots starting on the local days `first` to `last` (yyyy-MM-dd, inclusive) in the
 * system's zone, by the building view's code, with the mirror read once for the whole span (not
 * once per day or week): for a screen that shows a few days around now (lib/displays/screen.ts).
 * The days are calendar days, so a 23- or 25-hour day at a DST change is one day.
 */
export async function loadBuildingSpan(deps: ViewDeps, system: SystemPublic, span: { first: string; last: string }): Promise<BuildingSpan> {
  const first = localDay(span.first, system.timeZone);
  const last = localDay(span.last, system.timeZone);
  const weeks: WeekInfo[] = [first.week];
  while (weeks[weeks.length - 1]!.endMs <= last.day.startMs) weeks.push(weekOf(weeks[weeks.length - 1]!.endMs, system.timeZone));
  const nowMs = (deps.now?.() ?? new Date()).getTime();
  const horizonEnd = bookingHorizonEnd(nowMs, system.bookingHorizonDays);
  const read = await readSpan(deps, system, { weeks, from: first.day.startMs, to: last.day.endMs, window: true, nowMs, horizonEnd }, () => true);
  return { freshness: read.freshness, rooms: read.rooms.map(({ resource, slots }) => ({ id: resource.id, name: resource.name, slots })) };
}
