import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { connections, roomClosures, systems } from '@/lib/db/schema';
import { beforeAll, expect, it } from 'vitest';
import { waitForRefresh } from '@/lib/mirror/refresh';
import { serviceMirrorSource } from '@/lib/mirror/service-source';
import { claimRequest } from '@/lib/reservations/lifecycle';
import type { SystemPublic } from '@/lib/systems/schemas';
import { craftedClient, type CraftedBody } from '@/tests/crafted-service';
import { countingDb, describeWithDb } from '@/tests/db';
import { buildingParams, loadBuildingView, parseDay } from './building';
import type { ViewDeps } from './freshness';

const DEVICE = '5d0c3c1a-2222-4a2b-9c3d-000000000020';
const DAILY = 'a0000000-0000-4000-8000-000000000020';
const MONDAYS = 'a0000000-0000-4000-8000-000000000021';
const ROOM_A = 'b0000000-0000-4000-8000-000000000021';
const ROOM_B = 'b0000000-0000-4000-8000-000000000022';
const ROOM_C = 'b0000000-0000-4000-8000-000000000023';
const GROUP_1 = 'c0000000-0000-4000-8000-000000000021';
const r = (n: number) => `d0000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
// Local wall-clock slots (the system's basis is 'local'): 07–10, 10–13 and 23:00–02:00 next day.
const DAY_SLOTS = [[420, 180], [600, 180], [1380, 180]];

function mirror(): Record<string, CraftedBody> {
  const d = DEVICE;
  return {
    [`/v1/reservations/timeschedules/${d}/all`]: {
      timeSchedules: [
        { id: DAILY, deviceId: d, scheduleType: 'Week', schedule: Array.from({ length: 7 }, () => DAY_SLOTS) },
        { id: MONDAYS, deviceId: d, scheduleType: 'Week', schedule: [[[420, 180]], [], [], [], [], [], []] },
      ],
      continuationToken: null,
    },
    [`/v1/reservations/resources/${d}/all`]: {
      resources: [
        { id: ROOM_A, name: 'Laundry room A', description: 'Basement', deviceId: d, timeScheduleId: DAILY },
        { id: ROOM_B, name: 'Laundry room B', description: '', deviceId: d, timeScheduleId: DAILY },
        { id: ROOM_C, name: 'Drying room', description: '', deviceId: d, timeScheduleId: MONDAYS },
      ],
    },
    [`/v1/usergroups/${d}/all`]: {
      userGroups: [{ id: GROUP_1, name: 'Apt 1203', apartmentId: '1203', referenceId: 'REF-1', deviceId: d }],
      continuationToken: null,
    },
    [`/v1/reservations/${d}/all`]: {
      reservations: [
        // Saturday 28 March 23:00 to Sunday 02:00 local, across midnight and the spring change
        // (02:00 does not exist that night: the slot ends at 03:00 CEST = 01:00Z).
        { id: r(1), userId: null, ownerId: GROUP_1, ownerType: 'Group', status: 'Unused', resourceId: ROOM_A, startTime: '2026-03-28T22:00:00Z', endTime: '2026-03-29T01:00:00Z', deviceId: d },
        // Maintenance on Sunday morning in room A (07:00–10:00 CEST).
        { id: r(2), userId: null, ownerId: null, ownerType: 'Service', status: 'Unused', resourceId: ROOM_A, startTime: '2026-03-29T05:00:00Z', endTime: '2026-03-29T08:00:00Z', deviceId: d },
      ],
      continuationToken: null,
    },
  };
}

const system: SystemPublic = { deviceId: DEVICE, name: 'Building', timeZone: 'Europe/Stockholm', status: 'active', bookingHorizonDays: 28, scheduleBasis: 'local', bookingQuota: 2 , street: null, city: null, area: null };
// Saturday 28 March 2026, 11:00 local: the clocks go forward that night.
const NOW = new Date('2026-03-28T10:00:00Z');

describeWithDb('the building view', (ctx) => {
  let deps: ViewDeps;

  beforeAll(async () => {
    const client = craftedClient(mirror());
    deps = { db: ctx().handle.db, source: () => Promise.resolve(serviceMirrorSource(client, 'key')), freshnessMs: 3_600_000, now: () => NOW };
    const loading = await loadBuildingView(deps, system, { day: undefined, mode: 'day', onlyFree: false, roomId: undefined });
    expect(loading.freshness.status).toBe('loading');
    expect(loading.rooms).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 0));
    await waitForRefresh(DEVICE);
    // An open booking request (sent, no outcome yet) for room B on Sunday 10:00–13:00 CEST.
    const claimed = await claimRequest(ctx().handle.db, {
      kind: 'create',
      deviceId: DEVICE,
      resourceId: ROOM_B,
      residentUserId: randomUUID(),
      reservationId: null,
      startTime: '2026-03-29T08:00:00.000Z',
      endTime: '2026-03-29T11:00:00.000Z',
      requestedBy: randomUUID(),
      requestedByName: 'Desk Manager',
      idempotencyKey: randomUUID(),
      residentName: 'Ann Resident',
      residentApartment: '1204',
      residentGroupId: null,
      resourceName: 'Laundry room B',
      note: null,
    });
    expect('fresh' in claimed && claimed.fresh).toBe(true);
  }, 60_000);

  it('shows every room for today: states, owners, the midnight-crossing slot on the day it starts, and the booking rules', async () => {
    const view = await loadBuildingView(deps, system, { day: undefined, mode: 'day', onlyFree: false, roomId: undefined });
    expect(view.day.date).toBe('2026-03-28');
    expect(view.week.key).toBe('2026-W13');
    expect(view.nav).toEqual({ previous: '2026-03-27', next: '2026-03-29', today: '2026-03-28' });
    expect(view.rooms.map((x) => x.name)).toEqual(['Drying room', 'Laundry room A', 'Laundry room B']);
    expect(view.allRooms.map((x) => x.id)).toEqual([ROOM_C, ROOM_A, ROOM_B]);
    const [c, a, b] = view.rooms;
    // The drying room has Monday slots only.
    expect(c!.slots).toEqual([]);
    expect(a!.slots.map((s) => [s.startLabel, s.endLabel, s.endsNextDay, s.state, s.bookable])).toEqual([
      ['07:00', '10:00', false, 'past', false],
      // Running now: no longer bookable (the not-started rule), as on the room's grid.
      ['10:00', '13:00', false, 'free', false],
      // 23:00 to 03:00 CEST: the spring night's 02:00 does not exist.
      ['23:00', '03:00', true, 'booked', false],
    ]);
    expect(a!.slots[2]!.ownerLabel).toEqual({ kind: 'apartment', apartment: '1203' });
    expect(a!.slots[2]!.endMs - a!.slots[2]!.startMs).toBe(3 * 3_600_000);
    expect(b!.slots.map((s) => [s.startLabel, s.state, s.bookable])).toEqual([
      ['07:00', 'past', false],
      ['10:00', 'free', false],
      ['23:00', 'free', true],
    ]);
    expect([a!.free, a!.taken, b!.free, b!.taken]).toEqual([0, 1, 1, 0]);
  });

  it('shows the DST day as a 23-hour local day, with an open request pending and maintenance', async () => {
    const view = await loadBuildingView(deps, system, { day: '2026-03-29', mode: 'day', onlyFree: false, roomId: undefined });
    expect(view.day.endMs - view.day.startMs).toBe(23 * 3_600_000);
    const a = view.rooms.find((x) => x.id === ROOM_A)!;
    const b = view.rooms.find((x) => x.id === ROOM_B)!;
    // The slot that started on Saturday is not listed again on Sunday.
    expect(a.slots.map((s) => [s.startLabel, s.state])).toEqual([
      ['07:00', 'maintenance'],
      ['10:00', 'free'],
      ['23:00', 'free'],
    ]);
    expect(b.slots.map((s) => [s.startLabel, s.state, s.bookable])).toEqual([
      ['07:00', 'free', true],
      ['10:00', 'pending', false],
      ['23:00', 'free', true],
    ]);
    expect(b.slots[1]!.ownerLabel).toEqual({ kind: 'apartment', apartment: '1204' });
    expect(b.slots[1]!.startMs).toBe(Date.parse('2026-03-29T08:00:00Z'));
    expect([b.free, b.taken]).toEqual([2, 1]);
  });

  it('shows the ISO week: seven local days of slots per room, one read of the reservations of all rooms', async () => {
    const { db, queries } = await countingDb(ctx().handle);
    const counted: ViewDeps = { ...deps, db };
    // Wednesday of week 14: the week after the change.
    const cold = await loadBuildingView(counted, system, { day: '2026-04-01', mode: 'week', onlyFree: false, roomId: undefined });
    expect(cold.week.key).toBe('2026-W14');
    expect(cold.days.map((d) => d.date)).toEqual(['2026-03-30', '2026-03-31', '2026-04-01', '2026-04-02', '2026-04-03', '2026-04-04', '2026-04-05']);
    expect(cold.nav).toMatchObject({ previous: '2026-03-25', next: '2026-04-08' });
    const byId = new Map(cold.rooms.map((x) => [x.id, x]));
    expect(byId.get(ROOM_A)!.slots).toHaveLength(21);
    expect(byId.get(ROOM_C)!.slots.map((s) => [s.date, s.startLabel])).toEqual([['2026-03-30', '07:00']]);
    expect(byId.get(ROOM_B)!.free).toBe(21);
    // Warm: the state row, the open requests and the room closures; rooms, schedules and the week's
    // reservations are held.
    const before = queries();
    const warm = await loadBuildingView(counted, system, { day: '2026-04-01', mode: 'week', onlyFree: false, roomId: undefined });
    expect(queries() - before).toBeLessThanOrEqual(3);
    expect(warm.rooms).toEqual(cold.rooms);
  });

  it('holds the overlay until a slot starts or ends, then shows the new states', async () => {
    let now = NOW;
    const clocked: ViewDeps = { ...deps, now: () => now };
    const ask = { day: '2026-03-28', mode: 'week' as const, onlyFree: false, roomId: ROOM_A };
    const first = await loadBuildingView(clocked, system, ask);
    now = new Date(NOW.getTime() + 60_000);
    const held = await loadBuildingView(clocked, system, ask);
    // Nothing started or ended in that minute: the very same slots.
    expect(held.rooms[0]!.slots).toBe(first.rooms[0]!.slots);
    // 13:00 local: the 10–13 slot has ended (past), the rest of Saturday unchanged.
    now = new Date('2026-03-28T12:00:00Z');
    const later = await loadBuildingView(clocked, system, ask);
    const saturday = (v: typeof later) => v.rooms[0]!.slots.filter((s) => s.date === '2026-03-28').map((s) => [s.startLabel, s.state, s.isCurrent]);
    expect(saturday(first)).toEqual([
      ['07:00', 'past', false],
      ['10:00', 'free', true],
      ['23:00', 'booked', false],
    ]);
    expect(saturday(later)).toEqual([
      ['07:00', 'past', false],
      ['10:00', 'past', false],
      ['23:00', 'booked', false],
    ]);
  });

  it('shows a room closure: its slots closed with the reason and not bookable, and free again once lifted', async () => {
    const { db } = ctx().handle;
    const [connection] = await db.insert(connections).values({ approvalFingerprint: randomUUID(), apiKeyCiphertext: 'x' }).returning({ id: connections.id });
    await db.insert(systems).values({ deviceId: DEVICE, connectionId: connection!.id, name: system.name, timeZone: system.timeZone }).onConflictDoNothing();
    // Room B closed Saturday 22:00 to Sunday 04:00 local (CET, then CEST): over its 23:00 slot.
    const [closure] = await db
      .insert(roomClosures)
      .values({ deviceId: DEVICE, resourceIds: [ROOM_B], startsAt: new Date('2026-03-28T21:00:00Z'), endsAt: new Date('2026-03-29T02:00:00Z'), reason: 'Pipe repair', status: 'done' })
      .returning({ id: roomClosures.id });
    const ask = { day: '2026-03-28', mode: 'day', onlyFree: false, roomId: undefined } as const;
    const closed = await loadBuildingView(deps, system, ask);
    const b = closed.rooms.find((r) => r.id === ROOM_B)!;
    expect(b.slots.map((s) => [s.startLabel, s.bookable, s.closed?.reason ?? null])).toEqual([
      ['07:00', false, null],
      ['10:00', false, null],
      ['23:00', false, 'Pipe repair'],
    ]);
    expect(b.free).toBe(0);
    // Room A is not in the closure.
    expect(closed.rooms.find((r) => r.id === ROOM_A)!.slots.some((s) => s.closed)).toBe(false);

    // The held slots were not marked in place: lifted, the same held week shows the slot free.
    await db.update(roomClosures).set({ liftedAt: new Date() }).where(eq(roomClosures.id, closure!.id));
    const lifted = await loadBuildingView(deps, system, ask);
    const again = lifted.rooms.find((r) => r.id === ROOM_B)!;
    expect(again.slots.map((s) => [s.startLabel, s.bookable, s.closed ?? null])).toEqual([
      ['07:00', false, null],
      ['10:00', false, null],
      ['23:00', true, null],
    ]);
    await db.delete(roomClosures).where(eq(roomClosures.id, closure!.id));
  });

  it('filters: only rooms with a free slot, one room, and an unknown room shows all', async () => {
    const onlyFree = await loadBuildingView(deps, system, { day: '2026-03-28', mode: 'day', onlyFree: true, roomId: undefined });
    expect(onlyFree.rooms.map((x) => x.id)).toEqual([ROOM_B]);
    expect(onlyFree.allRooms).toHaveLength(3);
    const one = await loadBuildingView(deps, system, { day: '2026-03-28', mode: 'week', onlyFree: false, roomId: ROOM_A });
    expect(one.rooms.map((x) => x.id)).toEqual([ROOM_A]);
    const unknown = await loadBuildingView(deps, system, { day: '2026-03-28', mode: 'day', onlyFree: false, roomId: randomUUID() });
    expect(unknown.unknownRoom).toBe(true);
    expect(unknown.rooms).toHaveLength(3);
  });
});

it('reads the page parameters, naming what it could not use', () => {
  expect(parseDay('2026-02-29')).toBeNull();
  expect(parseDay('2028-02-29')).toBe('2028-02-29');
  expect(parseDay('1969-12-31')).toBeNull();
  expect(parseDay('2026-3-1')).toBeNull();
  expect(buildingParams({})).toEqual({ day: undefined, mode: 'day', onlyFree: false, roomId: undefined, show: 'default', problems: [] });
  expect(buildingParams({ day: '2026-11-24', view: 'week', free: '1', room: ROOM_A.toUpperCase(), show: 'apartments' })).toEqual({
    day: '2026-11-24',
    mode: 'week',
    onlyFree: true,
    roomId: ROOM_A,
    show: 'apartments',
    problems: [],
  });
  expect(buildingParams({ day: 'tomorrow', view: 'month', room: 'x', show: 'names' })).toMatchObject({
    show: 'default',
    problems: [
      { kind: 'day', input: 'tomorrow' },
      { kind: 'view', input: 'month' },
      { kind: 'room', input: 'x' },
      { kind: 'show', input: 'names' },
    ],
  });
  expect(buildingParams({ day: ['2026-11-24', 'x'] }).day).toBe('2026-11-24');
});
