import { randomBytes, randomUUID } from 'node:crypto';
import { apiErrorText } from '@/tests/message-text';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { ApiError } from '@/lib/errors/api-error';
import { InProcessEventBus } from '@/lib/events/bus';
import { handleWebhookRequest } from '@/lib/events/receive';
import type { PortalEvent } from '@/lib/events/types';
import { applyReservationChange, readReservationsOfApartment, readState, readUsers } from '@/lib/mirror/store';
import { serviceMirrorSource } from '@/lib/mirror/service-source';
import { applyWebhookOutcome } from '@/lib/reservations/lifecycle';
import { clearApartmentAccessCache } from '@/lib/reservations/apartment-access';
import { requestBooking, type ReservationDeps } from '@/lib/reservations/requests';
import { clearResidentCache } from '@/lib/reservations/residents';
import type { SystemPublic } from '@/lib/systems/schemas';
import { describeWithDb } from '@/tests/db';
import { startConnectedSandbox, type ConnectedSandbox } from '@/tests/connected-sandbox';
import { apartmentTitle, loadApartment, loadNextFree, type ApartmentDeps } from './apartment';
import { connections, systems } from '@/lib/db/schema';
import { writeBookingRules } from '@/lib/systems/booking-rules';
import { localDay, type RuleGroup } from '@/lib/booking-rules';

const secret = `whsec_${randomBytes(32).toString('base64')}`;
const TZ = 'Europe/Stockholm';

