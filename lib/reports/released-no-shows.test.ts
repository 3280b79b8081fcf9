import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readTogether } from '@/lib/db/read-together';
import { connections, systems } from '@/lib/db/schema';
import { refreshSystem } from '@/lib/mirror/refresh';
import { serviceMirrorSource } from '@/lib/mirror/service-source';
import { readReleasedNoShows, readReservations, readResources, readUserGroups } from '@/lib/mirror/store';
import { writeBookingRules } from '@/lib/systems/booking-rules';
import type { SystemPublic } from '@/lib/systems/schemas';
import type { ViewDeps } from '@/lib/views/freshness';
import { loadBuildingView } from '@/lib/views/building';
import { anyZoneWeekRange, loadResourceWeek, weekInputReads } from '@/lib/views/resource-week';
import { releaseNoShows, writeRules } from '@/sandbox/booking-rules';
import { describeWithDb } from '@/tests/db';
import { startConnectedSandbox, type ConnectedSandbox } from '@/tests/connected-sandbox';
import { loadSystemReport, systemPeriod } from './load';

const TZ = 'Europe/Stockholm';
const MIN = 60_000;

// Issue 35: an unused booking nobody activated within its room group's window is released by the
// service (the sandbox's worker deletes it). The grid shows its slot free at once; the report keeps
// it as a no-show, also after the next re-read no longer lists it (decision 025).
describeWithDb('released no-shows', (ctx) => {
  let connected: ConnectedSandbox;
  let system: SystemPublic;

  beforeAll(async () => {
    connected = await startConnectedSandbox(ctx().handle.db, { sql: ctx().handle.sql, preset: 'demo', seed: 11 });
    system = { deviceId: connected.deviceId, name: 'Demo', timeZone: TZ, status: 'active', bookingHorizonDays: 28, scheduleBasis: 'utc', bookingQuota: 2 , street: null, city: null, area: null };
    const { db } = ctx().handle;
    const [connection] = await db.insert(connections).values({ approvalFingerprint: randomUUID(), apiKeyCiphertext: 'x' }).returning({ id: connections.id });
    await db.insert(systems).values({ deviceId: system.deviceId, connectionId: connection!.id, name: system.name }).onConflictDoNothing();
  }, 120_000);
  afterAll(() => connected.stop());

  const deps = (): ViewDeps => ({ db: ctx().handle.db, source: () => Promise.resolve(serviceMirrorSource(connected.client, connected.apiKey)), freshnessMs: 600_000 });
  const reread = () => refreshSystem(ctx().handle.db, connected.deviceId, serviceMirrorSource(connected.client, connected.apiKey));

  it('frees the slot once the window passes and still counts the booking as a no-show after a re-read without it', async () => {
    const { db, sql } = ctx().handle;
    const [room, other] = await readResources(db, connected.deviceId);
    const [apartment] = await readUserGroups(db, connected.deviceId);
    // Started 40 minutes ago, nobody activated it: past a 30-minute window, not yet ended.
    const now = Date.now();
    const start = new Date(Math.floor((now - 40 * MIN) / MIN) * MIN);
    const end = new Date(start.getTime() + 3 * 60 * MIN);
    const noShow = randomUUID();
    const kept = randomUUID();
    // Clear the room around it first, so that this is the only booking over its slot.
    await sql.query(`DELETE FROM sandbox.reservations WHERE resource_id = $1 AND start_time < $3 AND end_time > $2`, [room!.id, start, end]);
    await sql.query(`DELETE FROM sandbox.reservations WHERE resource_id = $1 AND start_time < $3 AND end_time > $2`, [other!.id, start, end]);
    for (const [id, resourceId] of [
      [noShow, room!.id],
      [kept, other!.id], // the same no-show in a room without a window: the service keeps it
    ] as const) {
      await sql.query(
        `INSERT INTO sandbox.reservations (id, device_id, resource_id, user_id, owner_id, owner_type, status, start_time, end_time) VALUES ($1, $2, $3, NULL, $4, 'Group', 'Unused', $5, $6)`,
        [id, connected.deviceId, resourceId, apartment!.id, start, end],
      );
    }
    const group = { resourceIds: [room!.id], maxFuture: null, perWindow: null, daysAhead: null, maxConsecutive: null, activationMinutes: 30 };
    await writeBookingRules(db, connected.deviceId, { groups: [group] });
    await writeRules(sql, connected.deviceId, { timeZone: TZ, groups: [group] });
    expect((await reread()).status).toBe('refreshed');
    expect((await readReservations(db, connected.deviceId, { from: start, to: end })).map((r) => r.id)).toEqual(expect.arrayContaining([noShow, kept]));

    // The grid and the building view: the released booking's slot is free; the other room's stays booked.
    const week = async (resourceId: string) => {
      const inputs = await readTogether(db, weekInputReads(connected.deviceId, resourceId, anyZoneWeekRange(undefined, now)));
      return loadResourceWeek(deps(), system, resourceId, undefined, inputs);
    };
    const weekSlots = (await week(room!.id)).slots;
    const freed = weekSlots.filter((s) => s.released?.id === noShow);
    // The booking runs now, so a slot of it that has not ended shows free; one it overlapped that has
    // ended is past, never booked. Late in the evening the room's schedule may have no slot running
    // between now and the booking's end (CI once ran at 23:14 in Stockholm): then only the latter.
    if (weekSlots.some((s) => s.startMs < end.getTime() && s.endMs > now)) expect(freed.filter((s) => !s.isPast).length).toBeGreaterThan(0);
    for (const slot of freed) expect(slot.state).toBe(slot.isPast ? 'past' : 'free');
    expect(weekSlots.some((s) => s.reservation?.id === noShow)).toBe(false);
    const otherSlots = (await week(other!.id)).slots;
    if (otherSlots.some((s) => s.startMs < end.getTime() && s.endMs > start.getTime())) expect(otherSlots.some((s) => s.reservation?.id === kept && s.state === 'booked')).toBe(true);
    const building = await loadBuildingView(deps(), system, { day: undefined, mode: 'day', onlyFree: false, roomId: undefined });
    const buildingRoom = building.rooms.find((r) => r.id === room!.id);
    if (buildingRoom?.slots.some((s) => s.startMs < end.getTime() && s.endMs > start.getTime())) {
      expect(buildingRoom.slots.filter((s) => s.released?.id === noShow).every((s) => s.state === (s.isPast ? 'past' : 'free'))).toBe(true);
      expect(buildingRoom.slots.some((s) => s.reservation?.id === noShow)).toBe(false);
    }

    // Yesterday to tomorrow in the system's zone: holds the booking whatever the date.
    const day = (ms: number) => new Intl.DateTimeFormat('sv-SE', { timeZone: TZ }).format(ms);
    const period = systemPeriod(system, { from: day(now - 86_400_000), to: day(now + 86_400_000) }, now);
    const report = async () => (await loadSystemReport(deps(), system, period)).report;
    const before = await report();
    // Released: a no-show already, not an upcoming booking (the room without a window: upcoming).
    const apartmentOf = (r: Awaited<ReturnType<typeof report>>) => r.apartments.find((a) => a.groupId === apartment!.id.toLowerCase());
    expect(apartmentOf(before)?.noShows).toBeGreaterThanOrEqual(1);

    // The service releases it; the next re-read no longer has it, and remembers it.
    expect(await releaseNoShows(sql, new Date())).toBeGreaterThanOrEqual(1);
    expect((await reread()).status).toBe('refreshed');
    const listed = (await readReservations(db, connected.deviceId, { from: start, to: end })).map((r) => r.id);
    expect(listed).not.toContain(noShow);
    expect(listed).toContain(kept);
    const remembered = await readReleasedNoShows(db, connected.deviceId, { from: start, to: end });
    expect(remembered.map((r) => r.id)).toContain(noShow);
    expect(remembered.map((r) => r.id)).not.toContain(kept);
    expect(remembered.find((r) => r.id === noShow)).toMatchObject({ resourceId: room!.id, ownerType: 'Group', startMs: start.getTime(), releasedAtMs: start.getTime() + 30 * MIN });

    const after = await report();
    expect(after.total.counts.noShows).toBe(before.total.counts.noShows);
    expect(after.total.counts.bookings).toBe(before.total.counts.bookings);
    expect(apartmentOf(after)?.noShows).toBe(apartmentOf(before)?.noShows);
    // Once more: remembered once, counted once.
    expect((await reread()).status).toBe('refreshed');
    expect((await report()).total.counts.noShows).toBe(before.total.counts.noShows);

    // Without the window (the rules removed), a booking that goes is simply gone: nothing remembered.
    await writeBookingRules(db, connected.deviceId, null);
    await sql.query(`DELETE FROM sandbox.reservations WHERE id = $1`, [kept]);
    expect((await reread()).status).toBe('refreshed');
    expect((await readReleasedNoShows(db, connected.deviceId, { from: start, to: end })).map((r) => r.id)).toEqual([noShow]);
  }, 120_000);
});
