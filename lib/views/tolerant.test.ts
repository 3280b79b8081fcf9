import { expect, it } from 'vitest';
import { describeWithDb } from '@/tests/db';
import { refreshBackoffMs } from '@/lib/mirror/policy';
import { waitForRefresh } from '@/lib/mirror/refresh';
import { serviceMirrorSource } from '@/lib/mirror/service-source';
import { readReservations, readResources, readState, readUserGroups } from '@/lib/mirror/store';
import { craftedClient, type CraftedBody } from '@/tests/crafted-service';
import type { SystemPublic } from '@/lib/systems/schemas';
import { REFUSED_MESSAGE, systemMirror, UNREACHABLE_MESSAGE, UNREADABLE_MESSAGE, type ViewDeps } from './freshness';
import { loadSystemOverview } from './system-overview';

const DEVICE = '5d0c3c1a-1111-4a2b-9c3d-000000000001';
const WEEK = 'a0000000-0000-4000-8000-000000000001';
const MONTH = 'a0000000-0000-4000-8000-000000000002';
const ROOM_A = 'b0000000-0000-4000-8000-000000000001';
const ROOM_B = 'b0000000-0000-4000-8000-000000000002';
const ROOM_C = 'b0000000-0000-4000-8000-000000000003';
const GROUP_1 = 'c0000000-0000-4000-8000-000000000001';
const GROUP_2 = 'c0000000-0000-4000-8000-000000000002';
const r = (n: number) => `d0000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const slots = [[420, 180], [600, 180], [780, 180]];

/** One system as a real service might send it: every oddity the interface allows, and two unusable items. */
function oddSystem(device: string): Record<string, CraftedBody> {
  const extra = { etag: 'W/"1"', links: [] };
  return {
    [`/v1/reservations/timeschedules/${device}/all`]: {
      timeSchedules: [
        { id: WEEK, deviceId: device, scheduleType: 'Week', schedule: Array.from({ length: 7 }, () => slots), ...extra },
        { id: MONTH, deviceId: device, scheduleType: 'Month', schedule: { days: 31 } },
      ],
      continuationToken: null,
      ...extra,
    },
    [`/v1/reservations/resources/${device}/all`]: {
      resources: [
        { id: ROOM_A, name: 'Laundry room A', description: null, deviceId: device, timeScheduleId: WEEK, ...extra },
        { id: ROOM_B, name: 'Laundry room B', description: 'Basement', deviceId: device, timeScheduleId: WEEK.toUpperCase() },
        // Points at the Month schedule: still listed, without slots.
        { id: ROOM_C, name: 'Drying room', deviceId: device, timeScheduleId: MONTH },
      ],
    },
    [`/v1/usergroups/${device}/all`]: {
      userGroups: [
        { id: GROUP_1, name: 'Apartment 1203', apartmentId: null, referenceId: 'REF-1', deviceId: device },
        { id: GROUP_2, name: null, apartmentId: '1204', deviceId: device, ...extra },
      ],
      continuationToken: '',
    },
    [`/v1/reservations/${device}/all`]: {
      reservations: [
        { id: r(1), userId: null, ownerId: GROUP_1, ownerType: 'Group', status: 'Used', resourceId: ROOM_A, startTime: '2026-11-24T07:00Z', endTime: '2026-11-24T10:00Z', deviceId: device, ...extra },
        { id: r(2), userId: null, ownerId: null, ownerType: 'Facility', status: 'Unused', resourceId: ROOM_A, startTime: '2026-11-24T11:00:00+01:00', endTime: '2026-11-24T14:00:00.0000000+01:00', deviceId: device },
        // Unusable: no offset (local to whom?).
        { id: r(3), userId: null, ownerId: null, ownerType: 'Service', status: 'Unused', resourceId: ROOM_B, startTime: '2026-11-24T07:00:00', endTime: '2026-11-24T10:00:00', deviceId: device },
      ],
      continuationToken: 'page+2/=',
    },
    [`/v1/reservations/${device}/all?page+2/=`]: {
      reservations: [
        { id: r(4), userId: GROUP_2, ownerId: GROUP_2, ownerType: 'group', status: 'Released', resourceId: ROOM_B, startTime: '2026-11-25T13:00:00.1234567Z', endTime: '2026-11-25T16:00Z' },
        // Unusable: no id the portal could key it by.
        { id: 'not-a-guid', ownerType: 'User', resourceId: ROOM_B, startTime: '2026-11-25T07:00Z', endTime: '2026-11-25T10:00Z', deviceId: device },
      ],
      continuationToken: '',
    },
  };
}

const system = (deviceId: string): SystemPublic => ({ deviceId, name: 'Odd', timeZone: 'Europe/Stockholm', status: 'active', bookingHorizonDays: 28, scheduleBasis: 'utc', bookingQuota: 2 , street: null, city: null, area: null });

describeWithDb('tolerant reader end to end', (ctx) => {
  it('loads a system full of nulls, odd date-times and unknown values; skipped items are counted and shown to admins only', async () => {
    const client = craftedClient(oddSystem(DEVICE));
    const deps: ViewDeps = { db: ctx().handle.db, source: () => Promise.resolve(serviceMirrorSource(client, 'key')), freshnessMs: 60_000 };
    expect((await loadSystemOverview(deps, system(DEVICE))).freshness.status).toBe('loading');
    await new Promise((resolve) => setTimeout(resolve, 0));
    await waitForRefresh(DEVICE);

    const { db } = ctx().handle;
    const state = await readState(db, DEVICE);
    expect(state).toMatchObject({ lastError: null, consecutiveFailures: 0 });
    expect((await readResources(db, DEVICE)).map((x) => [x.name, x.description])).toEqual([
      ['Drying room', ''],
      ['Laundry room A', ''],
      ['Laundry room B', 'Basement'],
    ]);
    expect((await readUserGroups(db, DEVICE)).map((g) => [g.id, g.apartmentId, g.referenceId]).sort()).toEqual([
      [GROUP_1, '', 'REF-1'],
      [GROUP_2, '1204', ''],
    ]);
    const reservations = await readReservations(db, DEVICE, { from: new Date('2026-01-01'), to: new Date('2027-01-01') });
    expect(reservations.map((x) => [x.id, x.ownerType, x.status, x.startTime, x.endTime, x.deviceId])).toEqual([
      [r(1), 'Group', 'Used', '2026-11-24T07:00:00.000Z', '2026-11-24T10:00:00.000Z', DEVICE],
      [r(2), 'Unknown', 'Unused', '2026-11-24T10:00:00.000Z', '2026-11-24T13:00:00.000Z', DEVICE],
      [r(4), 'Group', 'Unknown', '2026-11-25T13:00:00.123Z', '2026-11-25T16:00:00.000Z', DEVICE],
    ]);
    expect(state?.skipped).toEqual({
      total: 3,
      counts: { reservations: 2, timeSchedules: 1 },
      samples: expect.arrayContaining([
        { collection: 'timeSchedules', id: MONTH, reason: expect.stringContaining('"Month" is not supported') as string },
        { collection: 'reservations', id: r(3), reason: expect.stringContaining('startTime') as string },
        { collection: 'reservations', id: 'not-a-guid', reason: expect.stringContaining('id') as string },
      ]) as unknown,
    });

    const admin = await loadSystemOverview(deps, system(DEVICE), { includeSkipped: true });
    expect(admin.freshness).toMatchObject({ status: 'ready', lastError: null });
    expect(admin.resources.map((x) => x.name)).toEqual(['Drying room', 'Laundry room A', 'Laundry room B']);
    // The resource of the unsupported schedule is listed, with no slots.
    expect(admin.resources.find((x) => x.id === ROOM_C)?.occupancy?.total).toBe(0);
    expect(admin.skipped).toMatchObject({ total: 3, counts: { reservations: 2, timeSchedules: 1 } });
    expect(admin.skipped?.samples).toHaveLength(3);
    const manager = await loadSystemOverview(deps, system(DEVICE));
    expect(manager.skipped).toBeUndefined();
  });

  it('says truly why a refresh failed, and retries with capped exponential backoff, never once per view', async () => {
    const device = '5d0c3c1a-1111-4a2b-9c3d-000000000002';
    const bodies = oddSystem(device);
    const good = bodies[`/v1/reservations/${device}/all`];
    let mode: 'unreadable' | 'unreachable' | 'refused' | 'ok' = 'unreadable';
    bodies[`/v1/reservations/${device}/all`] = () =>
      mode === 'unreadable'
        ? new Response('<html>maintenance</html>', { status: 200, headers: { 'content-type': 'text/html' } })
        : mode === 'unreachable'
          ? new Response('', { status: 503 })
          : mode === 'refused'
            ? Response.json({ title: 'Forbidden', status: 403 }, { status: 403 })
            : Response.json(good);
    let requests = 0;
    const client = craftedClient(bodies, { observe: () => (requests += 1) });
    const freshnessMs = 1_000;
    let now = new Date();
    const { db } = ctx().handle;
    const deps: ViewDeps = { db, source: () => Promise.resolve(serviceMirrorSource(client, 'key')), freshnessMs, now: () => now };
    const settle = async () => {
      await new Promise((resolve) => setTimeout(resolve, 0));
      await waitForRefresh(device);
    };

    await systemMirror(deps, device);
    await settle();
    const failed = await readState(db, device);
    expect(failed).toMatchObject({ consecutiveFailures: 1, lastErrorKind: 'unreadable', refreshedAt: null });
    const retryAt = failed!.nextRefreshAt!.getTime();
    expect(retryAt - failed!.lastErrorAt!.getTime()).toBeCloseTo(refreshBackoffMs(1, freshnessMs), -2);

    // Within the backoff: 50 views, no request upstream, and the page says what happened and when it retries.
    requests = 0;
    for (let i = 0; i < 50; i++) {
      const { freshness } = await systemMirror(deps, device);
      expect(freshness).toMatchObject({
        status: 'loading',
        refreshing: false,
        lastError: UNREADABLE_MESSAGE,
        lastErrorKind: 'unreadable',
        retryAt: new Date(retryAt).toISOString(),
      });
    }
    await settle();
    expect(requests).toBe(0);

    // After it: one refresh, which fails again and doubles the wait.
    mode = 'unreachable';
    now = new Date(retryAt + 1);
    expect((await systemMirror(deps, device)).freshness).toMatchObject({ status: 'loading', refreshing: true });
    await Promise.all(Array.from({ length: 20 }, () => systemMirror(deps, device)));
    await settle();
    expect(requests).toBeGreaterThan(0);
    expect(requests).toBeLessThanOrEqual(5); // one pass: four collections and the user list, each one page until the failure
    const again = await readState(db, device);
    expect(again).toMatchObject({ consecutiveFailures: 2, lastErrorKind: 'unreachable' });
    expect(again!.nextRefreshAt!.getTime() - again!.lastErrorAt!.getTime()).toBeCloseTo(refreshBackoffMs(2, freshnessMs), -2);
    expect((await systemMirror(deps, device)).freshness.lastError).toBe(UNREACHABLE_MESSAGE);

    mode = 'refused';
    now = new Date(again!.nextRefreshAt!.getTime() + 1);
    await systemMirror(deps, device);
    await settle();
    expect((await systemMirror(deps, device)).freshness).toMatchObject({ lastErrorKind: 'refused', lastError: REFUSED_MESSAGE });

    // Success resets the count.
    mode = 'ok';
    now = new Date((await readState(db, device))!.nextRefreshAt!.getTime() + 1);
    await systemMirror(deps, device);
    await settle();
    expect(await readState(db, device)).toMatchObject({ consecutiveFailures: 0, nextRefreshAt: null, lastError: null, lastErrorKind: null });
    expect((await systemMirror(deps, device)).freshness).toMatchObject({ status: 'ready', lastError: null, retryAt: null });
  });

  it('caps the backoff at five minutes, or at the freshness window when that is longer', () => {
    expect([1, 2, 3, 4, 10].map((n) => refreshBackoffMs(n))).toEqual([5_000, 10_000, 20_000, 40_000, 300_000]);
    expect(refreshBackoffMs(3, 30_000)).toBe(120_000);
    expect(refreshBackoffMs(9, 600_000)).toBe(600_000);
  });
});
