import { describe, expect, it } from 'vitest';
import { bookingHorizonEnd } from '@/lib/booking-rules/within-booking-horizon';
import { daily, laundry } from '@/tests/schedule-fixtures';
import { expandRange } from './expand';
import { dayPartOf, nextFreeSlots, type BusyInterval, type NextFreeInput, type NextFreeResource } from './next-free';

const TZ = 'Europe/Stockholm';
// Monday 23 November 2026, 12:00 UTC (13:00 in Stockholm).
const now = Date.UTC(2026, 10, 23, 12);

const room = (id: string, extra: Partial<NextFreeResource> = {}): NextFreeResource => ({ id, name: id, kind: 'laundry', schedule: laundry, allowed: true, ...extra });
const input = (extra: Partial<NextFreeInput> = {}): NextFreeInput => ({
  resources: [room('Tvättstuga 1')],
  nowMs: now,
  horizonEndMs: bookingHorizonEnd(now, 28),
  timeZone: TZ,
  busy: [],
  held: new Map(),
  quota: 2,
  ...extra,
});
const at = (iso: string) => Date.parse(iso);
const starts = (slots: { startTime: string }[]) => slots.map((s) => s.startTime);
const busy = (resourceId: string, start: string, end: string): BusyInterval => ({ resourceId, startMs: at(start), endMs: at(end) });

describe('day parts', () => {
  it('splits the local day at noon and at five', () => {
    expect(dayPartOf(0)).toBe('morning');
    expect(dayPartOf(11 * 60 + 59)).toBe('morning');
    expect(dayPartOf(12 * 60)).toBe('afternoon');
    expect(dayPartOf(16 * 60 + 59)).toBe('afternoon');
    expect(dayPartOf(17 * 60)).toBe('evening');
    expect(dayPartOf(23 * 60 + 30)).toBe('evening');
  });
});

