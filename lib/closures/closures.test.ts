import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { checkSystemAccess } from '@/lib/auth/access';
import { createUser, setManagerSystems } from '@/lib/auth/users';
import { connections, systems } from '@/lib/db/schema';
import { InProcessEventBus } from '@/lib/events/bus';
import { handleWebhookRequest } from '@/lib/events/receive';
import type { PortalEvent } from '@/lib/events/types';
import { serviceMirrorSource } from '@/lib/mirror/service-source';
import { readReservations, readResources, readTimeSchedules } from '@/lib/mirror/store';
import { applyWebhookOutcome, listWeekRequests } from '@/lib/reservations/lifecycle';
import { requestBooking, type RequestAnswer } from '@/lib/reservations/requests';
import { reconcilePending } from '@/lib/reservations/reconcile';
import { clearResidentCache } from '@/lib/reservations/residents';
import { expandRange, type ScheduleSlot } from '@/lib/schedule';
import { wallClock } from '@/lib/schedule/zoned';
import { weekKeyOf } from '@/lib/schedule/week';
import { loadResourceWeek } from '@/lib/views/resource-week';
import type { SystemPublic } from '@/lib/systems/schemas';
import { type Sandbox, type SandboxFixtures } from '@/sandbox';
import { startConnectedSandbox, type ConnectedSandbox } from '@/tests/connected-sandbox';
import { describeWithDb } from '@/tests/db';
import { apiErrorText } from '@/tests/message-text';
import { closureCancelKey, createClosure, liftClosure, previewClosure, readClosureView, runClosure, runClosureJob, type ClosureDeps } from './closures';
import { readClosure } from './store';
import { resumeClosures } from './worker';
import type { ClosureInput } from './schemas';

const secret = `whsec_${randomBytes(32).toString('base64')}`;
const DAY = 86_400_000;
const ZONE = 'Europe/Stockholm';

