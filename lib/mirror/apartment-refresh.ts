import 'server-only';
import { createCache } from '@/lib/cache';
import type { Database } from '@/lib/db';
import { log } from '@/lib/log';
import { isMissingEndpoint } from '@/lib/service/errors';
import type { ServiceClient } from '@/lib/service';
import { singleton } from '@/lib/singleton';
import { releaseWindowsOf } from './released';
import { applyUserReservations, takeBudget } from './store';

/**
 * When an apartment's page is opened, its users' bookings are read straight from the service
 * (`GET /v1/reservations/users/{userId}/reservations`, one request per user, not paged) and put into
 * the shown copy: a booking the apartment made at the door panel shows at once, however large the
 * system and however long until its next re-read. Charged to the system's request budget (skipped
 * when the bucket is short), one at a time per apartment in this process (single flight), and not
 * more than once per freshness window per apartment.
 */
export interface ApartmentRefreshDeps {
  db: Database;
  client: Pick<ServiceClient, 'reservations'>;
  apiKey: string;
  freshnessMs: number;
  /** The system's request budget per hour; 0: none. */
  budgetPerHour: number;
  now?: () => Date;
}

export type ApartmentRefreshOutcome =
  | { status: 'refreshed'; requests: number; changed: number }
  | { status: 'fresh' }
  | { status: 'budget' }
  | { status: 'failed' }
  /** The service has no `users/{id}/reservations` (it is beyond the interface document): the page shows the copy. */
  | { status: 'unsupported' };

interface Entry {
  at: number;
  running: Promise<ApartmentRefreshOutcome> | null;
}

/** Entries kept at most (the least recently viewed dropped first): one per apartment viewed within a window. */
const KEPT_MAX = 10_000;
const recent = createCache<Entry>('mirror-apartment-refreshes', { max: KEPT_MAX });
/**
 * Systems whose service answered the endpoint with 404/405, until when: a service built from the
 * interface document alone lacks it, and asking again on every apartment view would only spend the
 * budget. Asked again after this long, in case the service gained it.
 */
const missing = singleton('mirror-apartment-refresh-missing', () => new Map<string, number>());
const MISSING_RECHECK_MS = 3_600_000;

/** Refreshes one apartment's users' bookings, unless one ran within the window or runs now (then its outcome). */
export function refreshApartmentBookings(deps: ApartmentRefreshDeps, deviceId: string, groupId: string, userIds: readonly string[]): Promise<ApartmentRefreshOutcome> {
  const key = `${deviceId.toLowerCase()}:${groupId.toLowerCase()}`;
  const now = (deps.now?.() ?? new Date()).getTime();
  const held = recent.get(key);
  if (held?.running) return held.running;
  if (held && now - held.at < deps.freshnessMs) return Promise.resolve({ status: 'fresh' });
  const entry: Entry = { at: now, running: null };
  entry.running = run(deps, deviceId, userIds).finally(() => {
    entry.running = null;
  });
  recent.set(key, entry);
  return entry.running;
}

async function run(deps: ApartmentRefreshDeps, deviceId: string, userIds: readonly string[]): Promise<ApartmentRefreshOutcome> {
  if (userIds.length === 0) return { status: 'refreshed', requests: 0, changed: 0 };
  const at = deps.now?.() ?? new Date();
  const system = deviceId.toLowerCase();
  if ((missing.get(system) ?? 0) > at.getTime()) return { status: 'unsupported' };
  if (!(await takeBudget(deps.db, deviceId, userIds.length, deps.budgetPerHour, at))) return { status: 'budget' };
  try {
    let changed = 0;
    for (const userId of userIds) {
      const reservations = await deps.client.reservations.forUser(deps.apiKey, userId);
      changed += await applyUserReservations(deps.db, deviceId, userId, reservations, await releaseWindowsOf(deps.db, deviceId, new Date(Math.max(Date.now(), at.getTime()))));
    }
    return { status: 'refreshed', requests: userIds.length, changed };
  } catch (error) {
    if (isMissingEndpoint(error)) {
      if (!missing.has(system)) log.info('mirror: the service has no users/{id}/reservations; apartment pages show the copy', { deviceId });
      missing.set(system, at.getTime() + MISSING_RECHECK_MS);
      return { status: 'unsupported' };
    }
    log.warn('mirror: an apartment\u2019s bookings could not be refreshed; showing the copy', { deviceId, error });
    return { status: 'failed' };
  }
}

/** Forgets the windows (tests). */
export function resetApartmentRefreshes(): void {
  recent.clear();
  missing.clear();
}
