import 'server-only';
import { randomUUID } from 'node:crypto';
import { and, asc, eq, getTableColumns, getTableName, gt, isNull, lt, lte, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Database } from '@/lib/db';
import { arrayParam as array, equalsAnyUuid, rawRows } from '@/lib/db/raw';
import { queryBuilder, selectRows, type JsonRead } from '@/lib/db/read-together';
import { mirrorReleasedNoShows, mirrorReservations, mirrorResources, mirrorState, mirrorTimeSchedules, mirrorUserGroups, mirrorUsers, systems } from '@/lib/db/schema';
import { cachePerOwner } from '@/lib/cache';
import type {
  MirrorCollection,
  MirrorErrorKind,
  MirrorReservation,
  MirrorResource,
  MirrorState,
  MirrorTimeSchedule,
  MirrorUser,
  MirrorUserGroup,
  MirrorUsersStatus,
  MirrorWaitKind,
  SkippedSummary,
} from './types';
import { REFRESH_LEASE_SECONDS, budgetCapacity, budgetRefillPerSecond } from './policy';

/**
 * Inserts one page of a collection into a generation with a single statement: hand-written, each
 * column one array parameter unnested (one statement and ten parameters however long the page).
 */
export async function insertPage(
  db: Database,
  kind: 'reservations' | 'resources' | 'timeSchedules' | 'userGroups' | 'users',
  deviceId: string,
  generation: number,
  items: readonly unknown[],
): Promise<void> {
  if (items.length === 0) return;
  switch (kind) {
    case 'reservations': {
      const r = items as readonly MirrorReservation[];
      await db.execute(
        sql`INSERT INTO mirror_reservations
              (device_id, generation, id, resource_id, user_id, owner_id, owner_type, status, start_time, end_time)
            SELECT ${deviceId}, ${generation}, * FROM unnest(${array(r.map((x) => x.id))}::uuid[], ${array(r.map((x) => x.resourceId))}::uuid[],
                                             ${array(r.map((x) => x.userId))}::uuid[], ${array(r.map((x) => x.ownerId))}::uuid[],
                                             ${array(r.map((x) => x.ownerType))}::text[], ${array(r.map((x) => x.status))}::text[],
                                             ${array(r.map((x) => x.startTime))}::timestamptz[], ${array(r.map((x) => x.endTime))}::timestamptz[])
            ON CONFLICT DO NOTHING`,
      );
      return;
    }
    case 'resources': {
      const r = items as readonly MirrorResource[];
      await db.execute(
        sql`INSERT INTO mirror_resources (device_id, generation, id, name, description, time_schedule_id)
            SELECT ${deviceId}, ${generation}, * FROM unnest(${array(r.map((x) => x.id))}::uuid[], ${array(r.map((x) => x.name))}::text[],
                                             ${array(r.map((x) => x.description))}::text[], ${array(r.map((x) => x.timeScheduleId))}::text[])
            ON CONFLICT DO NOTHING`,
      );
      return;
    }
    case 'timeSchedules': {
      const r = items as readonly MirrorTimeSchedule[];
      await db.execute(
        sql`INSERT INTO mirror_time_schedules (device_id, generation, id, schedule_type, schedule)
            SELECT ${deviceId}, ${generation}, id, t, s::jsonb
              FROM unnest(${array(r.map((x) => x.id))}::uuid[], ${array(r.map((x) => x.scheduleType))}::text[],
                          ${array(r.map((x) => JSON.stringify(x.schedule)))}::text[]) AS u(id, t, s)
            ON CONFLICT DO NOTHING`,
      );
      return;
    }
    case 'userGroups': {
      const r = items as readonly MirrorUserGroup[];
      await db.execute(
        sql`INSERT INTO mirror_user_groups (device_id, generation, id, name, apartment_id, reference_id)
            SELECT ${deviceId}, ${generation}, * FROM unnest(${array(r.map((x) => x.id))}::uuid[], ${array(r.map((x) => x.name))}::text[],
                                             ${array(r.map((x) => x.apartmentId))}::text[], ${array(r.map((x) => x.referenceId))}::text[])
            ON CONFLICT DO NOTHING`,
      );
      return;
    }
    case 'users': {
      const r = items as readonly MirrorUser[];
      await db.execute(
        sql`INSERT INTO mirror_users (device_id, generation, id, name, email, user_group_id)
            SELECT ${deviceId}, ${generation}, * FROM unnest(${array(r.map((x) => x.id))}::uuid[], ${array(r.map((x) => x.name))}::text[],
                                             ${array(r.map((x) => x.email))}::text[], ${array(r.map((x) => x.userGroupId))}::uuid[])
            ON CONFLICT DO NOTHING`,
      );
      return;
    }
  }
}

/**
 * Upserts one page of reservations a refresh just read into the generation readers see, so an
 * outside booking or change shows as soon as its page arrives rather than when the whole re-read
 * ends (deletions wait for the end: only the full list says what is gone). Rows that differ are
 * written, and only then the reservations version is bumped (caches of a week key on it). Answers
 * how many rows changed.
 */
export async function upsertLiveReservations(db: Database, deviceId: string, generation: number, items: readonly MirrorReservation[], bump = true): Promise<number> {
  if (items.length === 0) return 0;
  const r = items;
  const changed = await rawRows<{ one: number }>(
    db,
    sql`INSERT INTO mirror_reservations AS m
          (device_id, generation, id, resource_id, user_id, owner_id, owner_type, status, start_time, end_time)
        SELECT ${deviceId}, ${generation}, * FROM unnest(${array(r.map((x) => x.id))}::uuid[], ${array(r.map((x) => x.resourceId))}::uuid[],
                                         ${array(r.map((x) => x.userId))}::uuid[], ${array(r.map((x) => x.ownerId))}::uuid[],
                                         ${array(r.map((x) => x.ownerType))}::text[], ${array(r.map((x) => x.status))}::text[],
                                         ${array(r.map((x) => x.startTime))}::timestamptz[], ${array(r.map((x) => x.endTime))}::timestamptz[])
        ON CONFLICT (device_id, generation, id) DO UPDATE
           SET resource_id = EXCLUDED.resource_id, user_id = EXCLUDED.user_id, owner_id = EXCLUDED.owner_id,
               owner_type = EXCLUDED.owner_type, status = EXCLUDED.status, start_time = EXCLUDED.start_time, end_time = EXCLUDED.end_time
         WHERE (m.resource_id, m.user_id, m.owner_id, m.owner_type, m.status, m.start_time, m.end_time)
               IS DISTINCT FROM (EXCLUDED.resource_id, EXCLUDED.user_id, EXCLUDED.owner_id, EXCLUDED.owner_type, EXCLUDED.status, EXCLUDED.start_time, EXCLUDED.end_time)
        RETURNING 1 AS one`,
  );
  if (bump && changed.length > 0) {
    await db
      .update(mirrorState)
      .set({ reservationsVersion: sql`${mirrorState.reservationsVersion} + 1` })
      .where(and(eq(mirrorState.deviceId, deviceId), eq(mirrorState.generation, generation)));
  }
  return changed.length;
}

/**
 * Carries the rooms, time schedules and user groups of generation `from` into `to` (a re-read
 * that spends the request budget on reservations only: these change rarely). One statement each;
 * answers the rows carried per collection.
 */
export async function carryStructure(db: Database, deviceId: string, from: number, to: number): Promise<{ resources: number; timeSchedules: number; userGroups: number }> {
  const count = async (query: SQL) => (await rawRows<{ one: number }>(db, query)).length;
  const resources = await count(
    sql`INSERT INTO mirror_resources (device_id, generation, id, name, description, time_schedule_id)
        SELECT device_id, ${to}, id, name, description, time_schedule_id FROM mirror_resources WHERE device_id = ${deviceId} AND generation = ${from}
        ON CONFLICT DO NOTHING RETURNING 1 AS one`,
  );
  const timeSchedules = await count(
    sql`INSERT INTO mirror_time_schedules (device_id, generation, id, schedule_type, schedule)
        SELECT device_id, ${to}, id, schedule_type, schedule FROM mirror_time_schedules WHERE device_id = ${deviceId} AND generation = ${from}
        ON CONFLICT DO NOTHING RETURNING 1 AS one`,
  );
  const userGroups = await count(
    sql`INSERT INTO mirror_user_groups (device_id, generation, id, name, apartment_id, reference_id)
        SELECT device_id, ${to}, id, name, apartment_id, reference_id FROM mirror_user_groups WHERE device_id = ${deviceId} AND generation = ${from}
        ON CONFLICT DO NOTHING RETURNING 1 AS one`,
  );
  return { resources, timeSchedules, userGroups };
}

