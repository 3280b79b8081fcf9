import { describe, expect, it } from 'vitest';
import { groupBreach, isReleased, localDay, mostInWindow, runLength, type HeldBooking } from './group-rules';
import { groupOf, ruleSetSchema, type RuleGroup } from './rule-set';

const zone = 'Europe/Stockholm';
/** An instant from a Stockholm wall time, "2026-11-24T07:00". */
const at = (local: string) => {
  const guess = Date.parse(`${local}:00Z`);
  for (const offset of [60, 120]) {
    const ms = guess - offset * 60_000;
    const w = new Intl.DateTimeFormat('sv-SE', { timeZone: zone, dateStyle: 'short', timeStyle: 'short' }).format(ms);
    if (w === local.replace('T', ' ')) return ms;
  }
  throw new Error(`not a wall time in ${zone}: ${local}`);
};
const hour = 3_600_000;
const slot = (resourceId: string, local: string, hours = 3, status: string | null = 'Unused'): HeldBooking => ({ resourceId, startMs: at(local), endMs: at(local) + hours * hour, status });
const group = (g: Partial<RuleGroup> & { resourceIds: string[] }): RuleGroup => ({ maxFuture: null, perWindow: null, daysAhead: null, maxConsecutive: null, activationMinutes: null, ...g });

describe('the rule model', () => {
  it('defaults a room in no group to the system quota alone (today’s behaviour)', () => {
    expect(groupOf('r2', { groups: [group({ resourceIds: ['r1', 'r4'], maxFuture: 4 })] }, { bookingQuota: 2 })).toEqual(group({ resourceIds: ['r2'], maxFuture: 2 }));
    expect(groupOf('r4', { groups: [group({ resourceIds: ['r1', 'r4'], maxFuture: 4 })] }, { bookingQuota: 2 }).maxFuture).toBe(4);
    expect(groupOf('r1', null, { bookingQuota: 3 }).maxFuture).toBe(3);
  });

  it('refuses a room in two groups, a room twice, and nonsense limits', () => {
    expect(ruleSetSchema.safeParse({ groups: [{ resourceIds: ['a'] }, { resourceIds: ['a', 'b'] }] }).success).toBe(false);
    expect(ruleSetSchema.safeParse({ groups: [{ resourceIds: ['a', 'a'] }] }).success).toBe(false);
    expect(ruleSetSchema.safeParse({ groups: [{ resourceIds: ['a'], perWindow: { count: 0, days: 7 } }] }).success).toBe(false);
    expect(ruleSetSchema.safeParse({ groups: [{ resourceIds: [] }] }).success).toBe(false);
    const parsed = ruleSetSchema.parse({ groups: [{ resourceIds: ['a'], perWindow: { count: 2, days: 7 } }] });
    expect(parsed.groups[0]).toEqual(group({ resourceIds: ['a'], perWindow: { count: 2, days: 7 } }));
  });
});

describe('max future bookings ("2 at a time")', () => {
  const g = group({ resourceIds: ['r1', 'r4', 'r5'], maxFuture: 2 });
  const now = at('2026-11-24T12:00');
  it('counts future bookings in any room of the group, not past ones or other rooms', () => {
    const held = [slot('r1', '2026-11-25T07:00'), slot('r9', '2026-11-25T10:00'), slot('r4', '2026-11-20T07:00', 3, 'Used')];
    expect(groupBreach(g, held, slot('r5', '2026-11-26T07:00'), now, zone)).toBeNull();
    expect(groupBreach(g, [...held, slot('r4', '2026-11-27T07:00')], slot('r5', '2026-11-28T07:00'), now, zone)).toEqual({ rule: 'max-future', limit: 2, held: 2 });
  });
  it('counts a booking that is under way until it ends', () => {
    expect(groupBreach(group({ resourceIds: ['r1'], maxFuture: 1 }), [slot('r1', '2026-11-24T10:00')], slot('r1', '2026-11-26T07:00'), now, zone)?.rule).toBe('max-future');
  });
  it('ignores a candidate in a room outside the group', () => {
    expect(groupBreach(group({ resourceIds: ['r1'], maxFuture: 0 }), [], slot('r2', '2026-11-26T07:00'), now, zone)).toBeNull();
  });
});

