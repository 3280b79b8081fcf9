import 'server-only';
import { ApiError } from '@/lib/api/errors';
import { listAccessibleSystemsWithKeys } from '@/lib/auth/access';
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
import { readState } from '@/lib/mirror/store';
import type { MirrorState } from '@/lib/mirror/types';
import { systemMirror, type ViewDeps } from './freshness';
import { searchResidents, type ResidentSearchDeps } from './residents';
import type { ResidentResult } from './types';

/** The views wired to the portal's database, upstream client and settings. */
export async function portalViewDeps(): Promise<ViewDeps> {
  const { db } = await getDb();
  return {
    db,
    freshnessMs: env.MIRROR_FRESHNESS_S * 1000,
    source: async (deviceId) => {
      const apiKey = await getSystemApiKey(deviceId);
      if (!apiKey) throw new ApiError('conflict', 'This system is not connected to the reservation service. An admin needs to connect it again.');
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
): Promise<ResidentSearchDeps> {
  const [{ db }, client, viewDeps] = await Promise.all([getDb(), getServiceClient(), portalViewDeps()]);
  return {
    db,
    client,
    systems,
    apiKeyOf,
    mirror: async (deviceId) => {
      let state: MirrorState | null = null;
      try {
        const mirror = await systemMirror(viewDeps, deviceId);
        state = mirror.state;
        if (mirror.freshness.status === 'loading') {
          let timer: ReturnType<typeof setTimeout> | undefined;
          await Promise.race([waitForRefresh(deviceId), new Promise((resolve) => (timer = setTimeout(resolve, FIRST_LOAD_WAIT_MS)))]);
          clearTimeout(timer);
          state = await readState(db, deviceId);
        }
      } catch (error) {
        // Results still show, with fewer names; the lookup itself did not fail.
        log.warn('mirror not available for resident search', { deviceId, error });
        state = await readState(db, deviceId);
      }
      return state ? mirrorSnapshot(db, deviceId, state) : null;
    },
  };
}

/** The resident search of the route and the page: the viewer's systems and their keys come in one query. */
export async function searchResidentsFor(user: SessionUser, query: string): Promise<ResidentResult[]> {
  const { systems, apiKeyOf } = await listAccessibleSystemsWithKeys(user);
  return searchResidents(await portalResidentSearchDeps(systems, (deviceId) => Promise.resolve(apiKeyOf(deviceId))), query);
}