/**
 * Takes `requests` from a system's request budget at `at` when the bucket holds them (a refresh of
 * one apartment's bookings, lib/mirror/apartment-refresh.ts); answers whether it did. Without a
 * budget (0 per hour) always yes, and nothing is recorded.
 */
export async function takeBudget(db: Database, deviceId: string, requests: number, perHour: number, at: Date): Promise<boolean> {
  if (perHour <= 0) return true;
  await db.insert(mirrorState).values({ deviceId }).onConflictDoNothing();
  const taken = await db
    .update(mirrorState)
    .set({ budgetTokens: sql`${bucketAt(at, perHour)} - ${requests}::float8`, budgetAt: laterOf(at) })
    .where(and(eq(mirrorState.deviceId, deviceId), sql`${bucketAt(at, perHour)} >= ${requests}::float8`))
    .returning({ deviceId: mirrorState.deviceId });
  return taken.length > 0;
}

/**
 * Brings the shown copy in line with what the service says one user's reservations are (every one
 * of them: users/{id}/reservations is not paged): new and changed ones upserted (into a generation
 * being written as well, so a refresh in flight keeps them), the user's others deleted. Bumps the
 * reservations version when anything changed; answers how many rows did.
 */
export async function applyUserReservations(db: Database, deviceId: string, userId: string, items: readonly MirrorReservation[], released?: ReleaseWindows): Promise<number> {
  return db.transaction(async (tx) => {
    const [state] = await tx
      .select({ generation: mirrorState.generation, refreshing: sql<boolean>`${mirrorState.refreshStartedAt} IS NOT NULL`, loaded: sql<boolean>`${mirrorState.refreshedAt} IS NOT NULL` })
      .from(mirrorState)
      .where(eq(mirrorState.deviceId, deviceId))
      .for('update');
    if (!state?.loaded) return 0;
    const own = items.filter((r) => r.deviceId === deviceId);
    let changed = await upsertLiveReservations(tx, deviceId, state.generation, own, false);
    if (state.refreshing) await insertPage(tx, 'reservations', deviceId, state.generation + 1, own);
    const keep = own.map((r) => r.id);
    if (released) {
      await rememberReleased(
        tx,
        deviceId,
        released,
        sql`o.generation = ${state.generation} AND o.user_id = ${userId}${keep.length > 0 ? sql` AND NOT (o.id = ANY(${array(keep)}::uuid[]))` : sql``}`,
      );
    }
    const removed = await tx
      .delete(mirrorReservations)
      .where(
        and(
          eq(mirrorReservations.deviceId, deviceId),
          eq(mirrorReservations.generation, state.generation),
          eq(mirrorReservations.userId, userId),
          keep.length > 0 ? sql`NOT (${mirrorReservations.id} = ANY(${array(keep)}::uuid[]))` : undefined,
        ),
      )
      .returning({ id: mirrorReservations.id });
    changed += removed.length;
    if (changed > 0) {
      await tx.update(mirrorState).set({ reservationsVersion: sql`${mirrorState.reservationsVersion} + 1` }).where(eq(mirrorState.deviceId, deviceId));
    }
    return changed;
  });
}

/**
 * The rooms whose rule group releases unused bookings (resource id → the activation window in
 * minutes, lib/booking-rules activationWindowOf) and the instant the list that no longer has them
 * was read by (a released booking's release instant is at or before it).
 */
export interface ReleaseWindows {
  minutesByResource: ReadonlyMap<string, number>;
  readBy: Date;
}

/**
 * Remembers, as released no-shows, the bookings the re-read found gone (`gone`, over
 * mirror_reservations `o`) that the service released: `Unused`, not a Service window, in a room
 * whose group has an activation window that ended before the booking and before the read. The
 * service cancels only bookings that have not started (sandbox/processor.ts), so a booking gone
 * after its release instant was released, not cancelled — unless it was cancelled before its start
 * and no read saw that in between (decision 025).
 */
async function rememberReleased(tx: Database, deviceId: string, windows: ReleaseWindows, gone: SQL): Promise<number> {
  if (windows.minutesByResource.size === 0) return 0;
  const rooms = [...windows.minutesByResource.keys()];
  const minutes = rooms.map((r) => windows.minutesByResource.get(r)!);
  const rows = await rawRows<{ one: number }>(
    tx,
    sql`INSERT INTO mirror_released_no_shows AS k (device_id, id, resource_id, user_id, owner_id, owner_type, start_time, end_time, released_at)
        SELECT DISTINCT ON (o.id) o.device_id, o.id, o.resource_id, o.user_id, o.owner_id, o.owner_type, o.start_time, o.end_time,
               o.start_time + make_interval(mins => w.minutes)
          FROM mirror_reservations o
          JOIN unnest(${array(rooms)}::uuid[], ${array(minutes)}::int[]) AS w(resource_id, minutes) ON w.resource_id = o.resource_id
         WHERE o.device_id = ${deviceId} AND o.status = 'Unused' AND o.owner_type <> 'Service'
           AND o.start_time + make_interval(mins => w.minutes) < o.end_time
           AND o.start_time + make_interval(mins => w.minutes) <= ${windows.readBy.toISOString()}::timestamptz
           AND ${gone}
         ORDER BY o.id, o.generation DESC
        ON CONFLICT (device_id, id) DO NOTHING
        RETURNING 1 AS one`,
  );
  return rows.length;
}

/** A remembered no-show row as its readers take it (times in ms). */
function releasedNoShowOf(r: typeof mirrorReleasedNoShows.$inferSelect) {
  return {
    id: r.id,
    resourceId: r.resourceId,
    userId: r.userId,
    ownerId: r.ownerId,
    ownerType: r.ownerType,
    startMs: r.startTime.getTime(),
    endMs: r.endTime.getTime(),
    releasedAtMs: r.releasedAt.getTime(),
  };
}

/** The released no-shows the mirror remembers (rememberReleased) whose booking overlaps [from, to). */
export async function readReleasedNoShows(db: Database, deviceId: string, range: { from: Date; to: Date }): Promise<ReleasedNoShow[]> {
  const k = mirrorReleasedNoShows;
  const rows = await db
    .select()
    .from(k)
    // A booking lasts at most a day: the start bound keeps the index range tight (as the report's read).
    .where(and(eq(k.deviceId, deviceId), lt(k.startTime, range.to), gt(k.endTime, range.from), gt(k.startTime, new Date(range.from.getTime() - 86_400_000))));
  return rows.map(releasedNoShowOf);
}

/** A booking the service released because nobody activated it: a no-show the upstream no longer lists. */
export interface ReleasedNoShow {
  id: string;
  resourceId: string;
  userId: string | null;
  ownerId: string | null;
  ownerType: 'User' | 'Group' | 'Service' | 'Unknown';
  startMs: number;
  endMs: number;
  releasedAtMs: number;
}

const MIRROR_TABLES = [mirrorReservations, mirrorResources, mirrorTimeSchedules, mirrorUserGroups, mirrorUsers] as const;

export async function deleteGeneration(db: Database, deviceId: string, generation: number): Promise<void> {
  for (const table of MIRROR_TABLES) {
    await db.delete(table).where(and(eq(table.deviceId, deviceId), eq(table.generation, generation)));
  }
}

/**
 * Forgets everything mirrored of a system (every generation and its state): a disconnected
 * system's copy is stale at once and its residents' data should not linger. A refresh still
 * running for it finds no state row and its pages become orphans of a generation nobody reads.
 */
export async function deleteMirrorOf(db: Database, deviceId: string): Promise<void> {
  for (const table of MIRROR_TABLES) await db.delete(table).where(eq(table.deviceId, deviceId));
  await db.delete(mirrorState).where(eq(mirrorState.deviceId, deviceId));
  await db.delete(mirrorReleasedNoShows).where(eq(mirrorReleasedNoShows.deviceId, deviceId));
}

