import { beforeAll, describe, expect, it } from 'vitest';
import { waitForRefresh } from '@/lib/mirror/refresh';
import { serviceMirrorSource } from '@/lib/mirror/service-source';
import type { Owner, StatefulSlot } from '@/lib/schedule';
import type { SystemPublic } from '@/lib/systems/schemas';
import { loadBuildingView } from '@/lib/views/building';
import type { ViewDeps } from '@/lib/views/freshness';
import { craftedClient, type CraftedBody } from '@/tests/crafted-service';
import { countingDb, describeWithDb } from '@/tests/db';
import { displayRoomOf, loadDisplayScreen } from './screen';

const TZ = 'Europe/Stockholm';
const H = 3_600_000;
// 2026-03-28 is the Saturday before the spring change; 00:00 local is 23:00 UTC the day before.
const SAT = Date.parse('2026-03-27T23:00:00Z');

function slot(startMs: number, endMs: number, nowMs: number, over: Partial<StatefulSlot> = {}): StatefulSlot {
  return {
    resourceId: 'r1',
    startMs,
    endMs,
    timeZone: TZ,
    state: 'free',
    ownerLabel: null,
    reservation: null,
    reservations: [],
    isPast: endMs <= nowMs,
    isCurrent: startMs <= nowMs && nowMs < endMs,
    beyondHorizon: false,
    bookable: startMs > nowMs,
    ...over,
  } as StatefulSlot;
}

function booked(startMs: number, endMs: number, nowMs: number, owner: Owner): StatefulSlot {
  const reservation = { id: `b${startMs}`, startMs, endMs, ownerType: 'Group', ownerLabel: owner, status: 'Unused' };
  return slot(startMs, endMs, nowMs, { state: 'booked', ownerLabel: owner, reservation, reservations: [reservation], bookable: false } as unknown as Partial<StatefulSlot>);
}

