import 'server-only';
import type { Database } from '@/lib/db';
import { log } from '@/lib/log';
import { waitForRefresh } from '@/lib/mirror/refresh';
import { mirrorSnapshot, type MirrorSnapshot } from '@/lib/mirror/snapshot';
import { readState } from '@/lib/mirror/store';
import type { MirrorState } from '@/lib/mirror/types';
import { residentDirectory, searchDirectory } from '@/lib/residents/directory';
import { MATCH, prepareQuery, rankHits, type ScoredHit } from '@/lib/residents/search';
import { isServiceErrorOf, type ServiceClient, type UserAccount } from '@/lib/service';
import type { SystemPublic } from '@/lib/systems/schemas';
import { measure } from '@/lib/observability/server-timing';
import type { ApartmentHit, ResidentSearchResult } from '@/lib/residents/search';
import { systemMirror, type ViewDeps } from './freshness';

export { parseResidentQuery } from '@/lib/residents/search';

/**
 * Up to this many systems without a mirrored user list, their mirror data (names, apartments) is
 * read while the upstream lookups are in flight, so the database work hides behind the network
 * wait. Beyond it, only the systems that have results are read, after the lookups (a search must
 * not touch every system of a large installation).
 */
export const RESIDENT_MIRROR_PREFETCH_MAX = 4;

export type ResidentLookupKind = 'email' | 'apartment' | 'reference';

/** Which upstream lookups a query goes to: an "@" means an e-mail address, anything else may be either other key. */
export function lookupKindsFor(query: string): ResidentLookupKind[] {
  return query.includes('@') ? ['email'] : ['apartment', 'reference'];
}

export interface ResidentSearchDeps {
  db: Database;
  /**
   * The system's mirror state, which says whether it holds a user list (may wait a little while a
   * system never loaded loads, and start a refresh when due). Without it the state is read as it is.
   */
  state?: (deviceId: string) => Promise<MirrorState | null>;
  client: Pick<ServiceClient, 'users'>;
  /** The systems the viewer may see. */
  systems: readonly SystemPublic[];
  /** The API key of a system (undefined when it is not connected). */
  apiKeyOf: (deviceId: string) => Promise<string | undefined>;
  /**
   * The system's mirrored resources and groups, for names and apartments (may wait a little while
   * a system never loaded loads). Without it the current generation is read as it is.
   */
  mirror?: (deviceId: string) => Promise<MirrorSnapshot | null>;
}

/** A search waits at most this long for a system's first load (names and apartments come from it). */
const FIRST_LOAD_WAIT_MS = 5_000;

/**
 * The search's dependencies over the views' ones, for `systems` whose keys (`apiKeyOf`) and mirror
 * states (`known`) were read with them. The state of a system (refreshing it when due, waiting a
 * little for its first load) is read once per search: the fallback lookups ask again for the
 * snapshot of the same systems.
 */
export function residentSearchDepsOf(
  view: ViewDeps,
  client: ResidentSearchDeps['client'],
  systems: readonly SystemPublic[],
  apiKeyOf: ResidentSearchDeps['apiKeyOf'],
  known: ReadonlyMap<string, MirrorState>,
): ResidentSearchDeps {
  const { db } = view;
  const states = new Map<string, Promise<MirrorState | null>>();
  const stateOf = (deviceId: string): Promise<MirrorState | null> => {
    let pending = states.get(deviceId);
    if (!pending) {
      pending = loadState(deviceId);
      states.set(deviceId, pending);
    }
    return pending;
  };
  const loadState = async (deviceId: string): Promise<MirrorState | null> => {
    try {
      // The state rows were read with the systems: only a system still loading is read again.
      const mirror = await systemMirror(view, deviceId, known.get(deviceId) ?? null);
      if (mirror.freshness.status !== 'loading') return mirror.state;
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([waitForRefresh(deviceId), new Promise((resolve) => (timer = setTimeout(resolve, FIRST_LOAD_WAIT_MS)))]);
      clearTimeout(timer);
    } catch (error) {
      // Results still show, with fewer names; the search itself did not fail.
      log.warn('mirror not available for resident search', { deviceId, error });
    }
    return readState(db, deviceId);
  };
  return {
    db,
    client,
    systems,
    apiKeyOf,
    state: stateOf,
    mirror: async (deviceId) => {
      const state = await stateOf(deviceId);
      return state ? mirrorSnapshot(db, deviceId, state) : null;
    },
  };
}

async function currentSnapshot(db: Database, deviceId: string): Promise<MirrorSnapshot | null> {
  const state = await readState(db, deviceId);
  return state ? mirrorSnapshot(db, deviceId, state) : null;
}

/**
 * Finds residents across every system the viewer may see, as you type: systems whose mirror
 * holds the user list are searched in memory (lib/residents/directory.ts); only the others ask
 * the upstream's exact lookups. `query` is already parsed (parseResidentQuery): '' finds nothing.
 */