describe('N bookings in D days ("2 times in 7 days")', () => {
  const g = group({ resourceIds: ['r1'], perWindow: { count: 2, days: 7 } });
  const now = at('2026-11-24T12:00');
  it('counts past and future bookings within any 7-day window that holds the new one', () => {
    // The 20th (past) and the 26th (future) lie in one window with the 25th (20–26): a third is refused.
    const held = [slot('r1', '2026-11-20T07:00', 3, 'Used'), slot('r1', '2026-11-26T07:00')];
    expect(groupBreach(g, held, slot('r1', '2026-11-25T07:00'), now, zone)).toEqual({ rule: 'per-window', limit: 2, days: 7, held: 2 });
    // The 18th and the 26th are 9 days apart: no 7-day window with the 25th holds both.
    expect(groupBreach(g, [slot('r1', '2026-11-18T07:00', 3, 'Used'), slot('r1', '2026-11-26T07:00')], slot('r1', '2026-11-25T07:00'), now, zone)).toBeNull();
    expect(groupBreach(g, [slot('r1', '2026-11-17T07:00', 3, 'Used')], slot('r1', '2026-11-24T16:00'), now, zone)).toBeNull();
    expect(groupBreach(g, [slot('r1', '2026-11-18T07:00', 3, 'Used')], slot('r1', '2026-11-24T16:00'), now, zone)).toBeNull();
    expect(groupBreach(g, [slot('r1', '2026-11-18T07:00', 3, 'Used'), slot('r1', '2026-11-19T07:00', 3, 'Used')], slot('r1', '2026-11-24T16:00'), now, zone)?.rule).toBe('per-window');
  });
  it('counts calendar days across the change to summer time (a 23-hour day)', () => {
    // 29 March 2026: clocks go forward in Stockholm. The 23rd and the 29th are in one 7-day window.
    const spring = group({ resourceIds: ['r1'], perWindow: { count: 1, days: 7 } });
    const before = at('2026-03-20T12:00');
    expect(groupBreach(spring, [slot('r1', '2026-03-23T00:00')], slot('r1', '2026-03-29T23:00', 1), before, zone)?.rule).toBe('per-window');
    expect(groupBreach(spring, [slot('r1', '2026-03-22T23:00', 1)], slot('r1', '2026-03-29T00:00'), before, zone)).toBeNull();
  });
  it('puts a slot that starts at midnight on its own day', () => {
    expect(localDay(at('2026-11-25T00:00'), zone) - localDay(at('2026-11-24T23:59'), zone)).toBe(1);
    expect(mostInWindow(7, 10, [3, 4, 5, 16, 17])).toBe(2);
    expect(mostInWindow(7, 10, [3, 17])).toBe(0);
    expect(mostInWindow(1, 10, [9, 11])).toBe(0);
  });
});

describe('days ahead ("only today or tomorrow")', () => {
  const g = group({ resourceIds: ['quick'], daysAhead: 1 });
  const now = at('2026-11-24T22:00');
  it('allows today and tomorrow by the calendar, not 24-hour days', () => {
    expect(groupBreach(g, [], slot('quick', '2026-11-25T21:00', 1), now, zone)).toBeNull();
    expect(groupBreach(g, [], slot('quick', '2026-11-26T00:00', 1), now, zone)).toEqual({ rule: 'days-ahead', days: 1 });
    expect(groupBreach(group({ resourceIds: ['quick'], daysAhead: 0 }), [], slot('quick', '2026-11-25T00:00', 1), now, zone)?.rule).toBe('days-ahead');
  });
});