/** The request budget of refreshes (lib/mirror/policy.ts): checked at the claim when `enforce`, always charged. */
export interface BudgetSettings {
  perHour: number;
  enforce: boolean;
}

/** What a claim requires besides a free lease; each condition is judged at `at` (the caller's now). */
export interface ClaimConditions {
  /** The time the caller decided at (default now): instances are assumed to keep their clocks in sync. */
  at?: Date;
  /** Refused during the backoff after a failure. */
  respectBackoff?: boolean;
  /** Refused when the last refresh ended less than this long before `at`: one re-page per window. */
  windowSeconds?: number;
  /** A budget of more than 0 per hour: the claim reserves the last refresh's cost from the bucket. */
  budget?: BudgetSettings;
}

/**
 * A won claim: the generation being replaced, the failures before it, the tokens it reserved, and
 * the lease's owner id, which every later write of the refresh presents (recordProgress,
 * completeRefresh, failRefresh).
 */
export interface RefreshClaim {
  generation: number;
  consecutiveFailures: number;
  reserved: number;
  refreshId: string;
  /** Whether the generation being replaced is a complete copy readers see (false on a first load). */
  loaded: boolean;
  /** Whether it holds a list the service never ended (the next refresh then reads everything). */
  incomplete: boolean;
}

const LEASE_LOST = 'mirror_lease_lost';

/** A refresh's write found the lease no longer its own (taken over after it ran out, or the system disconnected). */
function leaseLostError(deviceId: string): Error & { code: typeof LEASE_LOST } {
  return Object.assign(new Error(`the refresh of system ${deviceId} lost its lease`), { code: LEASE_LOST } as const);
}

export function isLeaseLost(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === LEASE_LOST;
}

/** The row of this system while `refreshId` holds its lease. */
const ownedBy = (deviceId: string, refreshId: string) => and(eq(mirrorState.deviceId, deviceId), eq(mirrorState.refreshId, refreshId));

/** The bucket's level at `at`, as budgetTokens in policy.ts computes it (same rule, in SQL). */
function bucketAt(at: Date, perHour: number): SQL {
  const capacity = budgetCapacity(perHour);
  const iso = at.toISOString();
  return sql`LEAST(${capacity}::float8, COALESCE(${mirrorState.budgetTokens}, ${capacity}::float8)
    + ${budgetRefillPerSecond(perHour)}::float8 * GREATEST(0, EXTRACT(EPOCH FROM (${iso}::timestamptz - COALESCE(${mirrorState.budgetAt}, ${iso}::timestamptz)))))`;
}
const laterOf = (at: Date): SQL => sql`GREATEST(COALESCE(${mirrorState.budgetAt}, ${at.toISOString()}::timestamptz), ${at.toISOString()}::timestamptz)`;

/**
 * Claims the right to refresh a system, across every instance sharing the database, in one
 * conditional UPDATE: a free (or expired) lease, and the policy's conditions when asked — past
 * the backoff, no refresh ended within the window, and (for a system loaded before) the bucket
 * holding what the last refresh cost. So a state read just before another instance's refresh
 * ended cannot start a second one right after it. A lease (not a session advisory lock) so that
 * no pooled connection is pinned for the whole refresh, and a crashed refresher's claim expires.
 */
export async function claimRefreshWith(db: Database, deviceId: string, leaseSeconds: number, conditions: ClaimConditions = {}): Promise<RefreshClaim | null> {
  await db.insert(mirrorState).values({ deviceId }).onConflictDoNothing();
  // One transaction with the claim: what a refresh that died (or lost its lease) left of the
  // generation about to be written is deleted before anything else may write it. An outcome
  // applied meanwhile (applyReservationChange) waits for the row and lands after the deletion.
  return db.transaction(async (tx) => {
    const claim = await claimRow(tx, deviceId, leaseSeconds, conditions);
    if (claim) await deleteGeneration(tx, deviceId, claim.generation + 1);
    return claim;
  });
}

async function claimRow(db: Database, deviceId: string, leaseSeconds: number, conditions: ClaimConditions): Promise<RefreshClaim | null> {
  const at = conditions.at ?? new Date();
  const iso = at.toISOString();
  const budget = conditions.budget && conditions.budget.perHour > 0 ? conditions.budget : undefined;
  const neverLoaded = isNull(mirrorState.refreshedAt);
  const refreshId = randomUUID();
  const [row] = await db
    .update(mirrorState)
    .set({
      refreshStartedAt: sql`now()`,
      refreshId,
      pagesFetched: 0,
      waitingUntil: null,
      waitingKind: null,
      // The last refresh's cost is reserved now, so a crash mid-way is charged too; the end settles it.
      ...(budget ? { budgetTokens: sql`${bucketAt(at, budget.perHour)} - ${mirrorState.lastRequests}`, budgetAt: laterOf(at) } : {}),
    })
    .where(
      and(
        eq(mirrorState.deviceId, deviceId),
        or(isNull(mirrorState.refreshStartedAt), lt(mirrorState.refreshStartedAt, sql`now() - make_interval(secs => ${leaseSeconds})`)),
        conditions.respectBackoff ? or(isNull(mirrorState.nextRefreshAt), lte(mirrorState.nextRefreshAt, at)) : undefined,
        conditions.windowSeconds !== undefined
          ? or(neverLoaded, lte(sql`COALESCE(${mirrorState.refreshEndedAt}, ${mirrorState.refreshedAt})`, sql`${iso}::timestamptz - make_interval(secs => ${conditions.windowSeconds})`))
          : undefined,
        budget?.enforce
          ? or(neverLoaded, sql`${bucketAt(at, budget.perHour)} >= LEAST(${mirrorState.lastRequests}, ${budgetCapacity(budget.perHour)}::float8)`)
          : undefined,
      ),
    )
    .returning({
      generation: mirrorState.generation,
      consecutiveFailures: mirrorState.consecutiveFailures,
      reserved: mirrorState.lastRequests,
      loaded: sql<boolean>`${mirrorState.refreshedAt} IS NOT NULL`,
      incomplete: sql<boolean>`${mirrorState.incompleteLists} IS NOT NULL`,
    });
  return row ? { ...row, loaded: Boolean(row.loaded), incomplete: Boolean(row.incomplete), refreshId } : null;
}

/** claimRefreshWith, answering the generation being replaced (or null). */
export async function claimRefresh(db: Database, deviceId: string, leaseSeconds: number, conditions: ClaimConditions = {}): Promise<number | null> {
  return (await claimRefreshWith(db, deviceId, leaseSeconds, conditions))?.generation ?? null;
}

/** What a refresh cost, settled when it ends (also when it failed). */
export interface RefreshCharge {
  /** Upstream requests it made. */
  requests: number;
  /** What its claim reserved (RefreshClaim.reserved). */
  reserved: number;
  at: Date;
  /** Without one (or at 0 per hour) only the cost is recorded. */
  budget?: BudgetSettings;
}

function chargeColumns(charge: RefreshCharge | undefined) {
  if (!charge) return {};
  const budget = charge.budget && charge.budget.perHour > 0 ? charge.budget : undefined;
  return {
    lastRequests: charge.requests,
    ...(budget
      ? { budgetTokens: sql`${bucketAt(charge.at, budget.perHour)} - ${charge.requests - charge.reserved}::float8`, budgetAt: laterOf(charge.at) }
      : {}),
  };
}

/** What a refresh records as it goes besides its page count (see MirrorState). */
export interface LoadProgress {
  reservationsRead?: number;
  structureGeneration?: number | null;
  /** Waiting to read a failed page again (until when, and why), or no longer (null). */
  waiting?: { until: Date; kind: MirrorWaitKind } | null;
}

/**
 * One small update per page (pages null: leave the count as it is), which also renews the lease:
 * a refresh that keeps writing is never taken over, however long it runs. Throws leaseLostError
 * when the lease is no longer `refreshId`'s; nothing is written then.
 */
