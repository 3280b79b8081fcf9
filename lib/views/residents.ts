import 'server-only';
import type { Database } from '@/lib/db';
import { log } from '@/lib/log';
import { refreshAllowance, waitForRefresh } from '@/lib/mirror/refresh';
import { mirrorSnapshot, type MirrorSnapshot } from '@/lib/mirror/snapshot';
import { readState, readStates } from '@/lib/mirror/store';
import type { MirrorState } from '@/lib/mirror/types';
import { residentDirectories, searchDirectory } from '@/lib/residents/directory';
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
   * The mirror states of the systems searched, by (lower-case) device id, which say whether each
   * holds a user list. Without it they are read as they are (one statement).
   */
  states?: (deviceIds: readonly string[]) => Promise<ReadonlyMap<string, MirrorState | null>>;
  client: Pick<ServiceClient, 'users'>;
  /** The systems the viewer may see. */
  systems: readonly SystemPublic[];
  /** The API key of a system (undefined when it is not connected). */
  apiKeyOf: (deviceId: string) => Promise<string | undefined>;
  /**
   * The system's mirrored resources and groups, for names and apartments. Without it the current
   * generation is read as it is.
   */
  mirror?: (deviceId: string) => Promise<MirrorSnapshot | null>;
}

/**
 * A search starts at most this many first loads, of the systems it finds not loaded (the most
 * recently opened of them), and when those are all it misses waits for them at most
 * RESIDENT_FIRST_LOAD_WAIT_MS: the others are
 * the background worker's (lib/mirror/background.ts), and the answer says how many there are
 * (issue 49: one search started 554 loads at once and took 12.5 s).
 */
export const RESIDENT_SEARCH_LOADS_MAX = 2;
export const RESIDENT_FIRST_LOAD_WAIT_MS = 250;

/**
 * The search's dependencies over the views' ones, for `systems` whose keys (`apiKeyOf`) and mirror
 * states (`known`) were read with them: no further read per system, except for the few systems
 * not loaded whose first load the search starts (RESIDENT_SEARCH_LOADS_MAX).
 */
export function residentSearchDepsOf(
  view: ViewDeps,
  client: ResidentSearchDeps['client'],
  systems: readonly SystemPublic[],
  apiKeyOf: ResidentSearchDeps['apiKeyOf'],
  known: ReadonlyMap<string, MirrorState>,
): ResidentSearchDeps {
  const { db } = view;
  const current = new Map<string, MirrorState | null>();
  const stateOf = (deviceId: string) => (current.has(deviceId) ? current.get(deviceId)! : (known.get(deviceId) ?? null));
  const states = async (deviceIds: readonly string[]): Promise<ReadonlyMap<string, MirrorState | null>> => {
    for (const id of deviceIds) current.set(id, stateOf(id));
    const unloaded = deviceIds.filter((id) => !current.get(id)?.refreshedAt);
    if (unloaded.length === 0) return current;
    // The most recently opened first, as the background worker's order.
    const viewed = (id: string) => current.get(id)?.viewedAt?.getTime() ?? 0;
    const tried = [...unloaded].sort((x, y) => viewed(y) - viewed(x)).slice(0, RESIDENT_SEARCH_LOADS_MAX);
    const bounded: ViewDeps = { ...view, refreshStarts: refreshAllowance(RESIDENT_SEARCH_LOADS_MAX) };
    const started: string[] = [];
    await Promise.all(
      tried.map(async (deviceId) => {
        try {
          const mirror = await systemMirror(bounded, deviceId, current.get(deviceId) ?? null, { opened: false });
          if (mirror.freshness.status === 'loading' && mirror.freshness.refreshing) started.push(deviceId);
        } catch (error) {
          // Results still show, with fewer names; the search itself did not fail.
          log.warn('mirror not available for resident search', { deviceId, error });
        }
      }),
    );
    // Worth a wait only when the loads started are all that is missing (one system's search, the
    // slot dialog's); over a portfolio the answer says what is not loaded instead.
    if (started.length > 0 && unloaded.length <= RESIDENT_SEARCH_LOADS_MAX) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([Promise.all(started.map(waitForRefresh)), new Promise((resolve) => (timer = setTimeout(resolve, RESIDENT_FIRST_LOAD_WAIT_MS)))]);
      clearTimeout(timer);
      for (const deviceId of started) current.set(deviceId, await readState(db, deviceId));
    }
    return current;
  };
  return {
    db,
    client,
    systems,
    apiKeyOf,
    states,
    mirror: async (deviceId) => {
      const state = stateOf(deviceId);
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
 * holds the user list are searched in memory (lib/residents/directory.ts: built a few statements
 * for all systems at once, then kept per generation); only the others ask the upstream's exact
 * lookups (one per distinct key, not per system). Says how many of the systems are not loaded yet
 * (`notLoaded`). `query` is already parsed (parseResidentQuery): '' finds nothing.
 */
export async function findResidents(deps: ResidentSearchDeps, query: string): Promise<ResidentSearchResult> {
  if (query.trim() === '') return { apartments: [], truncated: false };
  const prepared = prepareQuery(query);
  const deviceIds = deps.systems.map((s) => s.deviceId.toLowerCase());
  const states = await measure('states', () => (deps.states ? deps.states(deviceIds) : readStates(deps.db)));
  const stateOf = (deviceId: string) => states.get(deviceId) ?? null;
  const directories = await measure('directories', () => residentDirectories(deps.db, deviceIds.map((deviceId) => ({ deviceId, state: stateOf(deviceId) }))));
  const hits: ScoredHit[] = [];
  const fallback: SystemPublic[] = [];
  let notLoaded = 0;
  deps.systems.forEach((system, i) => {
    const deviceId = deviceIds[i]!;
    if (!stateOf(deviceId)?.refreshedAt) notLoaded += 1;
    const directory = directories.get(deviceId);
    if (directory) hits.push(...searchDirectory(directory, { deviceId, name: system.name }, prepared));
    else fallback.push(system);
  });
  if (fallback.length > 0) hits.push(...(await lookUpResidents({ ...deps, systems: fallback }, query.trim())));
  const ranked = rankHits(hits);
  return notLoaded > 0 ? { ...ranked, notLoaded } : ranked;
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
