import { describe, expect, it } from 'vitest';
import { messageText } from '@/tests/message-text';
import { expandWeek, overlayReservations, type ScheduleReservation } from '@/lib/schedule';
import { brokenSlotRule, isBookable, slotRefusal } from '.';
import { isStateKnown, stillChecking } from './reservations-known';

const HOUR = 3_600_000;
const words = { slot: 'Thu 26 Nov 07:00–10:00', resource: 'Tvättstuga 1' };

describe('reservations-known: no slot is free before every reservation is read', () => {
  const now = Date.UTC(2026, 10, 23, 12);

  it('a slot with nothing read over it is not bookable while the reservations are still read', () => {
    expect(isStateKnown(false)).toBe(false);
    expect(isStateKnown(true)).toBe(true);
    expect(brokenSlotRule({ startMs: now + HOUR, overlapping: 0, beyondHorizon: false, reservationsKnown: false }, now)).toBe('reservations-known');
    expect(isBookable({ startMs: now + HOUR, overlapping: 0, beyondHorizon: false, reservationsKnown: false }, now)).toBe(false);
    // Known (or not said: a complete mirror), the same slot is bookable.
    expect(isBookable({ startMs: now + HOUR, overlapping: 0, beyondHorizon: false, reservationsKnown: true }, now)).toBe(true);
    expect(isBookable({ startMs: now + HOUR, overlapping: 0, beyondHorizon: false }, now)).toBe(true);
  });

  it('comes after started and too far ahead (final answers), before taken', () => {
    expect(brokenSlotRule({ startMs: now - HOUR, overlapping: 0, beyondHorizon: false, reservationsKnown: false }, now)).toBe('not-started');
    expect(brokenSlotRule({ startMs: now + HOUR, overlapping: 0, beyondHorizon: true, reservationsKnown: false }, now)).toBe('within-booking-horizon');
    expect(brokenSlotRule({ startMs: now + HOUR, overlapping: 1, beyondHorizon: false, reservationsKnown: false }, now)).toBe('reservations-known');
  });

  it('the handler refuses it for now (503, try again), naming the slot and the room in both languages', () => {
    const refusal = slotRefusal({ startMs: now + HOUR, overlapping: 0, beyondHorizon: false, reservationsKnown: false }, now, words, 28);
    expect(refusal).toEqual(stillChecking(words));
    expect(refusal).toMatchObject({ rule: 'reservations-known', code: 'service_unavailable' });
    expect(messageText(refusal!.message)).toBe(
      "The portal is still reading this system's bookings, so it cannot yet tell whether Thu 26 Nov 07:00–10:00 in Tvättstuga 1 is free. Try again in a moment.",
    );
    expect(messageText(refusal!.message, 'sv')).toMatch(/^Portalen läser fortfarande in systemets bokningar/);
  });

  it('the grid and the handler agree on every slot of a partly read week: none is bookable', () => {
    const nowMs = Date.parse('2026-11-25T10:30:00Z');
    const read: ScheduleReservation[] = [
      { id: 'a', resourceId: 'R1', userId: null, ownerId: null, ownerType: 'Group', status: 'Unused', startTime: '2026-11-26T07:00:00Z', endTime: '2026-11-26T10:00:00Z' },
    ];
    const day: [number, number][] = [[420, 180], [600, 180], [780, 180], [960, 180]];
    const slots = overlayReservations(expandWeek(Array.from({ length: 7 }, () => day), '2026-W48', 'UTC'), read, {
      now: nowMs,
      horizonDays: 28,
      reservationsComplete: false,
    });
    const rules = new Set<string>();
    for (const slot of slots) {
      const overlapping = read.filter((r) => Date.parse(r.startTime as string) < slot.endMs && Date.parse(r.endTime as string) > slot.startMs).length;
      const handler = slotRefusal({ startMs: slot.startMs, overlapping, beyondHorizon: slot.beyondHorizon, reservationsKnown: false }, nowMs, words, 28);
      expect(slot.bookable).toBe(false);
      expect(handler).not.toBeNull();
      rules.add(handler!.rule);
    }
    expect([...rules].sort()).toEqual(['not-started', 'reservations-known']);
  });
});