describe('a display room', () => {
  const days = ['2026-03-28', '2026-03-29'];

  it('is in use until the end of back-to-back bookings of one apartment, which started yesterday before midnight', () => {
    const now = SAT + 30 * 60_000; // 00:30 on Saturday
    const apt: Owner = { kind: 'apartment', apartment: '1203' };
    const slots = [booked(SAT - H, SAT + H, now, apt), booked(SAT + H, SAT + 3 * H, now, apt), slot(SAT + 3 * H, SAT + 5 * H, now)];
    const room = displayRoomOf({ id: 'r1', name: 'Tvättstuga 1' }, slots, days, TZ, now, false);
    expect(room.now).toEqual({ kind: 'in-use', untilMs: SAT + 3 * H });
    expect(room.nextFree).toEqual({ startMs: SAT + 3 * H, endMs: SAT + 5 * H });
    // Yesterday's slot (running now) is not in today's strip; today's show no apartment on a display without them.
    expect(room.days[0]!.slots.map((s) => [s.state, s.apartment])).toEqual([
      ['taken', undefined],
      ['free', undefined],
    ]);
  });

  it('names an apartment only when the display shows them, and never a resident', () => {
    const now = SAT + 8 * H;
    const slots = [
      booked(SAT + 10 * H, SAT + 12 * H, now, { kind: 'apartment', apartment: '1001' }),
      booked(SAT + 12 * H, SAT + 14 * H, now, { kind: 'name', name: 'Anna Andersson' }),
    ];
    const shown = displayRoomOf({ id: 'r1', name: 'T' }, slots, days, TZ, now, true);
    expect(shown.days[0]!.slots).toEqual([
      { startMs: SAT + 10 * H, endMs: SAT + 12 * H, state: 'taken', apartment: '1001' },
      { startMs: SAT + 12 * H, endMs: SAT + 14 * H, state: 'taken' },
    ]);
    expect(JSON.stringify(displayRoomOf({ id: 'r1', name: 'T' }, slots, days, TZ, now, false))).not.toContain('1001');
    expect(JSON.stringify(shown)).not.toContain('Anna');
    // 08:00, before the day's first slot: nothing runs, so nothing is "free now".
    expect(shown.now).toEqual({ kind: 'none', untilMs: null });
    expect(shown.nextFree).toBeNull();
  });

  it('is "free now" only while a free slot runs: not at 22:40 with every slot of the day passed, not in a slot an open request holds', () => {
    const late = SAT + 22 * H + 40 * 60_000;
    const day = [slot(SAT + 8 * H, SAT + 11 * H, late), slot(SAT + 11 * H, SAT + 14 * H, late), slot(SAT + 17 * H, SAT + 20 * H, late)];
    expect(displayRoomOf({ id: 'r1', name: 'T' }, day, days, TZ, late, false).now).toEqual({ kind: 'none', untilMs: null });
    // Between two slots, neither running.
    expect(displayRoomOf({ id: 'r1', name: 'T' }, day, days, TZ, SAT + 15 * H, false).now).toEqual({ kind: 'none', untilMs: null });
    const noon = SAT + 12 * H;
    const running = [slot(SAT + 11 * H, SAT + 14 * H, noon, { bookable: false })];
    expect(displayRoomOf({ id: 'r1', name: 'T' }, running, days, TZ, noon, false).now).toEqual({ kind: 'free', untilMs: null });
    // A request waiting for approval holds the running slot (no reservation yet): the strip says in use, so does the line.
    const pending = [slot(SAT + 11 * H, SAT + 14 * H, noon, { state: 'pending', bookable: false })];
    const held = displayRoomOf({ id: 'r1', name: 'T' }, pending, days, TZ, noon, false);
    expect(held.days[0]!.slots.map((s) => s.state)).toEqual(['in-use']);
    expect(held.now).toEqual({ kind: 'in-use', untilMs: SAT + 14 * H });
  });

  it('is closed with the closure reason while a closure covers now, and puts Sunday (a 23-hour day) in the second strip', () => {
    const now = SAT + 9 * H;
    const closed = { closureId: 'c1', reason: 'Vattenskada', startMs: SAT + 8 * H, endMs: SAT + 16 * H };
    const sunday = SAT + 24 * H; // 00:00 Sunday local (the change is at 02:00)
    const slots = [
      slot(SAT + 8 * H, SAT + 10 * H, now, { closed, bookable: false }),
      slot(sunday + 6 * H, sunday + 8 * H, now),
    ];
    const room = displayRoomOf({ id: 'r1', name: 'T' }, slots, days, TZ, now, false);
    expect(room.now).toEqual({ kind: 'closed', untilMs: SAT + 16 * H, reason: 'Vattenskada' });
    expect(room.days[0]!.slots).toEqual([{ startMs: SAT + 8 * H, endMs: SAT + 10 * H, state: 'closed', reason: 'Vattenskada' }]);
    expect(room.days[1]!.slots.map((s) => s.state)).toEqual(['free']);
    expect(room.nextFree).toEqual({ startMs: sunday + 6 * H, endMs: sunday + 8 * H });
  });
});

const DEVICE = '5d0c3c1a-3333-4a2b-9c3d-000000000036';
const DAILY = 'a0000000-0000-4000-8000-000000000036';
const ROOM_A = 'b0000000-0000-4000-8000-000000000036';
const ROOM_B = 'b0000000-0000-4000-8000-000000000037';
const GROUP = 'c0000000-0000-4000-8000-000000000036';
// Local wall-clock slots every day: 07–10, 10–13 and 23:00–02:00 next day.
const DAY_SLOTS = [[420, 180], [600, 180], [1380, 180]];

