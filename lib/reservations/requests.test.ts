import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { ApiError, renderApiError } from '@/lib/errors/api-error';

import { describeWithDb } from '@/tests/db';
import { InProcessEventBus } from '@/lib/events/bus';
import { handleWebhookRequest } from '@/lib/events/receive';
import type { PortalEvent } from '@/lib/events/types';
import { readReservations, readResources, readTimeSchedules } from '@/lib/mirror/store';
import { expandRange } from '@/lib/schedule';
import { BreakerRegistry, createServiceClient, type ServiceClient } from '@/lib/service';
import { type Sandbox, type SandboxFixtures } from '@/sandbox';
import { startConnectedSandbox, type ConnectedSandbox } from '@/tests/connected-sandbox';
import { writeBookingRules } from '@/lib/systems/booking-rules';
import { connections, systems } from '@/lib/db/schema';
import type { RuleGroup } from '@/lib/booking-rules';
import { apartmentNumber } from '@/lib/i18n/format';
import { reconcilePending, resendDelaySeconds } from './reconcile';
import { applyWebhookOutcome, listWeekRequests } from './lifecycle';
import { parseIdempotencyKey, requestBooking, requestCancellation, type RequestAnswer, type ReservationDeps } from './requests';
import { clearResidentCache, findResident } from './residents';
import { bookingInputSchema, cancellationInputSchema } from './schemas';

const english = (error: unknown) => renderApiError(error as ApiError, 'en');

const secret = `whsec_${randomBytes(32).toString('base64')}`;
const DAY = 86_400_000;