describeWithDb('the apartment page and its next free slots', (ctx) => {
  let connected: ConnectedSandbox;
  let system: SystemPublic;
  let bus: InProcessEventBus;
  const published: PortalEvent[] = [];
  const writes: string[] = [];
  const manager = { id: randomUUID(), name: 'Desk Manager' };

  beforeAll(async () => {
    connected = await startConnectedSandbox(
      ctx().handle.db,
      { sql: ctx().handle.sql, preset: 'demo', seed: 3, webhookRetryScheduleMs: [10], quotaPerGroup: 2 },
      {
        webhook: { secret, handle: (request) => handleWebhookRequest(request, { db: ctx().handle.db, bus, secret, applyOutcome: applyWebhookOutcome }) },
        observe: (request) => {
          if (request.method !== 'GET' && new URL(request.url).pathname.startsWith('/v1/reservations')) writes.push(`${request.method} ${new URL(request.url).pathname}`);
        },
      },
    );
    system = { deviceId: connected.deviceId, name: 'Demo', timeZone: TZ, status: 'active', bookingHorizonDays: 28, scheduleBasis: 'utc', bookingQuota: 2 , street: null, city: null, area: null };
  }, 120_000);

  afterAll(() => connected.stop());

  beforeEach(() => {
    bus = new InProcessEventBus();
    published.length = 0;
    bus.subscribe((e) => published.push(e));
    writes.length = 0;
    clearResidentCache();
    clearApartmentAccessCache();
  });

  const deps = (): ApartmentDeps => ({
    db: ctx().handle.db,
    source: () => Promise.resolve(serviceMirrorSource(connected.client, connected.apiKey)),
    freshnessMs: 600_000,
    client: connected.client,
    apiKeyFor: () => Promise.resolve(connected.apiKey),
  });
  const reservationDeps = (): ReservationDeps => ({ db: ctx().handle.db, client: connected.client, apiKeyFor: () => Promise.resolve(connected.apiKey), bus });
  const residentsOf = (groupId: string) => connected.fixtures.residents.filter((r) => r.deviceId === connected.deviceId && r.userGroupId === groupId);

  it('names the apartment, lists its residents, rooms, quota and bookings as the mirror holds them', async () => {
    const resident = connected.fixtures.residents.find((r) => r.deviceId === connected.deviceId && r.resourceIds.length > 0)!;
    const view = await loadApartment(deps(), system, resident.userGroupId);
    expect(view.title).toEqual({ kind: 'apartment', apartment: resident.apartmentId.trim(), name: expect.any(String) as string });
    expect(view.residents.map((r) => r.userId)).toContain(resident.userId);
    expect(view.residentsKnown).toBe(true);
    expect(view.authorizationsKnown).toBe(true);
    const allowed = view.rooms.filter((r) => r.allowed).map((r) => r.resourceId).sort();
    expect(allowed).toEqual([...new Set(residentsOf(resident.userGroupId).flatMap((r) => r.resourceIds))].sort());
    // Quota: the future bookings per room, as the service counts them.
    const members = (await readUsers(ctx().handle.db, connected.deviceId, [resident.userGroupId])).map((u) => u.id);
    const future = (await readReservationsOfApartment(ctx().handle.db, connected.deviceId, { groupId: resident.userGroupId, userIds: members }, { from: new Date(), to: new Date(Date.now() + 400 * 86_400_000) })).filter((r) => r.ownerType !== 'Service');
    for (const room of view.rooms) {
      expect(room.held).toBe(future.filter((r) => r.resourceId === room.resourceId).length);
    }
    expect(view.upcoming.map((b) => b.reservationId).sort()).toEqual(future.map((r) => r.id).sort());
    for (const b of view.past) {
      expect(b.endMs).toBeLessThanOrEqual(Date.now());
      expect(b.endMs).toBeGreaterThan(Date.now() - 8 * 7 * 86_400_000);
      expect(['Used', 'Unused', 'Unknown']).toContain(b.status);
    }
    for (const b of view.upcoming) expect(b).toMatchObject({ bookedByName: null, bookedThroughPortal: false });
  });

  it('answers 404 for a group the system does not have (a tampered id)', async () => {
    const error = await loadApartment(deps(), system, randomUUID()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'not_found' });
    await expect(loadNextFree(deps(), system, randomUUID())).rejects.toMatchObject({ code: 'not_found' });
  });

  it('books the next free slot successfully, then refuses the apartment at its quota before sending anything', async () => {
    const db = ctx().handle.db;
    // An apartment under its quota in a room it may book.
    let chosen: { groupId: string; userId: string; resourceId: string; held: number } | undefined;
    for (const r of connected.fixtures.residents.filter((x) => x.deviceId === connected.deviceId && x.resourceIds.length > 0)) {
      const view = await loadApartment(deps(), system, r.userGroupId);
      const room = view.rooms.find((x) => x.allowed && x.held === 0 && x.kind !== 'other');
      if (room) {
        chosen = { groupId: r.userGroupId, userId: r.userId, resourceId: room.resourceId, held: room.held };
        break;
      }
    }
    if (!chosen) throw new Error('no apartment under its quota in the demo data');
    const kind = (await loadApartment(deps(), system, chosen.groupId)).rooms.find((r) => r.resourceId === chosen.resourceId)!.kind;
    const book = async () => {
      const next = await loadNextFree(deps(), system, chosen.groupId, { kind, count: 20 });
      const slot = next.slots.find((s) => s.resourceId === chosen.resourceId);
      if (!slot) throw new Error('no free slot in the chosen room');
      expect(slot.startMs).toBeGreaterThan(Date.now());
      return requestBooking(reservationDeps(), {
        requester: manager,
        system,
        idempotencyKey: randomUUID(),
        input: { deviceId: system.deviceId, resourceId: chosen.resourceId, residentUserId: chosen.userId, startTime: slot.startTime, endTime: slot.endTime },
      });
    };
    for (let i = 0; i < 2; i++) {
      const answer = await book();
      expect(answer.status).toBe(202);
      await connected.sandbox.drain();
    }
    const succeeded = published.filter((e) => e.data.status === 'succeeded');
    expect(succeeded).toHaveLength(2);
    const view = await loadApartment(deps(), system, chosen.groupId);
    const room = view.rooms.find((r) => r.resourceId === chosen.resourceId)!;
    expect(room).toMatchObject({ held: 2, atQuota: true });
    expect(view.upcoming.filter((b) => b.bookedThroughPortal).map((b) => b.bookedByName)).toEqual(['Desk Manager', 'Desk Manager']);
    expect(view.history.slice(0, 2).map((r) => r.status)).toEqual(['succeeded', 'succeeded']);
    // At the quota: next-free leaves the room out and a booking is a 422, nothing sent.
    const next = await loadNextFree(deps(), system, chosen.groupId, { count: 20 });
    expect(next.slots.some((s) => s.resourceId === chosen.resourceId)).toBe(false);
    expect(next.atQuota).toContain(room.name);
    writes.length = 0;
    const state = await readState(db, system.deviceId);
    expect(state?.refreshedAt).toBeTruthy();
    const refused = await requestBooking(reservationDeps(), {
      requester: manager,
      system,
      idempotencyKey: randomUUID(),
      input: { deviceId: system.deviceId, resourceId: chosen.resourceId, residentUserId: chosen.userId, startTime: view.upcoming[0]!.startTime.replace(/:00(\.000)?Z$/, 'Z'), endTime: view.upcoming[0]!.endTime },
    }).catch((e: unknown) => e);
    // The same slot is taken; a different free one is refused by the quota.
    expect(refused).toBeInstanceOf(ApiError);
    const anyFree = (await loadNextFree({ ...deps() }, { ...system, bookingQuota: 3 }, chosen.groupId, { kind, count: 20 })).slots.find((s) => s.resourceId === chosen.resourceId)!;
    const quotaRefusal = await requestBooking(reservationDeps(), {
      requester: manager,
      system,
      idempotencyKey: randomUUID(),
      input: { deviceId: system.deviceId, resourceId: chosen.resourceId, residentUserId: chosen.userId, startTime: anyFree.startTime, endTime: anyFree.endTime },
    }).catch((e: unknown) => e);
    expect(quotaRefusal).toMatchObject({ code: 'unprocessable_entity', reason: 'quotaExceeded' });
    expect(apiErrorText(quotaRefusal)).toMatch(/already holds 2 of 2 future bookings in .*; the service would refuse another\.$/);
    expect(apiErrorText(quotaRefusal, 'sv')).toMatch(/har redan 2 av 2 kommande bokningar i .*; tjänsten skulle neka en till\.$/);
    expect(writes).toEqual([]);
  });

  it('suggests only slots its room group allows, and names a full group at its quota (issue 35)', async () => {
    const { db } = ctx().handle;
    const [connection] = await db.insert(connections).values({ approvalFingerprint: randomUUID(), apiKeyCiphertext: 'x' }).returning({ id: connections.id });
    await db.insert(systems).values({ deviceId: system.deviceId, connectionId: connection!.id, name: system.name }).onConflictDoNothing();
    const group = (g: Partial<RuleGroup> & { resourceIds: string[] }): RuleGroup => ({ maxFuture: null, perWindow: null, daysAhead: null, maxConsecutive: null, activationMinutes: null, ...g });
    // An apartment that holds a booking in one room it may book, and may book another.
    let chosen: { groupId: string; held: string; other: string } | undefined;
    for (const r of connected.fixtures.residents.filter((x) => x.deviceId === connected.deviceId && x.resourceIds.length > 1)) {
      const view = await loadApartment(deps(), system, r.userGroupId);
      const held = view.rooms.find((x) => x.allowed && x.held >= 1);
      const other = view.rooms.find((x) => x.allowed && x.held === 0 && x.resourceId !== held?.resourceId);
      if (held && other) {
        chosen = { groupId: r.userGroupId, held: held.resourceId, other: other.resourceId };
        break;
      }
    }
    if (!chosen) throw new Error('no apartment with a booking and another room in the demo data');
    try {
      // "Only today or tomorrow" in the free room: nothing later is suggested there.
      await writeBookingRules(db, system.deviceId, { groups: [group({ resourceIds: [chosen.other], daysAhead: 1 })] });
      const soon = await loadNextFree(deps(), system, chosen.groupId, { count: 40 });
      const today = localDay(Date.now(), TZ);
      expect(soon.slots.filter((s) => s.resourceId === chosen.other).every((s) => localDay(s.startMs, TZ) - today <= 1)).toBe(true);
      expect(soon.slots.some((s) => s.resourceId !== chosen.other && localDay(s.startMs, TZ) - today > 1)).toBe(true);
      // Both rooms sharing "1 at a time" while one holds a booking: the group is full, neither room is offered.
      await writeBookingRules(db, system.deviceId, { groups: [group({ resourceIds: [chosen.held, chosen.other], maxFuture: 1 })] });
      const full = await loadNextFree(deps(), system, chosen.groupId, { count: 40 });
      expect(full.slots.filter((s) => s.resourceId === chosen.held || s.resourceId === chosen.other)).toEqual([]);
      const names = (await loadApartment(deps(), system, chosen.groupId)).rooms.filter((r) => r.resourceId === chosen.held || r.resourceId === chosen.other).map((r) => r.name);
      expect(full.atQuota).toEqual(expect.arrayContaining(names));
      // The apartment page counts the group: the free room is at the group's quota too (its dialog warns).
      const shared = (await loadApartment(deps(), system, chosen.groupId)).rooms.find((r) => r.resourceId === chosen.other);
      expect(shared).toMatchObject({ quota: 1, atQuota: true });
      expect([...(shared?.groupRooms ?? [])].sort()).toEqual([...names].sort());
      expect(shared?.held).toBeGreaterThanOrEqual(1);
    } finally {
      await writeBookingRules(db, system.deviceId, null);
    }
    // Without stated rules, the quota per room again: the free room is offered.
    expect((await loadNextFree(deps(), system, chosen.groupId, { count: 40 })).slots.some((s) => s.resourceId === chosen.other)).toBe(true);
  });

  it('marks a booking in a room the service no longer lists, and keeps it cancellable (the service cancels by id)', async () => {
    const resident = connected.fixtures.residents.find((r) => r.deviceId === connected.deviceId && r.resourceIds.length > 0)!;
    await loadApartment(deps(), system, resident.userGroupId);
    const start = new Date(Date.now() + 3 * 86_400_000);
    start.setUTCHours(6, 0, 0, 0);
    const reservation = {
      id: randomUUID(),
      deviceId: connected.deviceId,
      resourceId: randomUUID(),
      userId: resident.userId,
      ownerId: resident.userId,
      ownerType: 'User' as const,
      status: 'Unused' as const,
      startTime: start.toISOString(),
      endTime: new Date(start.getTime() + 3 * 3_600_000).toISOString(),
    };
    await applyReservationChange(ctx().handle.db, { type: 'created', reservation });
    const view = await loadApartment(deps(), system, resident.userGroupId);
    const booking = view.upcoming.find((b) => b.reservationId === reservation.id);
    expect(booking).toMatchObject({ resourceName: '', roomListed: false, cancellable: true });
    expect(view.upcoming.filter((b) => b.reservationId !== reservation.id).every((b) => b.roomListed)).toBe(true);
    await applyReservationChange(ctx().handle.db, { type: 'cancelled', deviceId: connected.deviceId, reservationId: reservation.id });
  });

  it('titles an apartment without labels', () => {
    expect(apartmentTitle({ apartmentId: ' 1203 ', name: 'x' })).toEqual({ kind: 'apartment', apartment: '1203', name: 'x' });
    expect(apartmentTitle({ apartmentId: '', name: 'Lgh B' })).toMatchObject({ kind: 'name', name: 'Lgh B' });
    expect(apartmentTitle({ apartmentId: '  ', name: '' })).toMatchObject({ kind: 'unnamed' });
  });

  it('answers next-free quickly when warm', async () => {
    const resident = connected.fixtures.residents.find((r) => r.deviceId === connected.deviceId && r.resourceIds.length > 0)!;
    await loadNextFree(deps(), system, resident.userGroupId);
    const times: number[] = [];
    for (let i = 0; i < 30; i++) {
      const t = performance.now();
      await loadNextFree(deps(), system, resident.userGroupId, { count: 5 });
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    console.log(`next-free warm p95 (demo, PGlite): ${times[Math.floor(times.length * 0.95)]!.toFixed(1)} ms`);
  });
});
