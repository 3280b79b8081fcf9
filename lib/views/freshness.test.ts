import { describe, expect, it } from 'vitest';
import { describeWithDb } from '@/tests/db';
import { waitForRefresh } from '@/lib/mirror/refresh';
import { serviceMirrorSource } from '@/lib/mirror/service-source';
import { readState } from '@/lib/mirror/store';
import { craftedClient } from '@/tests/crafted-service';
import type { MirrorState } from '@/lib/mirror/types';
import { budgetOf, outsideWithinS, systemMirror, type ViewDeps } from './freshness';

const DEVICE = '5d0c3c1a-2222-4a2b-9c3d-000000000001';
const WEEK = 'a0000000-0000-4000-8000-000000000011';
const ROOM = 'b0000000-0000-4000-8000-000000000011';

/** A small system; `requests` counts what reaches the service (the token endpoint aside). */
function smallSystem() {
  const counter = { requests: 0 };
  const client = craftedClient(
    {
      [`/v1/reservations/timeschedules/${DEVICE}/all`]: { timeSchedules: [{ id: WEEK, deviceId: DEVICE, scheduleType: 'Week', schedule: Array.from({ length: 7 }, () => [[420, 180]]) }], continuationToken: null },
      [`/v1/reservations/resources/${DEVICE}/all`]: { resources: [{ id: ROOM, name: 'Laundry room', description: '', deviceId: DEVICE, timeScheduleId: WEEK }], continuationToken: null },
      [`/v1/usergroups/${DEVICE}/all`]: { userGroups: [], continuationToken: null },
      [`/v1/reservations/${DEVICE}/all`]: { reservations: [], continuationToken: null },
    },
    { observe: () => void (counter.requests += 1) },
  );
  return { client, counter };
}

describeWithDb('freshness: what the views say of the next refresh', (ctx) => {
  it('says when a stale copy held back by the request budget is next updated, and refreshes nothing meanwhile', async () => {
    const { client, counter } = smallSystem();
    const { db, sql } = ctx().handle;
    const deps: ViewDeps = { db, source: () => Promise.resolve(serviceMirrorSource(client, 'key')), freshnessMs: 30_000, budgetPerHour: 2400 };
    expect((await systemMirror(deps, DEVICE)).freshness).toMatchObject({ status: 'loading', refreshing: true, nextRefreshAt: null, deferredBy: null });
    await new Promise((resolve) => setTimeout(resolve, 0));
    await waitForRefresh(DEVICE);
    const loaded = (await readState(db, DEVICE))!;
    const ended = loaded.refreshEndedAt!.getTime();

    // Within the window: fresh, next refresh a window after the last one ended.
    const fresh = await systemMirror({ ...deps, now: () => new Date(ended + 10_000) }, DEVICE);
    expect(fresh.freshness).toMatchObject({ status: 'ready', refreshing: false, nextRefreshAt: new Date(ended + 30_000).toISOString(), deferredBy: null });

    // The bucket 100 in debt at the end of that refresh: a stale copy waits for it to hold the last cost.
    await sql.query('UPDATE mirror_state SET budget_tokens = -100, budget_at = refresh_ended_at WHERE device_id = $1', [DEVICE]);
    counter.requests = 0;
    const stale = await systemMirror({ ...deps, now: () => new Date(ended + 60_000) }, DEVICE);
    const readyMs = ended + Math.ceil(((100 + loaded.lastRequests) / (2400 / 3600)) * 1000);
    expect(stale.freshness).toMatchObject({ status: 'ready', refreshing: false, deferredBy: 'budget', lastError: null });
    expect(Math.abs(Date.parse(stale.freshness.nextRefreshAt!) - readyMs)).toBeLessThanOrEqual(1);
    await waitForRefresh(DEVICE);
    expect(counter.requests).toBe(0);

    // Without a budget the same view refreshes.
    const unbounded = await systemMirror({ ...deps, budgetPerHour: 0, now: () => new Date(ended + 60_000) }, DEVICE);
    expect(unbounded.freshness).toMatchObject({ refreshing: true, deferredBy: null, nextRefreshAt: null });
    await waitForRefresh(DEVICE);
    expect(counter.requests).toBeGreaterThanOrEqual(4);
  });
});

describe('a system\u2019s own request budget', () => {
  it('is used in place of the setting when an admin set one, and by the promise about outside changes', async () => {
    const deps = { budgetPerHour: 2400, budgetOverrides: () => Promise.resolve(new Map([['d1', 4800]])) };
    expect(await budgetOf(deps, 'd1')).toBe(4800);
    expect(await budgetOf(deps, 'd2')).toBe(2400);
    expect(await budgetOf({}, 'd2')).toBe(0);
    const state = { refreshedAt: new Date('2026-11-27T05:00:00Z'), refreshEndedAt: new Date('2026-11-27T05:00:28Z'), lastRequests: 501 } as MirrorState;
    expect(outsideWithinS({ freshnessMs: 30_000, budgetPerHour: 2400 }, state)).toBe(780);
    expect(outsideWithinS({ freshnessMs: 30_000, budgetPerHour: 4800 }, state)).toBe(404);
    expect(outsideWithinS({ freshnessMs: 30_000, budgetPerHour: 2400 }, null)).toBeNull();
  });
});
