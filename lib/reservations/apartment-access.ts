import 'server-only';
import { log } from '@/lib/log';
import type { ServiceClient } from '@/lib/service';
import { createCache } from '@/lib/cache';
import { RESIDENT_CACHE_MS } from './residents';

const cache = createCache<Promise<ReadonlySet<string> | null>>('apartment-access', { max: 10_000, ttlMs: RESIDENT_CACHE_MS });

/** Drops cached lookups (tests). */
export function clearApartmentAccessCache(): void {
  cache.clear();
}

/**
 * The rooms an apartment's users may book (the union of their reservationResources), from one
 * lookup by the group's apartment id (or, without one, its reference id), cached briefly like the
 * resident lookups. It passes the lookups breaker, as searches do: it is asked for whenever a page
 * is viewed, and lookups failing there must never open the reads breaker that bookings pass. Null
 * when unknown: no key to look up by, the lookup failed, or the service listed none of the group's
 * users. Never throws.
 */
export function apartmentAuthorizations(
  client: ServiceClient,
  apiKey: string,
  deviceId: string,
  group: { id: string; apartmentId: string; referenceId: string },
): Promise<ReadonlySet<string> | null> {
  const apartment = group.apartmentId.trim();
  const reference = group.referenceId.trim();
  if (!apartment && !reference) return Promise.resolve(null);
  const key = `${deviceId}:${group.id}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const value = (async () => {
    try {
      const options = { lane: 'lookups' as const };
      const accounts = apartment ? await client.users.byApartment(apiKey, apartment, options) : await client.users.byReference(apiKey, reference, options);
      // The key may cover several systems, each with its own apartment of that number.
      const ours = accounts.filter((a) => a.deviceId === deviceId && a.userGroupId === group.id);
      if (ours.length === 0) return null;
      return new Set(ours.flatMap((a) => a.reservationResources ?? []));
    } catch (error) {
      log.warn('apartment authorizations unknown: the lookup failed', { deviceId, groupId: group.id, error });
      cache.delete(key);
      return null;
    }
  })();
  cache.set(key, value);
  return value;
}