export async function recordProgress(db: Database, deviceId: string, refreshId: string, pages: number | null, progress: LoadProgress = {}): Promise<void> {
  const set: Partial<typeof mirrorState.$inferInsert> = {};
  if (pages !== null) set.pagesFetched = pages;
  if (progress.reservationsRead !== undefined) set.reservationsRead = progress.reservationsRead;
  if (progress.structureGeneration !== undefined) set.structureGeneration = progress.structureGeneration;
  if (progress.waiting !== undefined) {
    set.waitingUntil = progress.waiting?.until ?? null;
    set.waitingKind = progress.waiting?.kind ?? null;
  }
  const renewed = await db
    .update(mirrorState)
    .set({ ...set, refreshStartedAt: sql`now()` })
    .where(ownedBy(deviceId, refreshId))
    .returning({ generation: mirrorState.generation });
  if (renewed.length === 0) throw leaseLostError(deviceId);
}

/**
 * Writes one page of a refresh with its progress, renewing the lease first: a refresh that lost
 * its lease (its upstream stalled past it, and another claim took over and cleared the generation)
 * writes nothing more into the generation its successor now owns. The insert follows a renewal
 * that left the lease its full length, so no claim can come between them; two statements, as
 * before, rather than a transaction's four on every page of a load.
 */
export async function writeRefreshPage(
  db: Database,
  deviceId: string,
  refreshId: string,
  page: { kind: Parameters<typeof insertPage>[1]; generation: number; items: readonly unknown[] },
  pages: number,
  progress: LoadProgress = {},
): Promise<void> {
  await recordProgress(db, deviceId, refreshId, pages, progress);
  await insertPage(db, page.kind, deviceId, page.generation, page.items);
}

/** Switches readers to the new generation and drops the old ones, atomically. */
export async function completeRefresh(
  db: Database,
  deviceId: string,
  refreshId: string,
  generation: number,
  startedAt: Date,
  pages: number,
  skipped: SkippedSummary | null = null,
  users: MirrorUsersStatus | 'failed' = 'unavailable',
  charge?: RefreshCharge,
  incomplete?: { lists: MirrorCollection[]; retryAfterMs: number },
  released?: ReleaseWindows,
): Promise<void> {
  // A list that did not end: the copy switches to what was read (usable), marked incomplete, and
  // the next refresh waits a backoff as after a failure, so a broken list is not re-read at once.
  const unfinished = incomplete && incomplete.lists.length > 0 ? incomplete : null;
  await db.transaction(async (tx) => {
    // A user list this refresh could not read: the previous generation's is carried over (kept),
    // so a flaky users/fetch does not empty the resident search.
    let usersStatus: MirrorUsersStatus = users === 'failed' ? 'unavailable' : users;
    if (users === 'failed') {
      const carried = await rawRows<{ one: number }>(
        tx,
        sql`INSERT INTO mirror_users (device_id, generation, id, name, email, user_group_id)
            SELECT u.device_id, ${generation}, u.id, u.name, u.email, u.user_group_id
              FROM mirror_users u JOIN mirror_state s ON s.device_id = u.device_id AND s.generation = u.generation
             WHERE u.device_id = ${deviceId} AND s.users_refreshed_at IS NOT NULL
            ON CONFLICT DO NOTHING RETURNING 1 AS one`,
      );
      if (carried.length > 0) usersStatus = 'kept';
    }
    const switched = await tx
      .update(mirrorState)
      .set({
        usersStatus,
        usersRefreshedAt: usersStatus === 'loaded' ? startedAt : usersStatus === 'kept' ? sql`${mirrorState.usersRefreshedAt}` : null,
        generation,
        refreshedAt: startedAt,
        refreshStartedAt: null,
        refreshEndedAt: sql`now()`,
        pagesFetched: pages,
        lastError: null,
        lastErrorAt: null,
        lastErrorKind: null,
        consecutiveFailures: unfinished ? sql`${mirrorState.consecutiveFailures} + 1` : 0,
        nextRefreshAt: unfinished ? sql`now() + make_interval(secs => ${unfinished.retryAfterMs / 1000}::float8)` : null,
        incompleteLists: unfinished ? unfinished.lists : null,
        skippedItems: skipped && skipped.total > 0 ? skipped : null,
        // Readers now see the whole generation; its count estimates the next first load's total.
        structureGeneration: null,
        reservationsLoaded: sql`${mirrorState.reservationsRead}`,
        ...chargeColumns(charge),
        refreshId: null,
        waitingUntil: null,
        waitingKind: null,
      })
      .where(ownedBy(deviceId, refreshId))
      .returning({ generation: mirrorState.generation });
    // Taken over meanwhile: the successor owns the generation; nothing here is switched or dropped.
    if (switched.length === 0) throw leaseLostError(deviceId);
    // Only a list read to its end says what is gone.
    if (released && !unfinished?.lists.includes('reservations')) {
      await rememberReleased(tx, deviceId, released, sql`o.generation < ${generation} AND NOT EXISTS (SELECT 1 FROM mirror_reservations n WHERE n.device_id = o.device_id AND n.generation = ${generation} AND n.id = o.id)`);
      // One the service lists again was not released after all (a clock that disagreed): forgotten.
      await tx.execute(
        sql`DELETE FROM mirror_released_no_shows k WHERE k.device_id = ${deviceId}
              AND EXISTS (SELECT 1 FROM mirror_reservations n WHERE n.device_id = k.device_id AND n.generation = ${generation} AND n.id = k.id)`,
      );
    }
    for (const table of MIRROR_TABLES) {
      await tx.delete(table).where(and(eq(table.deviceId, deviceId), lt(table.generation, generation)));
    }
  });
  // PGlite never analyses on its own: without statistics the planner picked the time index over
  // the resource index for a week read. Best effort; the data is already switched over.
  await db.execute(sql.raw(`ANALYZE ${MIRROR_TABLES.map((t) => getTableName(t)).join(', ')}`)).catch(() => undefined);
}

/**
 * Drops the unfinished generation, records the failure and its kind, and sets when the next
 * attempt may start (`retryAfterMs` from now, as policy.ts's refreshBackoffMs computed it for the
 * failures before this one, which the claim returned: the lease holder is the only writer).
 */
export async function failRefresh(
  db: Database,
  deviceId: string,
  refreshId: string,
  generation: number,
  failure: { message: string; kind: MirrorErrorKind; retryAfterMs: number },
  charge?: RefreshCharge,
): Promise<'recorded' | 'lease-lost'> {
  return db.transaction(async (tx) => {
    const recorded = await recordFailure(tx, deviceId, refreshId, failure, charge);
    // A refresh that lost its lease leaves the row and the generation (now its successor's) alone.
    if (recorded.length === 0) return 'lease-lost' as const;
    // Never the live copy, whatever the caller believed it was writing.
    if (recorded[0]!.generation !== generation) await deleteGeneration(tx, deviceId, generation);
    return 'recorded' as const;
  });
}

function recordFailure(
  db: Database,
  deviceId: string,
  refreshId: string,
  failure: { message: string; kind: MirrorErrorKind; retryAfterMs: number },
  charge: RefreshCharge | undefined,
) {
  return db
    .update(mirrorState)
    .set({
      refreshStartedAt: null,
      refreshId: null,
      // Its rows are gone: nothing of it may be shown (issue 20's partial view).
      structureGeneration: null,
      reservationsRead: 0,
      waitingUntil: null,
      waitingKind: null,
      lastError: failure.message,
      lastErrorKind: failure.kind,
      lastErrorAt: sql`now()`,
      consecutiveFailures: sql`${mirrorState.consecutiveFailures} + 1`,
      nextRefreshAt: sql`now() + make_interval(secs => ${failure.retryAfterMs / 1000}::float8)`,
      ...chargeColumns(charge),
    })
    .where(ownedBy(deviceId, refreshId))
    .returning({ generation: mirrorState.generation });
}

/** Each system's budget bucket (for the metrics gauge, computed with policy.ts's bucketTokens). */
export async function readBudgets(db: Database): Promise<{ deviceId: string; budgetTokens: number | null; budgetAt: Date | null }[]> {
  return db.select({ deviceId: mirrorState.deviceId, budgetTokens: mirrorState.budgetTokens, budgetAt: mirrorState.budgetAt }).from(mirrorState);
}

