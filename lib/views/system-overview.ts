import 'server-only';
import { closureNotes } from './closure-notes';
import { readClosureWindows } from '@/lib/closures/read';
import { partialLoadOf } from '@/lib/mirror/refresh';
import { mirrorSnapshot, structureSnapshot } from '@/lib/mirror/snapshot';
import { readReservations } from '@/lib/mirror/store';
import { type Heatmap, occupancyByResourceWeek, occupancyHeatmap, resourceNowStatus, weekOf } from '@/lib/schedule';
import type { SystemPublic } from '@/lib/systems/schemas';
import { systemMirror, type ViewDeps } from './freshness';
import type { MirrorState } from '@/lib/mirror/types';
import type { SkippedItemsView, SystemOverview } from './types';
import { createCache } from '@/lib/cache';

export const HEATMAP_WEEKS = 8;
/**
 * The 8-week picture barely moves within minutes but costs the most to compute (every slot of
 * 8 weeks, walked hour by hour in the local zone), so each process keeps it this long per system.
 */
export const HEATMAP_CACHE_MS = 5 * 60_000;

// Aged by the view's clock (deps.now) as well as lru-cache's, which bounds what is kept.
const heatmapCache = createCache<{ at: number; heatmap: Heatmap }>('heatmaps', { max: 1_000, ttlMs: HEATMAP_CACHE_MS });

function cachedHeatmapAt(key: string, nowMs: number): Heatmap | null {
  const hit = heatmapCache.get(key);
  return hit && nowMs - hit.at >= 0 && nowMs - hit.at < HEATMAP_CACHE_MS ? hit.heatmap : null;
}
const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;

/**
 * The system page: every resource with this week's occupancy and what is happening now, and the
 * booking-rate heatmap of the last 8 weeks. Read from the mirror; while a system that was never
 * loaded is loading, the answer says so and holds no resources until its rooms are in, then the
 * rooms without occupancy (freshness.partial).
 */
export async function loadSystemOverview(
  deps: ViewDeps,
  system: SystemPublic,
  options: { includeSkipped?: boolean } = {},
): Promise<SystemOverview> {
  const now = deps.now?.() ?? new Date();
  const nowMs = now.getTime();
  const { freshness, state } = await systemMirror(deps, system.deviceId);
  // What the reader left out is for admins (the caller decides); reasons name upstream ids.
  const skipped = options.includeSkipped ? skippedItemsOf(state) : undefined;
  if (freshness.status === 'loading' || !state) {
    // A first load whose rooms are in lists them at once, their occupancy still being read.
    const partial = freshness.status === 'loading' && freshness.partial ? partialLoadOf(state) : null;
    const structure = partial ? await structureSnapshot(deps.db, system.deviceId, partial.generation) : null;
    const closures = structure && structure.resources.length > 0 ? await readClosureWindows(deps.db, system.deviceId, now) : [];
    const resources = (structure?.resources ?? []).map((resource) => ({
      id: resource.id,
      name: resource.name,
      description: resource.description,
      occupancy: null,
      now: null,
      closures: closureNotes(closures, resource.id),
    }));
    return { system, freshness, weekKey: null, resources, heatmap: null, generatedAt: nowMs, ...(skipped !== undefined && { skipped }) };
  }
  const timeZone = system.timeZone;
  const week = weekOf(nowMs, timeZone);
  const resources = (await mirrorSnapshot(deps.db, system.deviceId, state))?.resources ?? [];
  // Keyed by what changes the picture's shape: the system, its zone and its resources.
  const basis = system.scheduleBasis;
  const cacheKey = `${system.deviceId}|${timeZone}|${basis}|${resources.map((r) => `${r.id}:${r.timeScheduleId}`).join(',')}`;
  const cached = cachedHeatmapAt(cacheKey, nowMs);
  // One read covers the current week, the slot running now and, when needed, the heatmap window.
  const from = Math.min(cached ? nowMs : nowMs - HEATMAP_WEEKS * WEEK_MS, week.startMs) - DAY_MS;
  const to = Math.max(week.endMs, nowMs + DAY_MS);
  const [reservations, closures] = await Promise.all([
    readReservations(deps.db, system.deviceId, { from: new Date(from), to: new Date(to) }),
    readClosureWindows(deps.db, system.deviceId, now),
  ]);
  const byResource = new Map<string, typeof reservations>();
  for (const r of reservations) {
    const list = byResource.get(r.resourceId);
    if (list) list.push(r);
    else byResource.set(r.resourceId, [r]);
  }
  const weekly = occupancyByResourceWeek({ resources, reservations, week, timeZone, basis, now: nowMs });
  let heatmap = cached;
  if (!heatmap) {
    heatmap = occupancyHeatmap(resources, reservations, { now: nowMs, timeZone, basis, weeks: HEATMAP_WEEKS });
    heatmapCache.set(cacheKey, { at: nowMs, heatmap });
  }
  return {
    system,
    freshness,
    weekKey: week.key,
    resources: resources.map((resource, i) => {
      const status = resourceNowStatus({
        schedule: resource.schedule,
        reservations: byResource.get(resource.id) ?? [],
        now: nowMs,
        timeZone,
        basis,
        resourceId: resource.id,
      });
      return {
        id: resource.id,
        name: resource.name,
        description: resource.description,
        occupancy: weekly[i]!.stats,
        now: { ...status, ownerLabel: null, slot: null },
        closures: closureNotes(closures, resource.id),
      };
    }),
    heatmap,
    generatedAt: nowMs,
    ...(skipped !== undefined && { skipped }),
  };
}

/** The last successful refresh's skipped items, for the admin notice; null when none. */
export function skippedItemsOf(state: MirrorState | null): SkippedItemsView | null {
  const skipped = state?.skipped;
  if (!skipped || skipped.total <= 0) return null;
  return { total: skipped.total, counts: { ...skipped.counts }, samples: skipped.samples.map((s) => ({ ...s })) };
}
