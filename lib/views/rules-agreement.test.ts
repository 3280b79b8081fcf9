import { randomUUID } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { DEFAULT_BOOKING_HORIZON_DAYS, type RuleGroup, type RuleSet } from '@/lib/booking-rules';
import { connections, roomClosures, systems } from '@/lib/db/schema';
import { loadDisplayScreen } from '@/lib/displays/screen';
import { waitForRefresh } from '@/lib/mirror/refresh';
import { serviceMirrorSource } from '@/lib/mirror/service-source';
import { checkSlot } from '@/lib/reservations/booking/check-rules';
import { gatherSlotFacts, type SlotFacts } from '@/lib/reservations/booking/gather-facts';
import { shiftWeekKey, weekKeyOf, type StatefulSlot } from '@/lib/schedule';
import { isoDate, wallClock } from '@/lib/schedule/zoned';
import { readBookingRules, writeBookingRules } from '@/lib/systems/booking-rules';
import type { SystemPublic } from '@/lib/systems/schemas';
import { craftedClient, type CraftedBody } from '@/tests/crafted-service';
import { describeWithDb } from '@/tests/db';
import { loadNextFree, type ApartmentDeps } from './apartment';
import { loadBuildingView } from './building';
import type { ViewDeps } from './freshness';
import { loadResourceWeek } from './resource-week';
import { rng } from '@/sandbox/seed';

/**
 * Issue 48: the rules that do not depend on who books (the system's horizon, a rule group's days
 * ahead, closures, what is taken) shape every screen exactly as the booking handler decides. For
 * generated rule sets and horizons, every slot of three weeks of every room: the grid's `bookable`
 * equals the handler's slot check (gather-facts + check-rules, the steps requestBooking runs before
 * the resident), and the building view, the display's next free, the next free slots and "Bookable
 * until" agree with the grid.
 */

