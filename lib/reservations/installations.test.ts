import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { RuleGroup } from '@/lib/booking-rules';
import { connections, systems } from '@/lib/db/schema';
import { ApiError } from '@/lib/errors/api-error';
import { InProcessEventBus } from '@/lib/events/bus';
import { handleWebhookRequest } from '@/lib/events/receive';
import { refreshSystem } from '@/lib/mirror/refresh';
import { serviceMirrorSource } from '@/lib/mirror/service-source';
import { readReservations, readResources, readTimeSchedules } from '@/lib/mirror/store';
import { expandRange, type ScheduleSlot } from '@/lib/schedule';
import type { SystemPublic } from '@/lib/systems/schemas';
import { writeBookingRules } from '@/lib/systems/booking-rules';
import { loadNextFree, type ApartmentDeps } from '@/lib/views/apartment';
import { rng } from '@/sandbox/seed';
import { describeWithDb } from '@/tests/db';
import { startConnectedSandbox, type ConnectedSandbox } from '@/tests/connected-sandbox';
import { applyWebhookOutcome, listWeekRequests } from './lifecycle';
import { requestBooking, type RequestAnswer, type ReservationDeps } from './requests';
import { clearResidentCache } from './residents';

/**
 * Issue 35, "done when": for each installation's published rules, booked through the portal over
 * real HTTP against a sandbox that enforces the same rules, the portal refuses exactly what the
 * sandbox refuses (a refused candidate is sent to the sandbox directly, which must refuse it with
 * the interface's code), everything the portal sends is booked, and every next free slot the
 * portal suggests is one the sandbox accepts (tried directly, then cancelled).
 */

const secret = `whsec_${randomBytes(32).toString('base64')}`;
const TZ = 'Europe/Stockholm';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

type Verdict = 'booked' | 'QuotaExceeded' | 'OutsideBookingWindow';

