import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connections, mirrorReleasedNoShows, reservationRequests, systems, users } from '@/lib/db/schema';
import { serviceMirrorSource } from '@/lib/mirror/service-source';
import { readResources, readUsers } from '@/lib/mirror/store';
import { loadSystemReport, systemPeriod } from '@/lib/reports/load';
import type { SystemPublic } from '@/lib/systems/schemas';
import type { ViewDeps } from '@/lib/views/freshness';
import { startConnectedSandbox, type ConnectedSandbox } from '@/tests/connected-sandbox';
import { countingDb, describeWithDb } from '@/tests/db';
import { anonymiseReleasedNoShows, anonymiseRequests, ENGLISH_PLACEHOLDERS } from './anonymise';

const DAY = 86_400_000;

// Issue 37: reports and statistics keep working on anonymised rows. A system's report over a period
// with portal bookings (by a manager who still has an account, and by one who is gone) and no-shows
// the service no longer lists, held by a user: the same figures before and after anonymising all of it.
describeWithDb('a report over anonymised rows', (ctx) => {
  let connected: ConnectedSandbox;
  let system: SystemPublic;

  beforeAll(async () => {
    connected = await startConnectedSandbox(ctx().handle.db, { sql: ctx().handle.sql, preset: 'demo', seed: 11 });
    system = { deviceId: connected.deviceId, name: 'Demo', timeZone: 'Europe/Stockholm', status: 'active', bookingHorizonDays: 28, scheduleBasis: 'utc', bookingQuota: 2 , street: null, city: null, area: null };
    const { db } = ctx().handle;
    const [connection] = await db.insert(connections).values({ approvalFingerprint: randomUUID(), apiKeyCiphertext: 'x' }).returning({ id: connections.id });
    await db.insert(systems).values({ deviceId: system.deviceId, connectionId: connection!.id, name: system.name }).onConflictDoNothing();
  }, 120_000);
  afterAll(() => connected.stop());

  it('gives the same figures (totals, apartments, no-shows, bookings per manager) before and after', async () => {
    const { db } = ctx().handle;
    const nowMs = Date.UTC(2026, 10, 20, 12);
    const period = systemPeriod(system, { period: 'last-3-months' }, nowMs);
    const [room] = await readResources(db, connected.deviceId);
    const residents = (await readUsers(db, connected.deviceId)).filter((u) => u.userGroupId);
    expect(residents.length).toBeGreaterThan(2);
    const [manager] = await db.insert(users).values({ email: `m-${randomUUID()}@example.com`, name: 'Maja Manager', role: 'manager' }).returning({ id: users.id });
    for (const [i, resident] of residents.slice(0, 3).entries()) {
      const start = new Date(nowMs - (10 + i) * DAY);
      // A no-show the service dropped, held by the user (not their apartment's group).
      await db.insert(mirrorReleasedNoShows).values({ deviceId: connected.deviceId, id: randomUUID(), resourceId: room!.id, userId: resident.id, ownerId: resident.id, ownerType: 'User', startTime: start, endTime: new Date(start.getTime() + 3 * 3_600_000), releasedAt: start });
      for (const requestedBy of [manager!.id, randomUUID()]) {
        await db.insert(reservationRequests).values({
          kind: 'create', deviceId: connected.deviceId, resourceId: room!.id, residentUserId: resident.id, reservationId: randomUUID(), startTime: start, endTime: new Date(start.getTime() + 3_600_000),
          requestedBy, requestedByName: requestedBy === manager!.id ? 'Maja Manager' : 'Gone Manager', status: 'succeeded', residentName: resident.name, residentApartment: '1001', residentGroupId: resident.userGroupId, note: 'a note',
        });
      }
    }
    // A fresh handle each time: the report is cached per handle, and must be computed again.
    const deps = async (): Promise<ViewDeps> => ({ db: (await countingDb(ctx().handle)).db, source: () => Promise.resolve(serviceMirrorSource(connected.client, connected.apiKey)), freshnessMs: 315_360_000_000, now: () => new Date(nowMs) });
    const before = (await loadSystemReport(await deps(), system, period)).report;
    expect(before.total.counts.noShows).toBeGreaterThanOrEqual(3);

    const options = { limit: 1000, placeholders: ENGLISH_PLACEHOLDERS, now: new Date(nowMs) };
    expect(await anonymiseRequests(db, eq(reservationRequests.deviceId, connected.deviceId), options)).toBe(6);
    expect(await anonymiseReleasedNoShows(db, eq(mirrorReleasedNoShows.deviceId, connected.deviceId), options)).toBe(3);
    const after = (await loadSystemReport(await deps(), system, period)).report;

    expect(after.total).toEqual(before.total);
    expect(after.rooms).toEqual(before.rooms);
    expect(after.apartments).toEqual(before.apartments);
    expect(after.topNoShows).toEqual(before.topNoShows);
    expect(after.unplacedBookings).toBe(before.unplacedBookings);
    // The manager with an account keeps their line; the gone one's bookings are still counted, unnamed.
    const of = (r: typeof before, id: string) => r.managers.find((m) => m.requestedBy === id);
    expect(of(after, manager!.id)).toEqual(of(before, manager!.id));
    expect(after.managers.reduce((n, m) => n + m.bookings, 0)).toBe(before.managers.reduce((n, m) => n + m.bookings, 0));
    expect(after.managers.map((m) => m.name)).not.toContain('Gone Manager');
  }, 120_000);
});
