import 'server-only';
import { ApiError } from '@/lib/errors/api-error';
import { getDb } from '@/lib/db';
import { env } from '@/lib/env';
import { msg } from '@/lib/i18n/message';
import { getServiceClient } from '@/lib/service';
import { getSystemApiKey } from '@/lib/systems';
import { listAllSystems } from '@/lib/systems/store';
import type { BackgroundDeps } from './background';
import { serviceMirrorSource } from './service-source';

/** The background worker wired to the portal: its database, connected systems, keys and settings. */
export async function getMirrorWorkerDeps(): Promise<BackgroundDeps> {
  const { db } = await getDb();
  return {
    db,
    systems: async () => (await listAllSystems(db)).map((s) => s.deviceId),
    source: async (deviceId) => {
      const apiKey = await getSystemApiKey(deviceId);
      if (!apiKey) throw new ApiError('conflict', msg('errors.systemNotConnected'));
      return serviceMirrorSource(await getServiceClient(), apiKey);
    },
    backgroundMs: env.MIRROR_BACKGROUND_S * 1000,
    freshnessMs: env.MIRROR_FRESHNESS_S * 1000,
    budgetPerHour: env.MIRROR_REQUEST_BUDGET_PER_HOUR,
  };
}
