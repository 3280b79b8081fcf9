import 'server-only';
import { ApiError } from '@/lib/errors/api-error';
import { msg } from '@/lib/i18n/message';
// eslint-disable-next-line import-x/no-restricted-paths -- live wiring, moved to the composition root (lib/wiring.ts) in the next commit
import { requireViewer } from '@/lib/api/viewer';
import { visibleTo } from '@/lib/auth/access';
import { readTogether } from '@/lib/db/read-together';
import { getSecrets } from '@/lib/secrets';
import { systemsWithKeysRead, type SystemsWithKeys } from '@/lib/systems/store';
import type { SessionUser } from '@/lib/auth/schemas';
import { getDb } from '@/lib/db';
import { env } from '@/lib/env';
import { serviceMirrorSource } from '@/lib/mirror/service-source';
import { getServiceClient } from '@/lib/service';
import { getSystemApiKey } from '@/lib/systems';
import type { SystemPublic } from '@/lib/systems/schemas';
import { log } from '@/lib/log';
import { waitForRefresh } from '@/lib/mirror/refresh';
import { mirrorSnapshot } from '@/lib/mirror/snapshot';
import { readState, statesRead } from '@/lib/mirror/store';
import type { MirrorState } from '@/lib/mirror/types';
import { systemMirror, type ViewDeps } from './freshness';
import { findResidents, type ResidentSearchDeps } from './residents';
import type { ResidentSearchResult } from '@/lib/residents/search';

/** The views wired to the portal's database, upstream client and settings. */
export async function portalViewDeps(): Promise<ViewDeps> {
  const { db } = await getDb();
  return {
    db,
    freshnessMs: env.MIRROR_FRESHNESS_S * 1000,
    budgetPerHour: env.MIRROR_REQUEST_BUDGET_PER_HOUR,
    source: async (deviceId) => {
      const apiKey = await getSystemApiKey(deviceId);
      if (!apiKey) throw new ApiError('conflict', msg('errors.systemNotConnected'));
      return serviceMirrorSource(await getServiceClient(), apiKey);
    },
  };
}

/** A search waits at most this long for a system's first load (names and apartments come from it). */
const FIRST_LOAD_WAIT_MS = 5_000;

/** The search's dependencies, with the keys read together with the viewer's systems. */
async function portalResidentSearchDeps(
  systems: readonly SystemPublic[],
  apiKeyOf: ResidentSearchDeps['apiKeyOf'],
  known: ReadonlyMap<string, MirrorState>,
): Promise<ResidentSearchDeps> {
  const [{ db }, client, viewDeps] = await Promise.all([getDb(), getServiceClient(), portalViewDeps()]);
  // The state of a system (refreshing it when due, waiting a little for its first load), read
  // once per search: the fallback lookups ask again for the snapshot of the same systems.
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
      const mirror = await systemMirror(viewDeps, deviceId, known.get(deviceId) ?? null);
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

/**
 * The resident search of the page: the viewer's systems with their keys and their mirror states
 * come in one statement. `deviceId` narrows it to one of them (the slot dialog); a system not
 * visible finds nothing.
 */
export async function searchResidentsFor(user: SessionUser, query: string, deviceId?: string): Promise<ResidentSearchResult> {
  if (query.trim() === '') return { apartments: [], truncated: false };
  const [{ db }, reads] = await Promise.all([getDb(), searchReads()]);
  return searchIn(await readTogether(db, reads(user.id)), query, deviceId);
}

/**
 * The resident search of the route, for the signed-in user (401 as requireUser): the account, the
 * systems, their keys and their mirror states in one statement (a search is asked at every keystroke).
 */
export async function searchResidentsAsViewer(query: string, deviceId?: string): Promise<ResidentSearchResult> {
  const viewer = await requireViewer(await searchReads());
  return query.trim() === '' ? { apartments: [], truncated: false } : searchIn(viewer, query, deviceId);
}

async function searchReads() {
  const { encryptionKey } = await getSecrets();
  return (userId: string) => ({
    systems: systemsWithKeysRead(visibleTo(userId), encryptionKey),
    states: statesRead(visibleTo(userId)),
  });
}

async function searchIn(read: { systems: SystemsWithKeys; states: ReadonlyMap<string, MirrorState> }, query: string, deviceId?: string): Promise<ResidentSearchResult> {
  const { apiKeyOf } = read.systems;
  const systems = deviceId ? read.systems.systems.filter((s) => s.deviceId.toLowerCase() === deviceId.toLowerCase()) : read.systems.systems;
  if (systems.length === 0) return { apartments: [], truncated: false };
  return findResidents(await portalResidentSearchDeps(systems, (id) => Promise.resolve(apiKeyOf(id)), read.states), query);
}
