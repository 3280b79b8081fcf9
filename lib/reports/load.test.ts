import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ApiError } from '@/lib/errors/api-error';
import { InProcessEventBus } from '@/lib/events/bus';
import { handleWebhookRequest } from '@/lib/events/receive';
import { serviceMirrorSource } from '@/lib/mirror/service-source';
import { readReservations, readState, readUsers } from '@/lib/mirror/store';
import { applyWebhookOutcome } from '@/lib/reservations/lifecycle';
import type { SystemPublic } from '@/lib/systems/schemas';
import type { ViewDeps } from '@/lib/views/freshness';
import { describeWithDb } from '@/tests/db';
import { startConnectedSandbox, type ConnectedSandbox } from '@/tests/connected-sandbox';
import { loadReportsOverview, loadSystemReport, readPeriodReservations, systemPeriod } from './load';

const secret = `whsec_${randomBytes(32).toString('base64')}`;
const TZ = 'Europe/Stockholm';

describeWithDb('reports read from the mirror', (ctx) => {
  let connected: ConnectedSandbox;
  let system: SystemPublic;
  const bus = new InProcessEventBus();

  beforeAll(async () => {
    connected = await startConnectedSandbox(
      ctx().handle.db,
      { sql: ctx().handle.sql, preset: 'demo', seed: 5, webhookRetryScheduleMs: [10] },
      { webhook: { secret, handle: (request) => handleWebhookRequest(request, { db: ctx().handle.db, bus, secret, applyOutcome: applyWebhookOutcome }) } },
    );
    system = { deviceId: connected.deviceId, name: 'Demo', timeZone: TZ, status: 'active', bookingHorizonDays: 28, scheduleBasis: 'utc', bookingQuota: 2 , street: null, city: null, area: null };
  }, 120_000);

  afterAll(() => connected.stop());

  const deps = (nowMs?: number): ViewDeps => ({
    db: ctx().handle.db,
    source: () => Promise.resolve(serviceMirrorSource(connected.client, connected.apiKey)),
    freshnessMs: 600_000,
    ...(nowMs === undefined ? {} : { now: () => new Date(nowMs) }),
  });

  it('counts what the mirror holds for the period, and keeps the answer until the reservations change', async () => {
    // One fixed now: the cache key holds a five-minute step of now, and a run across a step
    // boundary would otherwise compute again between the cold and the warm read.
    const now = Date.now();
    const period = systemPeriod(system, { period: 'last-3-months' }, now);
    const first = await loadSystemReport(deps(now), system, period);
    const { report } = first;

    // The same facts read independently from the store.
    const rows = await readReservations(ctx().handle.db, connected.deviceId, { from: new Date(period.startMs), to: new Date(period.endMs) });
    const bookings = rows.filter((r) => r.ownerType !== 'Service');
    expect(bookings.length).toBeGreaterThan(0);
    expect(report.total.counts.bookings).toBe(bookings.length);
    const noShows = bookings.filter((r) => r.status === 'Unused' && (r.ownerType === 'User' || r.ownerType === 'Group') && Date.parse(r.endTime) <= report.nowMs);
    expect(report.total.counts.noShows).toBe(noShows.length);
    expect(report.rooms.length).toBeGreaterThan(0);
    expect(report.total.bookedShare).toBeGreaterThan(0);
    expect(report.total.bookedShare).toBeLessThanOrEqual(1);
    // Every booking by a group, or by a user with a group, lands in an apartment.
    const users = new Map((await readUsers(ctx().handle.db, connected.deviceId)).map((u) => [u.id, u.userGroupId]));
    const placed = bookings.filter((r) => (r.ownerType === 'Group' && r.ownerId) || (r.ownerType === 'User' && users.get(r.userId ?? '')));
    expect(report.apartments.reduce((n, a) => n + a.bookings, 0)).toBe(placed.length);
    expect(report.unplacedBookings).toBe(bookings.length - placed.length);

    // Warm: the same object; a bumped reservations version computes again.
    const again = await loadSystemReport(deps(now), system, period);
    expect(again.report).toBe(report);
    await ctx().handle.db.execute(sql`UPDATE mirror_state SET reservations_version = reservations_version + 1 WHERE device_id = ${connected.deviceId}`);
    expect((await readState(ctx().handle.db, connected.deviceId))?.reservationsVersion).toBeGreaterThan(0);
    const after = await loadSystemReport(deps(now), system, period);
    expect(after.report).not.toBe(report);
    expect(after.report.total).toEqual(report.total);
  });

  it('reads the period in pages that together hold every reservation once, ties on the start time included', async () => {
    const now = Date.now();
    const period = systemPeriod(system, { period: 'last-3-months' }, now);
    const whole = await readPeriodReservations(ctx().handle.db, connected.deviceId, period, 1_000_000);
    // Several rooms share slot times, so pages of 7 split rows with the same start time.
    expect(whole.length).toBeGreaterThan(3 * 7);
    const starts = whole.map((r) => r.startMs);
    expect(new Set(starts).size).toBeLessThan(starts.length);
    const paged = await readPeriodReservations(ctx().handle.db, connected.deviceId, period, 7);
    expect(paged.map((r) => r.id).sort()).toEqual(whole.map((r) => r.id).sort());
    expect(new Set(paged.map((r) => r.id)).size).toBe(paged.length);
    // Overlapping the period: a booking that started the day before and ends inside it counts.
    for (const r of paged) expect(r.endMs > period.startMs && r.startMs < period.endMs).toBe(true);
  });

  it('refuses a reversed or too long period with a 400 and its sentence', () => {
    for (const input of [{ from: '2026-03-31', to: '2026-01-01' }, { from: '2020-01-01', to: '2026-01-01' }, { from: '2026-02-30', to: '2026-03-01' }]) {
      let error: unknown;
      try {
        systemPeriod(system, input, Date.now());
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).code).toBe('bad_request');
      expect((error as ApiError).text.key).toMatch(/^errors\.period/);
    }
  });

  it('sums the systems of the overview', async () => {
    const overview = await loadReportsOverview(deps(), [system], { period: 'last-month' });
    expect(overview.systems).toHaveLength(1);
    expect(overview.total).toEqual(overview.systems[0]!.figures);
    await expect(loadReportsOverview(deps(), [system], { period: 'yesterday' })).rejects.toMatchObject({ code: 'bad_request' });
  });
});
