import 'server-only';
import type { SqlRunner } from '@/shared/sql-runner';
import type { MirrorResource, MirrorState, MirrorTimeSchedule, MirrorUserGroup } from './types';
import { singleton } from '@/lib/singleton';

export interface SnapshotResource extends MirrorResource {
  /** The resource's Week schedule; empty when its schedule is missing (shown as "no slots"). */
  schedule: MirrorTimeSchedule['schedule'];
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
const caches = singleton('mirror-snapshots', () => new WeakMap<SqlRunner, Map<string, Entry>>());

/**
 * The current generation's resources, schedules and groups, from memory when `state` names the
 * generation held, else read in one statement (one consistent snapshot on both drivers) and kept.
 * Null when the system has no mirror state.
 */
export async function mirrorSnapshot(sql: SqlRunner, deviceId: string, state: Identity): Promise<MirrorSnapshot | null> {
  let cache = caches.get(sql);
  if (!cache) {
    cache = new Map();
    caches.set(sql, cache);
  }
  const wanted = keyOf(state.generation, state.refreshedAt?.getTime() ?? null);
  const held = cache.get(deviceId);
  if (held?.key === wanted) return held.snapshot;
  const loading = loadSnapshot(sql, deviceId);
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

interface SnapshotRow extends Record<string, unknown> {
  generation: string | number;
  refreshed_at: string | Date | null;
  resources: { id: string; name: string; description: string; timeScheduleId: string }[];
  schedules: { id: string; schedule: MirrorTimeSchedule['schedule'] }[];
  groups: [string, string, string | null, string | null][];
}

async function loadSnapshot(sql: SqlRunner, deviceId: string): Promise<MirrorSnapshot | null> {
  const { rows } = await sql.query<SnapshotRow>(
    `SELECT s.generation, s.refreshed_at,
            COALESCE((SELECT json_agg(json_build_object('id', r.id, 'name', r.name, 'description', r.description,
                                                        'timeScheduleId', r.time_schedule_id) ORDER BY r.name, r.id)
                        FROM mirror_resources r WHERE r.device_id = s.device_id AND r.generation = s.generation), '[]'::json) AS resources,
            COALESCE((SELECT json_agg(json_build_object('id', t.id, 'schedule', t.schedule))
                        FROM mirror_time_schedules t WHERE t.device_id = s.device_id AND t.generation = s.generation), '[]'::json) AS schedules,
            COALESCE((SELECT json_agg(json_build_array(g.id, g.name, g.apartment_id, g.reference_id))
                        FROM mirror_user_groups g WHERE g.device_id = s.device_id AND g.generation = s.generation), '[]'::json) AS groups
       FROM mirror_state s WHERE s.device_id = $1`,
    [deviceId],
  );
  const row = rows[0];
  if (!row) return null;
  const schedules = new Map(row.schedules.map((s) => [s.id.toLowerCase(), s.schedule]));
  // timeScheduleId is a plain string upstream; compare case-insensitively like GUIDs.
  const resources = row.resources.map(
    (r): SnapshotResource => ({ ...r, deviceId, schedule: schedules.get(r.timeScheduleId.toLowerCase()) ?? [] }),
  );
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
