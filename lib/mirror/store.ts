import 'server-only';
import type { SqlRunner } from '@/shared/sql-runner';
import type {
  MirrorErrorKind,
  MirrorReservation,
  MirrorResource,
  MirrorState,
  MirrorTimeSchedule,
  MirrorUserGroup,
  SkippedSummary,
} from './types';

type Row = Record<string, unknown>;
const iso = (v: unknown) => new Date(v as string | Date).toISOString();

/** Inserts one page of a collection into a generation with a single statement (arrays unnested). */
export async function insertPage(
  sql: SqlRunner,
  kind: 'reservations' | 'resources' | 'timeSchedules' | 'userGroups',
  deviceId: string,
  generation: number,
  items: readonly unknown[],
): Promise<void> {
  if (items.length === 0) return;
  switch (kind) {
    case 'reservations': {
      const r = items as readonly MirrorReservation[];
      await sql.query(
        `INSERT INTO mirror_reservations
           (device_id, generation, id, resource_id, user_id, owner_id, owner_type, status, start_time, end_time)
         SELECT $1, $2, * FROM unnest($3::uuid[], $4::uuid[], $5::uuid[], $6::uuid[], $7::text[], $8::text[],
                                      $9::timestamptz[], $10::timestamptz[])
         ON CONFLICT DO NOTHING`,
        [
          deviceId,
          generation,
          r.map((x) => x.id),
          r.map((x) => x.resourceId),
          r.map((x) => x.userId),
          r.map((x) => x.ownerId),
          r.map((x) => x.ownerType),
          r.map((x) => x.status),
          r.map((x) => x.startTime),
          r.map((x) => x.endTime),
        ],
      );
      return;
    }
    case 'resources': {
      const r = items as readonly MirrorResource[];
      await sql.query(
        `INSERT INTO mirror_resources (device_id, generation, id, name, description, time_schedule_id)
         SELECT $1, $2, * FROM unnest($3::uuid[], $4::text[], $5::text[], $6::text[]) ON CONFLICT DO NOTHING`,
        [deviceId, generation, r.map((x) => x.id), r.map((x) => x.name), r.map((x) => x.description), r.map((x) => x.timeScheduleId)],
      );
      return;
    }
    case 'timeSchedules': {
      const r = items as readonly MirrorTimeSchedule[];
      await sql.query(
        `INSERT INTO mirror_time_schedules (device_id, generation, id, schedule_type, schedule)
         SELECT $1, $2, id, t, s::jsonb FROM unnest($3::uuid[], $4::text[], $5::text[]) AS u(id, t, s) ON CONFLICT DO NOTHING`,
        [deviceId, generation, r.map((x) => x.id), r.map((x) => x.scheduleType), r.map((x) => JSON.stringify(x.schedule))],
      );
      return;
    }
    case 'userGroups': {
      const r = items as readonly MirrorUserGroup[];
      await sql.query(
        `INSERT INTO mirror_user_groups (device_id, generation, id, name, apartment_id, reference_id)
         SELECT $1, $2, * FROM unnest($3::uuid[], $4::text[], $5::text[], $6::text[]) ON CONFLICT DO NOTHING`,
        [deviceId, generation, r.map((x) => x.id), r.map((x) => x.name), r.map((x) => x.apartmentId), r.map((x) => x.referenceId)],
      );
      return;
    }
  }
}

const MIRROR_TABLES = ['mirror_reservations', 'mirror_resources', 'mirror_time_schedules', 'mirror_user_groups'] as const;

export async function deleteGeneration(sql: SqlRunner, deviceId: string, generation: number): Promise<void> {
  for (const table of MIRROR_TABLES) {
    await sql.query(`DELETE FROM ${table} WHERE device_id = $1 AND generation = $2`, [deviceId, generation]);
  }
}

/**
 * Claims the right to refresh a system, across every instance sharing the database. A lease
 * (not a session advisory lock) so that no pooled connection is pinned for the whole refresh,
 * and a crashed refresher's claim expires by itself.
 */
export async function claimRefresh(
  sql: SqlRunner,
  deviceId: string,
  leaseSeconds: number,
  options: { notBefore?: Date } = {},
): Promise<number | null> {
  await sql.query('INSERT INTO mirror_state (device_id) VALUES ($1) ON CONFLICT DO NOTHING', [deviceId]);
  // With `notBefore` (the caller's now), a claim during another instance's backoff fails too: a
  // state read before that instance's refresh failed must not start one more.
  const { rows } = await sql.query<{ generation: string }>(
    `UPDATE mirror_state SET refresh_started_at = now(), pages_fetched = 0
      WHERE device_id = $1
        AND (refresh_started_at IS NULL OR refresh_started_at < now() - make_interval(secs => $2))
        AND ($3::timestamptz IS NULL OR next_refresh_at IS NULL OR next_refresh_at <= $3::timestamptz)
      RETURNING generation`,
    [deviceId, leaseSeconds, options.notBefore?.toISOString() ?? null],
  );
  const row = rows[0];
  return row ? Number(row.generation) : null;
}

