import 'server-only';
import { sql } from 'drizzle-orm';
import type { Database } from '@/lib/db';
import { rawRows } from '@/lib/db/raw';
import { mirrorReservations, mirrorState, mirrorUsers } from '@/lib/db/schema';

/** A reservation of the current generation with what the mirror's user list knows of its user. */
export interface ReservationPageRow {
  id: string;
  resourceId: string;
  ownerId: string | null;
  ownerType: string;
  status: string;
  startTime: Date;
  endTime: Date;
  /** The user's display name and group, when the user list holds the user (never the e-mail). */
  userName: string | null;
  userGroupId: string | null;
}

/** Where the previous page ended: the last row's start and id. */
export interface ReservationPageCursor {
  start: Date;
  id: string;
}

type PageCell = [string, string, string | null, string, string, number | string, number | string, string | null, string | null];
/** As the driver gives it: one row holding the page as arrays (PGlite may give the JSON as text). */
type PageRow = { list: PageCell[] | string | null };

/**
 * One page of the reservations starting in [from, to) of the current generation, ordered by
 * (start_time, id), after `after` (keyset paging: each page is one indexed range read, however far
 * into a year it is). For exports, which must never hold a whole year at once.
 *
 * Hand-written: the page arrives as one JSON value with epoch milliseconds instead of thousands of
 * row objects with timestamp strings — on PGlite that is most of an export's time (the reports read
 * their period the same way, lib/reports/load.ts).
 */
export async function readReservationPage(
  db: Database,
  deviceId: string,
  range: { from: Date; to: Date },
  after: ReservationPageCursor | null,
  limit: number,
): Promise<ReservationPageRow[]> {
  const from = range.from.toISOString();
  const to = range.to.toISOString();
  // Written so the planner sees a range on start_time (the index's last column): a row comparison
  // alone made every page scan and sort all the rows after it (quadratic over a year).
  const past = after
    ? sql`AND r.start_time >= ${after.start.toISOString()}::timestamptz AND (r.start_time > ${after.start.toISOString()}::timestamptz OR r.id > ${after.id}::uuid)`
    : sql``;
  // The current generation as a constant of the query (evaluated once), so that the index on
  // (device_id, generation, start_time) serves the range and the order.
  const [row] = await rawRows<PageRow>(
    db,
    sql`SELECT json_agg(json_build_array(p.id, p.resource_id, p.owner_id, p.owner_type, p.status, p.start_ms, p.end_ms, p.user_name, p.user_group_id)
                        ORDER BY p.start_time, p.id) AS list
          FROM (SELECT r.id, r.resource_id, r.owner_id, r.owner_type, r.status, r.start_time,
                       (extract(epoch FROM r.start_time) * 1000)::bigint AS start_ms,
                       (extract(epoch FROM r.end_time) * 1000)::bigint AS end_ms,
                       u.name AS user_name, u.user_group_id
                  FROM ${mirrorReservations} r
                  LEFT JOIN ${mirrorUsers} u ON u.device_id = r.device_id AND u.generation = r.generation AND u.id = r.user_id
                 WHERE r.device_id = ${deviceId}
                   AND r.generation = (SELECT ${mirrorState.generation} FROM ${mirrorState} WHERE ${mirrorState.deviceId} = ${deviceId})
                   AND r.start_time >= ${from}::timestamptz AND r.start_time < ${to}::timestamptz
                   ${past}
                 ORDER BY r.start_time, r.id
                 LIMIT ${limit}) p`,
  );
  const raw = row?.list ?? [];
  const list = typeof raw === 'string' ? (JSON.parse(raw) as PageCell[]) : raw;
  return list.map(([id, resourceId, ownerId, ownerType, status, startMs, endMs, userName, userGroupId]) => ({
    id,
    resourceId,
    ownerId,
    ownerType,
    status,
    startTime: new Date(Number(startMs)),
    endTime: new Date(Number(endMs)),
    userName,
    userGroupId,
  }));
}