/** When each system's mirror was last refreshed successfully (systems never refreshed are left out). */
export async function readRefreshTimes(db: Database): Promise<{ deviceId: string; refreshedAt: Date }[]> {
  const rows = await db
    .select({ deviceId: mirrorState.deviceId, refreshedAt: mirrorState.refreshedAt })
    .from(mirrorState)
    .where(sql`${mirrorState.refreshedAt} IS NOT NULL`);
  return rows.flatMap((r) => (r.refreshedAt ? [{ deviceId: r.deviceId, refreshedAt: r.refreshedAt }] : []));
}

/** Every system's state row, by device id, in one statement (the background worker's plan). */
export async function readStates(db: Database): Promise<Map<string, MirrorState>> {
  const rows = await db.select().from(mirrorState);
  return new Map(rows.map((row) => [row.deviceId, toMirrorState(row)]));
}

/** How often a system's viewed_at is written at most: a view costs no write within it. */
export const VIEWED_EVERY_MS = 60_000;
// When this process last wrote (or found) each system's viewed_at, per database handle: most views cost no statement at all.
const viewedOf = cachePerOwner<Database, { at: number }>('mirror-viewed-at', { max: 10_000 });

/**
 * Notes that someone opened the system, at most once a minute per system: in this process by
 * memory, across instances by the condition (a row written within the minute is left alone).
 * `known` is the state row the caller read, which may already say so. Never fails the view.
 */
export async function markViewed(db: Database, deviceId: string, at: Date, known?: Pick<MirrorState, 'viewedAt'> | null): Promise<void> {
  const t = at.getTime();
  const key = deviceId.toLowerCase();
  const viewedHere = viewedOf(db);
  const held = viewedHere.get(key);
  if (held && t - held.at < VIEWED_EVERY_MS) return;
  if (known?.viewedAt && t - known.viewedAt.getTime() < VIEWED_EVERY_MS) {
    viewedHere.set(key, { at: known.viewedAt.getTime() });
    return;
  }
  viewedHere.set(key, { at: t });
  const iso = at.toISOString();
  await db
    .insert(mirrorState)
    .values({ deviceId: key, viewedAt: at })
    .onConflictDoUpdate({
      target: mirrorState.deviceId,
      set: { viewedAt: at },
      setWhere: or(isNull(mirrorState.viewedAt), lt(mirrorState.viewedAt, sql`${iso}::timestamptz - make_interval(secs => ${VIEWED_EVERY_MS / 1000})`)),
    });
}

/**
 * How far the connected systems' first loads are, in one statement: the connected systems, those
 * whose copy is loaded, and of those the ones read within `recentS` seconds with the earliest such
 * start (the observed rate, lib/mirror/progress.ts).
 */
export async function readLoadCounts(db: Database, recentS: number): Promise<{ total: number; loaded: number; recent: number; recentSince: Date | null }> {
  const recent = sql`${mirrorState.refreshedAt} > now() - make_interval(secs => ${recentS})`;
  const [row] = await db
    .select({
      total: sql<number>`count(*)::int`,
      loaded: sql<number>`count(${mirrorState.refreshedAt})::int`,
      recent: sql<number>`(count(*) FILTER (WHERE ${recent}))::int`,
      recentSince: sql<string | null>`min(${mirrorState.refreshedAt}) FILTER (WHERE ${recent})`,
    })
    .from(systems)
    .leftJoin(mirrorState, eq(mirrorState.deviceId, systems.deviceId));
  return {
    total: Number(row?.total ?? 0),
    loaded: Number(row?.loaded ?? 0),
    recent: Number(row?.recent ?? 0),
    recentSince: row?.recentSince ? new Date(row.recentSince) : null,
  };
}

export async function readState(db: Database, deviceId: string): Promise<MirrorState | null> {
  const [row] = await db.select().from(mirrorState).where(eq(mirrorState.deviceId, deviceId));
  return row ? toMirrorState(row) : null;
}

/** readState as one read of a `readTogether` (lib/db/read-together.ts). */
export function stateRead(deviceId: string): JsonRead<MirrorState | null> {
  const rows = selectRows(queryBuilder.select().from(mirrorState).where(eq(mirrorState.deviceId, deviceId)));
  return {
    query: rows.query,
    parse: (json) => {
      const [row] = rows.parse(json);
      return row ? toMirrorState(row) : null;
    },
  };
}

/** The state rows of the systems `visible` lets through, by device id, as one read of a `readTogether`. */
export function statesRead(visible: (deviceId: PgColumn) => SQL): JsonRead<Map<string, MirrorState>> {
  const rows = selectRows(queryBuilder.select().from(mirrorState).where(visible(mirrorState.deviceId)));
  return { query: rows.query, parse: (json) => new Map(rows.parse(json).map((row) => [row.deviceId, toMirrorState(row)])) };
}

function toMirrorState(row: typeof mirrorState.$inferSelect): MirrorState {
  return {
    deviceId: row.deviceId,
    generation: row.generation,
    refreshedAt: row.refreshedAt,
    refreshEndedAt: row.refreshEndedAt,
    // A refresh whose lease ran out died with its instance: nothing is refreshing any more.
    refreshing: row.refreshStartedAt !== null && Date.now() - row.refreshStartedAt.getTime() < REFRESH_LEASE_SECONDS * 1000,
    refreshStartedAt: row.refreshStartedAt,
    reservationsVersion: row.reservationsVersion,
    pagesFetched: row.pagesFetched,
    lastError: row.lastError,
    lastErrorAt: row.lastErrorAt,
    lastErrorKind: row.lastErrorKind,
    consecutiveFailures: row.consecutiveFailures,
    nextRefreshAt: row.nextRefreshAt,
    skipped: row.skippedItems,
    usersRefreshedAt: row.usersRefreshedAt,
    usersStatus: row.usersStatus,
    structureGeneration: row.structureGeneration,
    reservationsRead: row.reservationsRead,
    reservationsLoaded: row.reservationsLoaded,
    budgetTokens: row.budgetTokens,
    budgetAt: row.budgetAt,
    lastRequests: row.lastRequests,
    incompleteLists: row.incompleteLists && row.incompleteLists.length > 0 ? row.incompleteLists : null,
    waiting: waitingOf(row),
    viewedAt: row.viewedAt,
  };
}

/** A refresh's wait as the row holds it: only while its lease is alive (a dead refresh waits for nothing). */
function waitingOf(row: typeof mirrorState.$inferSelect): MirrorState['waiting'] {
  const alive = row.refreshStartedAt !== null && Date.now() - row.refreshStartedAt.getTime() < REFRESH_LEASE_SECONDS * 1000;
  return alive && row.waitingUntil && row.waitingKind ? { until: row.waitingUntil, kind: row.waitingKind } : null;
}

/** Rows of a mirror table that belong to the generation its system's state names (the current one). */
function currentGeneration(table: (typeof MIRROR_TABLES)[number]): SQL {
  return and(eq(mirrorState.deviceId, table.deviceId), eq(mirrorState.generation, table.generation)) as SQL;
}

/**
 * Which generation a read is of: the current one (default), or a named one — the generation a
 * first load is writing, whose structure is complete (MirrorState.structureGeneration).
 */
export interface GenerationOption {
  generation?: number;
}

/** The join condition of a read: the current generation, or the one named. */
function generationOf(table: (typeof MIRROR_TABLES)[number], options: GenerationOption): SQL {
  if (options.generation === undefined) return currentGeneration(table);
  return and(eq(mirrorState.deviceId, table.deviceId), eq(table.generation, options.generation)) as SQL;
}

const toReservation = (deviceId: string) => (row: typeof mirrorReservations.$inferSelect): MirrorReservation => ({
  id: row.id,
  resourceId: row.resourceId,
  userId: row.userId,
  ownerId: row.ownerId,
  ownerType: row.ownerType,
  status: row.status,
  startTime: row.startTime.toISOString(),
  endTime: row.endTime.toISOString(),
  deviceId,
});

const reservationColumns = getTableColumns(mirrorReservations);
const DAY = sql.raw(`interval '1 day'`);

