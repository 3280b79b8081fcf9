import 'server-only';
import type { Database } from '@/lib/db';
import { readDirectoryRows } from '@/lib/mirror/store';
import type { MirrorState } from '@/lib/mirror/types';
import { cachePerOwner } from '@/lib/cache';
import { buildResidentIndex, searchIndex, type PreparedQuery, type ResidentIndex, type ScoredHit } from './search';

/** A system's residents of one mirror generation, indexed for search as you type. */
export interface ResidentDirectory {
  deviceId: string;
  generation: number;
  index: ResidentIndex;
  userCount: number;
}

type Identity = Pick<MirrorState, 'generation' | 'refreshedAt' | 'usersRefreshedAt'>;

// As lib/mirror/snapshot.ts: a generation never changes once readers see it, so the index built
// for it is reused until the next refresh switches over (generation + start time as the key).
const keyOf = (state: Identity) => `${state.generation}:${state.refreshedAt?.getTime() ?? ''}`;

interface Entry {
  key: string;
  directory: ResidentDirectory;
}

/**
 * What one indexed user and one group hold in memory (their strings, words and the index's maps),
 * measured: the heap after a forced collection, 1,000 indexes of 74 groups with 0, 37 or 259
 * users each (UUID ids, Swedish names, e-mail addresses) — 31.5, 70.6 and 278.9 MB, so about
 * 450 bytes a group and 1,000 a user. (The first guess, 300 and 400, held 2.3 times the bound.)
 */
const USER_BYTES = 1_000;
const GROUP_BYTES = 450;
/**
 * The directories kept per database handle, by size (issue 49): the bench's portfolio of a
 * thousand systems (111,000 residents in 74,000 apartments) takes about 145 MB; a system of 4,000
 * residents as much as thirty small ones.
 */
export const DIRECTORIES_MAX_BYTES = 192 * 1024 * 1024;
/** Systems whose directories one statement pair reads at most (a first search over a thousand builds in a few reads). */
const BUILD_BATCH = 250;

const sizeOf = (entry: Entry) => entry.directory.userCount * USER_BYTES + entry.directory.index.groups.length * GROUP_BYTES + 200;

// Per database handle (tests open several with the same device ids); on globalThis for dev reloads.
const cacheOf = cachePerOwner<Database, Entry>('resident-directories', { max: 20_000, maxSize: DIRECTORIES_MAX_BYTES, sizeOf });
// Builds under way, so that searches typed one after another while they run share them.
const buildsOf = cachePerOwner<Database, { key: string; directory: Promise<ResidentDirectory | null> }>('resident-directory-builds', { max: 20_000 });

/** True when the mirror holds the system's user list (else the search asks the upstream). */
export const holdsUserList = (state: Pick<MirrorState, 'usersRefreshedAt'> | null): boolean => state?.usersRefreshedAt != null;

/**
 * The directories of the systems (each of the generation its `state` names): from memory, the
 * missing ones built from their generations' groups and users, read for up to 250 systems in two
 * statements, and kept. A system whose mirror holds no user list has none (null).
 */
export async function residentDirectories(db: Database, systems: readonly { deviceId: string; state: Identity | null }[]): Promise<Map<string, ResidentDirectory | null>> {
  const cache = cacheOf(db);
  const builds = buildsOf(db);
  const out = new Map<string, ResidentDirectory | null>();
  const pending: Promise<void>[] = [];
  const missing: { deviceId: string; key: string; generation: number }[] = [];
  for (const system of systems) {
    const deviceId = system.deviceId.toLowerCase();
    const { state } = system;
    if (!state || !holdsUserList(state)) {
      out.set(deviceId, null);
      continue;
    }
    const key = keyOf(state);
    const held = cache.get(deviceId);
    if (held?.key === key) {
      out.set(deviceId, held.directory);
      continue;
    }
    const building = builds.get(deviceId);
    if (building?.key === key) {
      pending.push(building.directory.then((d) => void out.set(deviceId, d)));
      continue;
    }
    missing.push({ deviceId, key, generation: state.generation });
  }
  for (let i = 0; i < missing.length; i += BUILD_BATCH) {
    const batch = missing.slice(i, i + BUILD_BATCH);
    const read = readDirectoryRows(db, batch.map((m) => m.deviceId));
    for (const m of batch) {
      const directory = read.then((rows): ResidentDirectory => {
        const held = rows.get(m.deviceId);
        const users = held?.users ?? [];
        return { deviceId: m.deviceId, generation: held?.generation ?? m.generation, index: buildResidentIndex(held?.groups ?? [], users), userCount: users.length };
      });
      const build = { key: m.key, directory: directory as Promise<ResidentDirectory | null> };
      builds.set(m.deviceId, build);
      pending.push(
        directory.then(
          (d) => {
            cache.set(m.deviceId, { key: m.key, directory: d });
            out.set(m.deviceId, d);
          },
          // A failed build is not kept: the next search reads again (this one fails, as its read did).
          (error: unknown) => {
            throw error;
          },
        ).finally(() => {
          if (builds.get(m.deviceId) === build) builds.delete(m.deviceId);
        }),
      );
    }
  }
  await Promise.all(pending);
  return out;
}

/** The system's directory for the generation `state` names (one system: residentDirectories). Null when the mirror holds no user list. */
export async function residentDirectory(db: Database, deviceId: string, state: Identity): Promise<ResidentDirectory | null> {
  return (await residentDirectories(db, [{ deviceId, state }])).get(deviceId.toLowerCase()) ?? null;
}

/** The apartments of one system the query finds (unranked: the caller merges systems and ranks). */
export function searchDirectory(directory: ResidentDirectory, system: { deviceId: string; name: string }, query: PreparedQuery): ScoredHit[] {
  return searchIndex(directory.index, system, query);
}
