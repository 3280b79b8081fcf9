import 'server-only';
import { sql } from 'drizzle-orm';
import type { Database } from '@/lib/db';
import { rawRows } from '@/lib/db/raw';
import type { MirrorResource, MirrorState, MirrorTimeSchedule, MirrorUserGroup } from './types';
import { cachePerOwner } from '@/lib/cache';
import { ApiError } from '@/lib/errors/api-error';
import { msg } from '@/lib/i18n/message';
import { readState } from './store';

export interface SnapshotResource extends MirrorResource {
  /** The resource's Week schedule; empty when its schedule is not listed (see scheduleListed). */
  schedule: MirrorTimeSchedule['schedule'];
  /**
   * Whether the service lists the schedule the room names (one the portal can read): false when
   * its timeScheduleId is empty or names no listed schedule. Such a room has no slots to offer;
   * its bookings are still shown (issue 47).
   */
  scheduleListed: boolean;
}

/**
 * The parts of one mirror generation that only a refresh writes: resources with their
 * schedules, and user groups. Reservations are not here: confirmed outcomes change them in place.
 */
export interface MirrorSnapshot {
  deviceId: string;
  generation: number;
  /** When the generation's refresh started (part of its identity, see `keyOf`). */
  refreshedAtMs: number | null;
  /** Sorted by name, then id, as readResources. */
  resources: readonly SnapshotResource[];
  resourceById: ReadonlyMap<string, SnapshotResource>;
  groupById: ReadonlyMap<string, MirrorUserGroup>;
}

type Identity = Pick<MirrorState, 'generation' | 'refreshedAt'>;

/**
 * A generation never changes once readers see it (refreshes write the next one and switch over),
 * so a copy cached under it cannot go stale. `refreshed_at` is part of the key as well: should an
 * expired lease let two refreshes complete the same generation number, their start times differ.
 */
const keyOf = (generation: number, refreshedAtMs: number | null) => `${generation}:${refreshedAtMs ?? ''}`;

interface Entry {
  key: string;
  snapshot: Promise<MirrorSnapshot | null>;
}

// Per database handle (tests open several databases in one process with the same device ids);
// kept on globalThis so that dev-mode module reloads share it.
const cacheOf = cachePerOwner<Database, Entry>('mirror-snapshots', { max: 1_000 });

/**
 * The current generation's resources, schedules and groups, from memory when `state` names the
 * generation held, else read in one statement (one consistent snapshot on both drivers) and kept.
 * Null when the system has no mirror state.
 */
export async function mirrorSnapshot(db: Database, deviceId: string, state: Identity): Promise<MirrorSnapshot | null> {
  const cache = cacheOf(db);
  const wanted = keyOf(state.generation, state.refreshedAt?.getTime() ?? null);
  const held = cache.get(deviceId);
  if (held?.key === wanted) return held.snapshot;
  const loading = loadSnapshot(db, deviceId);
  const entry: Entry = { key: wanted, snapshot: loading };
  cache.set(deviceId, entry);
  try {
    const snapshot = await loading;
    // The generation may have moved on between the caller's state read and this one: keep the
    // copy under the key it really has, so it is reused only by callers that see that one.
    const actual = snapshot ? keyOf(snapshot.generation, snapshot.refreshedAtMs) : null;
    if (cache.get(deviceId) === entry) {
      if (actual === null) cache.delete(deviceId);
      else entry.key = actual;
    }
    return snapshot;
  } catch (error) {
    if (cache.get(deviceId) === entry) cache.delete(deviceId);
    throw error;
  }
}

/** As the driver gives it: int8 may be a string (node-postgres), the timestamp is a string. */
type SnapshotRow = {
  generation: string | number;
  refreshed_at: string | Date | null;
  resources: { id: string; name: string; description: string; timeScheduleId: string }[];
  schedules: { id: string; schedule: MirrorTimeSchedule['schedule'] }[];
  groups: [string, string, string | null, string | null][];
};