export async function findResidents(deps: ResidentSearchDeps, query: string): Promise<ResidentSearchResult> {
  if (query.trim() === '') return { apartments: [], truncated: false };
  const prepared = prepareQuery(query);
  const readStateOf = deps.state ?? ((deviceId: string) => readState(deps.db, deviceId));
  const searched = await measure('directories', () => Promise.all(
    deps.systems.map(async (system) => {
      const deviceId = system.deviceId.toLowerCase();
      const state = await readStateOf(deviceId);
      const directory = state ? await residentDirectory(deps.db, deviceId, state) : null;
      return directory ? { system, hits: searchDirectory(directory, { deviceId, name: system.name }, prepared) } : { system, hits: null };
    }),
  ));
  const hits: ScoredHit[] = searched.flatMap((s) => s.hits ?? []);
  const fallback = searched.filter((s) => s.hits === null).map((s) => s.system);
  if (fallback.length > 0) hits.push(...(await lookUpResidents({ ...deps, systems: fallback }, query.trim())));
  return rankHits(hits);
}

/**
 * The exact upstream lookups (apartment number, e-mail address or reference id) for systems
 * whose mirror holds no user list. A key may cover several systems, so each distinct key is asked
 * once; results of systems outside `deps.systems` are dropped.
 */
export async function lookUpResidents(deps: ResidentSearchDeps, query: string): Promise<ScoredHit[]> {
  const visible = new Map(deps.systems.map((s) => [s.deviceId.toLowerCase(), s]));
  const keys = new Set<string>();
  for (const system of deps.systems) {
    const key = await deps.apiKeyOf(system.deviceId);
    if (key) keys.add(key);
  }
  const readMirror = deps.mirror ?? ((id: string) => currentSnapshot(deps.db, id));
  const snapshots = new Map<string, Promise<MirrorSnapshot | null>>();
  const snapshotOf = (deviceId: string) => {
    let pending = snapshots.get(deviceId);
    if (!pending) {
      pending = readMirror(deviceId);
      snapshots.set(deviceId, pending);
    }
    return pending;
  };
  if (visible.size <= RESIDENT_MIRROR_PREFETCH_MAX) {
    // Observed below for the systems with results; a failure of the others must not go unhandled.
    for (const deviceId of visible.keys()) snapshotOf(deviceId).catch(() => undefined);
  }
  const kinds = lookupKindsFor(query);
  const byApartment = new Set<string>();
  const lookups = [...keys].flatMap((key) =>
    kinds.map(async (kind): Promise<UserAccount[]> => {
      try {
        return await lookUp(key, kind);
      } catch (error) {
        // Search as you type sends whatever is typed: a key the service refuses as malformed is
        // one that finds no one, not a failed search.
        if (isServiceErrorOf(error, 'validation')) return [];
        throw error;
      }
    }),
  );
  async function lookUp(key: string, kind: ResidentLookupKind): Promise<UserAccount[]> {
    switch (kind) {
      case 'email':
        return deps.client.users.byEmail(key, query);
      case 'apartment': {
        const found = await deps.client.users.byApartment(key, query);
        for (const a of found) byApartment.add(a.userId);
        return found;
      }
      case 'reference':
        return deps.client.users.byReference(key, query);
    }
  }
  const accounts: UserAccount[] = (await measure('upstream', () => Promise.all(lookups))).flat();

  const byUser = new Map<string, UserAccount>();
  for (const account of accounts) {
    if (!visible.has(account.deviceId.toLowerCase())) continue;
    const existing = byUser.get(account.userId);
    // The same user from two lookups: keep the one that lists resources.
    if (!existing || (!existing.reservationResources && account.reservationResources)) byUser.set(account.userId, account);
  }
  const found = [...byUser.values()];
  const deviceIds = [...new Set(found.map((a) => a.deviceId.toLowerCase()))];
  const snapshotsFound = new Map<string, MirrorSnapshot | null>();
  await measure('names', () => Promise.all(deviceIds.map(async (deviceId) => snapshotsFound.set(deviceId, await snapshotOf(deviceId)))));
  const entries = new Map<string, ScoredHit>();
  for (const account of found) {
    const deviceId = account.deviceId.toLowerCase();
    const groupId = account.userGroupId?.toLowerCase() ?? null;
    const group = groupId ? snapshotsFound.get(deviceId)?.groupById.get(groupId) : undefined;
    // A user in no group is an entry of their own.
    const key = groupId ? `${deviceId}:${groupId}` : `${deviceId}:user:${account.userId}`;
    let entry = entries.get(key);
    if (!entry) {
      const hit: ApartmentHit = {
        deviceId,
        systemName: visible.get(deviceId)?.name ?? deviceId,
        groupId,
        // The apartment lookup names it exactly; otherwise the mirrored group says which.
        apartmentId: group?.apartmentId || (byApartment.has(account.userId) ? query : ''),
        groupName: group?.name ?? '',
        referenceId: group?.referenceId ?? '',
        residents: [],
      };
      // Every lookup is exact.
      entry = { score: MATCH.exactKey, hit };
      entries.set(key, entry);
    }
    entry.hit.residents.push({ userId: account.userId.toLowerCase(), name: account.name ?? '', email: account.email ?? '' });
  }
  return [...entries.values()];
}