/** Reservations overlapping [from, to), optionally of one resource, from the current generation (or the one named). */
export async function readReservations(
  db: Database,
  deviceId: string,
  range: { from: Date; to: Date; resourceId?: string },
  options: GenerationOption = {},
): Promise<MirrorReservation[]> {
  const r = mirrorReservations;
  // A reservation is at most a day long, so start_time > from - 1 day keeps the index range tight.
  const rows = await db
    .select(reservationColumns)
    .from(r)
    .innerJoin(mirrorState, generationOf(r, options))
    .where(
      and(
        eq(r.deviceId, deviceId),
        lt(r.startTime, range.to),
        gt(r.endTime, range.from),
        gt(r.startTime, sql`${range.from.toISOString()}::timestamptz - ${DAY}`),
        range.resourceId ? eq(r.resourceId, range.resourceId) : undefined,
      ),
    )
    .orderBy(asc(r.startTime), asc(r.id));
  return rows.map(toReservation(deviceId));
}

/** One reservation of the current generation by id. */
export async function readReservationById(db: Database, deviceId: string, reservationId: string): Promise<MirrorReservation | undefined> {
  const r = mirrorReservations;
  const rows = await db
    .select(reservationColumns)
    .from(r)
    .innerJoin(mirrorState, currentGeneration(r))
    .where(and(eq(r.deviceId, deviceId), eq(r.id, reservationId)));
  return rows.map(toReservation(deviceId))[0];
}

export async function readResources(db: Database, deviceId: string, options: GenerationOption = {}): Promise<MirrorResource[]> {
  const r = mirrorResources;
  const rows = await db
    .select({ id: r.id, name: r.name, description: r.description, timeScheduleId: r.timeScheduleId })
    .from(r)
    .innerJoin(mirrorState, generationOf(r, options))
    .where(eq(r.deviceId, deviceId))
    .orderBy(asc(r.name), asc(r.id));
  return rows.map((row) => ({ ...row, deviceId }));
}

export async function readTimeSchedules(db: Database, deviceId: string, options: GenerationOption = {}): Promise<MirrorTimeSchedule[]> {
  const t = mirrorTimeSchedules;
  const rows = await db
    .select({ id: t.id, schedule: t.schedule })
    .from(t)
    .innerJoin(mirrorState, generationOf(t, options))
    .where(eq(t.deviceId, deviceId))
    .orderBy(asc(t.id));
  return rows.map((row) => ({ id: row.id, deviceId, scheduleType: 'Week' as const, schedule: row.schedule }));
}

export async function readUserGroups(db: Database, deviceId: string, ids?: readonly string[], options: GenerationOption = {}): Promise<MirrorUserGroup[]> {
  const g = mirrorUserGroups;
  const query = db
    .select({ id: g.id, name: g.name, apartmentId: g.apartmentId, referenceId: g.referenceId })
    .from(g)
    .innerJoin(mirrorState, generationOf(g, options));
  const rows = ids
    ? await query.where(and(eq(g.deviceId, deviceId), equalsAnyUuid(g.id, ids)))
    : await query.where(eq(g.deviceId, deviceId)).orderBy(asc(g.name));
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    apartmentId: row.apartmentId ?? '',
    referenceId: row.referenceId ?? '',
    deviceId,
  }));
}

/** The system's users of the current generation (empty when it holds no user list). */
export async function readUsers(db: Database, deviceId: string, groupIds?: readonly string[]): Promise<MirrorUser[]> {
  const u = mirrorUsers;
  const rows = await db
    .select({ id: u.id, name: u.name, email: u.email, userGroupId: u.userGroupId })
    .from(u)
    .innerJoin(mirrorState, currentGeneration(u))
    .where(and(eq(u.deviceId, deviceId), groupIds ? equalsAnyUuid(u.userGroupId, groupIds) : undefined))
    .orderBy(asc(u.name), asc(u.id));
  return rows.map((row) => ({ id: row.id, name: row.name ?? '', email: row.email ?? '', userGroupId: row.userGroupId }));
}

/**
 * The user groups and users of several systems' current generations, in two statements however
 * many systems (resident search's directories, lib/residents/directory.ts): a search over a
 * thousand systems must not read each one apart. `generation` is the one the rows are of.
 */
export async function readDirectoryRows(
  db: Database,
  deviceIds: readonly string[],
): Promise<Map<string, { generation: number; groups: MirrorUserGroup[]; users: MirrorUser[] }>> {
  const out = new Map<string, { generation: number; groups: MirrorUserGroup[]; users: MirrorUser[] }>();
  if (deviceIds.length === 0) return out;
  const g = mirrorUserGroups;
  const u = mirrorUsers;
  const [groups, users] = await Promise.all([
    db
      .select({ deviceId: g.deviceId, generation: g.generation, id: g.id, name: g.name, apartmentId: g.apartmentId, referenceId: g.referenceId })
      .from(g)
      .innerJoin(mirrorState, currentGeneration(g))
      .where(equalsAnyUuid(g.deviceId, deviceIds)),
    db
      .select({ deviceId: u.deviceId, generation: u.generation, id: u.id, name: u.name, email: u.email, userGroupId: u.userGroupId })
      .from(u)
      .innerJoin(mirrorState, currentGeneration(u))
      .where(equalsAnyUuid(u.deviceId, deviceIds))
      .orderBy(asc(u.deviceId), asc(u.name), asc(u.id)),
  ]);
  const entry = (deviceId: string, generation: number) => {
    let held = out.get(deviceId);
    if (!held) out.set(deviceId, (held = { generation, groups: [], users: [] }));
    return held;
  };
  for (const row of groups) entry(row.deviceId, row.generation).groups.push({ id: row.id, name: row.name, apartmentId: row.apartmentId ?? '', referenceId: row.referenceId ?? '', deviceId: row.deviceId });
  for (const row of users) entry(row.deviceId, row.generation).users.push({ id: row.id, name: row.name ?? '', email: row.email ?? '', userGroupId: row.userGroupId });
  return out;
}

/** One user's name and e-mail address from the current generation (one indexed lookup; for resident e-mail). */
export async function readUserContact(db: Database, deviceId: string, userId: string): Promise<{ name: string | null; email: string | null } | undefined> {
  const u = mirrorUsers;
  const [row] = await db
    .select({ name: u.name, email: u.email })
    .from(u)
    .innerJoin(mirrorState, currentGeneration(u))
    .where(and(eq(u.deviceId, deviceId), eq(u.id, userId)))
    .limit(1);
  return row;
}

/**
 * An apartment's reservations overlapping [from, to), from the current generation: those its
 * group owns and those its users made (a user's own booking counts for the apartment too).
 */
export async function readReservationsOfApartment(
  db: Database,
  deviceId: string,
  apartment: { groupId: string | null; userIds: readonly string[] },
  range: { from: Date; to: Date },
): Promise<MirrorReservation[]> {
  const r = mirrorReservations;
  const owners = [
    apartment.groupId ? eq(r.ownerId, apartment.groupId) : undefined,
    apartment.userIds.length > 0 ? equalsAnyUuid(r.userId, apartment.userIds) : undefined,
  ].filter((c): c is SQL => c !== undefined);
  if (owners.length === 0) return [];
  const rows = await db
    .select(reservationColumns)
    .from(r)
    .innerJoin(mirrorState, currentGeneration(r))
    .where(and(eq(r.deviceId, deviceId), or(...owners), lt(r.startTime, range.to), gt(r.endTime, range.from)))
    .orderBy(asc(r.startTime), asc(r.id));
  return rows.map(toReservation(deviceId));
}

/**
 * Applies a confirmed outcome at once: to the current generation and to one being written, so a
 * refresh in flight cannot switch to a copy that lacks it.
 */
