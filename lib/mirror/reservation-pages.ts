import 'server-only';
import { and, asc, eq, gt, gte, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Database } from '@/lib/db';
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

/**
 * One page of the reservations starting in [from, to) of the current generation, ordered by
 * (start_time, id), after `after` (keyset paging: each page is one indexed range read, however far
 * into a year it is). For exports, which must never hold a whole year at once.
 */
export async function readReservationPage(
  db: Database,
  deviceId: string,
  range: { from: Date; to: Date },
  after: ReservationPageCursor | null,
  limit: number,
): Promise<ReservationPageRow[]> {
  const r = mirrorReservations;
  const u = mirrorUsers;
  // Written so the planner sees a range on start_time (the index's last column): a row comparison
  // alone made every page scan and sort all the rows after it (quadratic over a year).
  const past: SQL | undefined = after
    ? and(gte(r.startTime, after.start), or(gt(r.startTime, after.start), gt(r.id, after.id)))
    : undefined;
  // The current generation as a constant of the query (evaluated once), so that the index on
  // (device_id, generation, start_time) serves the range and the order.
  const generation = sql`(SELECT ${mirrorState.generation} FROM ${mirrorState} WHERE ${mirrorState.deviceId} = ${deviceId})`;
  return db
    .select({
      id: r.id,
      resourceId: r.resourceId,
      ownerId: r.ownerId,
      ownerType: r.ownerType,
      status: r.status,
      startTime: r.startTime,
      endTime: r.endTime,
      userName: u.name,
      userGroupId: u.userGroupId,
    })
    .from(r)
    .leftJoin(u, and(eq(u.deviceId, r.deviceId), eq(u.generation, r.generation), eq(u.id, r.userId)))
    .where(and(eq(r.deviceId, deviceId), eq(r.generation, generation), gte(r.startTime, range.from), lt(r.startTime, range.to), past))
    .orderBy(asc(r.startTime), asc(r.id))
    .limit(limit);
}
