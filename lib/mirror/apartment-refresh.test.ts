import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { Sandbox, SandboxFixtures } from '@/sandbox';
import type { ServiceClient } from '@/lib/service';
import { ServiceNotFoundError } from '@/lib/service/errors';
import { describeWithDb } from '@/tests/db';
import { startTestSandbox } from '@/tests/sandbox-service';
import { refreshApartmentBookings, resetApartmentRefreshes, type ApartmentRefreshDeps } from './apartment-refresh';
import { refreshSystem } from './refresh';
import { serviceMirrorSource } from './service-source';
import { readReservations, readState, readUsers } from './store';

const ALL = { from: new Date(0), to: new Date('2100-01-01') };

// An apartment's page reads its users' bookings from the service (users/{id}/reservations): a
// booking made at the door panel shows on it at once. Real sandbox, real client, PGlite.
describeWithDb('refreshing an apartment\u2019s bookings when its page opens', (ctx) => {
  let sandbox: Sandbox;
  let fixtures: SandboxFixtures;
  let client: ServiceClient;
  let apiKey: string;
  let deviceId: string;
  let lookups = 0;

  beforeAll(async () => {
    ({ sandbox, fixtures, client } = await startTestSandbox({ sql: ctx().handle.sql, preset: 'demo', seed: 11 }, (request) => {
      if (/\/v1\/reservations\/users\/[^/]+\/reservations$/.test(new URL(request.url).pathname)) lookups += 1;
    }));
    const approval = fixtures.approvals[0]!;
    deviceId = approval.deviceIds[0]!;
    apiKey = (await client.apiKeys.generate(approval.approvalId)).apiKey;
    await refreshSystem(ctx().handle.db, deviceId, serviceMirrorSource(client, apiKey));
  }, 120_000);
  afterAll(async () => {
    await sandbox.stop();
  });
  beforeEach(() => resetApartmentRefreshes());

  const deps = (over: Partial<ApartmentRefreshDeps> = {}): ApartmentRefreshDeps => ({ db: ctx().handle.db, client, apiKey, freshnessMs: 30_000, budgetPerHour: 2400, ...over });

  async function apartment() {
    const resident = fixtures.residents.find((r) => r.deviceId === deviceId && r.resourceIds.length > 0)!;
    const users = await readUsers(ctx().handle.db, deviceId, [resident.userGroupId]);
    return { resident, groupId: resident.userGroupId, userIds: users.map((u) => u.id) };
  }

  it('shows a panel booking of the apartment at once, charged to the budget, once per window', async () => {
    const { db, sql } = ctx().handle;
    const { resident, groupId, userIds } = await apartment();
    const id = randomUUID();
    await sql.query(
      `INSERT INTO sandbox.reservations (id, device_id, resource_id, user_id, owner_id, owner_type, status, start_time, end_time) VALUES ($1, $2, $3, $4, $5, 'Group', 'Unused', '2099-02-02T06:00Z', '2099-02-02T09:00Z')`,
      [id, deviceId, resident.resourceIds[0], resident.userId, groupId],
    );
    const before = (await readState(db, deviceId))!;
    lookups = 0;
    const now = new Date();
    const outcome = await refreshApartmentBookings(deps({ now: () => now }), deviceId, groupId, userIds);
    expect(outcome).toMatchObject({ status: 'refreshed', requests: userIds.length });
    expect(lookups).toBe(userIds.length);
    expect((await readReservations(db, deviceId, ALL)).some((r) => r.id === id)).toBe(true);
    const after = (await readState(db, deviceId))!;
    expect(after.reservationsVersion).toBeGreaterThan(before.reservationsVersion);
    expect(after.budgetTokens).toBeLessThan(before.budgetTokens ?? 600);
    // Within the window: nothing more is asked; a window later it is again, and a deletion shows.
    expect(await refreshApartmentBookings(deps({ now: () => new Date(now.getTime() + 10_000) }), deviceId, groupId, userIds)).toEqual({ status: 'fresh' });
    expect(lookups).toBe(userIds.length);
    await sql.query('DELETE FROM sandbox.reservations WHERE id = $1', [id]);
    expect(await refreshApartmentBookings(deps({ now: () => new Date(now.getTime() + 31_000) }), deviceId, groupId, userIds)).toMatchObject({ status: 'refreshed' });
    expect((await readReservations(db, deviceId, ALL)).some((r) => r.id === id)).toBe(false);
  });

  it('runs once for two views at the same time, and not at all when the bucket is short', async () => {
    const { groupId, userIds } = await apartment();
    lookups = 0;
    const [a, b] = await Promise.all([refreshApartmentBookings(deps(), deviceId, groupId, userIds), refreshApartmentBookings(deps(), deviceId, groupId, userIds)]);
    expect(a).toEqual(b);
    expect(lookups).toBe(userIds.length);
    resetApartmentRefreshes();
    await ctx().handle.sql.query('UPDATE mirror_state SET budget_tokens = 0, budget_at = now() WHERE device_id = $1', [deviceId]);
    lookups = 0;
    expect(await refreshApartmentBookings(deps(), deviceId, groupId, userIds)).toEqual({ status: 'budget' });
    expect(lookups).toBe(0);
  });

  it('stops asking a service without users/{id}/reservations (interface only) for an hour, spending nothing on it', async () => {
    const { groupId, userIds } = await apartment();
    let asked = 0;
    const lacking = {
      reservations: {
        ...client.reservations,
        forUser: () => {
          asked += 1;
          return Promise.reject(new ServiceNotFoundError({ title: 'Not Found' }));
        },
      },
    } as unknown as ServiceClient;
    await ctx().handle.sql.query('UPDATE mirror_state SET budget_tokens = 600, budget_at = now() WHERE device_id = $1', [deviceId]);
    const now = new Date();
    const tokens = async () => (await readState(ctx().handle.db, deviceId))!.budgetTokens;
    expect(await refreshApartmentBookings(deps({ client: lacking, now: () => now }), deviceId, groupId, userIds)).toEqual({ status: 'unsupported' });
    expect(asked).toBe(1);
    const after = await tokens();
    // Another apartment of the system, later within the hour: not asked, nothing charged.
    expect(await refreshApartmentBookings(deps({ client: lacking, now: () => new Date(now.getTime() + 600_000) }), deviceId, randomUUID(), userIds)).toEqual({ status: 'unsupported' });
    expect(asked).toBe(1);
    expect(await tokens()).toBe(after);
    // An hour on, asked again (the service may have gained it).
    await refreshApartmentBookings(deps({ client: lacking, now: () => new Date(now.getTime() + 3_700_000) }), deviceId, randomUUID(), userIds);
    expect(asked).toBe(2);
  });
});
