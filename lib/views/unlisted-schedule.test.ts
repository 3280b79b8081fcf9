import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { describeWithDb } from '@/tests/db';
import { craftedClient } from '@/tests/crafted-service';
import { ApiError, renderApiError } from '@/lib/errors/api-error';
import { InProcessEventBus } from '@/lib/events/bus';
import { refreshSystem } from '@/lib/mirror/refresh';
import { serviceMirrorSource } from '@/lib/mirror/service-source';
import { requestBooking } from '@/lib/reservations/requests';
import { bookingInputSchema } from '@/lib/reservations/schemas';
import type { SystemPublic } from '@/lib/systems/schemas';
import type { ViewDeps } from './freshness';
import { loadResourceWeek } from './resource-week';

// Issue 47, item 3: a room whose schedule the service does not list showed "No slots this week."
// and none of its bookings.

const DEVICE = '5d0c3c1a-4747-4a2b-9c3d-000000000001';
const WEEK = 'a0000000-4747-4000-8000-000000000001';
const UNLISTED = 'a0000000-4747-4000-8000-0000000000ff';
const LISTED_ROOM = 'b0000000-4747-4000-8000-000000000001';
const UNLISTED_ROOM = 'b0000000-4747-4000-8000-000000000002';
const NAMELESS_ROOM = 'b0000000-4747-4000-8000-000000000003';
const GROUP = 'c0000000-4747-4000-8000-000000000001';
const r = (n: number) => `d0000000-4747-4000-8000-${String(n).padStart(12, '0')}`;
const NOW = new Date('2026-11-24T08:00:00Z'); // Tuesday of 2026-W48

const booking = (n: number, start: string, end: string, extra: Record<string, unknown> = {}) => ({
  id: r(n), userId: null, ownerId: GROUP, ownerType: 'Group', status: 'Unused', resourceId: UNLISTED_ROOM, startTime: start, endTime: end, deviceId: DEVICE, ...extra,
});

const client = craftedClient({
  [`/v1/reservations/timeschedules/${DEVICE}/all`]: { timeSchedules: [{ id: WEEK, deviceId: DEVICE, scheduleType: 'Week', schedule: Array.from({ length: 7 }, () => [[360, 180]]) }], continuationToken: null },
  [`/v1/reservations/resources/${DEVICE}/all`]: {
    resources: [
      { id: LISTED_ROOM, name: 'Tvättstuga 1', description: '', deviceId: DEVICE, timeScheduleId: WEEK },
      { id: UNLISTED_ROOM, name: 'Tvättstuga Gården', description: '', deviceId: DEVICE, timeScheduleId: UNLISTED },
      { id: NAMELESS_ROOM, name: 'Torkrum', description: '', deviceId: DEVICE },
    ],
    continuationToken: null,
  },
  [`/v1/usergroups/${DEVICE}/all`]: { userGroups: [{ id: GROUP, name: 'Lgh 1203', apartmentId: '1203', referenceId: '', deviceId: DEVICE }], continuationToken: null },
  [`/v1/reservations/${DEVICE}/all`]: {
    reservations: [
      booking(1, '2026-11-23T06:00Z', '2026-11-23T09:00Z', { status: 'Used' }),
      booking(2, '2026-11-24T12:30Z', '2026-11-24T14:00Z'),
      booking(3, '2026-11-25T06:00Z', '2026-11-25T09:00Z'),
      booking(4, '2026-11-27T17:00Z', '2026-11-27T19:30Z'),
      booking(5, '2026-11-29T10:00Z', '2026-11-29T11:00Z', { ownerType: 'Service', ownerId: null }),
      // The week after: not in this week's view.
      booking(6, '2026-12-01T06:00Z', '2026-12-01T09:00Z'),
      booking(7, '2026-11-24T06:00Z', '2026-11-24T09:00Z', { resourceId: LISTED_ROOM }),
    ],
    continuationToken: null,
  },
});

const system: SystemPublic = { deviceId: DEVICE, name: 'Testgården', timeZone: 'Europe/Stockholm', status: 'active', bookingHorizonDays: 28, scheduleBasis: 'utc', bookingQuota: 2 , street: null, city: null, area: null };

describeWithDb('a room whose schedule the service does not list', (ctx) => {
  const deps = (): ViewDeps => ({ db: ctx().handle.db, source: () => Promise.resolve(serviceMirrorSource(client, 'key')), freshnessMs: 3_600_000, now: () => NOW });

  it('shows its bookings of the week at their own times, says why, and offers no slot', async () => {
    await refreshSystem(ctx().handle.db, DEVICE, serviceMirrorSource(client, 'key'));
    const view = await loadResourceWeek(deps(), system, UNLISTED_ROOM, '2026-W48');
    expect(view.noListedSchedule).toBe(true);
    expect(view.resource?.name).toBe('Tvättstuga Gården');
    expect(view.slots.map((s) => [s.startTime, s.endTime, s.state, s.reservation?.id ?? null])).toEqual([
      ['2026-11-23T06:00Z', '2026-11-23T09:00Z', 'used', r(1)],
      ['2026-11-24T12:30Z', '2026-11-24T14:00Z', 'booked', r(2)],
      ['2026-11-25T06:00Z', '2026-11-25T09:00Z', 'booked', r(3)],
      ['2026-11-27T17:00Z', '2026-11-27T19:30Z', 'booked', r(4)],
      ['2026-11-29T10:00Z', '2026-11-29T11:00Z', 'maintenance', r(5)],
    ]);
    expect(view.slots.some((s) => s.bookable)).toBe(false);
    // A room naming no schedule at all reads the same; a room with one is as before.
    const nameless = await loadResourceWeek(deps(), system, NAMELESS_ROOM, '2026-W48');
    expect([nameless.noListedSchedule, nameless.slots]).toEqual([true, []]);
    const listed = await loadResourceWeek(deps(), system, LISTED_ROOM, '2026-W48');
    expect(listed.noListedSchedule).toBeUndefined();
    expect(listed.slots).toHaveLength(7);
    expect(listed.slots.some((s) => s.bookable)).toBe(true);
  });

  it('refuses a booking there with a sentence, before anything is sent', async () => {
    let sent = 0;
    const watching = craftedClient({}, { observe: () => (sent += 1) });
    const input = bookingInputSchema.parse({ deviceId: DEVICE, resourceId: UNLISTED_ROOM, residentUserId: randomUUID(), startTime: '2026-11-26T06:00Z', endTime: '2026-11-26T09:00Z' });
    const refused = await requestBooking(
      { db: ctx().handle.db, client: watching, apiKeyFor: () => Promise.resolve('key'), bus: new InProcessEventBus(), now: () => NOW },
      { requester: { id: randomUUID(), name: 'Manager' }, system, idempotencyKey: `unlisted-${randomUUID()}`, input },
    ).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ code: 'unprocessable_entity' });
    expect(await renderApiError(refused as ApiError, 'en')).toBe(
      'The booking system lists no time schedule for Tvättstuga Gården that the portal can read, so Thursday 26 November at 07:00–10:00 cannot be booked here. Book it in the booking system itself.',
    );
    expect(await renderApiError(refused as ApiError, 'sv')).toMatch(/^Bokningssystemet anger inget tidsschema för Tvättstuga Gården som portalen kan läsa, så .+ kan inte bokas här\./);
    expect(sent).toBe(0);
  });
});
