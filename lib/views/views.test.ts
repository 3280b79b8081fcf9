import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Sandbox, type SandboxFixtures } from '@/sandbox';
import { startTestSandbox } from '@/tests/sandbox-service';
import { type ServiceClient, type UserGroup, type Reservation, type Resource } from '@/lib/service';
import { ApiError } from '@/lib/errors/api-error';
import { countingDb, describeWithDb } from '@/tests/db';
import { waitForRefresh } from '@/lib/mirror/refresh';
import { serviceMirrorSource } from '@/lib/mirror/service-source';
import { mirrorSnapshot } from '@/lib/mirror/snapshot';
import { applyReservationChange, readState } from '@/lib/mirror/store';
import { expandWeek, shiftWeekKey, weekKeyOf, weekOf } from '@/lib/schedule';
import type { SystemPublic } from '@/lib/systems/schemas';
import { UNREACHABLE_MESSAGE, type ViewDeps } from './freshness';
import { loadResourceWeek } from './resource-week';
import { lookUpResidents, lookupKindsFor, RESIDENT_MIRROR_PREFETCH_MAX, type ResidentSearchDeps } from './residents';
import type { ScoredHit } from '@/lib/residents/search';
import { loadSystemOverview } from './system-overview';
import { msg } from '@/lib/i18n/message';

const TZ = 'Europe/Stockholm';

