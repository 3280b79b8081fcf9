import 'server-only';
import { and, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import { ApiError } from '@/lib/errors/api-error';
import type { Database } from '@/lib/db';
import { rawRows } from '@/lib/db/raw';
import { reservationRequests } from '@/lib/db/schema/events';
import { msg } from '@/lib/i18n/message';
import { mirrorSnapshot } from '@/lib/mirror/snapshot';
import { refreshAllowance } from '@/lib/mirror/refresh';
import { readReleasedNoShows, readUsers } from '@/lib/mirror/store';
import { activationWindowOf, wasReleased } from '@/lib/booking-rules/group-rules';
import { readBookingRules } from '@/lib/systems/booking-rules';
import { log } from '@/lib/log';
import { cachePerOwner } from '@/lib/cache';
import type { SystemPublic } from '@/lib/systems/schemas';
import { systemMirror, type ViewDeps } from '@/lib/views/freshness';
import type { Freshness } from '@/lib/views/types';
import { accountContacts } from '@/lib/auth/users';
import { computeReport, sumFigures, type OccupancyFigures, type ReportData, type ReportReservationInput } from './compute';
import { parsePeriod, type Period, type PeriodInput } from './period';

/** While a period reaches past "now", a kept report is reused for this long (no-shows depend on now). */
const NOW_STEP_MS = 5 * 60_000;
/** Reports kept per database: a few periods of a few dozen systems. */
const KEPT_REPORTS = 64;

export interface SystemReport {
  system: { deviceId: string; name: string; timeZone: string };
  period: Period;
  freshness: Freshness;
  report: ReportData;
}

export interface ReportsOverview {
  /** The period as read in the first system's zone (presets are the same days in every zone but the edges). */
  period: Period | null;
  systems: { system: SystemReport['system']; period: Period; figures: OccupancyFigures | null; loading: boolean }[];
  total: OccupancyFigures;
}

interface Kept {
  key: string;
  report: Promise<ReportData>;
}

// Per database handle (tests open several), on globalThis so that dev-mode reloads share it.
const cacheOf = cachePerOwner<Database, Kept>('reports', { max: KEPT_REPORTS });

/** `?period=&from=&to=` of a URL or a page's search parameters (a repeated parameter: its first value). */
export function periodInputOf(params: URLSearchParams | Record<string, string | string[] | undefined>): PeriodInput {
  const get = (name: string): string | null => {
    if (params instanceof URLSearchParams) return params.get(name);
    const value = params[name];
    return (Array.isArray(value) ? value[0] : value) ?? null;
  };
  return { period: get('period'), from: get('from'), to: get('to') };
}

/** The system's period, or a 400 with the sentence saying what is wrong with it. */
export function systemPeriod(system: Pick<SystemPublic, 'timeZone'>, input: PeriodInput, nowMs: number): Period {
  const parsed = parsePeriod(input, system.timeZone, nowMs);
  if (!parsed.ok) throw new ApiError('bad_request', parsed.message);
  return parsed.period;
}

/**
 * A system's report for a period. Computed once per (mirror generation, reservations version,
 * period, zone and basis, and — while the period reaches past now — a five-minute step of now),
 * then answered from memory: a generation never changes, and every outcome applied in place
 * bumps the reservations version (portal bookings included), so a kept report cannot be stale
 * beyond the step.
 */
export async function loadSystemReport(deps: ViewDeps, system: SystemPublic, period: Period, options: { opened?: boolean } = {}): Promise<SystemReport> {
  const nowMs = (deps.now?.() ?? new Date()).getTime();
  const { deviceId, timeZone, scheduleBasis } = system;
  const { freshness, state } = await systemMirror(deps, deviceId, undefined, options);
  if (freshness.status === 'loading' || !state) {
    throw new ApiError('service_unavailable', msg('errors.stillLoading'), { 'Retry-After': '5' });
  }
  const nowKey = period.endMs <= nowMs ? 'past' : String(Math.floor(nowMs / NOW_STEP_MS));
  const key = [deviceId, state.generation, state.refreshedAt?.getTime() ?? '', state.reservationsVersion, period.startMs, period.endMs, timeZone, scheduleBasis, nowKey].join('|');
  const cache = cacheOf(deps.db);
  let kept = cache.get(key);
  if (!kept) {
    kept = { key, report: computeSystemReport(deps.db, system, state, period, nowMs) };
    cache.set(key, kept);
    const held = kept;
    held.report.catch(() => {
      if (cache.get(key) === held) cache.delete(key);
    });
  }
  const report = await kept.report;
  return { system: { deviceId, name: system.name, timeZone }, period, freshness, report };
}

async function computeSystemReport(
  db: Database,
  system: SystemPublic,
  state: Parameters<typeof mirrorSnapshot>[2],
  period: Period,
  nowMs: number,
): Promise<ReportData> {
  const { deviceId } = system;
  const [snapshot, listed, users, portalBookings, gone, rules] = await Promise.all([
    mirrorSnapshot(db, deviceId, state),
    readPeriodReservations(db, deviceId, period),
    readUsers(db, deviceId),
    readPortalBookings(db, deviceId, period),
    readReleasedNoShows(db, deviceId, { from: new Date(period.startMs), to: new Date(period.endMs) }),
    readBookingRules(db, deviceId),
  ]);
  const reservations = withReleased(listed, gone, rules, nowMs);
  if (!snapshot) throw new ApiError('service_unavailable', msg('errors.stillLoading'), { 'Retry-After': '5' });
  const userGroup = new Map<string, string>();
  for (const u of users) if (u.userGroupId) userGroup.set(u.id, u.userGroupId);
  return computeReport({
    startMs: period.startMs,
    endMs: period.endMs,
    nowMs,
    timeZone: system.timeZone,
    basis: system.scheduleBasis,
    rooms: snapshot.resources.map((r) => ({ id: r.id, name: r.name, schedule: r.schedule })),
    reservations,
    apartments: [...snapshot.groupById.values()].map((g) => ({ groupId: g.id, apartment: g.apartmentId.trim(), name: g.name.trim() })),
    userGroup,
    portalBookings,
  });
}

/**
 * The period's bookings with the released no-shows (issue 35, decision 025): a listed `Unused`
 * booking past its room group's activation window is released (the service frees it), and those
 * the upstream no longer lists, remembered by the mirror, come back as the no-shows they were.
 */
export function withReleased(
  listed: readonly ReportReservationInput[],
  gone: readonly { id: string; resourceId: string; ownerType: string; ownerId: string | null; userId: string | null; startMs: number; endMs: number }[],
  rules: Parameters<typeof activationWindowOf>[1],
  nowMs: number,
): ReportReservationInput[] {
  const out = listed.map((r) => (r.ownerType !== 'Service' && wasReleased(r, activationWindowOf(r.resourceId.toLowerCase(), rules), nowMs) ? { ...r, released: true } : r));
  const known = new Set(listed.map((r) => r.id));
  for (const g of gone) if (!known.has(g.id)) out.push({ ...g, status: 'Unused', released: true });
  return out;
}

/** As the driver gives it: one row holding a page of reservations as [id, resource, ownerType, owner, user, status, startMs, endMs, startText]. */
type PeriodRow = { list: [string, string, string, string | null, string | null, string, number, number, string][] | string | null };

/**
 * Reservations read per statement. A whole year as one aggregate (50k rows on the `large` system)
 * grew PGlite's WASM heap by over 200 MB for good (decision 027); pages of this size keep each
 * statement's aggregate small (issue 34: peak RSS).
 */
export const REPORT_PAGE_ROWS = 5_000;

/**
 * The current generation's reservations overlapping the period, only the columns a report reads.
 * Hand-written: each page aggregated into one JSON value with epoch milliseconds arrives in one
 * parse instead of row objects with timestamp strings (three times faster on PGlite). Paged by
 * (start_time, id) as the bookings export is; should a refresh switch generations between pages,
 * the next page reads the new one from the same position (ids are the upstream's and stable).
 */
export async function readPeriodReservations(db: Database, deviceId: string, period: Period, pageRows = REPORT_PAGE_ROWS): Promise<ReportReservationInput[]> {
  const from = new Date(period.startMs).toISOString();
  const to = new Date(period.endMs).toISOString();
  const out: ReportReservationInput[] = [];
  let after: { start: string; id: string } | null = null;
  for (;;) {
    // Written so the planner sees a range on start_time (the index's last column), as the export's pages.
    const past: SQL = after ? sql`AND r.start_time >= ${after.start}::timestamptz AND (r.start_time > ${after.start}::timestamptz OR r.id > ${after.id}::uuid)` : sql``;
    // A reservation lasts at most a day: the start bound keeps the index range tight.
    const [row] = await rawRows<PeriodRow>(
      db,
      sql`SELECT json_agg(json_build_array(p.id, p.resource_id, p.owner_type, p.owner_id, p.user_id, p.status, p.start_ms, p.end_ms, p.start_text)
                          ORDER BY p.start_time, p.id) AS list
            FROM (SELECT r.id, r.resource_id, r.owner_type, r.owner_id, r.user_id, r.status, r.start_time,
                         (extract(epoch FROM r.start_time) * 1000)::bigint AS start_ms,
                         (extract(epoch FROM r.end_time) * 1000)::bigint AS end_ms,
                         -- the cursor at full precision (epoch milliseconds would round microseconds)
                         r.start_time::text AS start_text
                    FROM mirror_reservations r
                   WHERE r.device_id = ${deviceId}
                     AND r.generation = (SELECT s.generation FROM mirror_state s WHERE s.device_id = ${deviceId})
                     AND r.start_time < ${to}::timestamptz AND r.end_time > ${from}::timestamptz
                     AND r.start_time > ${from}::timestamptz - interval '1 day'
                     ${past}
                   ORDER BY r.start_time, r.id
                   LIMIT ${pageRows}) p`,
    );
    const raw = row?.list ?? [];
    const list = typeof raw === 'string' ? (JSON.parse(raw) as Exclude<PeriodRow['list'], string | null>) : raw;
    for (const [id, resourceId, ownerType, ownerId, userId, status, startMs, endMs] of list) {
      out.push({ id, resourceId, ownerType, ownerId, userId, status, startMs: Number(startMs), endMs: Number(endMs) });
    }
    if (list.length < pageRows) return out;
    const last = list[list.length - 1]!;
    after = { start: last[8], id: last[0] };
  }
}

/** Booking requests the portal sent that succeeded, for slots starting in the period. */
async function readPortalBookings(db: Database, deviceId: string, period: Period) {
  const q = reservationRequests;
  const rows = await db
    .select({ requestedBy: q.requestedBy, requestedByName: q.requestedByName })
    .from(q)
    .where(
      and(
        eq(q.deviceId, deviceId),
        eq(q.kind, 'create'),
        eq(q.status, 'succeeded'),
        gte(q.startTime, new Date(period.startMs)),
        lt(q.startTime, new Date(period.endMs)),
      ),
    )
    .orderBy(sql`${q.createdAt} DESC`);
  // The account's current name and e-mail address: a report names people, not account ids.
  const contacts = await accountContacts(db, [...new Set(rows.map((r) => r.requestedBy))]);
  return rows.map((r) => ({ ...r, requestedByName: r.requestedByName || contacts.get(r.requestedBy)?.name || null, requestedByEmail: contacts.get(r.requestedBy)?.email ?? null }));
}

/** Loads the reports overview starts at most, of systems never loaded. */
export const OVERVIEW_LOADS_MAX = 2;

/**
 * The manager's systems side by side, and their sum. Each system reads the period in its own zone;
 * a system still loading is listed without figures rather than failing the whole page.
 */
export async function loadReportsOverview(deps: ViewDeps, systems: readonly SystemPublic[], input: PeriodInput): Promise<ReportsOverview> {
  const nowMs = (deps.now?.() ?? new Date()).getTime();
  // Refuse a bad period once, with its sentence, before reading anything.
  const periods = systems.map((s) => systemPeriod(s, input, nowMs));
  if (systems.length === 0) systemPeriod({ timeZone: 'UTC' }, input, nowMs);
  // Over many systems the page starts a few loads at most (issue 49); the rest are listed as loading.
  const bounded: ViewDeps = { ...deps, refreshStarts: deps.refreshStarts ?? refreshAllowance(OVERVIEW_LOADS_MAX) };
  const rows = await Promise.all(
    systems.map(async (system, i) => {
      const period = periods[i]!;
      const head = { deviceId: system.deviceId, name: system.name, timeZone: system.timeZone };
      try {
        const { report } = await loadSystemReport(bounded, system, period, { opened: false });
        return { system: head, period, figures: report.total, loading: false };
      } catch (error) {
        // One system not loaded yet, or not reachable, leaves the others' figures standing.
        const loading = error instanceof ApiError && error.code === 'service_unavailable';
        if (!loading) log.warn('report of one system unavailable for the overview', { deviceId: system.deviceId, error });
        return { system: head, period, figures: null, loading };
      }
    }),
  );
  return {
    period: periods[0] ?? null,
    systems: rows,
    total: sumFigures(rows.flatMap((r) => (r.figures ? [r.figures] : []))),
  };
}