export async function recordProgress(sql: SqlRunner, deviceId: string, pages: number): Promise<void> {
  await sql.query('UPDATE mirror_state SET pages_fetched = $2 WHERE device_id = $1', [deviceId, pages]);
}

/** Switches readers to the new generation and drops the old ones, atomically. */
export async function completeRefresh(
  sql: SqlRunner,
  deviceId: string,
  generation: number,
  startedAt: Date,
  pages: number,
  skipped: SkippedSummary | null = null,
): Promise<void> {
  await sql.transaction(async (tx) => {
    await tx.query(
      `UPDATE mirror_state SET generation = $2, refreshed_at = $3, refresh_started_at = NULL, refresh_ended_at = now(),
              pages_fetched = $4, last_error = NULL, last_error_at = NULL, last_error_kind = NULL,
              consecutive_failures = 0, next_refresh_at = NULL, skipped_items = $5::jsonb
        WHERE device_id = $1`,
      [deviceId, generation, startedAt.toISOString(), pages, skipped && skipped.total > 0 ? JSON.stringify(skipped) : null],
    );
    for (const table of MIRROR_TABLES) {
      await tx.query(`DELETE FROM ${table} WHERE device_id = $1 AND generation < $2`, [deviceId, generation]);
    }
  });
  // PGlite never analyses on its own: without statistics the planner picked the time index over
  // the resource index for a week read. Best effort; the data is already switched over.
  await sql.exec(`ANALYZE ${MIRROR_TABLES.join(', ')}`).catch(() => undefined);
}

/** How long to wait after a failed refresh: the base doubles with each failure in a row, up to the cap. */
export interface RefreshBackoff {
  baseSeconds: number;
  capSeconds: number;
  /** A floor the service asked for (Retry-After). */
  minSeconds?: number;
}

/**
 * Drops the unfinished generation, records the failure and its kind, and sets when the next
 * attempt may start: base × 2^(failures before this one), capped, computed in the statement so
 * that the count it doubles on is the one stored.
 */
export async function failRefresh(
  sql: SqlRunner,
  deviceId: string,
  generation: number,
  failure: { message: string; kind: MirrorErrorKind; backoff: RefreshBackoff },
): Promise<void> {
  await deleteGeneration(sql, deviceId, generation);
  const { baseSeconds, capSeconds, minSeconds = 0 } = failure.backoff;
  await sql.query(
    `UPDATE mirror_state SET refresh_started_at = NULL, last_error = $2, last_error_kind = $3, last_error_at = now(),
            consecutive_failures = consecutive_failures + 1,
            next_refresh_at = now() + make_interval(secs => GREATEST($6::float8,
              LEAST($5::float8, $4::float8 * power(2, LEAST(consecutive_failures, 30)))))
      WHERE device_id = $1`,
    [deviceId, failure.message, failure.kind, baseSeconds, capSeconds, minSeconds],
  );
}

export async function readState(sql: SqlRunner, deviceId: string): Promise<MirrorState | null> {
  const { rows } = await sql.query('SELECT * FROM mirror_state WHERE device_id = $1', [deviceId]);
  const row = rows[0];
  if (!row) return null;
  return {
    deviceId,
    generation: Number(row.generation),
    refreshedAt: row.refreshed_at ? new Date(row.refreshed_at as string) : null,
    refreshEndedAt: row.refresh_ended_at ? new Date(row.refresh_ended_at as string) : null,
    refreshing: row.refresh_started_at !== null,
    reservationsVersion: Number(row.reservations_version ?? 0),
    pagesFetched: Number(row.pages_fetched),
    lastError: (row.last_error as string | null) ?? null,
    lastErrorAt: row.last_error_at ? new Date(row.last_error_at as string) : null,
    lastErrorKind: (row.last_error_kind as MirrorErrorKind | null) ?? null,
    consecutiveFailures: Number(row.consecutive_failures ?? 0),
    nextRefreshAt: row.next_refresh_at ? new Date(row.next_refresh_at as string) : null,
    skipped: (row.skipped_items as SkippedSummary | null) ?? null,
  };
}

const toReservation = (deviceId: string) => (row: Row): MirrorReservation => ({
  id: row.id as string,
  resourceId: row.resource_id as string,
  userId: (row.user_id as string | null) ?? null,
  ownerId: (row.owner_id as string | null) ?? null,
  ownerType: row.owner_type as MirrorReservation['ownerType'],
  status: row.status as MirrorReservation['status'],
  startTime: iso(row.start_time),
  endTime: iso(row.end_time),
  deviceId,
});