describeWithDb('portal views over the mirror', (ctx) => {
  let sandbox: Sandbox;
  let fixtures: SandboxFixtures;
  let client: ServiceClient;
  let apiKey: string;
  let otherKey: string;
  let system: SystemPublic;
  let deps: ViewDeps;
  let resources: Resource[];
  let groups: UserGroup[];
  let upstream: Reservation[];

  beforeAll(async () => {
    ({ sandbox, fixtures, client } = await startTestSandbox({ sql: ctx().handle.sql, preset: 'demo', seed: 5 }));
    const [first, second] = fixtures.approvals;
    if (!first?.deviceIds[0] || !second) throw new Error('the demo preset has two approvals');
    apiKey = (await client.apiKeys.generate(first.approvalId)).apiKey;
    otherKey = (await client.apiKeys.generate(second.approvalId)).apiKey;
    const deviceId = first.deviceIds[0];
    system = { deviceId, name: 'Demo', timeZone: TZ, status: 'active', bookingHorizonDays: 28, scheduleBasis: 'utc', bookingQuota: 2 , street: null, city: null, area: null };
    deps = { db: ctx().handle.db, source: () => Promise.resolve(serviceMirrorSource(client, apiKey)), freshnessMs: 60_000 };
    resources = await client.resources.list(apiKey, deviceId).toArray({ limit: 1000 });
    groups = await client.userGroups.list(apiKey, deviceId, { pageSize: 100 }).toArray({ limit: 100_000 });
    upstream = await client.reservations.list(apiKey, deviceId, { pageSize: 100 }).toArray({ limit: 100_000 });
  }, 120_000);

  afterAll(async () => {
    await sandbox.stop();
  });

  it('says "loading" for a system never loaded, then shows every resource with occupancy, now-status and the heatmap', async () => {
    const loading = await loadSystemOverview(deps, system);
    expect(loading.freshness.status).toBe('loading');
    expect(loading.resources).toEqual([]);
    expect(loading.heatmap).toBeNull();
    await waitForRefresh(system.deviceId);

    const now = Date.now();
    const overview = await loadSystemOverview(deps, system);
    expect(overview.freshness).toMatchObject({ status: 'ready', lastError: null });
    expect(overview.weekKey).toBe(weekKeyOf(now, TZ));
    expect(overview.resources.map((r) => r.id).sort()).toEqual(resources.map((r) => r.id).sort());
    const week = weekOf(now, TZ);
    for (const r of overview.resources) {
      const mine = upstream.filter((x) => x.resourceId === r.id);
      // Every slot of the week is counted once, in exactly one state.
      const s = r.occupancy!;
      expect(s.free + s.booked + s.used + s.past + s.maintenance).toBe(s.total);
      const reservedThisWeek = mine.filter(
        (x) => x.ownerType !== 'Service' && Date.parse(x.startTime) >= week.startMs && Date.parse(x.startTime) < week.endMs,
      ).length;
      expect(s.reserved).toBe(reservedThisWeek - countShadowed(mine, week));
      // What is happening now agrees with the upstream's own list.
      const running = mine.find((x) => Date.parse(x.startTime) <= now && now < Date.parse(x.endTime));
      expect(r.now?.kind).toBe(running ? (running.ownerType === 'Service' ? 'maintenance' : 'in-use') : 'free');
      if (running) expect(r.now?.until?.clock).toMatch(/^\d\d:\d\d$/);
      expect(r.now?.ownerLabel).toBeNull();
    }
    const heatmap = overview.heatmap!;
    expect(heatmap.weeks).toBe(8);
    expect(heatmap.minutes.length).toBeGreaterThan(3);
    // The demo preset books 40–80 % of past slots.
    expect(heatmap.overallRate).toBeGreaterThan(0.3);
    expect(heatmap.overallRate).toBeLessThan(0.9);
  });

  it('lays out a resource week with holders as apartments, never e-mail addresses', async () => {
    const resource = resources[0]!;
    const view = await loadResourceWeek(deps, system, resource.id);
    const current = weekKeyOf(Date.now(), TZ);
    expect(view.week.key).toBe(current);
    expect(view.nav).toEqual({ previous: shiftWeekKey(current, -1), next: shiftWeekKey(current, 1), current });
    expect(view.resource).toEqual({ id: resource.id, name: resource.name, description: resource.description });
    const schedule = (await client.timeSchedules.list(apiKey, system.deviceId).toArray({ limit: 100 })).find(
      (s) => s.id === resource.timeScheduleId,
    )!;
    expect(view.slots.map((s) => s.id)).toEqual(expandWeek(schedule.schedule, current, TZ).map((s) => s.id));

    // Look back over past weeks for bookings of each owner type.
    const apartmentOf = new Map(groups.map((g) => [g.id, g.apartmentId]));
    let checkedGroup = 0;
    let checkedUser = 0;
    for (let back = 0; back < 6 && (checkedGroup === 0 || checkedUser === 0); back++) {
      const week = await loadResourceWeek(deps, system, resource.id, shiftWeekKey(current, -back));
      for (const slot of week.slots) {
        expect(slot.ownerLabel ?? '').not.toContain('@');
        const r = slot.reservation;
        if (!r || slot.reservations.length > 1) continue;
        if (r.ownerType === 'Group') {
          expect(slot.ownerLabel).toEqual({ kind: 'apartment', apartment: apartmentOf.get(r.ownerId!) });
          checkedGroup++;
        } else if (r.ownerType === 'User') {
          expect(['apartment', 'someResident']).toContain(slot.ownerLabel?.kind);
          checkedUser++;
        }
      }
    }
    expect(checkedGroup).toBeGreaterThan(0);
  });

  it('answers a warm week read in one statement (state row, requests, closures), without building the upstream source', async () => {
    const resource = resources[0]!;
    let sources = 0;
    const counting = await countingDb(ctx().handle);
    const warm: ViewDeps = {
      ...deps,
      db: counting.db,
      source: (deviceId) => ((sources += 1), deps.source(deviceId)),
    };
    const first = await loadResourceWeek(warm, system, resource.id);
    const before = counting.queries();
    const again = await loadResourceWeek(warm, system, resource.id);
    const queries = counting.queries() - before;
    expect(again.slots).toEqual(first.slots);
    expect(again.resource).toEqual({ id: resource.id, name: resource.name, description: resource.description });
    // Within the freshness window the source (API key, service client) is not needed.
    expect(sources).toBe(0);
    // One statement: the state row, the room's week of requests and the system's room closures
    // together (lib/db/read-together.ts); resources, schedules and groups come from the
    // generation's snapshot, the week's reservations from memory while no outcome changed them.
    expect(queries).toBe(1);
  });

  it('shows an outcome applied to the mirror on the next warm read, and its cancellation', async () => {
    const resource = resources[0]!;
    const weekKey = shiftWeekKey(weekKeyOf(Date.now(), TZ), 1);
    const before = await loadResourceWeek(deps, system, resource.id, weekKey);
    const free = before.slots.find((s) => s.state === 'free' && s.bookable);
    if (!free) throw new Error('the demo preset leaves free slots next week');
    const group = groups.find((g) => g.apartmentId)!;
    const reservation = {
      id: '0b1c2d3e-0000-4000-8000-00000000a001',
      userId: null,
      ownerId: group.id,
      ownerType: 'Group' as const,
      status: 'Unused' as const,
      resourceId: resource.id,
      startTime: free.startTime.replace('Z', ':00.000Z'),
      endTime: free.endTime.replace('Z', ':00.000Z'),
      deviceId: system.deviceId,
    };
    const { db } = ctx().handle;
    await db.transaction((tx) => applyReservationChange(tx, { type: 'created', reservation }));
    const booked = (await loadResourceWeek(deps, system, resource.id, weekKey)).slots.find((s) => s.id === free.id);
    expect(booked).toMatchObject({ state: 'booked', ownerLabel: { kind: 'apartment', apartment: group.apartmentId }, bookable: false });

    await db.transaction((tx) => applyReservationChange(tx, { type: 'cancelled', deviceId: system.deviceId, reservationId: reservation.id }));
    const again = (await loadResourceWeek(deps, system, resource.id, weekKey)).slots.find((s) => s.id === free.id);
    expect(again).toMatchObject({ state: 'free', bookable: true });
  });

  it('marks slots beyond the booking horizon as not bookable', async () => {
    const far = shiftWeekKey(weekKeyOf(Date.now(), TZ), 6);
    const view = await loadResourceWeek(deps, system, resources[0]!.id, far);
    expect(view.slots.length).toBeGreaterThan(0);
    expect(view.slots.every((s) => s.beyondHorizon && !s.bookable)).toBe(true);
    expect(view.horizonEnd).toBeLessThan(view.week.startMs);
  });

  it('answers 404 for a resource the system does not have', async () => {
    await expect(loadResourceWeek(deps, system, '00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('keeps serving the last copy, with a notice, when the service cannot be reached; fails plainly when there is none', async () => {
    const broken: ViewDeps = { ...deps, freshnessMs: 0, source: () => Promise.reject(new ApiError('service_unavailable', msg('errors.serviceUnreachable'))) };
    const view = await loadSystemOverview(broken, system);
    expect(view.freshness).toMatchObject({ status: 'ready', lastError: UNREACHABLE_MESSAGE });
    expect(view.resources.length).toBe(resources.length);
    const never: SystemPublic = { ...system, deviceId: '11111111-1111-4111-8111-111111111111' };
    await expect(loadSystemOverview(broken, never)).rejects.toMatchObject({ reason: 'serviceUnreachable' });
  });

  it('finds residents by apartment, by an e-mail address with "+", and by reference id, each key asked once (the upstream lookups)', async () => {
    const visibleIds = fixtures.approvals[0]!.deviceIds;
    const systems: SystemPublic[] = visibleIds.map((deviceId, i) => ({ deviceId, name: `System ${i}`, timeZone: TZ, status: 'active', bookingHorizonDays: 28, scheduleBasis: 'utc', bookingQuota: 2 , street: null, city: null, area: null }));
    const calls: string[] = [];
    const counting: ResidentSearchDeps['client'] = {
      users: {
        ...client.users,
        byEmail: (key, value, o) => (calls.push(`email:${key === apiKey ? 'a' : 'b'}`), client.users.byEmail(key, value, o)),
        byApartment: (key, value, o) => (calls.push(`apartment:${key === apiKey ? 'a' : 'b'}`), client.users.byApartment(key, value, o)),
        byReference: (key, value, o) => (calls.push(`reference:${key === apiKey ? 'a' : 'b'}`), client.users.byReference(key, value, o)),
      },
    };
    const search: ResidentSearchDeps = { db: ctx().handle.db, client: counting, systems, apiKeyOf: (id) => Promise.resolve(visibleIds.includes(id) ? apiKey : otherKey) };
    const residents = fixtures.residents.filter((r) => visibleIds.includes(r.deviceId));
    const plus = residents.find((r) => r.email.includes('+'));
    const sample = residents[0]!;
    if (!plus) throw new Error('the demo fixtures should hold an e-mail with +');

    const byEmail = flat(await lookUpResidents(search, plus.email));
    // Two systems share one key: one call.
    expect(calls).toEqual(['email:a']);
    expect(byEmail).toHaveLength(1);
    expect(byEmail[0]).toMatchObject({ userId: plus.userId, email: plus.email, apartmentId: plus.apartmentId, deviceId: plus.deviceId, groupId: plus.userGroupId });

    calls.length = 0;
    const byApartment = flat(await lookUpResidents(search, sample.apartmentId));
    expect(calls.sort()).toEqual(['apartment:a', 'reference:a']);
    expect(byApartment.map((r) => r.userId)).toContain(sample.userId);
    // The same apartment number may exist in both systems; each result names its own.
    expect(byApartment.map((r) => r.apartmentId)).toEqual(byApartment.map(() => sample.apartmentId));

    const byReference = flat(await lookUpResidents(search, sample.referenceId));
    expect(byReference.map((r) => r.userId).sort()).toEqual(
      byApartment.filter((r) => r.deviceId === sample.deviceId).map((r) => r.userId).sort(),
    );

    // A system outside the viewer's list never shows up, even when the key would reveal it.
    const hidden = { ...search, systems: systems.filter((s) => s.deviceId !== sample.deviceId) };
    expect(await lookUpResidents(hidden, sample.referenceId)).toEqual([]);
    expect(await lookUpResidents(search, 'nobody-here@example.com')).toEqual([]);
  });

  it('names apartments of found residents from the generation snapshot: one state read per system', async () => {
    const sample = fixtures.residents.find((r) => r.deviceId === system.deviceId)!;
    const { db, queries: sent } = await countingDb(ctx().handle);
    const counting: ResidentSearchDeps = {
      db,
      client,
      systems: [system],
      apiKeyOf: () => Promise.resolve(apiKey),
    };
    const first = await lookUpResidents(counting, sample.apartmentId);
    const before = sent();
    const found = await lookUpResidents(counting, sample.apartmentId);
    const queries = sent() - before;
    expect(found).toEqual(first);
    const mine = flat(found).find((r) => r.userId === sample.userId);
    expect(mine).toMatchObject({ apartmentId: sample.apartmentId, referenceId: sample.referenceId, groupId: sample.userGroupId });
    expect(queries).toBe(1);
  });

  it('reads the mirror of a few visible systems while the lookups are in flight', async () => {
    const sample = fixtures.residents.find((r) => r.deviceId === system.deviceId)!;
    const order: string[] = [];
    const slowUsers = {
      ...client.users,
      byApartment: async (key: string, value: string) => {
        await new Promise((r) => setTimeout(r, 50));
        order.push('lookup');
        return client.users.byApartment(key, value);
      },
      byReference: async (key: string, value: string) => {
        await new Promise((r) => setTimeout(r, 50));
        order.push('lookup');
        return client.users.byReference(key, value);
      },
    };
    const base: ResidentSearchDeps = {
      db: ctx().handle.db,
      client: { users: slowUsers },
      systems: [system],
      apiKeyOf: () => Promise.resolve(apiKey),
      mirror: async (deviceId) => {
        order.push('mirror');
        const state = await readState(ctx().handle.db, deviceId);
        return state ? mirrorSnapshot(ctx().handle.db, deviceId, state) : null;
      },
    };
    const found = flat(await lookUpResidents(base, sample.apartmentId));
    expect(found.find((r) => r.userId === sample.userId)?.apartmentId).toBe(sample.apartmentId);
    // Started before either lookup answered, and once.
    expect(order).toEqual(['mirror', 'lookup', 'lookup']);
    // With more systems than the prefetch limit, only systems with results are read, after the lookups.
    order.length = 0;
    const many = Array.from({ length: RESIDENT_MIRROR_PREFETCH_MAX }, (_, i) => ({ ...system, deviceId: `00000000-0000-4000-8000-00000000000${i}` }));
    await lookUpResidents({ ...base, systems: [system, ...many] }, sample.apartmentId);
    expect(order).toEqual(['lookup', 'lookup', 'mirror']);
  });

  it('decides the lookups by the shape of the query', () => {
    expect(lookupKindsFor('a+b@example.com')).toEqual(['email']);
    expect(lookupKindsFor('LGH 1203')).toEqual(['apartment', 'reference']);
  });
});

/** Reservations hidden behind another in the same slot (overlaps upstream) are not counted twice. */
function countShadowed(list: Reservation[], week: { startMs: number; endMs: number }): number {
  const seen = new Map<string, number>();
  for (const x of list) {
    const start = Date.parse(x.startTime);
    if (x.ownerType === 'Service' || start < week.startMs || start >= week.endMs) continue;
    seen.set(x.startTime, (seen.get(x.startTime) ?? 0) + 1);
  }
  let extra = 0;
  for (const n of seen.values()) extra += n - 1;
  return extra;
}

/** Each resident of the hits, with their apartment's fields. */
function flat(hits: readonly ScoredHit[]) {
  return hits.flatMap(({ hit }) => hit.residents.map((r) => ({ ...r, deviceId: hit.deviceId, groupId: hit.groupId, apartmentId: hit.apartmentId, referenceId: hit.referenceId })));
}