export async function applyReservationChange(
  tx: Database,
  change: { type: 'created'; reservation: MirrorReservation } | { type: 'cancelled'; deviceId: string; reservationId: string },
): Promise<void> {
  const deviceId = change.type === 'cancelled' ? change.deviceId : change.reservation.deviceId;
  // In the same transaction as the change: readers caching a week's reservations key them on it.
  const [state] = await tx
    .update(mirrorState)
    .set({ reservationsVersion: sql`${mirrorState.reservationsVersion} + 1` })
    .where(eq(mirrorState.deviceId, deviceId))
    .returning({ generation: mirrorState.generation, refreshing: sql<boolean>`${mirrorState.refreshStartedAt} IS NOT NULL` });
  if (change.type === 'cancelled') {
    await tx.delete(mirrorReservations).where(and(eq(mirrorReservations.deviceId, change.deviceId), eq(mirrorReservations.id, change.reservationId)));
    return;
  }
  if (!state) return;
  const generations = state.refreshing ? [state.generation, state.generation + 1] : [state.generation];
  for (const generation of generations) {
    await insertPage(tx, 'reservations', change.reservation.deviceId, generation, [change.reservation]);
  }
}

// A resident's data extract (lib/personal-data): one user's record and what the mirror holds of them.

/** One user of the current generation with their apartment's group (null when the mirror no longer has them). */
export async function readUserWithGroup(db: Database, deviceId: string, userId: string): Promise<{ user: MirrorUser; group: MirrorUserGroup | null } | null> {
  const u = mirrorUsers;
  const [row] = await db
    .select({ id: u.id, name: u.name, email: u.email, userGroupId: u.userGroupId })
    .from(u)
    .innerJoin(mirrorState, currentGeneration(u))
    .where(and(eq(u.deviceId, deviceId), eq(u.id, userId)))
    .limit(1);
  if (!row) return null;
  const user: MirrorUser = { id: row.id, name: row.name ?? '', email: row.email ?? '', userGroupId: row.userGroupId };
  const [group] = row.userGroupId ? await readUserGroups(db, deviceId, [row.userGroupId]) : [];
  return { user, group: group ?? null };
}

/** Which of `userIds` the current generation's user list holds (the rest are gone from the booking system). */
export async function readPresentUserIds(db: Database, deviceId: string, userIds: readonly string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const u = mirrorUsers;
  const rows = await db
    .select({ id: u.id })
    .from(u)
    .innerJoin(mirrorState, currentGeneration(u))
    .where(and(eq(u.deviceId, deviceId), equalsAnyUuid(u.id, userIds)));
  return new Set(rows.map((r) => r.id));
}

/**
 * Every reservation of the current generation that is one user's: those they hold, and those
 * their apartment's group owns with nobody named (a booking of the apartment, not of a housemate).
 */
export async function readReservationsOfUser(db: Database, deviceId: string, userId: string, groupId: string | null): Promise<MirrorReservation[]> {
  const r = mirrorReservations;
  const theirs = groupId ? or(eq(r.userId, userId), and(eq(r.ownerId, groupId), isNull(r.userId))) : eq(r.userId, userId);
  const rows = await db
    .select(reservationColumns)
    .from(r)
    .innerJoin(mirrorState, currentGeneration(r))
    .where(and(eq(r.deviceId, deviceId), theirs))
    .orderBy(asc(r.startTime), asc(r.id));
  return rows.map(toReservation(deviceId));
}

/** The released no-shows the mirror remembers of one user (as readReservationsOfUser decides whose). */
export async function readReleasedNoShowsOfUser(db: Database, deviceId: string, userId: string, groupId: string | null): Promise<ReleasedNoShow[]> {
  const k = mirrorReleasedNoShows;
  const theirs = groupId ? or(eq(k.userId, userId), and(eq(k.ownerId, groupId), isNull(k.userId))) : eq(k.userId, userId);
  const rows = await db
    .select()
    .from(k)
    .where(and(eq(k.deviceId, deviceId), theirs))
    .orderBy(asc(k.startTime), asc(k.id));
  return rows.map(releasedNoShowOf);
}

/**
 * Per system, what a list of a thousand systems shows and filters by, as a subquery to join on
 * `device_id` (issue 49): the copy's identity (generation, refreshed_at, reservations_version, for
 * caches keyed by them) and whether it is incomplete (lists the service never ended, or items it
 * sent unreadable). The rooms' names are apart (mirrorRoomNames, mirrorRoomNamesLateral), for the
 * rows that need them: a page's, or a search's. Never a read per system.
 */
export function mirrorListFacts() {
  const s = mirrorState;
  return queryBuilder
    .select({
      deviceId: s.deviceId,
      generation: s.generation,
      refreshedAt: s.refreshedAt,
      reservationsVersion: s.reservationsVersion,
      incomplete: sql<boolean>`(coalesce(jsonb_array_length(${s.incompleteLists}), 0) > 0 OR coalesce((${s.skippedItems}->>'total')::int, 0) > 0)`.as('mirror_incomplete'),
    })
    .from(s)
    .as('mirror_facts');
}

/** The current copy's room names of a system, sorted, newline-separated (null: none): correlated to the caller's columns (`generation`: the copy's, mirrorListFacts). */
export function mirrorRoomNames(deviceId: SQLWrapper, generation: SQLWrapper): SQL<string | null> {
  return sql<string | null>`(SELECT string_agg(mr.name, E'\n' ORDER BY mr.name) FROM ${mirrorResources} AS mr WHERE mr.device_id = ${deviceId} AND mr.generation = ${generation})`;
}

/** mirrorRoomNames as a LATERAL subquery (`names`), computed once per row where a search tests it word by word. */
export function mirrorRoomNamesLateral(deviceId: PgColumn, generation: SQLWrapper) {
  const r = mirrorResources;
  return queryBuilder
    .select({ names: sql<string | null>`string_agg(${r.name}, E'\n')`.as('room_names') })
    .from(r)
    .where(and(eq(r.deviceId, deviceId), sql`${r.generation} = ${generation}`))
    .as('room_names_of');
}

/** Each loaded copy's identity (for caches per generation): one row per system with a refreshed_at. */
export async function readLoadedIdentities(db: Database): Promise<{ deviceId: string; generation: number; refreshedAt: Date; reservationsVersion: number }[]> {
  const s = mirrorState;
  const rows = await db
    .select({ deviceId: s.deviceId, generation: s.generation, refreshedAt: s.refreshedAt, reservationsVersion: s.reservationsVersion })
    .from(s)
    .where(sql`${s.refreshedAt} IS NOT NULL`);
  return rows.flatMap((row) => (row.refreshedAt ? [{ ...row, refreshedAt: row.refreshedAt }] : []));
}

// The portfolio overview (issue 49, lib/reports/portfolio-load.ts): a manager's many systems read
// together, a few statements however many systems, never one snapshot per system.

/** A system's current generation as the portfolio keys its figures on; systems never loaded are left out. */
export interface PortfolioState {
  deviceId: string;
  generation: number;
  refreshedAtMs: number;
  reservationsVersion: number;
}

/** The current generation of each of `deviceIds` that has been read completely at least once (one statement). */
export async function readPortfolioStates(db: Database, deviceIds: readonly string[]): Promise<PortfolioState[]> {
  if (deviceIds.length === 0) return [];
  const s = mirrorState;
  const rows = await db
    .select({ deviceId: s.deviceId, generation: s.generation, refreshedAt: s.refreshedAt, reservationsVersion: s.reservationsVersion })
    .from(s)
    .where(and(equalsAnyUuid(s.deviceId, deviceIds), sql`${s.refreshedAt} IS NOT NULL`));
  return rows.flatMap((r) => (r.refreshedAt ? [{ deviceId: r.deviceId, generation: r.generation, refreshedAtMs: r.refreshedAt.getTime(), reservationsVersion: r.reservationsVersion }] : []));
}

/** A room of the portfolio with its Week schedule (null when the service lists none for it, as the snapshot's scheduleListed). */
export interface PortfolioRoomRow {
  deviceId: string;
  id: string;
  name: string;
  schedule: MirrorTimeSchedule['schedule'] | null;
}

