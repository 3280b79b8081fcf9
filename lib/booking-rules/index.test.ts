import { describe, expect, it } from 'vitest';
import { bookingHorizonEnd } from './within-booking-horizon';
import { brokenSlotRule, isBeyondDaysAhead, isBookable, localDay, slotRefusal } from '.';
import { messageText } from '@/tests/message-text';
import { expandWeek, overlayReservations, type ScheduleReservation } from '@/lib/schedule';

const HOUR = 3_600_000;
const words = { slot: 'Mon 07:00–10:00', resource: 'Tvättstuga 1' };

describe('the slot rules together', () => {
  const now = Date.UTC(2026, 10, 23, 12);
  it('report the first broken rule in the handler’s order: started, too far ahead, taken', () => {
    expect(brokenSlotRule({ startMs: now - HOUR, overlapping: 1, beyondHorizon: true }, now)).toBe('not-started');
    expect(brokenSlotRule({ startMs: now + HOUR, overlapping: 1, beyondHorizon: true }, now)).toBe('within-booking-horizon');
    expect(brokenSlotRule({ startMs: now + HOUR, overlapping: 1, beyondHorizon: false }, now)).toBe('slot-free');
    expect(brokenSlotRule({ startMs: now + HOUR, overlapping: 0, beyondHorizon: false }, now)).toBeNull();
    expect(slotRefusal({ startMs: now + HOUR, overlapping: 1, beyondHorizon: false }, now, words, 28)?.code).toBe('conflict');
    expect(messageText(slotRefusal({ startMs: now + HOUR, overlapping: 0, beyondHorizon: true }, now, words, 7)!.message)).toMatch(/at most 7 days/);
  });

  it('make the grid show bookable exactly the slots the handler accepts', () => {
    // A week of 3-hour slots with a booking, a maintenance window, a partial booking and past slots,
    // and a horizon that cuts the week: every kind of slot there is.
    const week = '2026-W48';
    const nowMs = Date.parse('2026-11-25T10:30:00Z');
    const horizonEnd = bookingHorizonEnd(nowMs, 3);
    const reservation = (id: string, start: string, end: string, ownerType: ScheduleReservation['ownerType']): ScheduleReservation => ({
      id, resourceId: 'R1', userId: null, ownerId: null, ownerType, status: 'Unused', startTime: start, endTime: end,
    });
    const reservations = [
      reservation('a', '2026-11-25T13:00:00Z', '2026-11-25T16:00:00Z', 'Group'),
      reservation('b', '2026-11-26T07:00:00Z', '2026-11-26T13:00:00Z', 'Service'),
      reservation('c', '2026-11-27T08:00:00Z', '2026-11-27T09:00:00Z', 'User'),
    ];
    const day: [number, number][] = [[420, 180], [600, 180], [780, 180], [960, 180]];
    const slots = overlayReservations(expandWeek(Array.from({ length: 7 }, () => day), week, 'UTC'), reservations, { now: nowMs, horizonEnd });
    const seen = new Set<string>();
    for (const slot of slots) {
      const overlapping = reservations.filter((r) => Date.parse(String(r.startTime)) < slot.endMs && Date.parse(String(r.endTime)) > slot.startMs).length;
      const handler = slotRefusal({ startMs: slot.startMs, overlapping, beyondHorizon: slot.endMs > horizonEnd }, nowMs, words, 3);
      expect(slot.bookable, `${slot.startTime}: ${handler ? messageText(handler.message) : 'accepted'}`).toBe(handler === null);
      expect(slot.bookable).toBe(isBookable({ startMs: slot.startMs, overlapping, beyondHorizon: slot.beyondHorizon }, nowMs));
      seen.add(handler?.rule ?? 'bookable');
    }
    expect([...seen].sort()).toEqual(['bookable', 'not-started', 'slot-free', 'within-booking-horizon']);
  });
});

describe("a rule group's days ahead (issue 48): a slot rule the grid and the handler share", () => {
  const TZ = 'Europe/Stockholm';
  // Wednesday 2 December 2026, 10:30 in Stockholm.
  const nowMs = Date.parse('2026-12-02T09:30:00Z');
  const day: [number, number][] = [[420, 180], [600, 180], [1380, 180]];
  const week = expandWeek(Array.from({ length: 7 }, () => day), '2026-W49', TZ, 'local');

  it('comes after the horizon and before what is taken, worded with the group\'s rooms', () => {
    const ahead = { startMs: nowMs + 48 * HOUR, overlapping: 1, beyondHorizon: false, beyondDaysAhead: 1 };
    expect(brokenSlotRule(ahead, nowMs)).toBe('group-days-ahead');
    expect(brokenSlotRule({ ...ahead, beyondHorizon: true }, nowMs)).toBe('within-booking-horizon');
    expect(brokenSlotRule({ ...ahead, beyondDaysAhead: null }, nowMs)).toBe('slot-free');
    const refusal = slotRefusal(ahead, nowMs, { ...words, rooms: 'Tvättstuga 1 and 3' }, 28)!;
    expect(refusal.rule).toBe('group-rules');
    expect(messageText(refusal.message)).toBe('The slot Mon 07:00–10:00 is too far ahead: Tvättstuga 1 and 3 can be booked only for today or tomorrow.');
  });

  it('makes the grid show bookable exactly the slots the handler accepts, by local calendar day', () => {
    for (const days of [0, 1, 3]) {
      const rule = { days, rooms: ['Tvättstuga 1', 'Tvättstuga 3'] };
      const slots = overlayReservations(week, [], { now: nowMs, horizonEnd: bookingHorizonEnd(nowMs, 28), daysAhead: rule });
      for (const slot of slots) {
        const beyondDaysAhead = isBeyondDaysAhead(slot.startMs, nowMs, days, TZ) ? days : null;
        const handler = slotRefusal({ startMs: slot.startMs, overlapping: 0, beyondHorizon: false, beyondDaysAhead }, nowMs, words, 28);
        expect(slot.bookable, `${days} ${slot.startTime}`).toBe(handler === null);
        expect(slot.daysAheadRule ?? null).toEqual(beyondDaysAhead === null ? null : rule);
        // The same rule as the handler's group check (groupBreach) on the same slot.
        expect(beyondDaysAhead !== null).toBe(localDay(slot.startMs, TZ) - localDay(nowMs, TZ) > days);
      }
      // Today's 23:00 slot is always within reach; with 0 days ahead tomorrow's 07:00 is not.
      const lastToday = slots.find((s) => s.date === '2026-12-02' && s.startLabel === '23:00')!;
      expect(lastToday.bookable).toBe(true);
      expect(slots.find((s) => s.date === '2026-12-03' && s.startLabel === '07:00')!.bookable).toBe(days > 0);
    }
  });
});
