import 'server-only';
import type { Database } from '@/lib/db';
import { mirrorSnapshot } from '@/lib/mirror/snapshot';
import { readUsers } from '@/lib/mirror/store';
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
  directory: Promise<ResidentDirectory>;
}

// Per database handle (tests open several with the same device ids); on globalThis for dev reloads.
const cacheOf = cachePerOwner<Database, Entry>('resident-directories', { max: 1_000 });

/** True when the mirror holds the system's user list (else the search asks the upstream). */
export const holdsUserList = (state: Pick<MirrorState, 'usersRefreshedAt'> | null): boolean => state?.usersRefreshedAt != null;

/**
 * The system's directory for the generation `state` names: from memory, or built from the
 * generation's groups and users (two reads) and kept. Null when the mirror holds no user list.
 */
export async function residentDirectory(db: Database, deviceId: string, state: Identity): Promise<ResidentDirectory | null> {
  if (!holdsUserList(state)) return null;
  const cache = cacheOf(db);
  const key = keyOf(state);
  const held = cache.get(deviceId);
  if (held?.key === key) return held.directory;
  const entry: Entry = { key, directory: build(db, deviceId, state) };
  cache.set(deviceId, entry);
  // A failed build must not be reused.
  entry.directory.catch(() => {
    if (cache.get(deviceId) === entry) cache.delete(deviceId);
  });
  return entry.directory;
}

async function build(db: Database, deviceId: string, state: Identity): Promise<ResidentDirectory> {
  // Both read the current generation; a refresh switching over in between is caught by the next
  // search, whose state names the new generation (and builds again).
  const [snapshot, users] = await Promise.all([mirrorSnapshot(db, deviceId, state), readUsers(db, deviceId)]);
  const groups = snapshot ? [...snapshot.groupById.values()] : [];
  return { deviceId, generation: state.generation, index: buildResidentIndex(groups, users), userCount: users.length };
}

/** The apartments of one system the query finds (unranked: the caller merges systems and ranks). */
export function searchDirectory(directory: ResidentDirectory, system: { deviceId: string; name: string }, query: PreparedQuery): ScoredHit[] {
  return searchIndex(directory.index, system, query);
}