function mirror(): Record<string, CraftedBody> {
  const d = DEVICE;
  return {
    [`/v1/reservations/timeschedules/${d}/all`]: { timeSchedules: [{ id: DAILY, deviceId: d, scheduleType: 'Week', schedule: Array.from({ length: 7 }, () => DAY_SLOTS) }], continuationToken: null },
    [`/v1/reservations/resources/${d}/all`]: {
      resources: [
        { id: ROOM_A, name: 'Tvättstuga A', description: '', deviceId: d, timeScheduleId: DAILY },
        { id: ROOM_B, name: 'Tvättstuga B', description: '', deviceId: d, timeScheduleId: DAILY },
      ],
    },
    [`/v1/usergroups/${d}/all`]: { userGroups: [{ id: GROUP, name: 'Lgh 1203', apartmentId: '1203', referenceId: 'R', deviceId: d }], continuationToken: null },
    [`/v1/reservations/${d}/all`]: {
      reservations: [
        // Saturday 28 March 23:00 CET to Sunday 03:00 CEST (02:00 does not exist that night): over midnight and the spring change.
        { id: 'd0000000-0000-4000-8000-000000000036', userId: null, ownerId: GROUP, ownerType: 'Group', status: 'Unused', resourceId: ROOM_A, startTime: '2026-03-28T22:00:00Z', endTime: '2026-03-29T01:00:00Z', deviceId: d },
      ],
      continuationToken: null,
    },
  };
}

const system: SystemPublic = { deviceId: DEVICE, name: 'Linnégatan 12', timeZone: 'Europe/Stockholm', status: 'active', bookingHorizonDays: 28, scheduleBasis: 'local', bookingQuota: 2 , street: null, city: null, area: null };
// Sunday 29 March 2026, 00:30 CET: today is the 23-hour day of the spring change, yesterday is in
// ISO week 13 with today, tomorrow (Monday) in week 14.
const NOW = new Date('2026-03-28T23:30:00Z');
const display = { id: 'x', deviceId: DEVICE, name: 'Entré', resourceIds: null, locale: 'sv' as const, showApartments: true };
const local = (ms: number) => new Intl.DateTimeFormat('sv-SE', { timeZone: system.timeZone, dateStyle: 'short', timeStyle: 'short' }).format(ms);

describeWithDb('a display screen from the mirror', (ctx) => {
  let deps: ViewDeps;

  beforeAll(async () => {
    const client = craftedClient(mirror());
    deps = { db: ctx().handle.db, source: () => Promise.resolve(serviceMirrorSource(client, 'key')), freshnessMs: 3_600_000, now: () => NOW };
    expect((await loadDisplayScreen(deps, system, display)).loading).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 0));
    await waitForRefresh(DEVICE);
  }, 60_000);

  it('shows today (a 23-hour day) and tomorrow (the next ISO week), in use by a booking that started yesterday', async () => {
    const screen = await loadDisplayScreen(deps, system, display);
    expect(screen.loading).toBe(false);
    const a = screen.rooms.find((r) => r.id === ROOM_A)!;
    expect(a.now).toEqual({ kind: 'in-use', untilMs: Date.parse('2026-03-29T01:00:00Z') });
    expect(a.days.map((d) => [d.date, d.slots.map((s) => local(s.startMs))])).toEqual([
      ['2026-03-29', ['2026-03-29 07:00', '2026-03-29 10:00', '2026-03-29 23:00']],
      ['2026-03-30', ['2026-03-30 07:00', '2026-03-30 10:00', '2026-03-30 23:00']],
    ]);
    expect(a.nextFree).toEqual({ startMs: a.days[0]!.slots[0]!.startMs, endMs: a.days[0]!.slots[0]!.endMs });
    expect(screen.rooms.find((r) => r.id === ROOM_B)!.now).toEqual({ kind: 'free', untilMs: null });
  });

  it('reads the mirror once for its three days over two weeks: no more statements than one building view of one day', async () => {
    const { db, queries } = await countingDb(ctx().handle);
    const counted: ViewDeps = { ...deps, db };
    // Warm both weeks' reservations first, as a screen's steady updates find them.
    await loadDisplayScreen(counted, system, display);
    await loadBuildingView(counted, system, { day: '2026-03-29', mode: 'day', onlyFree: false, roomId: undefined });
    let before = queries();
    await loadBuildingView(counted, system, { day: '2026-03-29', mode: 'day', onlyFree: false, roomId: undefined });
    const oneView = queries() - before;
    before = queries();
    await loadDisplayScreen(counted, system, display);
    const screen = queries() - before;
    expect(oneView).toBeGreaterThan(0);
    // Reading per day (yesterday, today, tomorrow) would be three times one view's statements.
    expect(screen).toBe(oneView);
  });
});
