import { describe, expect, it } from 'vitest';
import type { Owner, StatefulSlot } from '@/lib/schedule';
import { displayRoomOf } from './screen';

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
    expect(shown.now).toEqual({ kind: 'free', untilMs: null });
    expect(shown.nextFree).toBeNull();
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