describe('the next free slots', () => {
  it('gives the next five from now, skipping the slot in progress', () => {
    // 13:00 local: the 13:00–16:00 slot starts exactly now (started), so 16:00 is next.
    const slots = nextFreeSlots(input());
    expect(starts(slots)).toEqual(['2026-11-23T15:00Z', '2026-11-23T18:00Z', '2026-11-24T06:00Z', '2026-11-24T09:00Z', '2026-11-24T12:00Z']);
    expect(slots[0]).toMatchObject({ resourceId: 'Tvättstuga 1', startLabel: '16:00', endLabel: '19:00', dayPart: 'afternoon', date: '2026-11-23', kind: 'laundry' });
  });

  it('honours count, and none is none', () => {
    expect(nextFreeSlots(input({ count: 1 }))).toHaveLength(1);
    expect(nextFreeSlots(input({ count: 0 }))).toEqual([]);
    expect(nextFreeSlots(input({ count: 20 }))).toHaveLength(20);
  });

  it('skips slots overlapping a reservation or an open request, even partly', () => {
    const slots = nextFreeSlots(
      input({
        busy: [busy('Tvättstuga 1', '2026-11-23T15:00Z', '2026-11-23T18:00Z'), busy('Tvättstuga 1', '2026-11-23T20:30Z', '2026-11-23T21:30Z'), busy('other', '2026-11-24T06:00Z', '2026-11-24T09:00Z')],
      }),
    );
    expect(starts(slots).slice(0, 2)).toEqual(['2026-11-24T06:00Z', '2026-11-24T09:00Z']);
  });

  it('sorts by start, then room name, across rooms', () => {
    const slots = nextFreeSlots(input({ resources: [room('B'), room('A')], count: 4 }));
    expect(slots.map((s) => `${s.startTime} ${s.resourceName}`)).toEqual(['2026-11-23T15:00Z A', '2026-11-23T15:00Z B', '2026-11-23T18:00Z A', '2026-11-23T18:00Z B']);
  });

  it('leaves out rooms the apartment may not book, or holds its quota in; unknown authorizations are allowed', () => {
    const resources = [room('A', { allowed: false }), room('B'), room('C')];
    const slots = nextFreeSlots(input({ resources, held: new Map([['B', 2], ['C', 1]]), count: 3 }));
    expect(new Set(slots.map((s) => s.resourceId))).toEqual(new Set(['C']));
    expect(nextFreeSlots(input({ resources, held: new Map([['B', 2], ['C', 2]]) }))).toEqual([]);
    expect(nextFreeSlots(input({ resources, held: new Map([['B', 2], ['C', 2]]), quota: 3 })).length).toBe(5);
  });

  it('stops at the booking horizon: a slot must end by it', () => {
    // A horizon of one day ends Tuesday 13:00 local: the 10:00–13:00 slot ends exactly then (allowed), 13:00–16:00 not.
    const slots = nextFreeSlots(input({ horizonEndMs: bookingHorizonEnd(now, 1), count: 20 }));
    expect(starts(slots)).toEqual(['2026-11-23T15:00Z', '2026-11-23T18:00Z', '2026-11-24T06:00Z', '2026-11-24T09:00Z']);
    expect(nextFreeSlots(input({ horizonEndMs: now }))).toEqual([]);
  });

  it('finds fewer than asked when the horizon is full', () => {
    const all = expandRange(laundry, now, bookingHorizonEnd(now, 2), TZ);
    const full = all.slice(1).map((s) => ({ resourceId: 'Tvättstuga 1', startMs: s.startMs, endMs: s.endMs }));
    const slots = nextFreeSlots(input({ horizonEndMs: bookingHorizonEnd(now, 2), busy: full }));
    expect(slots).toHaveLength(0);
  });

  it('filters by kind and by the part of the local day the slot starts in', () => {
    const resources = [room('Tvättstuga 1'), room('Torkrum', { kind: 'drying' })];
    expect(new Set(nextFreeSlots(input({ resources, kind: 'drying' })).map((s) => s.resourceId))).toEqual(new Set(['Torkrum']));
    const mornings = nextFreeSlots(input({ resources, dayPart: 'morning', count: 4 }));
    expect(mornings.map((s) => s.startLabel)).toEqual(['07:00', '07:00', '10:00', '10:00']);
    const evenings = nextFreeSlots(input({ resources: [room('A')], dayPart: 'evening', count: 2 }));
    expect(evenings.map((s) => `${s.date} ${s.startLabel}`)).toEqual(['2026-11-23 19:00', '2026-11-24 19:00']);
    expect(nextFreeSlots(input({ resources: [room('A')], dayPart: 'afternoon', count: 3 })).map((s) => s.startLabel)).toEqual(['16:00', '13:00', '16:00']);
  });

  it('offers a slot that crosses midnight, as an evening slot of the day it starts', () => {
    // 22:30 UTC for 3 hours: 23:30–02:30 local.
    const late = room('Natt', { schedule: daily([1350, 180]) });
    const [first] = nextFreeSlots(input({ resources: [late], count: 1 }));
    expect(first).toMatchObject({ startTime: '2026-11-23T22:30Z', endTime: '2026-11-24T01:30Z', startLabel: '23:30', endLabel: '02:30', endsNextDay: true, dayPart: 'evening', date: '2026-11-23' });
    // A reservation of the next morning's first hours still makes it busy.
    const [next] = nextFreeSlots(input({ resources: [late], count: 1, busy: [busy('Natt', '2026-11-24T00:00Z', '2026-11-24T01:00Z')] }));
    expect(next?.startTime).toBe('2026-11-24T22:30Z');
  });

  it('reads a spring DST week in local time (Europe/Stockholm, 29 March 2026)', () => {
    const saturday = Date.UTC(2026, 2, 28, 12); // 13:00 CET
    const local = room('L', { schedule: daily([420, 180], [1140, 180]) }); // 07:00 and 19:00 wall time
    const slots = nextFreeSlots(input({ resources: [local], nowMs: saturday, horizonEndMs: bookingHorizonEnd(saturday, 28), basis: 'local', count: 4 }));
    // Saturday 19:00 CET = 18:00Z; Sunday after the change 07:00 CEST = 05:00Z.
    expect(starts(slots)).toEqual(['2026-03-28T18:00Z', '2026-03-29T05:00Z', '2026-03-29T17:00Z', '2026-03-30T05:00Z']);
    expect(slots.map((s) => s.startLabel)).toEqual(['19:00', '07:00', '19:00', '07:00']);
    // UTC minutes: the same instants each day, so the local clock moves by an hour.
    const early = Date.UTC(2026, 2, 28, 3);
    const utc = nextFreeSlots(input({ resources: [room('U', { schedule: daily([360, 180]) })], nowMs: early, horizonEndMs: bookingHorizonEnd(early, 28), count: 2 }));
    expect(utc.map((s) => s.startLabel)).toEqual(['07:00', '08:00']);
  });

  it('reads an autumn DST week (25 October 2026) and keeps day parts local', () => {
    const saturday = Date.UTC(2026, 9, 24, 12); // 14:00 CEST
    // 15:30 UTC: 17:30 CEST (evening) before the change, 16:30 CET (afternoon) after.
    const r = room('A', { schedule: daily([930, 60]) });
    const slots = nextFreeSlots(input({ resources: [r], nowMs: saturday, horizonEndMs: bookingHorizonEnd(saturday, 28), count: 2 }));
    expect(slots.map((s) => `${s.startLabel} ${s.dayPart}`)).toEqual(['17:30 evening', '16:30 afternoon']);
    const evenings = nextFreeSlots(input({ resources: [r], nowMs: saturday, horizonEndMs: bookingHorizonEnd(saturday, 28), dayPart: 'evening', count: 5 }));
    expect(evenings).toHaveLength(1);
  });

  it('uses the given slot source (a cache) and stops early on a large system', () => {
    const resources = Array.from({ length: 100 }, (_, i) => room(`Room ${String(i).padStart(3, '0')}`));
    let calls = 0;
    const slotsOf: NextFreeInput['slotsOf'] = (r, from, to) => {
      calls += 1;
      return expandRange(r.schedule, from, to, TZ);
    };
    const slots = nextFreeSlots(input({ resources, slotsOf }));
    expect(slots).toHaveLength(5);
    // One day of 100 rooms, not 28.
    expect(calls).toBe(100);
    // The work, not the time (timings belong to the bench): twenty evening slots of 100 rooms are
    // found by expanding each room for the first day only.
    calls = 0;
    expect(nextFreeSlots(input({ resources, slotsOf, dayPart: 'evening', kind: 'laundry', count: 20 }))).toHaveLength(20);
    expect(calls).toBeLessThanOrEqual(100);
  });

  it('handles an empty schedule and no rooms', () => {
    expect(nextFreeSlots(input({ resources: [] }))).toEqual([]);
    expect(nextFreeSlots(input({ resources: [room('E', { schedule: [] })] }))).toEqual([]);
  });
});