describeWithDb('booking and cancelling on behalf of residents', (ctx) => {
  let sandbox: Sandbox;
  let fixtures: SandboxFixtures;
  let client: ServiceClient;
  let apiKey: string;
  let deviceId: string;
  let subscriptionId: string;
  let bus: InProcessEventBus;
  let published: PortalEvent[];
  const writes: string[] = [];
  // The portal counts the same quota as the sandbox's (quotaPerGroup below).
  const system = () => ({ deviceId, name: 'Test system', timeZone: 'Europe/Stockholm', bookingQuota: 3 });
  const manager = { id: randomUUID(), name: 'Test Manager' };

  let connected: ConnectedSandbox;

  beforeAll(async () => {
    connected = await startConnectedSandbox(
      ctx().handle.db,
      // A quota of 3 per apartment and room: the demo's own bookings (placed relative to today)
      // leave few apartments with none, and a test books up to two more.
      { sql: ctx().handle.sql, preset: 'demo', seed: 1, webhookRetryScheduleMs: [10], quotaPerGroup: 3 },
      {
        webhook: { secret, handle: (request) => handleWebhookRequest(request, { db: ctx().handle.db, bus, secret, applyOutcome: applyWebhookOutcome }) },
        observe: (request) => {
          if (request.method !== 'GET' && new URL(request.url).pathname.startsWith('/v1/reservations')) writes.push(`${request.method} ${new URL(request.url).pathname}`);
        },
      },
    );
    ({ sandbox, fixtures, client, deviceId, apiKey } = connected);
    subscriptionId = connected.subscriptionId ?? '';
  }, 120_000);

  afterAll(() => connected.stop());

  beforeEach(() => {
    bus = new InProcessEventBus();
    published = [];
    bus.subscribe((e) => published.push(e));
    writes.length = 0;
    clearResidentCache();
  });

  const deps = (): ReservationDeps => ({ db: ctx().handle.db, client, apiKeyFor: () => Promise.resolve(apiKey), bus });
  /** A client of the in-process sandbox through `fetch` (which may spoil answers), with its own breakers. */
  const clientVia = (fetch: (request: Request) => Promise<Response>, overrides: { timeoutMs?: number } = {}) =>
    createServiceClient({
      baseUrl: 'http://sandbox.test',
      tokenUrl: `http://sandbox.test${fixtures.tokenPath}`,
      clientId: fixtures.clientId,
      clientSecret: fixtures.clientSecret,
      scope: fixtures.scope,
      breaker: { registry: new BreakerRegistry() },
      fetch,
      ...overrides,
    });
  const key = () => `test-${randomUUID()}`;
  const requestOf = (answer: RequestAnswer) => {
    if (!('request' in answer)) throw new Error(`expected 202, got ${answer.status}: ${answer.error.message}`);
    return answer.request;
  };

  /**
   * A resident of the system with the first resource they may book and a few free future slots there,
   * their apartment holding at most `maxHeld` future bookings in it (so two more fit under the quota).
   */
  async function scenario(skip = 0, maxHeld = 1) {
    const { db } = ctx().handle;
    const residents = fixtures.residents.filter((r) => r.deviceId === deviceId);
    const resources = await readResources(db, deviceId);
    const schedules = await readTimeSchedules(db, deviceId);
    const from = Date.now() + DAY;
    const to = Date.now() + 20 * DAY;
    for (const resident of residents.slice(skip)) {
      for (const resource of resources.filter((r) => resident.resourceIds.includes(r.id))) {
        const booked = await readReservations(db, deviceId, { from: new Date(Date.now()), to: new Date(Date.now() + 60 * DAY), resourceId: resource.id });
        // The quota counts the apartment's bookings: its group's and those of every resident in it.
        const members = new Set(residents.filter((r) => r.userGroupId === resident.userGroupId).map((r) => r.userId));
        const held = booked.filter((r) => r.ownerId === resident.userGroupId || (r.ownerId !== null && members.has(r.ownerId)) || (r.userId !== null && members.has(r.userId)));
        if (held.length > maxHeld) continue;
        const schedule = schedules.find((s) => s.id === resource.timeScheduleId);
        if (!schedule) continue;
        const { open } = await listWeekRequests(db, deviceId, resource.id, new Date(from), new Date(to), []);
        const free = expandRange(schedule.schedule, from, to, 'UTC').filter(
          (slot) =>
            !booked.some((r) => Date.parse(r.startTime) < slot.endMs && Date.parse(r.endTime) > slot.startMs) &&
            !open.some((r) => Date.parse(r.startTime ?? '') < slot.endMs && Date.parse(r.endTime ?? '') > slot.startMs),
        );
        if (free.length >= 4) return { resident, resource, free, booked };
      }
    }
    throw new Error('no bookable scenario in the demo data');
  }

  const book = (s: Awaited<ReturnType<typeof scenario>>, slotIndex: number, idempotencyKey = key()) => {
    const slot = s.free[slotIndex];
    if (!slot) throw new Error('no such free slot');
    return requestBooking(deps(), {
      requester: manager,
      system: system(),
      idempotencyKey,
      input: { deviceId, resourceId: s.resource.id, residentUserId: s.resident.userId, startTime: slot.startTime, endTime: slot.endTime },
    });
  };

  it('books a free slot: 202 pending with one upstream call, then booked in the request and the mirror', async () => {
    const s = await scenario();
    const request = requestOf(await book(s, 0));
    expect(request).toMatchObject({ status: 'pending', kind: 'create', residentUserId: s.resident.userId, resourceName: s.resource.name, requestedByName: manager.name });
    expect(writes).toEqual(['POST /v1/reservations']);
    expect(published.map((e) => e.data.status)).toEqual(['pending']);

    await sandbox.drain();
    const { rows } = await ctx().handle.sql.query('SELECT status, reservation_id FROM reservation_requests WHERE id = $1', [request.id]);
    expect(rows[0]?.status).toBe('succeeded');
    expect(published.map((e) => e.data.status)).toEqual(['pending', 'succeeded']);
    const slot = s.free[0];
    const mirrored = await readReservations(ctx().handle.db, deviceId, { from: new Date(slot?.startMs ?? 0), to: new Date(slot?.endMs ?? 0), resourceId: s.resource.id });
    expect(mirrored.map((r) => r.id)).toEqual([rows[0]?.reservation_id]);
    expect(mirrored[0]).toMatchObject({ ownerType: 'Group', ownerId: s.resident.userGroupId, userId: s.resident.userId });

    // Cancelling it frees the slot again.
    const cancel = requestOf(
      await requestCancellation(deps(), { requester: manager, system: system(), idempotencyKey: key(), input: cancellationInputSchema.parse({ deviceId, reservationId: rows[0]?.reservation_id }) }),
    );
    expect(cancel).toMatchObject({ status: 'pending', kind: 'cancel' });
    expect(writes).toEqual(['POST /v1/reservations', `DELETE /v1/reservations/${String(rows[0]?.reservation_id)}`]);
    await sandbox.drain();
    const after = await readReservations(ctx().handle.db, deviceId, { from: new Date(slot?.startMs ?? 0), to: new Date(slot?.endMs ?? 0), resourceId: s.resource.id });
    expect(after).toEqual([]);
    expect(published.at(-1)?.data).toMatchObject({ id: cancel.id, status: 'succeeded' });
  });

  it('keeps the manager\'s note with a booking: stored, in the request view, and as the booked reservation\'s origin', async () => {
    const s = await scenario();
    const slot = s.free[0];
    if (!slot) throw new Error('no slot');
    const input = bookingInputSchema.parse({ deviceId, resourceId: s.resource.id, residentUserId: s.resident.userId, startTime: slot.startTime, endTime: slot.endTime, note: '  Asked at the door, has no app ' });
    const request = requestOf(await requestBooking(deps(), { requester: manager, system: system(), idempotencyKey: key(), input }));
    expect(request.note).toBe('Asked at the door, has no app');
    await sandbox.drain();
    const { rows } = await ctx().handle.sql.query<{ note: string | null; reservation_id: string }>('SELECT note, reservation_id FROM reservation_requests WHERE id = $1', [request.id]);
    expect(rows[0]?.note).toBe('Asked at the door, has no app');
    const reservationId = rows[0]?.reservation_id ?? '';
    const { origins } = await listWeekRequests(ctx().handle.db, deviceId, s.resource.id, new Date(slot.startMs), new Date(slot.endMs), [reservationId, randomUUID()]);
    expect(origins).toEqual([
      { reservationId, requestedByName: manager.name, requestedAt: request.createdAt, residentName: request.residentName ?? null, note: 'Asked at the door, has no app' },
    ]);
    // A booking without a note has none.
    const plain = requestOf(await book(s, 1));
    expect(plain.note).toBeNull();
    await sandbox.drain();
    // Give both back: the later tests draw on the same twelve residents' quotas.
    const { rows: made } = await ctx().handle.sql.query<{ reservation_id: string }>('SELECT reservation_id FROM reservation_requests WHERE id = ANY($1::uuid[])', [[request.id, plain.id]]);
    for (const { reservation_id: reservationId } of made) {
      requestOf(await requestCancellation(deps(), { requester: manager, system: system(), idempotencyKey: key(), input: cancellationInputSchema.parse({ deviceId, reservationId }) }));
    }
    await sandbox.drain();
  });

  it('answers a repeated Idempotency-Key with the first answer and no second upstream call', async () => {
    const s = await scenario();
    const idempotencyKey = key();
    const first = requestOf(await book(s, 1, idempotencyKey));
    const again = requestOf(await book(s, 1, idempotencyKey));
    expect(again.id).toBe(first.id);
    // The same request with upper-case ids is the same request.
    const slot = s.free[1];
    const upper = requestOf(
      await requestBooking(deps(), {
        requester: manager, system: system(), idempotencyKey,
        input: bookingInputSchema.parse({ deviceId: deviceId.toUpperCase(), resourceId: s.resource.id.toUpperCase(), residentUserId: s.resident.userId.toUpperCase(), startTime: slot?.startTime, endTime: slot?.endTime }),
      }),
    );
    expect(upper.id).toBe(first.id);
    expect(writes).toHaveLength(1);
    // The same key for another slot is refused, not answered with the first booking.
    await expect(book(s, 2, idempotencyKey)).rejects.toMatchObject({ code: 'unprocessable_entity', reason: 'idempotencyKeyReused' });
    expect(writes).toHaveLength(1);
    await sandbox.drain();
  });

  it('makes one upstream call for a double submit sent at once', async () => {
    const s = await scenario();
    const idempotencyKey = key();
    const answers = await Promise.all([book(s, 2, idempotencyKey), book(s, 2, idempotencyKey), book(s, 2, idempotencyKey)]);
    const ids = new Set(answers.map((a) => requestOf(a).id));
    expect(ids.size).toBe(1);
    expect(writes).toEqual(['POST /v1/reservations']);
    const { rows } = await ctx().handle.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM reservation_requests WHERE idempotency_key = $1', [idempotencyKey]);
    expect(rows[0]?.n).toBe(1);
    await sandbox.drain();
  });

  it('refuses a time that is not a slot (422), a taken slot (409) and another pending booking of the slot (409), storing nothing', async () => {
    const s = await scenario();
    const { db, sql } = ctx().handle;
    const count = async () => Number((await sql.query<{ n: number }>('SELECT count(*)::int AS n FROM reservation_requests')).rows[0]?.n);
    const before = await count();
    const slot = s.free[3];
    if (!slot) throw new Error('no slot');
    const shifted = new Date(slot.startMs + 60_000).toISOString().slice(0, 16) + 'Z';
    const input = { deviceId, resourceId: s.resource.id, residentUserId: s.resident.userId, startTime: shifted, endTime: slot.endTime };
    const notASlot = await requestBooking(deps(), { requester: manager, system: system(), idempotencyKey: key(), input }).catch((e: unknown) => e);
    expect(notASlot).toBeInstanceOf(ApiError);
    expect(notASlot).toMatchObject({ code: 'unprocessable_entity' });
    expect(await english(notASlot)).toMatch(/^\w+day \d+ \w+ at \d\d:\d\d–\d\d:\d\d is not a booking slot of /);
    // The slot's day and time in the language of whoever is answered, not the one it was refused in.
    expect(await renderApiError(notASlot as ApiError, 'sv')).toMatch(/^\p{L}+dag \d+ \p{L}+ kl\. \d\d:\d\d–\d\d:\d\d är inte ett bokningspass i /u);

    const taken = (await readReservations(db, deviceId, { from: new Date(Date.now() + DAY), to: new Date(Date.now() + 20 * DAY), resourceId: s.resource.id })).find(
      (r) => r.ownerType !== 'Service',
    );
    if (taken) {
      const error = await requestBooking(deps(), {
        requester: manager, system: system(), idempotencyKey: key(),
        input: { deviceId, resourceId: s.resource.id, residentUserId: s.resident.userId, startTime: taken.startTime, endTime: taken.endTime },
      }).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'conflict' });
    expect(await english(error)).toMatch(/already booked/);
    }
    expect(await count()).toBe(before);
    expect(writes).toEqual([]);

    // A pending booking covers its slot until its outcome arrives.
    requestOf(await book(s, 3));
    const other = { id: randomUUID(), name: 'Other Manager' };
    const second = await requestBooking(deps(), {
      requester: other, system: system(), idempotencyKey: key(),
      input: { deviceId, resourceId: s.resource.id, residentUserId: s.resident.userId, startTime: slot.startTime, endTime: slot.endTime },
    }).catch((e: unknown) => e);
    expect(second).toMatchObject({ code: 'conflict' });
    expect(await english(second)).toMatch(/already on its way/);
    expect(writes).toHaveLength(1);
    await sandbox.drain();
  });

  it("refuses a slot beyond the system's booking horizon before sending (422 with a sentence), and honours a longer horizon", async () => {
    const s = await scenario();
    const schedule = (await readTimeSchedules(ctx().handle.db, deviceId)).find((t) => t.id === s.resource.timeScheduleId);
    const far = expandRange(schedule?.schedule ?? [], Date.now() + 180 * DAY, Date.now() + 190 * DAY, 'UTC')[0];
    if (!far) throw new Error('no slot half a year ahead');
    const input = { deviceId, resourceId: s.resource.id, residentUserId: s.resident.userId, startTime: far.startTime, endTime: far.endTime };
    const error = await requestBooking(deps(), { requester: manager, system: system(), idempotencyKey: key(), input }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'unprocessable_entity' });
    expect(await english(error)).toMatch(/is too far ahead: .* can be booked at most 28 days in advance\./);
    // Within the default 28 days but beyond a system's own 7.
    const week2 = s.free.find((slot) => slot.endMs > Date.now() + 8 * DAY);
    if (!week2) throw new Error('no free slot in the second week');
    const shorter = await requestBooking(deps(), {
      requester: manager, system: { ...system(), bookingHorizonDays: 7 }, idempotencyKey: key(),
      input: { ...input, startTime: week2.startTime, endTime: week2.endTime },
    }).catch((e: unknown) => e);
    expect(shorter).toMatchObject({ code: 'unprocessable_entity' });
    expect(await english(shorter)).toMatch(/at most 7 days in advance/);
    expect(writes).toEqual([]);
  });

  it('refuses a resident who is not a user of the system, or not allowed that resource, with a clear message', async () => {
    const s = await scenario();
    const slot = s.free[0];
    const error = await requestBooking(deps(), {
      requester: manager, system: system(), idempotencyKey: key(),
      input: bookingInputSchema.parse({ deviceId, resourceId: s.resource.id, residentUserId: randomUUID(), startTime: slot?.startTime, endTime: slot?.endTime }),
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'unprocessable_entity' });
    expect(await english(error)).toMatch(/is not a user of Test system/);

    const resources = await readResources(ctx().handle.db, deviceId);
    const excluded = fixtures.residents
      .filter((r) => r.deviceId === deviceId)
      .map((r) => ({ r, missing: resources.find((x) => !r.resourceIds.includes(x.id)) }))
      .find((x) => x.missing);
    if (excluded?.missing) {
      const schedule = (await readTimeSchedules(ctx().handle.db, deviceId)).find((t) => t.id === excluded.missing?.timeScheduleId);
      const free = expandRange(schedule?.schedule ?? [], Date.now() + 21 * DAY, Date.now() + 25 * DAY, 'UTC')[0];
      const refused = await requestBooking(deps(), {
        requester: manager, system: system(), idempotencyKey: key(),
        input: bookingInputSchema.parse({ deviceId, resourceId: excluded.missing.id, residentUserId: excluded.r.userId, startTime: free?.startTime, endTime: free?.endTime }),
      }).catch((e: unknown) => e);
      expect(refused).toMatchObject({ code: 'unprocessable_entity' });
    expect(await english(refused)).toMatch(/is not allowed to book/);
    }
    expect(writes).toEqual([]);
  });

  it('refuses a booking over the quota before anything is sent, counting pending requests too', async () => {
    const s = await scenario(3, 0);
    const held = s.booked.filter((r) => r.ownerType !== 'Service' && (r.ownerId === s.resident.userGroupId || r.userId === s.resident.userId)).length;
    const fits = 3 - held;
    // Still pending (not drained): the open requests count as held.
    for (let i = 0; i < fits; i++) requestOf(await book(s, i));
    writes.length = 0;
    const refused = await book(s, fits).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ code: 'unprocessable_entity', reason: 'quotaExceeded' });
    expect(await english(refused)).toBe(`Apartment ${s.resident.apartmentId} already holds 3 of 3 future bookings in ${s.resource.name}; the service would refuse another.`);
    expect(await renderApiError(refused as ApiError, 'sv')).toBe(
      `Lägenhet ${s.resident.apartmentId} har redan 3 av 3 kommande bokningar i ${s.resource.name}; tjänsten skulle neka en till.`,
    );
    expect(writes).toEqual([]);
    await sandbox.drain();
  });

  it('applies a stated rule group instead of the quota per room, exactly as a service with the same rules does (issue 35)', async () => {
    const s = await scenario(8, 0);
    const held = s.booked.filter((r) => r.ownerType !== 'Service' && (r.ownerId === s.resident.userGroupId || r.userId === s.resident.userId)).length;
    const group = (g: Partial<RuleGroup>): RuleGroup => ({ resourceIds: [s.resource.id], maxFuture: null, perWindow: null, daysAhead: null, maxConsecutive: null, activationMinutes: null, ...g });
    // The rules belong to a connected system (system_booking_rules references it).
    const [connection] = await ctx().handle.db.insert(connections).values({ approvalFingerprint: randomUUID(), apiKeyCiphertext: 'x' }).returning({ id: connections.id });
    await ctx().handle.db.insert(systems).values({ deviceId, connectionId: connection!.id, name: 'Test system' }).onConflictDoNothing();
    const stateRules = async (rules: RuleGroup[] | null) => {
      await writeBookingRules(ctx().handle.db, deviceId, rules ? { groups: rules } : null);
      const response = await sandbox.fetch(
        new Request(`http://sandbox.test/_sandbox/rules/${deviceId}`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(rules ? { timeZone: 'Europe/Stockholm', groups: rules } : null),
        }),
      );
      expect(response.status).toBe(200);
    };
    try {
      // "Only today": every free slot of the scenario is a day or more ahead.
      await stateRules([group({ daysAhead: 0 })]);
      const ahead = await book(s, 0).catch((e: unknown) => e);
      expect(ahead).toMatchObject({ code: 'unprocessable_entity', reason: 'groupDaysAhead' });
      expect(await english(ahead)).toMatch(new RegExp(`is too far ahead: ${s.resource.name} can be booked for today only\\.$`));
      expect(await renderApiError(ahead as ApiError, 'sv')).toMatch(new RegExp(`ligger för långt fram: ${s.resource.name} kan bokas bara för i dag\\.$`));
      expect(writes).toEqual([]);

      // Two more at a time than the quota per room (3) would allow: the portal sends them, and the service books them.
      const limit = 3 + 1;
      await stateRules([group({ maxFuture: limit })]);
      const sent = [];
      for (let i = 0; i < limit - held; i++) sent.push(requestOf(await book(s, i)));
      await sandbox.drain();
      const { rows } = await ctx().handle.sql.query<{ status: string }>('SELECT status FROM reservation_requests WHERE id = ANY($1::uuid[])', [sent.map((r) => r.id)]);
      expect(rows.map((r) => r.status)).toEqual(sent.map(() => 'succeeded'));
      writes.length = 0;
      const over = await book(s, limit - held).catch((e: unknown) => e);
      expect(over).toMatchObject({ code: 'unprocessable_entity', reason: 'groupMaxFuture' });
      expect(await english(over)).toBe(`Apartment ${apartmentNumber(s.resident.apartmentId)} already holds ${limit} of ${limit} bookings at a time in ${s.resource.name}; the service would refuse another.`);
      expect(writes).toEqual([]);
    } finally {
      await stateRules(null);
    }
  });

  it('reports a booking over the quota with the reason in plain words when the service refuses it', async () => {
    // The portal believes in a quota of 4, the service holds 3: its QuotaExceeded comes back as a reason.
    const s = await scenario(4, 0);
    const generous = { ...system(), bookingQuota: 4 };
    const held = s.booked.filter((r) => r.ownerType !== 'Service' && (r.ownerId === s.resident.userGroupId || r.userId === s.resident.userId)).length;
    const bookSlot = (i: number) => {
      const slot = s.free[i]!;
      return requestBooking(deps(), {
        requester: manager, system: generous, idempotencyKey: key(),
        input: { deviceId, resourceId: s.resource.id, residentUserId: s.resident.userId, startTime: slot.startTime, endTime: slot.endTime },
      });
    };
    for (let i = 0; i < 3 - held; i++) requestOf(await bookSlot(i));
    await sandbox.drain();
    const fourth = requestOf(await bookSlot(3 - held));
    await sandbox.drain();
    const outcome = published.filter((e) => e.data.id === fourth.id).at(-1)?.data;
    expect(outcome?.status).toBe('failed');
    expect(outcome?.errorCode).toBe('QuotaExceeded');
    expect(outcome?.reason).toMatchObject({ key: 'outcomes.reason.quotaExceeded', values: { who: 'apartment', apartment: s.resident.apartmentId, quota: 3, room: s.resource.name } });
  });

  it('a failed send is stored with its reason and answered the same to a repeated key', async () => {
    const s = await scenario(6);
    await sandbox.fetch(new Request('http://sandbox.test/_sandbox/faults', {
      method: 'PUT', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ failures: [{ status: 400, times: 1, method: 'POST', pathPrefix: '/v1/reservations' }] }),
    }));
    const idempotencyKey = key();
    try {
      const first = await book(s, 0, idempotencyKey).catch((e: unknown) => e);
      expect(first).toMatchObject({ code: 'unprocessable_entity' });
      const again = await book(s, 0, idempotencyKey);
      expect(again).toMatchObject({ status: 422, error: { message: await english(first), reason: (first as ApiError).reason, text: (first as ApiError).text } });
      expect(writes).toHaveLength(1);
      expect(published.at(-1)?.data).toMatchObject({ status: 'failed', errorCode: 'NotSent' });
    } finally {
      await sandbox.fetch(new Request('http://sandbox.test/_sandbox/faults', { method: 'DELETE' }));
    }
  });

  it('keeps a request whose send timed out open, and lets the reconciler settle it from the reservations', async () => {
    const s = await scenario(1);
    const slot = s.free[0];
    if (!slot) throw new Error('no slot');
    const impatient = clientVia((request) => sandbox.fetch(request), { timeoutMs: 300 });
    // Warm the resident lookups, then make the service slow to answer: the booking is made, the answer is lost.
    await findResident(client, apiKey, deviceId, s.resident.userId);
    await impatient.resources.list(apiKey, deviceId).toArray({ limit: 1000 });
    await sandbox.fetch(new Request('http://sandbox.test/_sandbox/faults', {
      method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ hang: { ms: 800, pathPrefix: '/v1/reservations' } }),
    }));
    let answer: RequestAnswer;
    try {
      answer = await requestBooking({ ...deps(), client: impatient }, {
        requester: manager, system: system(), idempotencyKey: key(),
        input: { deviceId, resourceId: s.resource.id, residentUserId: s.resident.userId, startTime: slot.startTime, endTime: slot.endTime },
      });
      await new Promise((r) => setTimeout(r, 1_000));
    } finally {
      await sandbox.fetch(new Request('http://sandbox.test/_sandbox/faults', { method: 'DELETE' }));
    }
    // Not "failed": the service may have booked it. The answer is 202, sent and waiting for the service's truth.
    const request = requestOf(answer);
    expect(request).toMatchObject({ status: 'pending', outcomeUnknown: true });
    expect(published.filter((e) => e.data.id === request.id).map((e) => e.data.status)).toEqual(['pending']);
    await sandbox.drain();
    const made = (await client.reservations.forUser(apiKey, s.resident.userId)).some(
      (r) => r.resourceId === s.resource.id && Date.parse(r.startTime) === slot.startMs,
    );
    // The sandbox finished the booking after the client gave up: exactly the case a "failed" would misreport.
    expect(made).toBe(true);
    const events = await reconcilePending(deps(), 0);
    expect(events.find((e) => e.data.id === request.id)?.data).toMatchObject({ status: 'succeeded' });
  });

  const setFaults = (faults: unknown) =>
    sandbox.fetch(new Request('http://sandbox.test/_sandbox/faults', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(faults) }));
  const clearFaults = () => sandbox.fetch(new Request('http://sandbox.test/_sandbox/faults', { method: 'DELETE' }));
  /** Books the scenario's first free slot while the sandbox has these faults (the resident looked up before). */
  const bookUnder = async (faults: unknown, s: Awaited<ReturnType<typeof scenario>>) => {
    await findResident(client, apiKey, deviceId, s.resident.userId);
    await setFaults(faults);
    try {
      return requestOf(await book(s, 0));
    } finally {
      await clearFaults();
    }
  };

  // Each way an answer can be lost after the service took the booking: never "failed", always the truth.
  it('reads the correlation id of a cut-off 202, so its webhook settles it with the real outcome', async () => {
    const s = await scenario(2);
    const request = await bookUnder({ afterAccept: { mode: 'unreadable', times: 1 } }, s);
    expect(request).toMatchObject({ status: 'pending', outcomeUnknown: false });
    await sandbox.drain();
    const { rows } = await ctx().handle.sql.query<{ status: string }>('SELECT status FROM reservation_requests WHERE id = $1', [request.id]);
    expect(rows[0]?.status).toBe('succeeded');
  });

  it('leaves a booking answered with a 202 that names nothing (an HTML page) pending, and settles it from the reservations', async () => {
    const s = await scenario(2);
    const garbling = clientVia(async (request) => {
      const response = await sandbox.fetch(request);
      if (request.method !== 'POST' || new URL(request.url).pathname !== '/v1/reservations') return response;
      return new Response('<html><body>Accepted</body></html>', { status: 202, headers: { 'content-type': 'text/html' } });
    });
    await findResident(client, apiKey, deviceId, s.resident.userId);
    const slot = s.free[0];
    const request = requestOf(
      await requestBooking({ ...deps(), client: garbling }, {
        requester: manager, system: system(), idempotencyKey: key(),
        input: bookingInputSchema.parse({ deviceId, resourceId: s.resource.id, residentUserId: s.resident.userId, startTime: slot?.startTime, endTime: slot?.endTime }),
      }),
    );
    expect(request).toMatchObject({ status: 'pending', outcomeUnknown: true });
    await sandbox.drain();
    const events = await reconcilePending(deps(), { afterSeconds: 3600, unknownAfterSeconds: 0 });
    expect(events.find((e) => e.data.id === request.id)?.data).toMatchObject({ status: 'succeeded' });
  });

  it.each([
    ['a 500 after acting', { mode: 'status', status: 500 }],
    ['a 502 after acting', { mode: 'status', status: 502 }],
    ['a connection broken after acting', { mode: 'reset' }],
  ])('leaves a booking answered with %s pending, and settles it as booked from the reservations', async (_name, afterAccept) => {
    const s = await scenario(2);
    const slot = s.free[0];
    if (!slot) throw new Error('no slot');
    const request = await bookUnder({ afterAccept: { ...afterAccept, times: 1 } }, s);
    expect(request).toMatchObject({ status: 'pending', outcomeUnknown: true });
    await sandbox.drain();
    // Its webhook carries a correlation id the portal never learned: stored, matched to nothing yet.
    const { rows: stray } = await ctx().handle.sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM webhook_events w WHERE applied_at IS NULL AND NOT EXISTS (SELECT 1 FROM reservation_requests r WHERE r.correlation_id = w.correlation_id)`,
    );
    expect(stray[0]?.n).toBeGreaterThan(0);
    const events = await reconcilePending(deps(), { afterSeconds: 3600, unknownAfterSeconds: 0 });
    const settled = events.find((e) => e.data.id === request.id)?.data;
    expect(settled).toMatchObject({ status: 'succeeded', outcomeUnknown: false });
    // The stray outcome now belongs to the request.
    const { rows } = await ctx().handle.sql.query<{ correlation_id: string | null }>('SELECT correlation_id FROM reservation_requests WHERE id = $1', [request.id]);
    expect(rows[0]?.correlation_id).toBeTruthy();
    const { rows: applied } = await ctx().handle.sql.query<{ applied_at: unknown }>('SELECT applied_at FROM webhook_events WHERE correlation_id = $1', [rows[0]?.correlation_id]);
    expect(applied[0]?.applied_at).toBeTruthy();
    const mirrored = await readReservations(ctx().handle.db, deviceId, { from: new Date(slot.startMs), to: new Date(slot.endMs), resourceId: s.resource.id });
    expect(mirrored.map((r) => r.id)).toEqual([settled?.reservationId]);
  });

  it('keeps an unknown outcome pending while the service may still be processing it, and calls it not made only after the window', async () => {
    const s = await scenario(2);
    // A 503 the service answered before doing anything; the portal cannot know that.
    const request = await bookUnder({ failures: [{ status: 503, times: 1, method: 'POST', pathPrefix: '/v1/reservations' }] }, s);
    expect(request).toMatchObject({ status: 'pending', outcomeUnknown: true });
    expect(await reconcilePending(deps(), { afterSeconds: 3600, unknownAfterSeconds: 0 })).toEqual([]);
    expect((await ctx().handle.sql.query('SELECT status FROM reservation_requests WHERE id = $1', [request.id])).rows[0]?.status).toBe('pending');
    const events = await reconcilePending(deps(), { afterSeconds: 0, unknownAfterSeconds: 0 });
    expect(events.find((e) => e.data.id === request.id)?.data).toMatchObject({ status: 'failed', reason: { key: 'outcomes.reason.noOutcome', values: { kind: 'create' } } });
  });

  /** Books the scenario's slot `slotIndex` and waits for it: the reservation id of a booking to cancel. */
  const booked = async (s: Awaited<ReturnType<typeof scenario>>, slotIndex: number) => {
    const request = requestOf(await book(s, slotIndex));
    await sandbox.drain();
    const { rows } = await ctx().handle.sql.query<{ reservation_id: string }>('SELECT reservation_id FROM reservation_requests WHERE id = $1 AND status = $2', [request.id, 'succeeded']);
    if (!rows[0]) throw new Error('the booking to cancel was not made');
    return rows[0].reservation_id;
  };
  const stillHeld = async (userId: string, reservationId: string) => (await client.reservations.forUser(apiKey, userId)).some((r) => r.id === reservationId);
  const requestRow = async (id: string) =>
    (await ctx().handle.sql.query<{ status: string; resends: number; resend_after: Date | null; error_code: string | null }>('SELECT status, resends, resend_after, error_code FROM reservation_requests WHERE id = $1', [id])).rows[0];

  it('re-sends a cancellation whose send never reached the service (answer lost) under the same request, until the booking is gone', async () => {
    const s = await scenario(3);
    const reservationId = await booked(s, 0);
    // A 503 the service answered before doing anything: the effect is unknown to the portal.
    await setFaults({ failures: [{ status: 503, times: 1, method: 'DELETE', pathPrefix: '/v1/reservations' }] });
    let cancel;
    try {
      cancel = requestOf(await requestCancellation(deps(), { requester: manager, system: system(), idempotencyKey: key(), input: cancellationInputSchema.parse({ deviceId, reservationId }) }));
    } finally {
      await clearFaults();
    }
    expect(cancel).toMatchObject({ status: 'pending', outcomeUnknown: true });
    await sandbox.drain();
    expect(await stillHeld(s.resident.userId, reservationId)).toBe(true);
    // Past the window, with the booking still held: sent again, never "failed".
    writes.length = 0;
    const events = await reconcilePending(deps(), { afterSeconds: 0, unknownAfterSeconds: 0 });
    expect(events.filter((e) => e.data.id === cancel.id && e.data.status === 'failed')).toEqual([]);
    expect(writes).toEqual([`DELETE /v1/reservations/${reservationId}`]);
    const resent = await requestRow(cancel.id);
    expect(resent).toMatchObject({ status: 'pending', resends: 1 });
    expect(resent?.resend_after?.getTime()).toBeGreaterThan(Date.now());
    // Not looked at again before its backoff: no second send.
    expect(await reconcilePending(deps(), { afterSeconds: 0, unknownAfterSeconds: 0 })).toEqual([]);
    expect(writes).toHaveLength(1);
    // The re-send's outcome settles the same request.
    await sandbox.drain();
    expect(await requestRow(cancel.id)).toMatchObject({ status: 'succeeded' });
    expect(await stillHeld(s.resident.userId, reservationId)).toBe(false);
  });

  it('backs off between re-sends while the service stays down, then settles from the truth', async () => {
    const s = await scenario(4);
    const reservationId = await booked(s, 0);
    await setFaults({ failures: [{ status: 503, times: 3, method: 'DELETE', pathPrefix: '/v1/reservations' }] });
    let cancel;
    try {
      cancel = requestOf(await requestCancellation(deps(), { requester: manager, system: system(), idempotencyKey: key(), input: cancellationInputSchema.parse({ deviceId, reservationId }) }));
      expect(await reconcilePending(deps(), { afterSeconds: 0, unknownAfterSeconds: 0 })).toEqual([]);
      expect(await requestRow(cancel.id)).toMatchObject({ status: 'pending', resends: 1 });
      // Its backoff over (moved back here rather than waited for), it is sent again.
      await ctx().handle.sql.query(`UPDATE reservation_requests SET resend_after = now() - interval '1 second' WHERE id = $1`, [cancel.id]);
      await reconcilePending(deps(), { afterSeconds: 0, unknownAfterSeconds: 0 });
      expect(await requestRow(cancel.id)).toMatchObject({ status: 'pending', resends: 2 });
    } finally {
      await clearFaults();
    }
    await ctx().handle.sql.query(`UPDATE reservation_requests SET resend_after = now() - interval '1 second' WHERE id = $1`, [cancel.id]);
    await reconcilePending(deps(), { afterSeconds: 0, unknownAfterSeconds: 0 });
    await sandbox.drain();
    expect(await requestRow(cancel.id)).toMatchObject({ status: 'succeeded', resends: 3 });
    expect(await stillHeld(s.resident.userId, reservationId)).toBe(false);
  });

  it('answers a definite refusal (429) as not sent at once, with the reason', async () => {
    const s = await scenario(2);
    await findResident(client, apiKey, deviceId, s.resident.userId);
    await setFaults({ failures: [{ status: 429, times: 1, method: 'POST', pathPrefix: '/v1/reservations', retryAfterSeconds: 9 }] });
    try {
      const error = await book(s, 0).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'rate_limited' });
    expect(await english(error)).toMatch(/busy/);
    } finally {
      await clearFaults();
    }
    expect(published.at(-1)?.data).toMatchObject({ status: 'failed', errorCode: 'NotSent' });
  });

  it('reconciles requests whose outcome never arrived from the reservations', async () => {
    const s = await scenario(9);
    // No deliveries: the subscription is gone.
    await sandbox.fetch(new Request(`http://sandbox.test/_sandbox/webhooks/${subscriptionId}`, { method: 'DELETE' }));
    const made = requestOf(await book(s, 0));
    await sandbox.drain();
    // An accepted request the service lost: no reservation will ever exist for it.
    const lost = requestOf(await book(s, 1));
    await ctx().handle.sql.query(`DELETE FROM sandbox.requests WHERE processed_at IS NULL`);
    await sandbox.drain();
    expect((await ctx().handle.sql.query('SELECT status FROM reservation_requests WHERE id = $1', [made.id])).rows[0]?.status).toBe('pending');

    // Not yet old enough: nothing happens.
    expect(await reconcilePending(deps(), 3600)).toEqual([]);
    const [a, b] = await Promise.all([reconcilePending(deps(), 0), reconcilePending(deps(), 0)]);
    const events = [...(a ?? []), ...(b ?? [])];
    // Single-flight: each request resolved once, however many sweepers ran.
    expect(events.map((e) => e.data.id).sort()).toEqual([made.id, lost.id].sort());
    const byId = new Map(events.map((e) => [e.data.id, e.data]));
    expect(byId.get(made.id)).toMatchObject({ status: 'succeeded' });
    expect(byId.get(made.id)?.reservationId).toBeTruthy();
    expect(byId.get(lost.id)).toMatchObject({ status: 'failed', reason: { key: 'outcomes.reason.noOutcome', values: { kind: 'create' } } });
    const slot = s.free[0];
    const mirrored = await readReservations(ctx().handle.db, deviceId, { from: new Date(slot?.startMs ?? 0), to: new Date(slot?.endMs ?? 0), resourceId: s.resource.id });
    expect(mirrored.map((r) => r.id)).toEqual([byId.get(made.id)?.reservationId]);
  });
  it('books and reconciles through a service that has only the interface document (no users/fetch, no users/{id}/reservations)', async () => {
    // Under the quota: an apartment may already hold one booking here.
    const s = await scenario(0, 1);
    clearResidentCache();
    const beyond = (path: string) => path.startsWith('/v1/reservations/users/fetch/') || /^\/v1\/reservations\/users\/[^/]+\/reservations$/.test(path);
    const interfaceOnly = clientVia(async (request) =>
      beyond(new URL(request.url).pathname)
        ? new Response(JSON.stringify({ title: 'Not Found', status: 404 }), { status: 404, headers: { 'content-type': 'application/problem+json' } })
        : sandbox.fetch(request),
    );
    const slot = s.free[0];
    // The outcome is held back: the reconciler must find the booking in the system's list.
    await setFaults({ webhook: { delayMs: 3_600_000 } });
    const request = requestOf(
      await requestBooking({ ...deps(), client: interfaceOnly }, {
        requester: manager, system: system(), idempotencyKey: key(),
        input: bookingInputSchema.parse({ deviceId, resourceId: s.resource.id, residentUserId: s.resident.userId, startTime: slot?.startTime, endTime: slot?.endTime }),
      }),
    );
    expect(request.status).toBe('pending');
    await sandbox.drain();
    await clearFaults();
    const events = await reconcilePending({ ...deps(), client: interfaceOnly }, { afterSeconds: 0, unknownAfterSeconds: 0 });
    expect(events.find((e) => e.data.id === request.id)?.data).toMatchObject({ status: 'succeeded' });
  });
});

it('validates the Idempotency-Key header', () => {
  expect(parseIdempotencyKey('a-b_c:d.e-123')).toBe('a-b_c:d.e-123');
  expect(() => parseIdempotencyKey(null)).toThrow(expect.objectContaining({ code: 'bad_request', reason: 'idempotencyKeyMissing' }));
  expect(() => parseIdempotencyKey('')).toThrow(expect.objectContaining({ reason: 'idempotencyKeyMissing' }));
  expect(() => parseIdempotencyKey('x'.repeat(201))).toThrow(expect.objectContaining({ reason: 'idempotencyKeyTooLong', text: { key: 'errors.idempotencyKeyTooLong', values: { max: 200 } } }));
  expect(() => parseIdempotencyKey('has space')).toThrow(expect.objectContaining({ reason: 'idempotencyKeyCharacters' }));
});

it('re-sends cancellations with a backoff that doubles up to five minutes', () => {
  expect([0, 1, 2, 3].map((n) => resendDelaySeconds(n, 10))).toEqual([10, 20, 40, 80]);
  expect(resendDelaySeconds(5, 10)).toBe(300);
  expect(resendDelaySeconds(1_000, 10)).toBe(300);
  expect(resendDelaySeconds(0, 0)).toBe(1);
});
