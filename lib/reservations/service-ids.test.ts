import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { describeWithDb } from '@/tests/db';
import { startConnectedSandbox, type ConnectedSandbox } from '@/tests/connected-sandbox';
import { InProcessEventBus } from '@/lib/events/bus';
import { handleWebhookRequest } from '@/lib/events/receive';
import { refreshSystem } from '@/lib/mirror/refresh';
import { serviceMirrorSource } from '@/lib/mirror/service-source';
import { readReservations, readResources, readTimeSchedules, readUserGroups, readUsers } from '@/lib/mirror/store';
import { expandRange } from '@/lib/schedule';
import type { Faults } from '@/sandbox/faults';
import { applyWebhookOutcome } from './lifecycle';
import { reconcilePending } from './reconcile';
import { requestBooking, requestCancellation, type RequestAnswer, type ReservationDeps } from './requests';
import { clearResidentCache, findResident } from './residents';
import { bookingInputSchema, cancellationInputSchema } from './schemas';

// Issue 47, items 1 and 2: a service that writes its GUIDs in upper or mixed case, or in braces,
// must be read, shown and booked exactly as one that writes them in lower case.

const secret = `whsec_${randomBytes(32).toString('base64')}`;
const DAY = 86_400_000;
const CANONICAL = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SPELLINGS: NonNullable<Faults['shapes']>[] = [{ idCase: 'upper' }, { idCase: 'mixed' }, { bracedIds: true }, { idCase: 'mixed', bracedIds: true }];

