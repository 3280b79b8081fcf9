import 'server-only';
import { TZDate } from '@date-fns/tz';
import { and, asc, eq, ilike, isNull, or, sql, type SQL } from 'drizzle-orm';
import { alias, type PgColumn } from 'drizzle-orm/pg-core';
import type { Database } from '@/lib/db';
import { arrayParam, rawRows } from '@/lib/db/raw';
import { queryBuilder } from '@/lib/db/read-together';
import { systems } from '@/lib/db/schema';
import { ApiError } from '@/lib/errors/api-error';
import { log } from '@/lib/log';
import { cachePerOwner } from '@/lib/cache';
import { mirrorListFacts, mirrorRoomNames, mirrorRoomNamesLateral, readLoadedIdentities, readReservations } from '@/lib/mirror/store';
import { mirrorSnapshot } from '@/lib/mirror/snapshot';
import { readClosureWindows } from '@/lib/closures/read';
import { closureOver } from '@/lib/booking-rules/not-closed';
import { bookingHorizonEnd } from '@/lib/booking-rules/within-booking-horizon';
import { nextFreeSlots } from '@/lib/schedule/next-free';
import { guessResourceKind } from '@/lib/schedule/resource-kind';
import { listAllSystems, systemPublicColumns } from '@/lib/systems/store';
import type { SystemPublic } from '@/lib/systems/schemas';
import { parseSystemListParams, type SystemListParams } from '@/lib/client/system-list-params';

/**
 * The systems list at a thousand systems (issue 49): search, filters, grouping and a page, read as
 * ONE statement — the systems joined with their mirror's facts (lib/mirror/store.ts
 * mirrorListFacts, and the rooms' names: an aggregate for the page's rows, a test for a search),
 * LIMIT/OFFSET, the total as a window count. Nothing is read per system on the request's path.
 *
 * "Free slots today" needs each system's schedules against its bookings, which no single statement
 * answers cheaply. It is computed off the request's path (warmFreeToday: one system at a time,
 * only from loaded copies, kept per copy — generation and reservations_version — and until the
 * answer could change by time alone), and the list reads what is known: a system not computed yet
 * is "unknown", a state of its own, and the filter leaves it out.
 */

export type FreeToday = 'yes' | 'no' | 'unknown';

export interface SystemListRow extends SystemPublic {
  /** When the copy was last complete; null: never loaded. */
  refreshedAt: string | null;
  incomplete: boolean;
  /** The rooms' names in the current copy, sorted. */
  rooms: string[];
  freeToday: FreeToday;
}

export interface SystemListPage {
  params: SystemListParams;
  rows: SystemListRow[];
  total: number;
  pages: number;
  /** The areas among the systems the viewer may see (for the area filter). */
  areas: string[];
  /** Whether free-slot answers are still being worked out (some systems show as unknown). */
  freeTodayPending: boolean;
}

export interface SystemListDeps {
  db: Database;
  now?: () => Date;
}

/** The list's parameters from a request's address, or a 400 saying which is wrong. */
export function systemListParamsOrThrow(query: URLSearchParams | Record<string, string | string[] | undefined>): SystemListParams {
  const parsed = parseSystemListParams(query);
  if (!parsed.ok) throw new ApiError('bad_request', parsed.problem);
  return parsed.params;
}