describe('slots in a row ("at most three 1-hour slots in a row")', () => {
  const g = group({ resourceIds: ['quick'], maxConsecutive: 3 });
  const now = at('2026-11-24T06:00');
  const held = [slot('quick', '2026-11-24T07:00', 1), slot('quick', '2026-11-24T08:00', 1)];
  it('allows the third and refuses the fourth, on either end', () => {
    expect(groupBreach(g, held, slot('quick', '2026-11-24T09:00', 1), now, zone)).toBeNull();
    const three = [...held, slot('quick', '2026-11-24T09:00', 1)];
    expect(groupBreach(g, three, slot('quick', '2026-11-24T10:00', 1), now, zone)).toEqual({ rule: 'max-consecutive', limit: 3 });
    expect(groupBreach(g, three, slot('quick', '2026-11-24T06:00', 1), now, zone)?.rule).toBe('max-consecutive');
    expect(groupBreach(g, three, slot('quick', '2026-11-24T11:00', 1), now, zone)).toBeNull();
  });
  it('joins two runs through the new slot', () => {
    const gap = [slot('quick', '2026-11-24T07:00', 1), slot('quick', '2026-11-24T09:00', 1), slot('quick', '2026-11-24T10:00', 1)];
    expect(runLength(slot('quick', '2026-11-24T08:00', 1), gap)).toBe(4);
    expect(runLength(slot('quick', '2026-11-24T12:00', 1), gap)).toBe(1);
  });
});

describe('activation ("started within 30 minutes or released")', () => {
  const g = group({ resourceIds: ['r1'], maxFuture: 1, activationMinutes: 30 });
  it('releases an unused booking 30 minutes after its start, and it holds nothing then', () => {
    const booking = slot('r1', '2026-11-24T07:00');
    expect(isReleased(booking, g, at('2026-11-24T07:29'))).toBe(false);
    expect(isReleased(booking, g, at('2026-11-24T07:30'))).toBe(true);
    expect(isReleased({ ...booking, status: 'Used' }, g, at('2026-11-24T08:00'))).toBe(false);
    expect(isReleased(booking, group({ resourceIds: ['r1'] }), at('2026-11-24T08:00'))).toBe(false);
    expect(groupBreach(g, [booking], slot('r1', '2026-11-25T07:00'), at('2026-11-24T07:10'), zone)?.rule).toBe('max-future');
    expect(groupBreach(g, [booking], slot('r1', '2026-11-25T07:00'), at('2026-11-24T07:40'), zone)).toBeNull();
  });
});

describe('the three published installations together', () => {
  // "2 times in 7 days; 1 booking at a time; up to 30 days ahead; activated within 30 minutes".
  const vaka = group({ resourceIds: ['t'], perWindow: { count: 2, days: 7 }, maxFuture: 1, daysAhead: 30, activationMinutes: 30 });
  // "Tvättstuga 1, 4 and 5 together at most 4 times in 7 days; at most 2 future bookings; 30 days ahead".
  const shared = group({ resourceIds: ['t1', 't4', 't5'], perWindow: { count: 4, days: 7 }, maxFuture: 2, daysAhead: 30 });
  const now = at('2026-11-24T12:00');
  it('reports the first rule broken, in a fixed order', () => {
    expect(groupBreach(vaka, [], slot('t', '2026-12-25T07:00'), now, zone)?.rule).toBe('days-ahead');
    expect(groupBreach(vaka, [slot('t', '2026-11-25T07:00')], slot('t', '2026-11-26T07:00'), now, zone)?.rule).toBe('max-future');
    expect(groupBreach(vaka, [slot('t', '2026-11-20T07:00', 3, 'Used'), slot('t', '2026-11-22T07:00', 3, 'Used')], slot('t', '2026-11-25T07:00'), now, zone)?.rule).toBe('per-window');
    const past = [slot('t1', '2026-11-20T07:00', 3, 'Used'), slot('t4', '2026-11-21T07:00', 3, 'Used'), slot('t5', '2026-11-22T07:00', 3, 'Used')];
    expect(groupBreach(shared, past, slot('t4', '2026-11-25T07:00'), now, zone)).toBeNull();
    expect(groupBreach(shared, [...past, slot('t1', '2026-11-24T16:00')], slot('t4', '2026-11-25T07:00'), now, zone)?.rule).toBe('per-window');
  });
});