/** Hand-written: the three collections aggregated in one statement, so both drivers read one consistent snapshot. */
async function loadSnapshot(db: Database, deviceId: string): Promise<MirrorSnapshot | null> {
  const [row] = await rawRows<SnapshotRow>(
    db,
    sql`SELECT s.generation, s.refreshed_at,
            COALESCE((SELECT json_agg(json_build_object('id', r.id, 'name', r.name, 'description', r.description,
                                                        'timeScheduleId', r.time_schedule_id) ORDER BY r.name, r.id)
                        FROM mirror_resources r WHERE r.device_id = s.device_id AND r.generation = s.generation), '[]'::json) AS resources,
            COALESCE((SELECT json_agg(json_build_object('id', t.id, 'schedule', t.schedule))
                        FROM mirror_time_schedules t WHERE t.device_id = s.device_id AND t.generation = s.generation), '[]'::json) AS schedules,
            COALESCE((SELECT json_agg(json_build_array(g.id, g.name, g.apartment_id, g.reference_id))
                        FROM mirror_user_groups g WHERE g.device_id = s.device_id AND g.generation = s.generation), '[]'::json) AS groups
       FROM mirror_state s WHERE s.device_id = ${deviceId}`,
  );
  if (!row) return null;
  const resources = withSchedules(deviceId, row.resources, row.schedules);
  const groupById = new Map<string, MirrorUserGroup>();
  for (const [id, name, apartmentId, referenceId] of row.groups) {
    groupById.set(id, { id, name, apartmentId: apartmentId ?? '', referenceId: referenceId ?? '', deviceId });
  }
  return {
    deviceId,
    generation: Number(row.generation),
    refreshedAtMs: row.refreshed_at ? new Date(row.refreshed_at).getTime() : null,
    resources,
    resourceById: new Map(resources.map((r) => [r.id, r])),
    groupById,
  };
}

/** Each resource with its Week schedule, or none (empty) when the service does not list it. */
function withSchedules(deviceId: string, resources: SnapshotRow['resources'], schedules: SnapshotRow['schedules']): SnapshotResource[] {
  // Both ids are canonical (lib/service/schemas.ts canonicalId; migration 0034 for rows read before).
  const byId = new Map(schedules.map((s) => [s.id, s.schedule]));
  return resources.map((r): SnapshotResource => {
    const schedule = byId.get(r.timeScheduleId);
    return { ...r, deviceId, schedule: schedule ?? [], scheduleListed: schedule !== undefined };
  });
}

// The structure of a generation still being loaded, per database handle and system (one entry each).
const structuresOf = cachePerOwner<Database, { generation: number; snapshot: Promise<MirrorSnapshot> }>('mirror-structures', { max: 1_000 });

/**
 * The resources and schedules of a generation a first load is still writing, once they are
 * complete (MirrorState.structureGeneration; issue 20): they never change after that, so they are
 * read once and kept. Its groups are not complete yet, so `groupById` is empty (callers read the
 * groups they need by id); `refreshedAtMs` is null (the generation is not readable as a whole yet).
 */
export async function structureSnapshot(db: Database, deviceId: string, generation: number): Promise<MirrorSnapshot> {
  const cache = structuresOf(db);
  const held = cache.get(deviceId);
  if (held?.generation === generation) return held.snapshot;
  const snapshot = loadStructure(db, deviceId, generation);
  const entry = { generation, snapshot };
  cache.set(deviceId, entry);
  snapshot.catch(() => {
    if (cache.get(deviceId) === entry) cache.delete(deviceId);
  });
  return snapshot;
}

type StructureRow = Pick<SnapshotRow, 'resources' | 'schedules'>;

/** Hand-written like loadSnapshot: both collections of the named generation in one statement. */
async function loadStructure(db: Database, deviceId: string, generation: number): Promise<MirrorSnapshot> {
  const [row] = await rawRows<StructureRow>(
    db,
    sql`SELECT COALESCE((SELECT json_agg(json_build_object('id', r.id, 'name', r.name, 'description', r.description,
                                                          'timeScheduleId', r.time_schedule_id) ORDER BY r.name, r.id)
                          FROM mirror_resources r WHERE r.device_id = ${deviceId} AND r.generation = ${generation}), '[]'::json) AS resources,
              COALESCE((SELECT json_agg(json_build_object('id', t.id, 'schedule', t.schedule))
                          FROM mirror_time_schedules t WHERE t.device_id = ${deviceId} AND t.generation = ${generation}), '[]'::json) AS schedules`,
  );
  const resources = withSchedules(deviceId, row?.resources ?? [], row?.schedules ?? []);
  return {
    deviceId,
    generation,
    refreshedAtMs: null,
    resources,
    resourceById: new Map(resources.map((r) => [r.id, r])),
    groupById: new Map(),
  };
}

/**
 * The snapshot of a system read completely at least once, for a write that names its rooms or
 * apartments (feeds, displays): 503 "still loading" (retry in 5 s) before the first complete read.
 */
export async function loadedSnapshot(db: Database, deviceId: string): Promise<MirrorSnapshot> {
  const state = await readState(db, deviceId);
  const snapshot = state?.refreshedAt ? await mirrorSnapshot(db, deviceId, state) : null;
  if (!snapshot) throw new ApiError('service_unavailable', msg('errors.stillLoading'), { 'Retry-After': '5' });
  return snapshot;
}
