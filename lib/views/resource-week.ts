import 'server-only';
import { ApiError } from '@/lib/api/errors';
import { readReservations } from '@/lib/mirror/store';
import { listOpenRequests } from '@/lib/reservations/requests';
import { bookingHorizonEnd, expandWeek, overlayReservations, shiftWeekKey, weekFromKey, weekKeyOf } from '@/lib/schedule';
import type { SystemPublic } from '@/lib/systems/schemas';
import { systemFreshness, type ViewDeps } from './freshness';
import { ownerLabelsFor } from './owner-labels';
import { readScheduledResources } from './system-data';
import type { ResourceWeekView } from './types';

const DAY_MS = 86_400_000;

/**
 * The resource page: one week of a resource's slots (in the system's zone) with their states and
 * holders, the booking horizon and the neighbouring week keys. `weekKey` must be valid (callers
 * parse it with weekKeySchema); it defaults to the current week.
 */
export async function loadResourceWeek(
  deps: ViewDeps,
  system: SystemPublic,
  resourceId: string,
  weekKey?: string,
): Promise<ResourceWeekView> {
  const now = deps.now?.() ?? new Date();
  const nowMs = now.getTime();
  const timeZone = system.timeZone;
  const current = weekKeyOf(nowMs, timeZone);
  const week = weekFromKey(weekKey ?? current, timeZone);
  const nav = { previous: shiftWeekKey(week.key, -1), next: shiftWeekKey(week.key, 1), current };
  const horizonEnd = bookingHorizonEnd(nowMs);
  const freshness = await systemFreshness(deps, system.deviceId);
  const base = { system, week, horizonEnd, freshness, nav, generatedAt: nowMs, requests: [] };
  if (freshness.status === 'loading') return { ...base, resource: null, slots: [] };

  const resource = (await readScheduledResources(deps.sql, system.deviceId)).find((r) => r.id === resourceId.toLowerCase());
  if (!resource) throw new ApiError('not_found', 'This system has no such resource.');
  // A slot starting in the week may have a reservation starting up to a day earlier or later.
  const reservations = await readReservations(deps.sql, system.deviceId, {
    from: new Date(week.startMs - DAY_MS),
    to: new Date(week.endMs + DAY_MS),
    resourceId: resource.id,
  });
  const ownerLabel = await ownerLabelsFor(deps.sql, system.deviceId, reservations);
  const slots = overlayReservations(expandWeek(resource.schedule, week, timeZone), reservations, {
    now: nowMs,
    resourceId: resource.id,
    horizonEnd,
    ownerLabel,
  });
  const requests = await listOpenRequests(deps.sql, system.deviceId, resource.id, new Date(week.startMs - DAY_MS), new Date(week.endMs + DAY_MS));
  return { ...base, resource: { id: resource.id, name: resource.name, description: resource.description }, slots, requests };
}