/** Reservations overlapping [from, to), optionally of one resource, from the current generation. */
export async function readReservations(
  sql: SqlRunner,
  deviceId: string,
  range: { from: Date; to: Date; resourceId?: string },
): Promise<MirrorReservation[]> {
  const params: unknown[] = [deviceId, range.from.toISOString(), range.to.toISOString()];
  let filter = '';
  if (range.resourceId) {
    params.push(range.resourceId);
    filter = 'AND r.resource_id = $4';
  }
  // A reservation is at most a day long, so start_time > from - 1 day keeps the index range tight.
  const { rows } = await sql.query(
    `SELECT r.* FROM mirror_reservations r JOIN mirror_state s ON s.device_id = r.device_id AND s.generation = r.generation
      WHERE r.device_id = $1 AND r.start_time < $3 AND r.end_time > $2
        AND r.start_time > $2::timestamptz - interval '1 day' ${filter}
      ORDER BY r.start_time, r.id`,
    params,
  );
  return rows.map(toReservation(deviceId));
}

/** One reservation of the current generation by id. */
export async function readReservationById(sql: SqlRunner, deviceId: string, reservationId: string): Promise<MirrorReservation | undefined> {
  const { rows } = await sql.query(
    `SELECT r.* FROM mirror_reservations r JOIN mirror_state s ON s.device_id = r.device_id AND s.generation = r.generation
      WHERE r.device_id = $1 AND r.id = $2`,
    [deviceId, reservationId],
  );
  return rows.map(toReservation(deviceId))[0];
}

export async function readResources(sql: SqlRunner, deviceId: string): Promise<MirrorResource[]> {
  const { rows } = await sql.query(
    `SELECT r.* FROM mirror_resources r JOIN mirror_state s ON s.device_id = r.device_id AND s.generation = r.generation
      WHERE r.device_id = $1 ORDER BY r.name, r.id`,
    [deviceId],
  );
  return rows.map((row) => ({
    id: row.id as string,
    name: row.name as string,
    description: row.description as string,
    timeScheduleId: row.time_schedule_id as string,
    deviceId,
  }));
}

export async function readTimeSchedules(sql: SqlRunner, deviceId: string): Promise<MirrorTimeSchedule[]> {
  const { rows } = await sql.query(
    `SELECT t.* FROM mirror_time_schedules t JOIN mirror_state s ON s.device_id = t.device_id AND s.generation = t.generation
      WHERE t.device_id = $1 ORDER BY t.id`,
    [deviceId],
  );
  return rows.map((row) => ({
    id: row.id as string,
    deviceId,
    scheduleType: 'Week' as const,
    schedule: row.schedule as MirrorTimeSchedule['schedule'],
  }));
}

export async function readUserGroups(sql: SqlRunner, deviceId: string, ids?: readonly string[]): Promise<MirrorUserGroup[]> {
  const { rows } = ids
    ? await sql.query(
        `SELECT g.* FROM mirror_user_groups g JOIN mirror_state s ON s.device_id = g.device_id AND s.generation = g.generation
          WHERE g.device_id = $1 AND g.id = ANY($2::uuid[])`,
        [deviceId, ids],
      )
    : await sql.query(
        `SELECT g.* FROM mirror_user_groups g JOIN mirror_state s ON s.device_id = g.device_id AND s.generation = g.generation
          WHERE g.device_id = $1 ORDER BY g.name`,
        [deviceId],
      );
  return rows.map((row) => ({
    id: row.id as string,
    name: row.name as string,
    apartmentId: (row.apartment_id as string | null) ?? '',
    referenceId: (row.reference_id as string | null) ?? '',
    deviceId,
  }));
}

/**
 * Applies a confirmed outcome at once: to the current generation and to one being written, so a
 * refresh in flight cannot switch to a copy that lacks it.
 */
export async function applyReservationChange(
  tx: SqlRunner,
  change: { type: 'created'; reservation: MirrorReservation } | { type: 'cancelled'; deviceId: string; reservationId: string },
): Promise<void> {
  const deviceId = change.type === 'cancelled' ? change.deviceId : change.reservation.deviceId;
  // In the same transaction as the change: readers caching a week's reservations key them on it.
  const { rows } = await tx.query<{ generation: string | number; refreshing: boolean }>(
    `UPDATE mirror_state SET reservations_version = reservations_version + 1 WHERE device_id = $1
     RETURNING generation, refresh_started_at IS NOT NULL AS refreshing`,
    [deviceId],
  );
  if (change.type === 'cancelled') {
    await tx.query('DELETE FROM mirror_reservations WHERE device_id = $1 AND id = $2', [change.deviceId, change.reservationId]);
    return;
  }
  const state = rows[0];
  if (!state) return;
  const generation = Number(state.generation);
  const generations = state.refreshing ? [generation, generation + 1] : [generation];
  for (const generation of generations) {
    await insertPage(tx, 'reservations', change.reservation.deviceId, generation, [change.reservation]);
  }
}
