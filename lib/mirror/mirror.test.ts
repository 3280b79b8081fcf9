import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Sandbox, type SandboxFixtures } from '@/sandbox';
import { startTestSandbox } from '@/tests/sandbox-service';
import { type ServiceClient } from '@/lib/service';
import { describeWithDb } from '@/tests/db';
import { ensureFresh, refreshSystem, waitForRefresh } from './refresh';
import { serviceMirrorSource } from './service-source';
import {
  applyReservationChange,
  readReservations,
  readResources,
  readState,
  readTimeSchedules,
  readUserGroups,
  readUsers,
} from './store';
import { ServiceNotFoundError, ServiceUnavailableError } from '@/lib/service/errors';
import type { MirrorSource } from './types';

/** Page views with a 30 s freshness window and no request budget. */
const VIEW = { freshnessMs: 30_000, budgetPerHour: 0 };

describeWithDb('system mirror', (ctx) => {
  let sandbox: Sandbox;
  let fixtures: SandboxFixtures;
  let client: ServiceClient;
  let apiKey: string;
  let deviceId: string;
  let requests = 0;

  beforeAll(async () => {
    ({ sandbox, fixtures, client } = await startTestSandbox({ sql: ctx().handle.sql, preset: 'demo', seed: 3 }, () => {
      requests += 1;
    }));
    const approval = fixtures.approvals[0];
    if (!approval?.deviceIds[0]) throw new Error('no demo approval');
    deviceId = approval.deviceIds[0];
    apiKey = (await client.apiKeys.generate(approval.approvalId)).apiKey;
  }, 120_000);

  afterAll(async () => {
    await sandbox.stop();
  });

  const source = (): MirrorSource => serviceMirrorSource(client, apiKey);

  it('copies every collection exactly as the upstream lists it', async () => {
    const outcome = await refreshSystem(ctx().handle.db, deviceId, source());
    expect(outcome.status).toBe('refreshed');
    const upstream = await client.reservations.list(apiKey, deviceId, { pageSize: 100 }).toArray({ limit: 100_000 });
    const mirrored = await readReservations(ctx().handle.db, deviceId, { from: new Date(0), to: new Date('2100-01-01') });
    expect(mirrored.length).toBe(upstream.length);
    expect(new Set(mirrored.map((r) => r.id))).toEqual(new Set(upstream.map((r) => r.id)));
    const sample = upstream[Math.floor(upstream.length / 2)];
    // Same instants; the mirror writes them in the long ISO form.
    const instant = (t: string) => new Date(t).toISOString();
    expect(mirrored.find((r) => r.id === sample?.id)).toEqual(
      sample && { ...sample, startTime: instant(sample.startTime), endTime: instant(sample.endTime) },
    );

    const resources = await client.resources.list(apiKey, deviceId).toArray({ limit: 1000 });
    expect((await readResources(ctx().handle.db, deviceId)).map((r) => r.id).sort()).toEqual(resources.map((r) => r.id).sort());
    const schedules = await client.timeSchedules.list(apiKey, deviceId).toArray({ limit: 1000 });
    expect(await readTimeSchedules(ctx().handle.db, deviceId)).toEqual(expect.arrayContaining(schedules));
    const groups = await client.userGroups.list(apiKey, deviceId).toArray({ limit: 10_000 });
    expect((await readUserGroups(ctx().handle.db, deviceId)).length).toBe(groups.length);

    const state = await readState(ctx().handle.db, deviceId);
    expect(state?.refreshing).toBe(false);
    expect(state?.pagesFetched).toBeGreaterThan(2);
  });

  it("copies the system's users, and keeps the last list when users/fetch fails or says nothing", async () => {
    const { db } = ctx().handle;
    await refreshSystem(db, deviceId, source());
    const upstream = await client.users.all(apiKey, deviceId);
    const mirrored = await readUsers(db, deviceId);
    expect(mirrored.map((u) => u.id).sort()).toEqual(upstream.map((u) => u.userId.toLowerCase()).sort());
    const state = await readState(db, deviceId);
    expect(state?.usersStatus).toBe('loaded');
    expect(state?.usersRefreshedAt?.getTime()).toBe(state?.refreshedAt?.getTime());
    const grouped = mirrored.find((u) => u.userGroupId !== null)!;
    expect((await readUsers(db, deviceId, [grouped.userGroupId!])).map((u) => u.id)).toContain(grouped.id);

    // A 500 from users/fetch: the refresh succeeds and carries the previous list over.
    const failing: MirrorSource = { ...source(), users: () => Promise.reject(new ServiceUnavailableError('users went away', { operation: 'GET /v1/reservations/users/fetch/{deviceId}', status: 500, reason: 'status', retryable: true })) };
    expect((await refreshSystem(db, deviceId, failing)).status).toBe('refreshed');
    const kept = await readState(db, deviceId);
    expect(kept?.usersStatus).toBe('kept');
    expect(kept?.usersRefreshedAt?.getTime()).toBe(state?.usersRefreshedAt?.getTime());
    expect((await readUsers(db, deviceId)).length).toBe(mirrored.length);

    // A service without users/fetch (404): no list, and the search falls back to the lookups.
    const missing: MirrorSource = { ...source(), users: () => Promise.reject(new ServiceNotFoundError({ title: 'Not Found', status: 404 }, { operation: 'GET /v1/reservations/users/fetch/{deviceId}', status: 404 })) };
    expect((await refreshSystem(db, deviceId, missing)).status).toBe('refreshed');
    const none = await readState(db, deviceId);
    expect(none?.usersStatus).toBe('unavailable');
    expect(none?.usersRefreshedAt).toBeNull();
    expect(await readUsers(db, deviceId)).toEqual([]);
    await refreshSystem(db, deviceId, source());
    expect((await readUsers(db, deviceId)).length).toBe(mirrored.length);
  });

  it('reads one resource and one time range from the current generation only', async () => {
    const all = await readReservations(ctx().handle.db, deviceId, { from: new Date(0), to: new Date('2100-01-01') });
    const first = all[0];
    if (!first) throw new Error('demo data has no reservations');
    const from = new Date(first.startTime);
    const to = new Date(from.getTime() + 7 * 86_400_000);
    const week = await readReservations(ctx().handle.db, deviceId, { from, to, resourceId: first.resourceId });
    const expected = all.filter(
      (r) => r.resourceId === first.resourceId && new Date(r.startTime) < to && new Date(r.endTime) > from,
    );
    expect(week.map((r) => r.id)).toEqual(expected.map((r) => r.id));
  });

  it('fetches the four collections side by side, and stops them all when one fails', async () => {
    let active = 0;
    let most = 0;
    const fetched: Record<string, number> = {};
    type Paged = Exclude<keyof MirrorSource, 'users'>;
    const slow = (fail?: Paged): MirrorSource => {
      const base = source();
      const wrap = (kind: Paged) =>
        // Yields the base pages unchanged; `never` lets one wrapper stand for every collection's type.
        async function* (id: string): AsyncGenerator<never> {
          const pages = (base[kind](id) as AsyncIterable<readonly unknown[]>)[Symbol.asyncIterator]();
          for (;;) {
            active += 1;
            most = Math.max(most, active);
            await new Promise((r) => setTimeout(r, 20));
            const next = await pages.next();
            active -= 1;
            if (next.done) return;
            fetched[kind] = (fetched[kind] ?? 0) + 1;
            if (kind === fail) throw new Error(`${kind} went away`);
            yield next.value as never;
          }
        };
      return { reservations: wrap('reservations'), resources: wrap('resources'), timeSchedules: wrap('timeSchedules'), userGroups: wrap('userGroups') };
    };
    await refreshSystem(ctx().handle.db, deviceId, slow());
    // One after the other, only one page fetch would ever be in flight.
    expect(most).toBeGreaterThanOrEqual(3);
    const all = fetched.reservations ?? 0;
    expect(all).toBeGreaterThan(3);
    for (const k of Object.keys(fetched)) delete fetched[k];
    await expect(refreshSystem(ctx().handle.db, deviceId, slow('resources'))).rejects.toThrow('resources went away');
    // The failure of the one-page collection ends the reservations' paging early.
    expect(fetched.reservations ?? 0).toBeLessThan(all);
  });

  it('runs one refresh however many callers ask at once', async () => {
    requests = 0;
    const outcomes = await Promise.all(Array.from({ length: 20 }, () => refreshSystem(ctx().handle.db, deviceId, source())));
    const pages = outcomes[0]?.status === 'refreshed' ? outcomes[0].pages : -1;
    expect(outcomes.every((o) => o === outcomes[0])).toBe(true);
    // One pass over the pages (plus at most one token request), not twenty.
    expect(requests).toBeLessThanOrEqual(pages + 1);
  });

  it('lets a second instance wait its turn instead of refreshing in parallel', async () => {
    const { db, sql } = ctx().handle;
    await sql.query('UPDATE mirror_state SET refresh_started_at = now() WHERE device_id = $1', [deviceId]);
    // This process has no refresh in flight, but the lease says another instance has one.
    expect(await refreshSystem(db, deviceId, source())).toEqual({ status: 'busy' });
    await sql.query(`UPDATE mirror_state SET refresh_started_at = now() - interval '1 hour' WHERE device_id = $1`, [deviceId]);
    expect((await refreshSystem(db, deviceId, source())).status).toBe('refreshed');
  });

  it('keeps serving the last complete copy when a refresh fails midway', async () => {
    const { db, sql } = ctx().handle;
    const before = await readReservations(db, deviceId, { from: new Date(0), to: new Date('2100-01-01') });
    const failing: MirrorSource = {
      ...source(),
      async *reservations(id) {
        let n = 0;
        for await (const page of source().reservations(id)) {
          if (++n === 3) throw new Error('upstream went away');
          yield page;
        }
      },
    };
    await expect(refreshSystem(db, deviceId, failing)).rejects.toThrow('upstream went away');
    const after = await readReservations(db, deviceId, { from: new Date(0), to: new Date('2100-01-01') });
    expect(after.map((r) => r.id)).toEqual(before.map((r) => r.id));
    const state = await readState(db, deviceId);
    expect(state?.lastError).toContain('upstream went away');
    expect(state?.refreshing).toBe(false);
    const { rows } = await sql.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM mirror_reservations WHERE device_id = $1 AND generation <> $2',
      [deviceId, state?.generation],
    );
    expect(rows[0]?.n).toBe(0);
  });

  it('serves a stale copy at once and refreshes it in the background', async () => {
    const { db } = ctx().handle;
    const state = await readState(db, deviceId);
    const later = new Date((state?.refreshedAt?.getTime() ?? 0) + 60_000);
    const status = await ensureFresh(db, deviceId, source, VIEW, later);
    expect(status).toMatchObject({ status: 'ready', refreshing: true });
    await waitForRefresh(deviceId);
    const after = await readState(db, deviceId);
    expect(after?.refreshedAt?.getTime()).toBeGreaterThan(state?.refreshedAt?.getTime() ?? 0);
    // Within the freshness window nothing is fetched.
    requests = 0;
    expect(await ensureFresh(db, deviceId, source, VIEW, new Date(after?.refreshedAt?.getTime() ?? 0))).toMatchObject({
      status: 'ready',
      refreshing: false,
    });
    expect(requests).toBe(0);
  });

  it('waits a freshness window after a refresh ends before the next, however long it took', async () => {
    const { db, sql } = ctx().handle;
    await waitForRefresh(deviceId);
    // A refresh that read its data 60 s ago and finished just now (slow upstream, large system).
    await sql.query(
      `UPDATE mirror_state SET refreshed_at = now() - interval '60 seconds', refresh_ended_at = now() WHERE device_id = $1`,
      [deviceId],
    );
    const state = await readState(db, deviceId);
    const ended = state?.refreshEndedAt?.getTime() ?? 0;
    requests = 0;
    expect(await ensureFresh(db, deviceId, source, VIEW, new Date(ended + 10_000))).toMatchObject({ status: 'ready', refreshing: false });
    expect(requests).toBe(0);
    expect(await ensureFresh(db, deviceId, source, VIEW, new Date(ended + 31_000))).toMatchObject({ status: 'ready', refreshing: true });
    await waitForRefresh(deviceId);
    expect(requests).toBeGreaterThan(0);
    const after = await readState(db, deviceId);
    expect(after?.refreshEndedAt?.getTime()).toBeGreaterThanOrEqual(after?.refreshedAt?.getTime() ?? Infinity);
  });

  it('reports loading with progress for a system never loaded', async () => {
    const other = fixtures.approvals[0]?.deviceIds[1];
    if (!other) return;
    const status = await ensureFresh(ctx().handle.db, other, source, VIEW);
    expect(status.status).toBe('loading');
    await waitForRefresh(other);
    expect((await ensureFresh(ctx().handle.db, other, source, VIEW)).status).toBe('ready');
  });

  it('applies a confirmed booking and a cancellation at once', async () => {
    const { db } = ctx().handle;
    const [resource] = await readResources(db, deviceId);
    if (!resource) throw new Error('no resource');
    const reservation = {
      id: '0b1c2d3e-0000-4000-8000-000000000001',
      userId: null,
      ownerId: null,
      ownerType: 'Service' as const,
      status: 'Unused' as const,
      resourceId: resource.id,
      startTime: '2099-01-05T06:00:00.000Z',
      endTime: '2099-01-05T09:00:00.000Z',
      deviceId,
    };
    await db.transaction((tx) => applyReservationChange(tx, { type: 'created', reservation }));
    const range = { from: new Date('2099-01-05T00:00:00Z'), to: new Date('2099-01-06T00:00:00Z') };
    expect((await readReservations(db, deviceId, range)).map((r) => r.id)).toEqual([reservation.id]);
    await db.transaction((tx) => applyReservationChange(tx, { type: 'cancelled', deviceId, reservationId: reservation.id }));
    expect(await readReservations(db, deviceId, range)).toEqual([]);
  });
});