/** `%`, `_` and `\` typed are meant literally. */
const likePattern = (word: string) => `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

type Facts = ReturnType<typeof mirrorListFacts>;
type RoomNames = ReturnType<typeof mirrorRoomNamesLateral>;

function whereOf(facts: Facts, rooms: RoomNames, visible: (deviceId: PgColumn) => SQL, params: SystemListParams, free: FreeKnown): SQL {
  const words = params.q.split(/\s+/).filter(Boolean);
  const conditions: (SQL | undefined)[] = [visible(systems.deviceId)];
  for (const word of words) {
    const p = likePattern(word);
    conditions.push(or(ilike(systems.name, p), ilike(systems.street, p), ilike(systems.city, p), ilike(systems.area, p), sql`${rooms.names} ILIKE ${p}`));
  }
  if (params.area) conditions.push(eq(systems.area, params.area));
  if (params.filters.includes('notLoaded')) conditions.push(isNull(facts.refreshedAt));
  if (params.filters.includes('incomplete')) conditions.push(sql`${facts.incomplete} IS TRUE`);
  if (params.filters.includes('free')) {
    // The copies known to have a free slot today, by identity: a copy that moved on is unknown again.
    conditions.push(
      sql`(${systems.deviceId}, ${facts.generation}, ${facts.reservationsVersion}) IN (SELECT * FROM unnest(${arrayParam(free.ids)}::uuid[], ${arrayParam(free.generations)}::bigint[], ${arrayParam(free.versions)}::bigint[]))`,
    );
  }
  return and(...conditions) as SQL;
}

function orderOf(params: SystemListParams): SQL[] {
  const byName = [asc(systems.name), asc(systems.deviceId)];
  if (params.group === 'area') return [sql`${systems.area} ASC NULLS LAST`, ...byName];
  if (params.group === 'city') return [sql`${systems.city} ASC NULLS LAST`, ...byName];
  return byName;
}

/** One page of the systems `visible` lets through, as `params` asks (one statement; a second only for an empty page's areas). */
export async function loadSystemList(deps: SystemListDeps, visible: (deviceId: PgColumn) => SQL, params: SystemListParams): Promise<SystemListPage> {
  const { db } = deps;
  const now = deps.now?.() ?? new Date();
  const facts = mirrorListFacts();
  const rooms = mirrorRoomNamesLateral(systems.deviceId, facts.generation);
  const free = freeKnown(db, now);
  const areaSystems = alias(systems, 'area_systems');
  const areasQuery = sql<string[] | null>`(SELECT json_agg(DISTINCT ${areaSystems.area} ORDER BY ${areaSystems.area}) FROM ${systems} AS ${sql.identifier('area_systems')} WHERE ${areaSystems.area} IS NOT NULL AND ${visible(areaSystems.deviceId)})`;
  const order = orderOf(params);
  // The page first (its window count, LIMIT and OFFSET), then its rooms' names for its rows only:
  // rows an OFFSET skips are computed too, so the aggregate stays out of the inner query.
  let inner = queryBuilder
    .select({
      ...systemPublicColumns,
      refreshedAt: facts.refreshedAt,
      generation: facts.generation,
      reservationsVersion: facts.reservationsVersion,
      incomplete: facts.incomplete,
      total: sql<number>`count(*) OVER ()`.as('total'),
      ord: sql<number>`row_number() OVER (ORDER BY ${sql.join(order, sql`, `)})`.as('ord'),
      areas: areasQuery.as('areas'),
    })
    .from(systems)
    .leftJoin(facts, eq(facts.deviceId, systems.deviceId))
    .$dynamic();
  // The rooms' names are read for a search only (once per system, however many words).
  if (params.q) inner = inner.leftJoinLateral(rooms, sql`true`);
  const page = inner
    .where(whereOf(facts, rooms, visible, params, free))
    .orderBy(...order)
    .limit(params.size)
    .offset((params.page - 1) * params.size)
    .as('page');
  const rows = await db
    .select({
      deviceId: page.deviceId,
      name: page.name,
      timeZone: page.timeZone,
      status: page.status,
      bookingHorizonDays: page.bookingHorizonDays,
      scheduleBasis: page.scheduleBasis,
      bookingQuota: page.bookingQuota,
      street: page.street,
      city: page.city,
      area: page.area,
      refreshedAt: page.refreshedAt,
      generation: page.generation,
      reservationsVersion: page.reservationsVersion,
      incomplete: page.incomplete,
      total: page.total,
      areas: page.areas,
      // Named with the subquery's alias: drizzle writes a subquery's fields unqualified, and inside
      // the correlated aggregate an unqualified device_id would be the room's own.
      roomNames: mirrorRoomNames(sql`${sql.identifier('page')}.${sql.identifier('device_id')}`, sql`${sql.identifier('page')}.${sql.identifier('generation')}`),
    })
    .from(page)
    .orderBy(page.ord);
  const areas = rows.length > 0 ? jsonList(rows[0]!.areas) : jsonList((await rawRows<{ areas: unknown }>(db, sql`SELECT ${areasQuery} AS areas`))[0]?.areas);
  const total = Number(rows[0]?.total ?? 0);
  const state = freeStateOf(db);
  return {
    params,
    rows: rows.map(({ total: _total, areas: _areas, generation, reservationsVersion, roomNames, refreshedAt, incomplete, ...system }) => ({
      ...system,
      refreshedAt: refreshedAt ? new Date(refreshedAt).toISOString() : null,
      incomplete: incomplete === true,
      rooms: roomNames ? roomNames.split('\n') : [],
      freeToday: refreshedAt && generation !== null && reservationsVersion !== null ? freeAnswer(state, system.deviceId, Number(generation), Number(reservationsVersion), now) : 'unknown',
    })),
    total,
    pages: Math.max(1, Math.ceil(total / params.size)),
    areas,
    freeTodayPending: state.running !== null,
  };
}

/** Every system `visible` lets through that `params`' search and filters keep, in the list's order, without paging (the export). */
export async function listSystemsMatching(deps: SystemListDeps, visible: (deviceId: PgColumn) => SQL, params: SystemListParams): Promise<SystemPublic[]> {
  const facts = mirrorListFacts();
  const rooms = mirrorRoomNamesLateral(systems.deviceId, facts.generation);
  let query = deps.db.select(systemPublicColumns).from(systems).leftJoin(facts, eq(facts.deviceId, systems.deviceId)).$dynamic();
  if (params.q) query = query.leftJoinLateral(rooms, sql`true`);
  return query.where(whereOf(facts, rooms, visible, params, freeKnown(deps.db, deps.now?.() ?? new Date()))).orderBy(...orderOf(params));
}

/** A JSON list as the driver gives it (parsed by node-postgres, text on PGlite). */
function jsonList(value: unknown): string[] {
  const parsed = typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
  return Array.isArray(parsed) ? parsed.filter((v): v is string => typeof v === 'string') : [];
}

// ---- Free slots today, off the request's path ----

interface FreeEntry {
  generation: number;
  version: number;
  free: boolean;
  /** Until when the answer holds by time alone: a free slot's start (then look again), or the day's end. */
  untilMs: number;
}

interface FreeState {
  entries: Map<string, FreeEntry>;
  running: Promise<void> | null;
  lastStartMs: number;
}

const MAX_SYSTEMS_KEPT = 10_000;
/** A pass over every loaded copy starts at most this often (each list view asks for one). */
const WARM_EVERY_MS = 10_000;

const stateCache = cachePerOwner<Database, FreeState>('system-list-free-today', { max: 1 });
function freeStateOf(db: Database): FreeState {
  const cache = stateCache(db);
  let state = cache.get('state');
  if (!state) cache.set('state', (state = { entries: new Map(), running: null, lastStartMs: 0 }));
  return state;
}

function freeAnswer(state: FreeState, deviceId: string, generation: number, version: number, now: Date): FreeToday {
  const entry = state.entries.get(deviceId);
  if (!entry || entry.generation !== generation || entry.version !== version || entry.untilMs <= now.getTime()) return 'unknown';
  return entry.free ? 'yes' : 'no';
}

interface FreeKnown {
  ids: string[];
  generations: number[];
  versions: number[];
}

/** The copies known, now, to have a free slot today (the filter's SQL matches them by identity). */
function freeKnown(db: Database, now: Date): FreeKnown {
  const out: FreeKnown = { ids: [], generations: [], versions: [] };
  for (const [deviceId, entry] of freeStateOf(db).entries) {
    if (!entry.free || entry.untilMs <= now.getTime()) continue;
    out.ids.push(deviceId);
    out.generations.push(entry.generation);
    out.versions.push(entry.version);
  }
  return out;
}

/** The end of `nowMs`'s local day in `timeZone`. */
function endOfLocalDay(nowMs: number, timeZone: string): number {
  const local = new TZDate(nowMs, timeZone);
  return new TZDate(local.getFullYear(), local.getMonth(), local.getDate() + 1, timeZone).getTime();
}

/**
 * Whether a loaded system has a slot left today that nothing occupies and no closure closes (the
 * grid's rules that need no resident: not started, within the horizon), and until when that holds.
 */
export async function computeFreeToday(db: Database, system: SystemPublic, identity: { generation: number; refreshedAt: Date }, now: Date): Promise<{ free: boolean; untilMs: number } | null> {
  const nowMs = now.getTime();
  const snapshot = await mirrorSnapshot(db, system.deviceId, identity);
  if (!snapshot) return null;
  const dayEndMs = endOfLocalDay(nowMs, system.timeZone);
  const horizonEndMs = Math.min(dayEndMs, bookingHorizonEnd(nowMs, system.bookingHorizonDays));
  const [reservations, closures] = await Promise.all([
    readReservations(db, system.deviceId, { from: now, to: new Date(dayEndMs) }),
    readClosureWindows(db, system.deviceId, now),
  ]);
  const [slot] = nextFreeSlots({
    resources: snapshot.resources.map((r) => ({ id: r.id, name: r.name, kind: guessResourceKind(r.name, r.description), schedule: r.schedule, allowed: true })),
    nowMs,
    horizonEndMs,
    timeZone: system.timeZone,
    basis: system.scheduleBasis,
    busy: reservations.map((r) => ({ resourceId: r.resourceId, startMs: Date.parse(r.startTime), endMs: Date.parse(r.endTime) })),
    held: new Map(),
    quota: Number.MAX_SAFE_INTEGER,
    count: 1,
    admits: (s) => closureOver(s, s.resourceId, closures) === null,
  });
  return slot ? { free: true, untilMs: slot.startMs } : { free: false, untilMs: dayEndMs };
}

/**
 * Works out "free slots today" for every loaded copy whose answer is not known: one system at a
 * time (one database connection, never the upstream), at most one pass at a time per database and
 * one start per WARM_EVERY_MS unless `force`. Answers the pass (tests await it; views do not).
 */
export function warmFreeToday(deps: SystemListDeps, options: { force?: boolean } = {}): Promise<void> {
  const state = freeStateOf(deps.db);
  if (state.running) return state.running;
  const nowMs = (deps.now?.() ?? new Date()).getTime();
  if (!options.force && nowMs - state.lastStartMs < WARM_EVERY_MS) return Promise.resolve();
  state.lastStartMs = nowMs;
  const pass = (async () => {
    const [identities, all] = await Promise.all([readLoadedIdentities(deps.db), listAllSystems(deps.db)]);
    const byId = new Map(all.map((s) => [s.deviceId, s]));
    for (const identity of identities) {
      const system = byId.get(identity.deviceId);
      if (!system) continue;
      const now = deps.now?.() ?? new Date();
      if (freeAnswer(state, identity.deviceId, identity.generation, identity.reservationsVersion, now) !== 'unknown') continue;
      try {
        const answer = await computeFreeToday(deps.db, system, identity, now);
        if (!answer) continue;
        if (!state.entries.has(identity.deviceId) && state.entries.size >= MAX_SYSTEMS_KEPT) continue;
        state.entries.set(identity.deviceId, { generation: identity.generation, version: identity.reservationsVersion, ...answer });
      } catch (error) {
        // One system's failure leaves it unknown; the others are still worked out.
        log.warn('systems list: could not work out free slots today', { deviceId: identity.deviceId, error });
      }
    }
  })().finally(() => {
    state.running = null;
  });
  state.running = pass;
  return pass;
}
