import 'server-only';
import { and, asc, desc, eq, gte, ilike, isNotNull, lt, or, sql, type SQL } from 'drizzle-orm';
import { checkSystemAccess } from '@/lib/auth/access';
import type { SessionUser } from '@/lib/auth/schemas';
import type { Database } from '@/lib/db';
import { equalsAnyUuid } from '@/lib/db/raw';
import { reservationRequests } from '@/lib/db/schema';
import type { RequestView } from '@/lib/events/types';
import { toRequestView } from '@/lib/reservations/lifecycle';
import type { RequestFilters } from '@/lib/client/request-filters';
import type { SystemPublic } from '@/lib/systems/schemas';
import { dayRange, formatCursor, type RequestCursor, type RequestsQuery } from './request-filters';

const requests = reservationRequests;

/** One page of the Requests list, newest first, with the markers of the pages beside it (null: none). */
export interface RequestsPageView {
  requests: RequestView[];
  /** `before=` of the next older page. */
  older: string | null;
  /** `after=` of the next newer page. */
  newer: string | null;
}

export interface RequestsRead extends RequestsQuery {
  /** The systems whose requests may be shown ('all' for admins): never widened by a filter. */
  scope: readonly string[] | 'all';
  /** The date filter as instants [since, until), its days already read in the right time zone. */
  since?: Date;
  until?: Date;
}

/** created_at to the microsecond in UTC, for the cursors (JS dates stop at milliseconds). */
const cursorAt = sql<string>`to_char(${requests.createdAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** LIKE's own characters, matched as themselves. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

function statusCondition(status: RequestFilters['status']): SQL | undefined {
  switch (status) {
    case undefined:
      return undefined;
    case 'pending':
      return sql`${requests.status} IN ('sending', 'pending')`;
    case 'unknown':
      return and(eq(requests.status, 'pending'), isNotNull(requests.outcomeUnknownSince));
    case 'booked':
      return and(eq(requests.status, 'succeeded'), eq(requests.kind, 'create'));
    case 'cancelled':
      return and(eq(requests.status, 'succeeded'), eq(requests.kind, 'cancel'));
    case 'failed':
      return eq(requests.status, 'failed');
  }
}

function searchCondition(q: string | undefined): SQL | undefined {
  if (!q) return undefined;
  const pattern = `%${escapeLike(q)}%`;
  return or(
    ilike(requests.residentName, pattern),
    ilike(requests.residentApartment, pattern),
    ilike(requests.resourceName, pattern),
    ilike(requests.requestedByName, pattern),
    ilike(requests.note, pattern),
  );
}

/** (created_at, id) beside a cursor, as one row comparison so an index on both can serve it. */
const olderThan = (c: RequestCursor) => sql`(${requests.createdAt}, ${requests.id}) < (${c.at}::timestamptz, ${c.id}::uuid)`;
const newerThan = (c: RequestCursor) => sql`(${requests.createdAt}, ${requests.id}) > (${c.at}::timestamptz, ${c.id}::uuid)`;

/**
 * A page of booking requests of the systems in `scope`, filtered, newest first. Keyset paging on
 * (created_at, id): a page deep in years of history costs what the first one does, and a request
 * arriving meanwhile neither repeats nor skips a row. A device filter outside the scope gives
 * nothing: the caller refuses it first, with a sentence.
 */
export async function listRequestsPage(db: Database, read: RequestsRead): Promise<RequestsPageView> {
  const { filters, scope, limit } = read;
  if (scope !== 'all' && scope.length === 0) return { requests: [], older: null, newer: null };
  if (filters.deviceId && scope !== 'all' && !scope.includes(filters.deviceId)) return { requests: [], older: null, newer: null };
  const devices = filters.deviceId ? [filters.deviceId] : scope;
  const where = [
    devices === 'all' ? undefined : equalsAnyUuid(requests.deviceId, devices),
    statusCondition(filters.status),
    filters.resident ? eq(requests.residentUserId, filters.resident) : undefined,
    read.since ? gte(requests.createdAt, read.since) : undefined,
    read.until ? lt(requests.createdAt, read.until) : undefined,
    searchCondition(filters.q),
  ];
  const page = (extra: SQL | undefined, newestFirst: boolean, count: number) =>
    db
      .select({ row: requests, at: cursorAt })
      .from(requests)
      .where(and(...where, extra))
      .orderBy(...(newestFirst ? [desc(requests.createdAt), desc(requests.id)] : [asc(requests.createdAt), asc(requests.id)]))
      .limit(count);
  const marker = (r: { row: { id: string }; at: string }) => formatCursor({ at: r.at, id: r.row.id });

  if (read.after) {
    // Newer than the cursor: read upwards from it, then show newest first.
    const rows = await page(newerThan(read.after), false, limit + 1);
    const more = rows.length > limit;
    const shown = rows.slice(0, limit).reverse();
    const last = shown.at(-1);
    const first = shown[0];
    return {
      requests: shown.map((r) => toRequestView(r.row)),
      older: last ? marker(last) : formatCursor(read.after),
      newer: more && first ? marker(first) : null,
    };
  }
  const rows = await page(read.before ? olderThan(read.before) : undefined, true, limit + 1);
  const shown = rows.slice(0, limit);
  const last = shown.at(-1);
  const first = shown[0];
  let newer: string | null = null;
  if (read.before) {
    // Only say "newer" when there is one (the first row, or the cursor itself on an empty page).
    const from = first ? { at: first.at, id: first.row.id } : read.before;
    const above = await page(newerThan(from), false, 1);
    if (above.length > 0) newer = formatCursor(from);
  }
  return {
    requests: shown.map((r) => toRequestView(r.row)),
    older: rows.length > limit && last ? marker(last) : null,
    newer,
  };
}

/**
 * The zone whose days the date filter means: the chosen system's, else the one all the viewer's
 * systems share, else UTC (said next to the filter, so nobody guesses).
 */
export function requestsTimeZone(systems: readonly Pick<SystemPublic, 'deviceId' | 'timeZone'>[], deviceId?: string): string {
  const chosen = deviceId ? systems.find((s) => s.deviceId === deviceId) : undefined;
  if (chosen) return chosen.timeZone;
  const zones = new Set(systems.map((s) => s.timeZone));
  const [only] = zones;
  return zones.size === 1 && only ? only : 'UTC';
}

/**
 * The Requests list as `user` may see it: a system filter they may not see is refused (403 for a
 * manager, 404 for an admin asking for none that exists; lib/auth/access), never widened to all.
 * `systems` are the user's visible systems (listAccessibleSystems).
 */
export async function readRequestsFor(db: Database, user: SessionUser, systems: readonly SystemPublic[], query: RequestsQuery): Promise<RequestsPageView> {
  const { deviceId } = query.filters;
  if (deviceId) await checkSystemAccess(db, user, deviceId);
  const scope = user.role === 'admin' ? 'all' : systems.map((s) => s.deviceId);
  return listRequestsPage(db, { ...query, scope, ...dayRange(query.filters, requestsTimeZone(systems, deviceId)) });
}