/** The rooms of the named generations with their schedules, in one statement (sorted by system, name, id as readResources). */
export async function readPortfolioRooms(db: Database, generations: readonly { deviceId: string; generation: number }[]): Promise<PortfolioRoomRow[]> {
  if (generations.length === 0) return [];
  const rows = await rawRows<{ device_id: string; id: string; name: string; schedule: MirrorTimeSchedule['schedule'] | string | null }>(
    db,
    sql`SELECT r.device_id, r.id, r.name, t.schedule
          FROM unnest(${array(generations.map((g) => g.deviceId))}::uuid[], ${array(generations.map((g) => g.generation))}::int8[]) AS w(device_id, generation)
          JOIN mirror_resources r ON r.device_id = w.device_id AND r.generation = w.generation
          LEFT JOIN mirror_time_schedules t ON t.device_id = r.device_id AND t.generation = r.generation AND t.id::text = r.time_schedule_id
         ORDER BY r.device_id, r.name, r.id`,
  );
  return rows.map((r) => ({ deviceId: r.device_id, id: r.id, name: r.name, schedule: typeof r.schedule === 'string' ? (JSON.parse(r.schedule) as MirrorTimeSchedule['schedule']) : r.schedule }));
}

/** One window the portfolio counts: a system's generation and a span [fromMs, toMs) read in its zone, numbered `bucket`. */
export interface PortfolioWindow {
  deviceId: string;
  generation: number;
  timeZone: string;
  bucket: number;
  fromMs: number;
  toMs: number;
}

/**
 * Bookings of a window summed, per room and (`perRoom`) the local slot class of their start (evening: from
 * `eveningMinute` on the clock; weekend: Saturday or Sunday). Milliseconds are clipped to the window.
 * `ongoing` lists the `Unused` bookings not by the service that have started and not ended by now:
 * whether the service released them depends on the room group's rules (the caller decides, as
 * lib/reports/load.ts withReleased).
 */
export interface PortfolioUsageRow {
  deviceId: string;
  bucket: number;
  resourceId: string;
  evening: boolean;
  weekend: boolean;
  bookedMs: number;
  maintenanceMs: number;
  bookings: number;
  used: number;
  unused: number;
  unknownStatus: number;
  upcoming: number;
  pastBookings: number;
  noShows: number;
  ongoing: { resourceId: string; startMs: number; endMs: number; personal: boolean }[];
}

type UsageRow = {
  device_id: string;
  bucket: number;
  resource_id: string;
  evening: boolean;
  weekend: boolean;
  booked_ms: number | string | null;
  maintenance_ms: number | string | null;
  bookings: number;
  used: number;
  unused: number;
  unknown_status: number;
  upcoming: number;
  past_bookings: number;
  no_shows: number;
  ongoing: [string, number | string, number | string, boolean][] | string | null;
};

/**
 * The windows' bookings as sums (one statement over every window): the generation's reservations
 * and the released no-shows the upstream no longer
 * lists (mirror_released_no_shows, as readReleasedNoShows) — each overlapping its window, a booking
 * at most a day long (the start bound keeps each index range tight).
 */
export async function readPortfolioUsage(
  db: Database,
  windows: readonly PortfolioWindow[],
  options: { nowMs: number; eveningMinute: number; perRoom: boolean },
): Promise<PortfolioUsageRow[]> {
  if (windows.length === 0) return [];
  const now = new Date(options.nowMs).toISOString();
  // Per system (the months of a trend) the rows are summed over slot classes, and the local clock is
  // not read at all: the most expensive part of each row.
  const local = sql`(b.start_time AT TIME ZONE b.tz)`;
  const classes = options.perRoom
    ? sql`(extract(hour FROM l.t) * 60 + extract(minute FROM l.t)) >= ${options.eveningMinute} AS evening, extract(isodow FROM l.t) >= 6 AS weekend`
    : sql`false AS evening, false AS weekend`;
  const clock = options.perRoom ? sql`CROSS JOIN LATERAL (SELECT ${local} AS t) l` : sql``;
  const rows = await rawRows<UsageRow>(
    db,
    sql`WITH w AS (
          SELECT * FROM unnest(${array(windows.map((x) => x.deviceId))}::uuid[], ${array(windows.map((x) => x.generation))}::int8[],
                               ${array(windows.map((x) => x.timeZone))}::text[], ${array(windows.map((x) => x.bucket))}::int4[],
                               ${array(windows.map((x) => new Date(x.fromMs).toISOString()))}::timestamptz[],
                               ${array(windows.map((x) => new Date(x.toMs).toISOString()))}::timestamptz[])
                   AS w(device_id, generation, tz, bucket, from_ts, to_ts)
        ), b AS (
          SELECT w.device_id, w.generation, w.bucket, w.tz, w.from_ts, w.to_ts, r.resource_id, r.owner_type, r.status, r.start_time, r.end_time, false AS gone
            FROM w JOIN mirror_reservations r
              ON r.device_id = w.device_id AND r.generation = w.generation
             AND r.start_time < w.to_ts AND r.end_time > w.from_ts AND r.start_time > w.from_ts - interval '1 day'
          UNION ALL
          SELECT w.device_id, w.generation, w.bucket, w.tz, w.from_ts, w.to_ts, k.resource_id, k.owner_type, 'Unused', k.start_time, k.end_time, true
            FROM w JOIN mirror_released_no_shows k
              ON k.device_id = w.device_id
             AND k.start_time < w.to_ts AND k.end_time > w.from_ts AND k.start_time > w.from_ts - interval '1 day'
           WHERE NOT EXISTS (SELECT 1 FROM mirror_reservations o WHERE o.device_id = k.device_id AND o.generation = w.generation AND o.id = k.id)
        ), x AS (
          SELECT b.device_id, b.bucket, b.resource_id, b.owner_type, b.status, b.start_time, b.end_time, b.gone,
                 extract(epoch FROM LEAST(b.end_time, b.to_ts) - GREATEST(b.start_time, b.from_ts)) * 1000 AS ms,
                 ${classes},
                 b.owner_type IN ('User', 'Group') AS personal,
                 (b.end_time <= ${now}::timestamptz OR b.gone) AS ended
            FROM b ${clock}
        )
        -- Rooms are kept apart (the caller counts only the rooms the generation lists, as a report counts only its rooms).
        SELECT device_id, bucket, resource_id::text AS resource_id, evening, weekend,
               (sum(ms) FILTER (WHERE owner_type <> 'Service'))::float8 AS booked_ms,
               (sum(ms) FILTER (WHERE owner_type = 'Service'))::float8 AS maintenance_ms,
               (count(*) FILTER (WHERE owner_type <> 'Service'))::int AS bookings,
               (count(*) FILTER (WHERE owner_type <> 'Service' AND status = 'Used'))::int AS used,
               (count(*) FILTER (WHERE owner_type <> 'Service' AND status = 'Unused'))::int AS unused,
               (count(*) FILTER (WHERE owner_type <> 'Service' AND status NOT IN ('Used', 'Unused')))::int AS unknown_status,
               (count(*) FILTER (WHERE owner_type <> 'Service' AND NOT ended))::int AS upcoming,
               (count(*) FILTER (WHERE personal AND ended))::int AS past_bookings,
               (count(*) FILTER (WHERE personal AND ended AND status = 'Unused'))::int AS no_shows,
               json_agg(json_build_array(resource_id, (extract(epoch FROM start_time) * 1000)::float8, (extract(epoch FROM end_time) * 1000)::float8, personal))
                 FILTER (WHERE owner_type <> 'Service' AND status = 'Unused' AND NOT gone AND NOT ended AND start_time <= ${now}::timestamptz) AS ongoing
          FROM x
         GROUP BY device_id, bucket, resource_id, evening, weekend`,
  );
  return rows.map((r) => {
    const ongoing = typeof r.ongoing === 'string' ? (JSON.parse(r.ongoing) as Exclude<UsageRow['ongoing'], string | null>) : (r.ongoing ?? []);
    return {
      deviceId: r.device_id,
      bucket: Number(r.bucket),
      resourceId: r.resource_id,
      evening: r.evening,
      weekend: r.weekend,
      bookedMs: Number(r.booked_ms ?? 0),
      maintenanceMs: Number(r.maintenance_ms ?? 0),
      bookings: Number(r.bookings),
      used: Number(r.used),
      unused: Number(r.unused),
      unknownStatus: Number(r.unknown_status),
      upcoming: Number(r.upcoming),
      pastBookings: Number(r.past_bookings),
      noShows: Number(r.no_shows),
      ongoing: ongoing.map(([resourceId, startMs, endMs, personal]) => ({ resourceId, startMs: Number(startMs), endMs: Number(endMs), personal })),
    };
  });
}