/** "2026-11-24T13:00" in the system's zone, as the form's datetime-local input gives it. */
const local = (ms: number) => {
  const w = wallClock(ms, ZONE);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${w.year}-${two(w.month)}-${two(w.day)}T${two(w.hour)}:${two(w.minute)}`;
};

async function thrown(promise: Promise<unknown>): Promise<{ code: string; text: string }> {
  try {
    await promise;
  } catch (error) {
    return { code: (error as { code: string }).code, text: apiErrorText(error) };
  }
  throw new Error('expected a refusal');
}

describeWithDb('room closures', (ctx) => {
  let sandbox: Sandbox;
  let fixtures: SandboxFixtures;
  let connected: ConnectedSandbox;
  let deviceId: string;
  let system: SystemPublic;
  let bus: InProcessEventBus;
  let published: PortalEvent[];
  const writes: string[] = [];
  let manager: { id: string; name: string };
  let stranger: { id: string; name: string; email: string; role: 'manager' };

  beforeAll(async () => {
    connected = await startConnectedSandbox(
      ctx().handle.db,
      { sql: ctx().handle.sql, preset: 'demo', seed: 7, webhookRetryScheduleMs: [10], quotaPerGroup: 4 },
      {
        webhook: { secret, handle: (request) => handleWebhookRequest(request, { db: ctx().handle.db, bus, secret, applyOutcome: applyWebhookOutcome }) },
        observe: (request) => {
          if (request.method !== 'GET' && new URL(request.url).pathname.startsWith('/v1/reservations')) writes.push(`${request.method} ${new URL(request.url).pathname}`);
        },
      },
    );
    ({ sandbox, fixtures, deviceId } = connected);
    const { db } = ctx().handle;
    const [connection] = await db.insert(connections).values({ approvalFingerprint: randomUUID(), apiKeyCiphertext: 'x' }).returning({ id: connections.id });
    await db.insert(systems).values({ deviceId, connectionId: connection!.id, name: 'Closure system', timeZone: ZONE, bookingQuota: 4 });
    const user = await createUser(db, { email: `${randomUUID()}@example.com`, name: 'Closing Manager', role: 'manager', passwordHash: 'x' });
    await setManagerSystems(db, user.id, [deviceId]);
    manager = { id: user.id, name: user.name };
    const other = await createUser(db, { email: `${randomUUID()}@example.com`, name: 'Other Manager', role: 'manager', passwordHash: 'x' });
    stranger = { id: other.id, name: other.name, email: other.email, role: 'manager' };
    system = { deviceId, name: 'Closure system', timeZone: ZONE, status: 'active', bookingHorizonDays: 28, scheduleBasis: 'utc', bookingQuota: 4 , street: null, city: null, area: null };
  }, 120_000);

  afterAll(() => connected.stop());

  beforeEach(() => {
    bus = new InProcessEventBus();
    published = [];
    bus.subscribe((e) => published.push(e));
    writes.length = 0;
    clearResidentCache();
  });

  const deps = (extra: Partial<ClosureDeps> = {}): ClosureDeps => ({
    db: ctx().handle.db,
    client: connected.client,
    apiKeyFor: () => Promise.resolve(connected.apiKey),
    bus,
    source: () => Promise.resolve(serviceMirrorSource(connected.client, connected.apiKey)),
    ...extra,
  });
  const requestOf = (answer: RequestAnswer) => {
    if (!('request' in answer)) throw new Error(`expected 202, got ${answer.status}: ${answer.error.message}`);
    return answer.request;
  };

  /**
   * Two back-to-back free slots of one day (an afternoon's worth) at least `daysAhead` days ahead, in
   * a room a resident may book, the resident's apartment holding at most one booking there.
   */
  async function twoSlots(daysAhead: number, used: Set<string>) {
    const { db } = ctx().handle;
    const resources = await readResources(db, deviceId);
    const schedules = await readTimeSchedules(db, deviceId);
    const from = Date.now() + daysAhead * DAY;
    const to = from + 10 * DAY;
    for (const resident of fixtures.residents.filter((r) => r.deviceId === deviceId)) {
      for (const resource of resources.filter((r) => resident.resourceIds.includes(r.id) && !used.has(r.id))) {
        const held = await readReservations(db, deviceId, { from: new Date(), to: new Date(Date.now() + 60 * DAY), resourceId: resource.id });
        if (held.filter((r) => r.ownerId === resident.userGroupId || r.userId === resident.userId).length > 1) continue;
        const schedule = schedules.find((s) => s.id === resource.timeScheduleId);
        if (!schedule) continue;
        const { open } = await listWeekRequests(db, deviceId, resource.id, new Date(from), new Date(to), []);
        const taken = [...held.map((r) => [Date.parse(r.startTime), Date.parse(r.endTime)]), ...open.map((r) => [Date.parse(r.startTime ?? ''), Date.parse(r.endTime ?? '')])];
        const free = (s: ScheduleSlot) => !taken.some(([a, b]) => a! < s.endMs && b! > s.startMs);
        const slots = expandRange(schedule.schedule, from, to, 'UTC');
        for (let i = 0; i + 1 < slots.length; i++) {
          const [a, b] = [slots[i]!, slots[i + 1]!];
          if (b.startMs === a.endMs && free(a) && free(b) && local(a.startMs).slice(0, 10) === local(b.endMs - 1).slice(0, 10)) {
            used.add(resource.id);
            return { resident, resource, slots: [a, b] as const };
          }
        }
      }
    }
    throw new Error('no two free slots in one day in the demo data');
  }

  async function bookBoth(s: Awaited<ReturnType<typeof twoSlots>>): Promise<string[]> {
    for (const slot of s.slots) {
      requestOf(
        await requestBooking(deps(), {
          requester: manager,
          system,
          idempotencyKey: `book-${randomUUID()}`,
          input: { deviceId, resourceId: s.resource.id, residentUserId: s.resident.userId, startTime: slot.startTime, endTime: slot.endTime },
        }),
      );
    }
    await sandbox.drain();
    const booked = await readReservations(ctx().handle.db, deviceId, { from: new Date(s.slots[0].startMs), to: new Date(s.slots[1].endMs), resourceId: s.resource.id });
    expect(booked).toHaveLength(2);
    writes.length = 0;
    return booked.map((r) => r.id);
  }

  const inputFor = (s: Awaited<ReturnType<typeof twoSlots>>, reason = 'Pipe repair'): ClosureInput => ({
    resourceIds: [s.resource.id],
    from: local(s.slots[0].startMs),
    to: local(s.slots[1].endMs),
    reason,
  });
  const used = new Set<string>();

  it('closes an afternoon: both bookings cancelled through requests that name the closure; bookings there are then refused', async () => {
    const s = await twoSlots(2, used);
    const ids = await bookBoth(s);
    const input = inputFor(s);

    const preview = await previewClosure(deps(), system, input);
    expect(preview.bookings.map((b) => b.reservationId).sort()).toEqual([...ids].sort());
    expect(preview.bookings.every((b) => b.willCancel && b.resourceName === s.resource.name)).toBe(true);
    expect(preview.toCancel).toBe(2);
    // Each holder named as the e-mail and the Requests page name them, not "A resident" (issue 30 item 8).
    expect(preview.bookings.map((b) => b.residentName)).toEqual([s.resident.name, s.resident.name]);
    expect(writes).toEqual([]);

    const key = `close-${randomUUID()}`;
    const created = await createClosure(deps(), { requester: manager, system, input, idempotencyKey: key });
    expect(created.fresh).toBe(true);
    expect(created.closure.progress.total).toBe(2);
    await created.job;
    expect(writes.sort()).toEqual(ids.map((id) => `DELETE /v1/reservations/${id}`).sort());
    await sandbox.drain();

    const view = await readClosureView(ctx().handle.db, system, created.closure.id);
    expect(view.status).toBe('done');
    expect(view.progress).toMatchObject({ total: 2, cancelled: 2, failed: 0, sent: 0, skipped: 0 });
    expect(view.items.map((i) => i.state)).toEqual(['cancelled', 'cancelled']);
    const { rows } = await ctx().handle.sql.query<{ closure_id: string; kind: string; idempotency_key: string; requested_by: string }>(
      'SELECT closure_id, kind, idempotency_key, requested_by FROM reservation_requests WHERE closure_id = $1 ORDER BY idempotency_key',
      [created.closure.id],
    );
    expect(rows.map((r) => r.idempotency_key)).toEqual(ids.map((id) => closureCancelKey(created.closure.id, id)).sort());
    expect(rows.every((r) => r.kind === 'cancel' && r.requested_by === manager.id)).toBe(true);
    // Each resident is told by the closure's own e-mail, with its reason, once (lib/mail's outbox).
    const mail = await ctx().handle.sql.query<{ reservation_id: string; kind: string; reason: string | null; closure_id: string | null }>(
      "SELECT reservation_id, kind, facts->>'reason' AS reason, closure_id FROM mail_outbox WHERE reservation_id = ANY($1::uuid[]) AND kind <> 'booked' ORDER BY reservation_id",
      [ids],
    );
    expect(mail.rows).toEqual([...ids].sort().map((id) => ({ reservation_id: id, kind: 'closed', reason: 'Pipe repair', closure_id: created.closure.id })));
    // The clients follow the closure's requests from the events.
    expect(published.filter((e) => e.data.closureId === created.closure.id && e.data.status === 'succeeded')).toHaveLength(2);
    expect(await readReservations(ctx().handle.db, deviceId, { from: new Date(s.slots[0].startMs), to: new Date(s.slots[1].endMs), resourceId: s.resource.id })).toEqual([]);

    // The same key again: the same closure, nothing sent again.
    writes.length = 0;
    const again = await createClosure(deps(), { requester: manager, system, input, idempotencyKey: key });
    expect(again).toMatchObject({ fresh: false, closure: { id: created.closure.id } });
    // The job run again (or the worker finding it): no second request, no upstream call.
    await runClosureJob(deps(), created.closure.id);
    const row = await readClosure(ctx().handle.db, deviceId, created.closure.id);
    await runClosure(deps(), row!);
    expect(await resumeClosures(deps())).toBe(0);
    expect(writes).toEqual([]);
    const count = await ctx().handle.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM reservation_requests WHERE closure_id = $1', [created.closure.id]);
    expect(count.rows[0]?.n).toBe(2);

    // A booking of the now free slot is refused with the closure's reason and period.
    const refusal = await thrown(
      requestBooking(deps(), {
        requester: manager,
        system,
        idempotencyKey: `book-${randomUUID()}`,
        input: { deviceId, resourceId: s.resource.id, residentUserId: s.resident.userId, startTime: s.slots[0].startTime, endTime: s.slots[0].endTime },
      }),
    );
    expect(refusal.code).toBe('unprocessable_entity');
    expect(refusal.text).toMatch(new RegExp(`^${s.resource.name} is closed .+ \\(Pipe repair\\); the slot .+ cannot be booked\\.$`));
    expect(writes).toEqual([]);

    // The grid shows the closed slots "Closed: reason", not bookable; the other slots are untouched.
    const viewDeps = { db: ctx().handle.db, source: deps().source, freshnessMs: 60_000 };
    const week = await loadResourceWeek(viewDeps, system, s.resource.id, weekKeyOf(s.slots[0].startMs, ZONE));
    const inClosure = week.slots.filter((slot) => slot.startMs < s.slots[1].endMs && slot.endMs > s.slots[0].startMs);
    expect(inClosure.map((slot) => [slot.bookable, slot.closed?.reason])).toEqual([
      [false, 'Pipe repair'],
      [false, 'Pipe repair'],
    ]);
    expect(week.slots.filter((slot) => slot.closed).length).toBe(2);

    // Lifted: the slot may be booked again (the cancelled bookings are not restored).
    const lifted = await liftClosure(ctx().handle.db, system, created.closure.id, manager);
    expect(lifted.liftedAt).not.toBeNull();
    expect((await thrown(liftClosure(ctx().handle.db, system, created.closure.id, manager))).code).toBe('conflict');
    requestOf(
      await requestBooking(deps(), {
        requester: manager,
        system,
        idempotencyKey: `book-${randomUUID()}`,
        input: { deviceId, resourceId: s.resource.id, residentUserId: s.resident.userId, startTime: s.slots[0].startTime, endTime: s.slots[0].endTime },
      }),
    );
    await sandbox.drain();
  }, 60_000);

  it('resumes a closure interrupted after its first booking without cancelling anything twice', async () => {
    const s = await twoSlots(5, used);
    const ids = await bookBoth(s);
    // Created, but its job not started (the process died before): the worker picks it up.
    const created = await createClosure(deps({ startJob: () => Promise.resolve() }), {
      requester: manager,
      system,
      input: inputFor(s, 'Floor drying'),
      idempotencyKey: `close-${randomUUID()}`,
    });
    expect(created.closure).toMatchObject({ status: 'cancelling', progress: { total: 2, waiting: 2 } });

    // The first run stops after one booking (a shutdown) and lets go of the closure.
    let sent = 0;
    await runClosureJob(deps(), created.closure.id, () => sent++ >= 1);
    expect(writes).toHaveLength(1);
    const midway = await readClosureView(ctx().handle.db, system, created.closure.id);
    expect(midway.status).toBe('cancelling');
    expect(midway.progress).toMatchObject({ total: 2, waiting: 1 });

    // The worker continues it: one more cancellation, the other one is not sent again.
    expect(await resumeClosures(deps())).toBe(1);
    expect(writes.sort()).toEqual(ids.map((id) => `DELETE /v1/reservations/${id}`).sort());
    await sandbox.drain();
    const done = await readClosureView(ctx().handle.db, system, created.closure.id);
    expect(done).toMatchObject({ status: 'done', progress: { total: 2, cancelled: 2 } });
    expect(await resumeClosures(deps())).toBe(0);
    expect(writes).toHaveLength(2);
  }, 60_000);

  it('a booking gone before the job reached it counts as already gone, not failed, and does not stop the others', async () => {
    const s = await twoSlots(8, used);
    const ids = await bookBoth(s);
    const created = await createClosure(deps({ startJob: () => Promise.resolve() }), {
      requester: manager,
      system,
      input: inputFor(s, 'Painting'),
      idempotencyKey: `close-${randomUUID()}`,
    });
    // One of them leaves the service (and the mirror) before the job runs.
    await ctx().handle.sql.query('DELETE FROM mirror_reservations WHERE id = $1', [ids[0]]);
    await runClosureJob(deps(), created.closure.id);
    await sandbox.drain();
    const view = await readClosureView(ctx().handle.db, system, created.closure.id);
    expect(view).toMatchObject({ status: 'done', progress: { total: 2, cancelled: 1, skipped: 1, failed: 0 } });
    expect(view.items.find((i) => i.reservationId === ids[0])?.state).toBe('gone');
    expect(writes).toEqual([`DELETE /v1/reservations/${ids[1]}`]);
  }, 60_000);

  it('a cancellation whose answer was lost stays "sent — waiting"; the reconciler re-sends it and only then is the closure done', async () => {
    const s = await twoSlots(18, new Set<string>());
    const ids = await bookBoth(s);
    const created = await createClosure(deps({ startJob: () => Promise.resolve() }), {
      requester: manager,
      system,
      input: inputFor(s, 'Leak'),
      idempotencyKey: `close-${randomUUID()}`,
    });
    // The service answers the first cancellation 503 before doing anything: its effect is unknown.
    await sandbox.fetch(
      new Request('http://sandbox.test/_sandbox/faults', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ failures: [{ status: 503, times: 1, method: 'DELETE', pathPrefix: '/v1/reservations' }] }) }),
    );
    try {
      await runClosureJob(deps(), created.closure.id);
    } finally {
      await sandbox.fetch(new Request('http://sandbox.test/_sandbox/faults', { method: 'DELETE' }));
    }
    await sandbox.drain();
    const waiting = await readClosureView(ctx().handle.db, system, created.closure.id);
    // Not "done" with a booking still held, and not "failed" either.
    expect(waiting).toMatchObject({ status: 'cancelling', progress: { total: 2, cancelled: 1, sent: 1, failed: 0 } });
    const held = waiting.items.find((i) => i.state === 'sent');
    expect(held && ids.includes(held.reservationId)).toBe(true);

    // Past the window the reconciler finds the booking still held and sends the cancellation again.
    writes.length = 0;
    const reconcile = { db: ctx().handle.db, client: connected.client, apiKeyFor: () => Promise.resolve(connected.apiKey), bus };
    await reconcilePending(reconcile, { afterSeconds: 0, unknownAfterSeconds: 0 });
    expect(writes).toEqual([`DELETE /v1/reservations/${held?.reservationId}`]);
    await sandbox.drain();
    const done = await readClosureView(ctx().handle.db, system, created.closure.id);
    expect(done).toMatchObject({ status: 'done', progress: { total: 2, cancelled: 2, failed: 0 } });
    const left = await readReservations(ctx().handle.db, deviceId, { from: new Date(s.slots[0].startMs), to: new Date(s.slots[1].endMs), resourceId: s.resource.id });
    expect(left).toEqual([]);
  }, 60_000);

  it('refuses bad periods and unknown rooms with a sentence, storing nothing', async () => {
    const { db } = ctx().handle;
    const [room] = await readResources(db, deviceId);
    const count = async () => (await ctx().handle.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM room_closures')).rows[0]?.n;
    const before = await count();
    const start = Date.now() + 3 * DAY;
    const base = { resourceIds: [room!.id], reason: 'x' };
    const cases: [ClosureInput, RegExp][] = [
      [{ ...base, from: local(start + 3_600_000), to: local(start) }, /ends before or when it starts/],
      [{ ...base, from: local(start), to: local(start) }, /ends before or when it starts/],
      [{ ...base, from: local(start), to: local(start + 91 * DAY) }, /at most 90 days/],
      [{ ...base, from: local(Date.now() - 2 * DAY), to: local(Date.now() - DAY) }, /already over/],
      [{ ...base, from: local(Date.now() - 3_600_000), to: local(start) }, /starts in the past; it may start at most 15 minutes before now/],
      [{ ...base, from: '2026-02-30T10:00', to: local(start) }, /^The start must be a date and time such as/],
      [{ ...base, from: local(start), to: 'soon' }, /^The end must be a date and time such as/],
      [{ ...base, resourceIds: [randomUUID()], from: local(start), to: local(start + 3_600_000) }, /^A room chosen is not a room of Closure system\.$/],
    ];
    for (const [input, text] of cases) {
      const refusal = await thrown(createClosure(deps(), { requester: manager, system, input, idempotencyKey: `close-${randomUUID()}` }));
      expect(refusal.code).toBe('unprocessable_entity');
      expect(refusal.text).toMatch(text);
      expect((await thrown(previewClosure(deps(), system, input))).text).toMatch(text);
    }
    expect(await count()).toBe(before);
    expect(writes).toEqual([]);
  });

  it('a manager of other systems is refused the system (403), as every system route does', async () => {
    const refusal = await thrown(checkSystemAccess(ctx().handle.db, stranger, deviceId));
    expect(refusal.code).toBe('forbidden');
    await expect(checkSystemAccess(ctx().handle.db, { ...stranger, id: manager.id }, deviceId)).resolves.toMatchObject({ deviceId });
  });
});