const DEVICE = '5d0c3c1a-2222-4a2b-9c3d-000000000048';
const DAILY = 'a0000000-0000-4000-8000-000000000048';
const ROOMS = ['b0000000-0000-4000-8000-000000000481', 'b0000000-0000-4000-8000-000000000482', 'b0000000-0000-4000-8000-000000000483'] as const;
const NAMES = ['Tvättstuga 1', 'Tvättstuga 2', 'Tvättstuga 3'];
const GROUP = 'c0000000-0000-4000-8000-000000000048';
const r = (n: number) => `d0000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
// Local slots (basis 'local'): 07–10, 10–13, 23:00–02:00 the next day.
const DAY_SLOTS = [[420, 180], [600, 180], [1380, 180]];
// Wednesday 2 December 2026, 10:30 in Stockholm.
const NOW = new Date('2026-12-02T09:30:00Z');
const NOW_MS = NOW.getTime();
const TZ = 'Europe/Stockholm';

function mirror(): Record<string, CraftedBody> {
  const d = DEVICE;
  return {
    [`/v1/reservations/timeschedules/${d}/all`]: {
      timeSchedules: [{ id: DAILY, deviceId: d, scheduleType: 'Week', schedule: Array.from({ length: 7 }, () => DAY_SLOTS) }],
      continuationToken: null,
    },
    [`/v1/reservations/resources/${d}/all`]: {
      resources: ROOMS.map((id, i) => ({ id, name: NAMES[i], description: '', deviceId: d, timeScheduleId: DAILY })),
    },
    [`/v1/usergroups/${d}/all`]: {
      userGroups: [{ id: GROUP, name: 'Apt 1203', apartmentId: '1203', referenceId: 'REF-1', deviceId: d }],
      continuationToken: null,
    },
    [`/v1/reservations/${d}/all`]: {
      reservations: [
        // The apartment's booking tomorrow 07:00 in room 1; maintenance in room 2 on Friday 10:00.
        { id: r(1), userId: null, ownerId: GROUP, ownerType: 'Group', status: 'Unused', resourceId: ROOMS[0], startTime: '2026-12-03T06:00:00Z', endTime: '2026-12-03T09:00:00Z', deviceId: d },
        { id: r(2), userId: null, ownerId: null, ownerType: 'Service', status: 'Unused', resourceId: ROOMS[1], startTime: '2026-12-04T09:00:00Z', endTime: '2026-12-04T12:00:00Z', deviceId: d },
      ],
      continuationToken: null,
    },
  };
}

const baseSystem: SystemPublic = { deviceId: DEVICE, name: 'Agreement', timeZone: TZ, status: 'active', bookingHorizonDays: 10, scheduleBasis: 'local', bookingQuota: 2 , street: null, city: null, area: null };

const pick = <T,>(next: () => number, list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
const group = (g: Partial<RuleGroup> & { resourceIds: string[] }): RuleGroup => ({ maxFuture: null, perWindow: null, daysAhead: null, maxConsecutive: null, activationMinutes: null, ...g });

/** Rooms split into groups (some rooms in none), each with a days ahead or none, and now and then a resident-dependent limit. */
function ruleSetOf(next: () => number): RuleSet | null {
  if (next() < 0.15) return null;
  const groups: RuleGroup[] = [];
  let current: string[] = [];
  for (const room of ROOMS) {
    const place = next();
    if (place < 0.25) continue;
    current.push(room);
    if (place > 0.6) {
      groups.push(group({ resourceIds: current, daysAhead: pick(next, [null, 0, 1, 2, 4, 8]), maxFuture: pick(next, [null, null, 1, 3]) }));
      current = [];
    }
  }
  if (current.length > 0) groups.push(group({ resourceIds: current, daysAhead: pick(next, [null, 0, 1, 3]) }));
  return { groups };
}

describeWithDb('the booking rules on every screen (issue 48)', (ctx) => {
  let deps: ViewDeps;
  let apartmentDeps: ApartmentDeps;
  const weeks = [0, 1, 2].map((n) => shiftWeekKey(weekKeyOf(NOW_MS, TZ), n));
  const facts = new Map<string, SlotFacts>();

  beforeAll(async () => {
    const client = craftedClient(mirror());
    deps = { db: ctx().handle.db, source: () => Promise.resolve(serviceMirrorSource(client, 'key')), freshnessMs: 3_600_000, now: () => NOW };
    apartmentDeps = { ...deps, client, apiKeyFor: () => Promise.resolve(null) };
    await loadResourceWeek(deps, baseSystem, ROOMS[0]);
    await new Promise((resolve) => setTimeout(resolve, 0));
    await waitForRefresh(DEVICE);
    const db = ctx().handle.db;
    // The rules belong to a connected system (system_booking_rules references it).
    const [connection] = await db.insert(connections).values({ approvalFingerprint: randomUUID(), apiKeyCiphertext: 'x' }).returning({ id: connections.id });
    await db.insert(systems).values({ deviceId: DEVICE, connectionId: connection!.id, name: 'Agreement' }).onConflictDoNothing();
    // Room 3 closed on Saturday morning.
    await db.insert(roomClosures).values({ deviceId: DEVICE, resourceIds: [ROOMS[2]], startsAt: new Date('2026-12-05T06:00:00Z'), endsAt: new Date('2026-12-05T12:00:00Z'), reason: 'Pipe repair', status: 'done' });
  }, 60_000);

  /** The handler's verdict on a slot: null when it passes the slot rules, else the refusal's reason. */
  async function handlerVerdict(system: SystemPublic, resourceId: string, slot: StatefulSlot, rules: RuleSet | null): Promise<string | null> {
    const key = `${resourceId}|${slot.startMs}`;
    let known = facts.get(key);
    if (!known) {
      known = await gatherSlotFacts(ctx().handle.db, DEVICE, { resourceId, startMs: slot.startMs, endMs: slot.endMs });
      facts.set(key, known);
    }
    try {
      checkSlot({ ...known, rules }, { resourceId, startMs: slot.startMs, endMs: slot.endMs }, system, NOW_MS);
      return null;
    } catch (error) {
      return (error as { reason?: string }).reason ?? String(error);
    }
  }

  it('agrees with the handler for generated rules × rooms × slots: the grid, Bookable until, the building view, the display and next free', async () => {
    // The sandbox's seeded generator: the same cases on every run, whatever the date.
    const next = rng(48);
    const db = ctx().handle.db;
    let forbiddenByGroup = 0;
    for (let n = 0; n < 24; n++) {
      const rules = ruleSetOf(next);
      const system = { ...baseSystem, bookingHorizonDays: pick(next, [3, 7, 10]) };
      await writeBookingRules(db, DEVICE, rules);
      // The handler reads the rules as stored.
      const stored = await readBookingRules(db, DEVICE);
      const grid = new Map<string, StatefulSlot[]>();
      for (const room of ROOMS) {
        const slots: StatefulSlot[] = [];
        for (const week of weeks) {
          const view = await loadResourceWeek(deps, system, room, week);
          slots.push(...view.slots);
          // "Bookable until": the end of the last slot within reach, and every slot ending later is beyond it.
          expect(view.bookableUntil, `case ${n}`).not.toBeNull();
        }
        grid.set(room, slots);
        const until = (await loadResourceWeek(deps, system, room)).bookableUntil!;
        const last = slots.find((s) => s.endMs === until);
        expect(last && !last.beyondHorizon, `case ${n} ${room}: a slot ends at Bookable until`).toBe(true);
        for (const s of slots) if (s.endMs > until) expect(s.beyondHorizon, `case ${n} ${room} ${s.startTime}`).toBe(true);
        for (const slot of slots) {
          if (slot.isPast) continue;
          const verdict = await handlerVerdict(system, room, slot, stored);
          expect(slot.bookable, `case ${n} ${room} ${slot.startTime}: grid ${slot.bookable}, handler ${verdict}`).toBe(verdict === null);
          // A slot the group's days ahead forbids says so with the rule, as the handler does.
          if (verdict === 'groupDaysAhead') {
            forbiddenByGroup += 1;
            const g = stored?.groups.find((x) => x.resourceIds.includes(room));
            expect(slot.daysAheadRule).toEqual({ days: g?.daysAhead, rooms: g?.resourceIds.map((id) => NAMES[ROOMS.indexOf(id as (typeof ROOMS)[number])]) });
          } else expect(slot.daysAheadRule).toBeUndefined();
        }
      }
      const bookable = (room: string) => grid.get(room)!.filter((s) => s.bookable);

      // The building view's week: the same slots bookable, its counts and "only rooms with a free slot".
      for (const week of weeks) {
        const day = isoDate(wallClock(grid.get(ROOMS[0])!.find((s) => weekKeyOf(s.startMs, TZ) === week)!.startMs, TZ));
        const building = await loadBuildingView(deps, system, { day, mode: 'week', onlyFree: false, roomId: undefined });
        const onlyFree = await loadBuildingView(deps, system, { day, mode: 'week', onlyFree: true, roomId: undefined });
        for (const room of building.rooms) {
          const inWeek = grid.get(room.id)!.filter((s) => weekKeyOf(s.startMs, TZ) === week);
          expect(room.slots.map((s) => [s.startMs, s.bookable]), `case ${n} building ${week}`).toEqual(inWeek.map((s) => [s.startMs, s.bookable]));
          expect(room.free).toBe(inWeek.filter((s) => s.bookable).length);
        }
        expect(onlyFree.rooms.map((x) => x.id)).toEqual(building.rooms.filter((x) => x.free > 0).map((x) => x.id));
      }

      // The display's next free: the first bookable slot of today or tomorrow.
      const screen = await loadDisplayScreen(deps, system, { id: 'x', deviceId: DEVICE, name: 'Entré', resourceIds: null, locale: 'sv', showApartments: false });
      const days = new Set(screen.rooms[0]!.days.map((d) => d.date));
      for (const room of screen.rooms) {
        const first = bookable(room.id).find((s) => days.has(s.date));
        expect(room.nextFree, `case ${n} display ${room.name}`).toEqual(first ? { startMs: first.startMs, endMs: first.endMs } : null);
      }

      // Next free slots: only slots the grid offers; with no resident-dependent limit, exactly its first ones.
      const free = await loadNextFree(apartmentDeps, system, GROUP, { count: 8 });
      const offered = new Set(ROOMS.flatMap((room) => bookable(room).map((s) => `${room}|${s.startMs}`)));
      for (const s of free.slots) expect(offered.has(`${s.resourceId}|${s.startMs}`), `case ${n} next free ${s.resourceName} ${s.startTime}`).toBe(true);
      if (!stored?.groups.some((g) => g.maxFuture !== null)) {
        const expected = ROOMS.flatMap((room, i) => bookable(room).map((s) => ({ startMs: s.startMs, name: NAMES[i]! })))
          .sort((a, b) => a.startMs - b.startMs || a.name.localeCompare(b.name))
          .slice(0, 8);
        expect(free.slots.map((s) => [s.startMs, s.resourceName]), `case ${n} next free`).toEqual(expected.map((s) => [s.startMs, s.name]));
      }
    }
    // The generated cases did put the group rule to work.
    expect(forbiddenByGroup).toBeGreaterThan(20);
    await writeBookingRules(db, DEVICE, null);
  }, 300_000);

  it('a saved days-ahead rule changes the grid, Bookable until, the building view and the display; removed, they change back', async () => {
    const db = ctx().handle.db;
    const system = { ...baseSystem, bookingHorizonDays: DEFAULT_BOOKING_HORIZON_DAYS };
    const nextWeek = weeks[1]!;
    const before = await loadResourceWeek(deps, system, ROOMS[0], nextWeek);
    const beforeUntil = (await loadResourceWeek(deps, system, ROOMS[0])).bookableUntil;
    expect(before.slots.filter((s) => s.bookable)).toHaveLength(21);
    const beforeBuilding = await loadBuildingView(deps, system, { day: '2026-12-07', mode: 'week', onlyFree: true, roomId: undefined });
    expect(beforeBuilding.rooms.map((x) => x.name)).toEqual(NAMES);
    try {
      // "Tvättstuga 1 and 3 together: only today or tomorrow".
      await writeBookingRules(db, DEVICE, { groups: [group({ resourceIds: [ROOMS[0], ROOMS[2]], daysAhead: 1 })] });
      const after = await loadResourceWeek(deps, system, ROOMS[0], nextWeek);
      expect(after.slots.filter((s) => s.bookable)).toEqual([]);
      expect(after.slots.every((s) => s.beyondHorizon && s.daysAheadRule?.days === 1)).toBe(true);
      expect(after.slots[0]!.daysAheadRule?.rooms).toEqual(['Tvättstuga 1', 'Tvättstuga 3']);
      // Bookable until: tomorrow's last slot, 23:00 Thursday to 02:00 Friday (local), not the clock's minute 28 days on.
      const until = (await loadResourceWeek(deps, system, ROOMS[0])).bookableUntil;
      expect(until).toBe(Date.parse('2026-12-04T01:00:00Z'));
      expect(beforeUntil).toBe(Date.parse('2026-12-30T09:00:00Z'));
      // Room 2 is in no group: untouched.
      expect((await loadResourceWeek(deps, system, ROOMS[1], nextWeek)).slots.filter((s) => s.bookable)).toHaveLength(21);
      const building = await loadBuildingView(deps, system, { day: '2026-12-07', mode: 'week', onlyFree: true, roomId: undefined });
      expect(building.rooms.map((x) => x.name)).toEqual(['Tvättstuga 2']);
      // "Only today" on the display: nothing free tomorrow for Tvättstuga 1, today's 10:00 has started.
      await writeBookingRules(db, DEVICE, { groups: [group({ resourceIds: [ROOMS[0]], daysAhead: 0 })] });
      const screen = await loadDisplayScreen(deps, system, { id: 'x', deviceId: DEVICE, name: 'Entré', resourceIds: [ROOMS[0]], locale: 'sv', showApartments: false });
      expect(screen.rooms[0]!.nextFree).toEqual({ startMs: Date.parse('2026-12-02T22:00:00Z'), endMs: Date.parse('2026-12-03T01:00:00Z') });
      expect(screen.rooms[0]!.days[1]!.slots.map((s) => s.state)).toEqual(['taken', 'unavailable', 'unavailable']);
    } finally {
      await writeBookingRules(db, DEVICE, null);
    }
    expect((await loadResourceWeek(deps, system, ROOMS[0], nextWeek)).slots.filter((s) => s.bookable)).toHaveLength(21);
  }, 60_000);
});