describeWithDb('service ids in any spelling', (ctx) => {
  let connected: ConnectedSandbox;
  let bus: InProcessEventBus;
  const manager = { id: randomUUID(), name: 'Test Manager' };
  const system = () => ({ deviceId: connected.deviceId, name: 'Testgården 1', timeZone: 'Europe/Stockholm', bookingQuota: 100 });
  const deps = (): ReservationDeps => ({ db: ctx().handle.db, client: connected.client, apiKeyFor: () => Promise.resolve(connected.apiKey), bus });
  const setShapes = async (faults: Faults) => {
    const response = await connected.sandbox.fetch(new Request('http://sandbox.test/_sandbox/faults', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(faults) }));
    expect(response.status).toBe(200);
  };
  const requestOf = (answer: RequestAnswer) => {
    if (!('request' in answer)) throw new Error(`expected 202, got ${answer.status}: ${answer.error.message}`);
    return answer.request;
  };
  const taken = new Set<number>();

  beforeAll(async () => {
    connected = await startConnectedSandbox(
      ctx().handle.db,
      { sql: ctx().handle.sql, preset: 'tiny', seed: 1, webhookRetryScheduleMs: [10], quotaPerGroup: 100 },
      { webhook: { secret, handle: (request) => handleWebhookRequest(request, { db: ctx().handle.db, bus, secret, applyOutcome: applyWebhookOutcome }) } },
    );
  }, 120_000);
  afterAll(() => connected.stop());
  beforeEach(() => {
    bus = new InProcessEventBus();
    clearResidentCache();
  });

  /** A resident, a room they may book and a free slot there, from the mirror as just read. */
  async function freeSlot() {
    const { db } = ctx().handle;
    const resources = await readResources(db, connected.deviceId);
    const schedules = await readTimeSchedules(db, connected.deviceId);
    const resident = connected.fixtures.residents.find((r) => r.deviceId === connected.deviceId && r.resourceIds.length === resources.length)!;
    const resource = resources.find((r) => r.name === 'Tvättstuga 1')!;
    // Found as the grid finds it (so that what is tested below is the booking's own check).
    const schedule = schedules.find((s) => s.id === resource.timeScheduleId.replace(/[{}]/g, '').toLowerCase());
    const slot = expandRange(schedule!.schedule, Date.now() + DAY, Date.now() + 20 * DAY, 'UTC').find((s) => !taken.has(s.startMs))!;
    taken.add(slot.startMs);
    return { resident, resource, slot };
  }

  it.each(SPELLINGS)('reads every id canonical when the service spells them %j', async (shapes) => {
    await setShapes({ shapes });
    await refreshSystem(ctx().handle.db, connected.deviceId, serviceMirrorSource(connected.client, connected.apiKey));
    const { db } = ctx().handle;
    const resources = await readResources(db, connected.deviceId);
    const schedules = await readTimeSchedules(db, connected.deviceId);
    expect(resources).toHaveLength(2);
    for (const r of resources) {
      expect(r.id).toMatch(CANONICAL);
      expect(r.timeScheduleId).toMatch(CANONICAL);
      expect(schedules.map((s) => s.id)).toContain(r.timeScheduleId);
    }
    const groups = await readUserGroups(db, connected.deviceId);
    const users = await readUsers(db, connected.deviceId);
    expect(groups.length).toBeGreaterThan(0);
    expect(users.length).toBeGreaterThan(0);
    const grouped = users.filter((u) => u.userGroupId !== null);
    expect(grouped.length).toBeGreaterThan(0);
    expect(grouped.every((u) => CANONICAL.test(u.id) && groups.some((g) => g.id === u.userGroupId))).toBe(true);
    const reservations = await readReservations(db, connected.deviceId, { from: new Date(Date.now() - 30 * DAY), to: new Date(Date.now() + 30 * DAY) });
    expect(reservations.length).toBeGreaterThan(0);
    expect(reservations.every((r) => CANONICAL.test(r.id) && resources.some((x) => x.id === r.resourceId))).toBe(true);
  });

  it.each(SPELLINGS)('books a slot for a resident, and applies its outcome and its cancellation, when the service spells its ids %j', async (shapes) => {
    await setShapes({ shapes });
    await refreshSystem(ctx().handle.db, connected.deviceId, serviceMirrorSource(connected.client, connected.apiKey));
    const { resident, resource, slot } = await freeSlot();
    const input = bookingInputSchema.parse({ deviceId: connected.deviceId, resourceId: resource.id, residentUserId: resident.userId, startTime: slot.startTime, endTime: slot.endTime });
    // Before the fix: "… is not a booking slot of Tvättstuga 1." (item 1), "The resident … is not a user of …" (item 2).
    const request = requestOf(await requestBooking(deps(), { requester: manager, system: system(), idempotencyKey: `ids-${randomUUID()}`, input }));
    expect(request).toMatchObject({ status: 'pending', residentUserId: resident.userId, resourceName: 'Tvättstuga 1' });
    await connected.sandbox.drain();
    const { rows } = await ctx().handle.sql.query<{ status: string; reservation_id: string | null; correlation_id: string | null }>(
      'SELECT status, reservation_id::text, correlation_id::text FROM reservation_requests WHERE id = $1',
      [request.id],
    );
    expect(rows[0]).toMatchObject({ status: 'succeeded', reservation_id: expect.stringMatching(CANONICAL) as unknown, correlation_id: expect.stringMatching(CANONICAL) as unknown });
    const mirrored = await readReservations(ctx().handle.db, connected.deviceId, { from: new Date(slot.startMs), to: new Date(slot.endMs), resourceId: resource.id });
    expect(mirrored.map((r) => r.id)).toEqual([rows[0]?.reservation_id]);

    const cancel = requestOf(
      await requestCancellation(deps(), {
        requester: manager,
        system: system(),
        idempotencyKey: `ids-${randomUUID()}`,
        input: cancellationInputSchema.parse({ deviceId: connected.deviceId, reservationId: rows[0]?.reservation_id }),
      }),
    );
    await connected.sandbox.drain();
    const { rows: after } = await ctx().handle.sql.query<{ status: string }>('SELECT status FROM reservation_requests WHERE id = $1', [cancel.id]);
    expect(after[0]?.status).toBe('succeeded');
  });

  it.each(SPELLINGS)('finds a resident and their rooms by the portal’s ids when the service spells them %j', async (shapes) => {
    await setShapes({ shapes });
    const resident = connected.fixtures.residents.find((r) => r.deviceId === connected.deviceId && r.resourceIds.length > 0)!;
    // Before the fix: null ("The resident … is not a user of System …", item 2).
    const found = await findResident(connected.client, connected.apiKey, connected.deviceId, resident.userId);
    expect(found).toMatchObject({ userId: resident.userId, deviceId: connected.deviceId, userGroupId: resident.userGroupId });
    expect(found?.reservationResources?.slice().sort()).toEqual([...resident.resourceIds].sort());
  });

  it('settles a booking whose answer was lost from the reservations the service lists in upper case and braces', async () => {
    await setShapes({ shapes: { idCase: 'upper', bracedIds: true } });
    await refreshSystem(ctx().handle.db, connected.deviceId, serviceMirrorSource(connected.client, connected.apiKey));
    const { resident, resource, slot } = await freeSlot();
    await setShapes({ shapes: { idCase: 'upper', bracedIds: true }, afterAccept: { mode: 'status', status: 500, times: 1 } });
    const input = bookingInputSchema.parse({ deviceId: connected.deviceId, resourceId: resource.id, residentUserId: resident.userId, startTime: slot.startTime, endTime: slot.endTime });
    const request = requestOf(await requestBooking(deps(), { requester: manager, system: system(), idempotencyKey: `ids-${randomUUID()}`, input }));
    expect(request).toMatchObject({ status: 'pending', outcomeUnknown: true });
    await connected.sandbox.drain();
    const events = await reconcilePending(deps(), { afterSeconds: 3600, unknownAfterSeconds: 0 });
    expect(events.find((e) => e.data.id === request.id)?.data).toMatchObject({ status: 'succeeded', outcomeUnknown: false });
  });
});