describeWithDb('published installations: the portal and a service with the same rules agree booking by booking', (ctx) => {
  let connected: ConnectedSandbox;
  let system: SystemPublic;
  const bus = new InProcessEventBus();
  const manager = { id: randomUUID(), name: 'Rules Manager' };

  beforeAll(async () => {
    connected = await startConnectedSandbox(
      ctx().handle.db,
      // The tiny preset: two rooms, four apartments, two weeks of past bookings (they count in
      // rolling windows) and none ahead. Both sides open bookings 45 days ahead.
      { sql: ctx().handle.sql, preset: 'tiny', seed: 11, webhookRetryScheduleMs: [10], quotaPerGroup: 2, bookingHorizonDays: 45 },
      { webhook: { secret, handle: (request) => handleWebhookRequest(request, { db: ctx().handle.db, bus, secret, applyOutcome: applyWebhookOutcome }) } },
    );
    system = { deviceId: connected.deviceId, name: 'Testgården', timeZone: TZ, status: 'active', bookingHorizonDays: 45, scheduleBasis: 'utc', bookingQuota: 2 , street: null, city: null, area: null };
    // Rules belong to a connected system (system_booking_rules references it).
    const [connection] = await ctx().handle.db.insert(connections).values({ approvalFingerprint: randomUUID(), apiKeyCiphertext: 'x' }).returning({ id: connections.id });
    await ctx().handle.db.insert(systems).values({ deviceId: connected.deviceId, connectionId: connection!.id, name: system.name }).onConflictDoNothing();
  }, 120_000);

  afterAll(() => connected.stop());
  beforeEach(() => clearResidentCache());

  const deps = (): ReservationDeps & ApartmentDeps => ({
    db: ctx().handle.db,
    client: connected.client,
    apiKeyFor: () => Promise.resolve(connected.apiKey),
    bus,
    source: () => Promise.resolve(serviceMirrorSource(connected.client, connected.apiKey)),
    freshnessMs: 600_000,
  });

  async function stateRules(groups: RuleGroup[] | null) {
    await writeBookingRules(ctx().handle.db, connected.deviceId, groups ? { groups } : null);
    const response = await connected.sandbox.fetch(
      new Request(`http://sandbox.test/_sandbox/rules/${connected.deviceId}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(groups ? { timeZone: TZ, groups } : null),
      }),
    );
    expect(response.status).toBe(200);
  }

  /** The sandbox's verdict on a booking sent to it directly, as another client of the service would. */
  async function serviceVerdict(userId: string, slot: { resourceId: string; startTime: string; endTime: string }): Promise<{ verdict: string; reservationId?: string }> {
    const { correlationId } = await connected.client.reservations.create(connected.apiKey, { userId, ...slot });
    await connected.sandbox.drain();
    const answer = (await (await connected.sandbox.fetch(new Request(`http://sandbox.test/_sandbox/requests/${correlationId}`))).json()) as {
      event: { eventData: { succeded: boolean; errorCode: string | null; data?: { reservationId: string } } } | null;
    };
    const data = answer.event?.eventData;
    if (!data) throw new Error(`the sandbox did not process ${correlationId}`);
    return data.succeded ? { verdict: 'booked', reservationId: data.data?.reservationId } : { verdict: data.errorCode ?? 'unknown' };
  }

  async function cancelDirectly(reservationId: string) {
    const { correlationId } = await connected.client.reservations.cancel(connected.apiKey, reservationId);
    await connected.sandbox.drain();
    const answer = (await (await connected.sandbox.fetch(new Request(`http://sandbox.test/_sandbox/requests/${correlationId}`))).json()) as { event: { eventData: { succeded: boolean } } | null };
    expect(answer.event?.eventData.succeded).toBe(true);
  }

  /** Free slots of `rooms` in [fromMs, toMs) as the mirror and the open requests show them. */
  async function freeSlots(rooms: readonly string[], fromMs: number, toMs: number): Promise<(ScheduleSlot & { resourceId: string })[]> {
    const { db } = ctx().handle;
    const [resources, schedules] = await Promise.all([readResources(db, connected.deviceId), readTimeSchedules(db, connected.deviceId)]);
    const out: (ScheduleSlot & { resourceId: string })[] = [];
    for (const resourceId of rooms) {
      const schedule = schedules.find((s) => s.id === resources.find((r) => r.id === resourceId)?.timeScheduleId);
      if (!schedule) continue;
      const booked = await readReservations(db, connected.deviceId, { from: new Date(fromMs - DAY), to: new Date(toMs + DAY), resourceId });
      const { open } = await listWeekRequests(db, connected.deviceId, resourceId, new Date(fromMs - DAY), new Date(toMs + DAY), []);
      const busy = [...booked.map((r) => [Date.parse(r.startTime), Date.parse(r.endTime)]), ...open.map((r) => [Date.parse(r.startTime ?? ''), Date.parse(r.endTime ?? '')])];
      for (const slot of expandRange(schedule.schedule, fromMs, toMs, 'UTC')) {
        if (slot.startMs > fromMs && !busy.some(([s, e]) => s! < slot.endMs && e! > slot.startMs)) out.push({ ...slot, resourceId });
      }
    }
    return out.sort((a, b) => a.startMs - b.startMs);
  }

  /**
   * Books `candidates` one after the other through the portal and checks each verdict against the
   * sandbox's, then checks the portal's next free slots. Returns the verdicts in order.
   */
  async function walk(resident: { userId: string; userGroupId: string }, group: RuleGroup, candidates: (ScheduleSlot & { resourceId: string })[]): Promise<Verdict[]> {
    expect(await checkSuggestions(resident, group), 'next free slots in the group before the walk').toBeGreaterThan(0);
    const verdicts: Verdict[] = [];
    for (const slot of candidates) {
      const input = { deviceId: connected.deviceId, resourceId: slot.resourceId, residentUserId: resident.userId, startTime: slot.startTime, endTime: slot.endTime };
      const answer: unknown = await requestBooking(deps(), { requester: manager, system, idempotencyKey: randomUUID(), input }).catch((e: unknown) => e);
      if (answer instanceof ApiError) {
        // Refused before sending: only by a rule of the group, and the service refuses it too, with the matching code.
        expect(answer.code, `${slot.startTime}: ${answer.reason}`).toBe('unprocessable_entity');
        expect(answer.reason).toMatch(/^group/);
        const expected: Verdict = answer.reason === 'groupDaysAhead' ? 'OutsideBookingWindow' : 'QuotaExceeded';
        const service = await serviceVerdict(resident.userId, slot);
        expect(service.verdict, `the portal refused ${slot.resourceId} ${slot.startTime} (${answer.reason}); the service answered`).toBe(expected);
        verdicts.push(expected);
      } else {
        if (answer instanceof Error) throw answer;
        const sent = answer as RequestAnswer;
        if (!('request' in sent)) throw new Error(`expected 202, got ${sent.status}`);
        await connected.sandbox.drain();
        const { rows } = await ctx().handle.sql.query<{ status: string; error_code: string | null }>(`SELECT status, error_code FROM reservation_requests WHERE id = $1`, [sent.request.id]);
        expect(rows[0], `the portal sent ${slot.resourceId} ${slot.startTime}; the service answered`).toMatchObject({ status: 'succeeded' });
        verdicts.push('booked');
      }
    }
    await checkSuggestions(resident, group);
    return verdicts;
  }

  /** Every next free slot the portal suggests in the group's rooms is one the service accepts now; returns how many were tried. */
  async function checkSuggestions(resident: { userId: string; userGroupId: string }, group: RuleGroup): Promise<number> {
    const next = await loadNextFree(deps(), system, resident.userGroupId, { count: 8 });
    const suggested = next.slots.filter((s) => group.resourceIds.includes(s.resourceId));
    for (const s of suggested) {
      const tried = await serviceVerdict(resident.userId, { resourceId: s.resourceId, startTime: s.startTime, endTime: s.endTime });
      expect(tried.verdict, `the portal suggested ${s.resourceId} ${s.startTime}`).toBe('booked');
      await cancelDirectly(tried.reservationId!);
    }
    // The mirror learns the direct bookings and cancellations as it would from any other client's.
    await refreshSystem(ctx().handle.db, connected.deviceId, serviceMirrorSource(connected.client, connected.apiKey));
    return suggested.length;
  }

  async function setting() {
    const rooms = (await readResources(ctx().handle.db, connected.deviceId)).map((r) => r.id);
    expect(rooms.length).toBeGreaterThanOrEqual(2);
    const residents = connected.fixtures.residents.filter((r) => r.deviceId === connected.deviceId);
    // One apartment per installation, represented by a resident allowed every room.
    const apartments = [...new Map(residents.filter((r) => rooms.every((id) => r.resourceIds.includes(id))).map((r) => [r.userGroupId, r])).values()];
    expect(apartments.length).toBeGreaterThanOrEqual(3);
    return { rooms, apartments };
  }

  const group = (g: Partial<RuleGroup> & Pick<RuleGroup, 'resourceIds'>): RuleGroup => ({ maxFuture: null, perWindow: null, daysAhead: null, maxConsecutive: null, activationMinutes: null, ...g });

  it('a VAKA installation: 2 times in 7 days, 1 at a time, up to 30 days ahead, activated within 30 minutes', async () => {
    const { rooms, apartments } = await setting();
    // The building's laundry rooms under the one rule ("Tvättstuga" as the installation words it).
    const rules = group({ resourceIds: rooms, maxFuture: 1, perWindow: { count: 2, days: 7 }, daysAhead: 30, activationMinutes: 30 });
    await stateRules([rules]);
    try {
      const now = Date.now();
      const free = await freeSlots(rooms, now, now + 36 * DAY);
      const next = rng(35);
      // A slot nine days ahead (no past booking shares a 7-day window with it), the first free one
      // while that is held, slots spread over the weeks, and one beyond 30 days.
      const clear = free.find((s) => s.startMs > now + 9 * DAY)!;
      const spread = Array.from({ length: 8 }, () => free[Math.floor(next() * free.length)]!);
      const far = free.filter((s) => s.startMs > now + 32 * DAY).slice(0, 1);
      const verdicts = await walk(apartments[0]!, rules, [clear, free[0]!, ...spread, ...far]);
      expect(verdicts[0]).toBe('booked');
      expect(verdicts[1]).toBe('QuotaExceeded');
      expect(verdicts.at(-1)).toBe('OutsideBookingWindow');
    } finally {
      await stateRules(null);
    }
  }, 180_000);

  it('rooms 1, 4 and 5 together: at most 4 times in 7 days, 2 at a time, up to 30 days ahead', async () => {
    const { rooms, apartments } = await setting();
    const rules = group({ resourceIds: rooms, maxFuture: 2, perWindow: { count: 4, days: 7 }, daysAhead: 30 });
    await stateRules([rules]);
    try {
      const now = Date.now();
      const free = await freeSlots(rooms, now, now + 36 * DAY);
      const next = rng(45);
      // Nine days ahead, one in each room (the shared "at a time" fills across rooms), a third anywhere, then spread.
      const first = rooms.map((id) => free.find((s) => s.resourceId === id && s.startMs > now + 9 * DAY)!);
      const spread = Array.from({ length: 8 }, () => free[Math.floor(next() * free.length)]!);
      const far = free.filter((s) => s.startMs > now + 32 * DAY).slice(0, 1);
      const verdicts = await walk(apartments[1]!, rules, [...first.slice(0, 2), free[0]!, ...spread, ...far]);
      expect(verdicts.slice(0, 2)).toEqual(['booked', 'booked']);
      expect(verdicts[2]).toBe('QuotaExceeded');
      expect(verdicts.at(-1)).toBe('OutsideBookingWindow');
    } finally {
      await stateRules(null);
    }
  }, 180_000);

  it('the quick laundry room: today or tomorrow only, at most three slots in a row, with a two-hour activation window', async () => {
    const { rooms, apartments } = await setting();
    const room = rooms[0]!;
    const rules = group({ resourceIds: [room], daysAhead: 1, maxConsecutive: 3, activationMinutes: 120 });
    await stateRules([rules]);
    try {
      const now = Date.now();
      const free = await freeSlots([room], now, now + 5 * DAY);
      // Four back-to-back slots (the fourth is one too many in a row wherever they fall within
      // today and tomorrow), then slots further ahead than tomorrow.
      const run = free.findIndex((s, i) => [1, 2, 3].every((k) => free[i + k]?.startMs === free[i + k - 1]!.endMs));
      expect(run).toBeGreaterThanOrEqual(0);
      const later = free.filter((s) => s.startMs > now + 3 * DAY).slice(0, 2);
      const verdicts = await walk(apartments[2]!, rules, [...free.slice(run, run + 4), ...later]);
      expect(verdicts.slice(-2)).toEqual(['OutsideBookingWindow', 'OutsideBookingWindow']);
      expect(verdicts).toContain('booked');
    } finally {
      await stateRules(null);
    }
  }, 180_000);
});
