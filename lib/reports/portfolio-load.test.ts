import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Sandbox } from '@/sandbox';
import type { ServiceClient } from '@/lib/service';
import { connections, systems as systemsTable } from '@/lib/db/schema';
import { refreshSystem } from '@/lib/mirror/refresh';
import { serviceMirrorSource } from '@/lib/mirror/service-source';
import { readResources } from '@/lib/mirror/store';
import { addManagerSystems, createUser } from '@/lib/auth/users';
import { portfolioExportResponse } from '@/lib/exports/portfolio-export';
import { writeBookingRules } from '@/lib/systems/booking-rules';
import type { SystemPublic } from '@/lib/systems/schemas';
import type { ViewDeps } from '@/lib/views/freshness';
import { describeWithDb } from '@/tests/db';
import { startTestSandbox } from '@/tests/sandbox-service';
import { loadSystemReport, systemPeriod } from './load';
import { loadPortfolio, type PortfolioOverview } from './portfolio-load';
import type { LoadedSystem } from './portfolio';

const TZ = 'Europe/Stockholm';
const MIN = 60_000;

// Several systems of the demo sandbox, mirrored as the portal mirrors them: the portfolio's
// aggregate statements must give each system exactly its own report's figures.
describeWithDb('the portfolio over several systems', (ctx) => {
  let sandbox: Sandbox;
  let client: ServiceClient;
  let apiKey: string;
  let list: SystemPublic[];
  let neverLoaded: string;
  const now = Date.now();

  const system = (deviceId: string, name: string): SystemPublic => ({
    deviceId,
    name,
    timeZone: TZ,
    status: 'active',
    bookingHorizonDays: 28,
    scheduleBasis: 'utc',
    bookingQuota: 2,
    street: null,
    city: 'Uppsala',
    area: 'Norr',
  });

  beforeAll(async () => {
    let fixtures;
    ({ sandbox, fixtures, client } = await startTestSandbox({ sql: ctx().handle.sql, preset: 'demo', seed: 13 }));
    const approval = fixtures.approvals[0]!;
    const [a, b] = approval.deviceIds as [string, string];
    neverLoaded = fixtures.approvals[1]!.deviceIds[0]!;
    apiKey = (await client.apiKeys.generate(approval.approvalId)).apiKey;
    const { db, sql } = ctx().handle;
    for (const id of [a, b]) await refreshSystem(db, id, serviceMirrorSource(client, apiKey));
    list = [system(a, 'Brf Alfa'), system(b, 'Brf Beta'), system(neverLoaded, 'Brf Gamma')];
    const [connection] = await db.insert(connections).values({ approvalFingerprint: randomUUID(), apiKeyCiphertext: 'x' }).returning({ id: connections.id });
    for (const s of list) await db.insert(systemsTable).values({ deviceId: s.deviceId, connectionId: connection!.id, name: s.name }).onConflictDoNothing();

    // Released no-shows both ways (decision 025): one the upstream no longer lists, remembered by
    // the mirror, and one started 40 minutes ago in a room whose group releases after 30 minutes.
    const [room] = await readResources(db, a);
    await writeBookingRules(db, a, { groups: [{ resourceIds: [room!.id.toLowerCase()], maxFuture: null, perWindow: null, daysAhead: null, maxConsecutive: null, activationMinutes: 30 }] });
    const start = new Date(Math.floor((now - 40 * MIN) / MIN) * MIN);
    const end = new Date(start.getTime() + 90 * MIN);
    const generation = (await sql.query<{ generation: string }>(`SELECT generation FROM mirror_state WHERE device_id = $1`, [a])).rows[0]!.generation;
    // Alone over its time, so that the booked time of the room stays a plain sum.
    await sql.query(`DELETE FROM mirror_reservations WHERE device_id = $1 AND resource_id = $2 AND start_time < $4 AND end_time > $3`, [a, room!.id, start.toISOString(), end.toISOString()]);
    await sql.query(
      `INSERT INTO mirror_reservations (device_id, generation, id, resource_id, user_id, owner_id, owner_type, status, start_time, end_time)
       VALUES ($1, $2, $3, $4, NULL, $5, 'Group', 'Unused', $6, $7)`,
      [a, generation, randomUUID(), room!.id, randomUUID(), start.toISOString(), end.toISOString()],
    );
    const goneStart = new Date(Math.floor((now - 20 * 86_400_000) / MIN) * MIN);
    const goneEnd = new Date(goneStart.getTime() + 30 * MIN);
    await sql.query(`DELETE FROM mirror_reservations WHERE device_id = $1 AND resource_id = $2 AND start_time < $4 AND end_time > $3`, [a, room!.id, goneStart.toISOString(), goneEnd.toISOString()]);
    await sql.query(
      `INSERT INTO mirror_released_no_shows (device_id, id, resource_id, user_id, owner_id, owner_type, start_time, end_time, released_at)
       VALUES ($1, $2, $3, NULL, $4, 'Group', $5, $6, $5)`,
      [a, randomUUID(), room!.id, randomUUID(), goneStart.toISOString(), goneEnd.toISOString()],
    );
  }, 120_000);
  afterAll(() => sandbox.stop());

  const deps = (at = now): ViewDeps => ({ db: ctx().handle.db, source: () => Promise.resolve(serviceMirrorSource(client, apiKey)), freshnessMs: 600_000, now: () => new Date(at) });
  const loadedOf = (overview: PortfolioOverview) => overview.systems.filter((s): s is LoadedSystem => s.status === 'loaded');

  it('gives each system its own report’s figures, for the period, per room and for each month of the trend', async () => {
    for (const period of ['last-3-months', 'month-to-date', 'last-month'] as const) {
      const overview = await loadPortfolio(deps(), list, { period, months: '6' });
      const loaded = loadedOf(overview);
      expect(loaded.map((s) => s.system.name)).toEqual(['Brf Alfa', 'Brf Beta']);
      for (const s of loaded) {
        const own = list.find((x) => x.deviceId === s.system.deviceId)!;
        const { report } = await loadSystemReport(deps(), own, systemPeriod(own, { period }, now));
        const { evening, weekend, ...figures } = s.figures.total;
        void evening;
        void weekend;
        expect(figures).toEqual(report.total);
        expect(s.figures.rooms.map((r) => [r.resourceId, r.slotMinutes, r.bookedMinutes, r.maintenanceMinutes, r.counts])).toEqual(
          report.rooms.map((r) => [r.resourceId, r.slotMinutes, r.bookedMinutes, r.maintenanceMinutes, r.counts]),
        );
        expect(s.figures.total.counts.bookings).toBeGreaterThan(0);
      }
    }
    const overview = await loadPortfolio(deps(), list, { period: 'last-3-months' });
    expect(overview.monthKeys).toHaveLength(6);
    for (const s of loadedOf(overview)) {
      const own = list.find((x) => x.deviceId === s.system.deviceId)!;
      // The last month is the month so far; each earlier one a whole calendar month.
      const monthToDate = (await loadSystemReport(deps(), own, systemPeriod(own, { period: 'month-to-date' }, now))).report.total;
      const last = s.months.at(-1)!;
      expect([last.slotMinutes, last.bookedMinutes, last.bookings, last.pastBookings, last.noShows]).toEqual([
        monthToDate.slotMinutes,
        monthToDate.bookedMinutes,
        monthToDate.counts.bookings,
        monthToDate.counts.pastBookings,
        monthToDate.counts.noShows,
      ]);
      const previous = (await loadSystemReport(deps(), own, systemPeriod(own, { period: 'last-month' }, now))).report.total;
      const before = s.months.at(-2)!;
      expect([before.slotMinutes, before.bookedMinutes, before.bookings, before.noShows]).toEqual([previous.slotMinutes, previous.bookedMinutes, previous.counts.bookings, previous.counts.noShows]);
    }
  });

  it('counts both kinds of released no-shows, as the report does', async () => {
    const overview = await loadPortfolio(deps(), list, { period: 'last-3-months' });
    const alfa = loadedOf(overview).find((s) => s.system.name === 'Brf Alfa')!;
    const later = await loadPortfolio(deps(now), list.slice(0, 1), { period: 'last-3-months' });
    expect(loadedOf(later)[0]!.figures.total.counts).toEqual(alfa.figures.total.counts);
    // Without the group's window the started booking is upcoming, not a no-show: one fewer.
    await writeBookingRules(ctx().handle.db, list[0]!.deviceId, null);
    const without = loadedOf(await loadPortfolio(deps(), list.slice(0, 1), { period: 'last-3-months' }))[0]!.figures.total.counts;
    expect(without.noShows).toBe(alfa.figures.total.counts.noShows - 1);
    expect(without.upcoming).toBe(alfa.figures.total.counts.upcoming + 1);
  });

  it('lists a system never loaded as not loaded yet, without reading it from the service', async () => {
    const overview = await loadPortfolio(deps(), list, { period: 'last-month' });
    expect(overview.systems.find((s) => s.system.deviceId === neverLoaded)).toMatchObject({ status: 'notLoaded' });
    expect(overview.summary).toMatchObject({ loaded: 2, notLoaded: 1 });
    const mirrored = await ctx().handle.sql.query(`SELECT 1 FROM mirror_state WHERE device_id = $1 AND refreshed_at IS NOT NULL`, [neverLoaded]);
    expect(mirrored.rows).toHaveLength(0);
  });

  it('keeps each system’s figures until its reservations change, and computes only that one again', async () => {
    const first = await loadPortfolio(deps(), list, { period: 'last-month' });
    const again = await loadPortfolio(deps(), list, { period: 'last-month' });
    const [a1, b1] = loadedOf(first);
    const [a2, b2] = loadedOf(again);
    expect(a2!.figures).toBe(a1!.figures);
    expect(b2!.figures).toBe(b1!.figures);
    await ctx().handle.sql.query(`UPDATE mirror_state SET reservations_version = reservations_version + 1 WHERE device_id = $1`, [list[1]!.deviceId]);
    const [a3, b3] = loadedOf(await loadPortfolio(deps(), list, { period: 'last-month' }));
    expect(a3!.figures).toBe(a1!.figures);
    expect(b3!.figures).not.toBe(b1!.figures);
    expect(b3!.figures).toEqual(b1!.figures);
  });

  it('downloads a manager’s own systems only, an admin’s all, and refuses an unknown file with a 400', async () => {
    const { db } = ctx().handle;
    const manager = await createUser(db, { email: `m-${randomUUID()}@example.com`, name: 'M', role: 'manager' });
    await addManagerSystems(db, manager.id, [list[1]!.deviceId]);
    const admin = await createUser(db, { email: `a-${randomUUID()}@example.com`, name: 'A', role: 'admin' });
    const names = async (user: typeof manager) => {
      const response = await portfolioExportResponse(new Request('http://portal.test/api/reports/portfolio?file=systems.csv&period=last-month'), { view: deps(), user, locale: 'en' });
      expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="portfolio-systems-\d{4}-\d{2}-01-\d{4}-\d{2}-\d{2}\.csv"/);
      const lines = (await response.text()).replace(/^\uFEFF/, '').trim().split('\r\n');
      return lines.slice(1).map((line) => line.split(';')[0]);
    };
    expect(await names(manager)).toEqual(['Brf Beta', 'Total']);
    expect((await names(admin)).sort()).toEqual(['Brf Alfa', 'Brf Beta', 'Brf Gamma', 'Total']);
    await expect(portfolioExportResponse(new Request('http://portal.test/api/reports/portfolio?file=secrets.csv'), { view: deps(), user: admin, locale: 'en' })).rejects.toMatchObject({
      code: 'bad_request',
    });
  });

  it('refuses a bad period or trend length with a 400 and its sentence, before reading anything', async () => {
    await expect(loadPortfolio(deps(), list, { period: 'yesterday' })).rejects.toMatchObject({ code: 'bad_request' });
    await expect(loadPortfolio(deps(), list, { months: '7' })).rejects.toMatchObject({ code: 'bad_request', text: { key: 'errors.portfolioMonths' } });
  });
});
