import { describe, expect, it } from 'vitest';
import { bookingHorizonEnd } from './within-booking-horizon';
import { brokenSlotRule, isBookable, slotRefusal } from '.';
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
