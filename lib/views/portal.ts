import 'server-only';
import { ApiError } from '@/lib/api/errors';
import { getDb } from '@/lib/db';
import { env } from '@/lib/env';
import { serviceMirrorSource } from '@/lib/mirror/service-source';
import { getServiceClient } from '@/lib/service';
import { getSystemApiKey } from '@/lib/systems';
import type { SystemPublic } from '@/lib/systems/schemas';
import { log } from '@/lib/log';
import { waitForRefresh } from '@/lib/mirror/refresh';
import { systemFreshness, type ViewDeps } from './freshness';
import type { ResidentSearchDeps } from './residents';

/** The views wired to the portal's database, upstream client and settings. */
export async function portalViewDeps(): Promise<ViewDeps> {
  const { sql } = await getDb();
  return {
    sql,
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

export async function portalResidentSearchDeps(systems: readonly SystemPublic[]): Promise<ResidentSearchDeps> {
  const [{ sql }, client, viewDeps] = await Promise.all([getDb(), getServiceClient(), portalViewDeps()]);
  return {
    sql,
    client,
    systems,
    apiKeyOf: getSystemApiKey,
    ensureMirror: async (deviceId) => {
      try {
        const freshness = await systemFreshness(viewDeps, deviceId);
        if (freshness.status !== 'loading') return;
        let timer: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([waitForRefresh(deviceId), new Promise((resolve) => (timer = setTimeout(resolve, FIRST_LOAD_WAIT_MS)))]);
        clearTimeout(timer);
      } catch (error) {
        // Results still show, with fewer names; the lookup itself did not fail.
        log.warn('mirror not available for resident search', { deviceId, error });
      }
    },
  };
}
