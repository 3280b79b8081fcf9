// Slot states while a first load is still reading a system's reservations (issue 20): the slots a
// read reservation touches show it, every other one is 'loading', and none is ever bookable.
import { createTranslator } from 'next-intl';
import { describe, expect, it } from 'vitest';
import { expandWeek } from './expand';
import { applyBookingHorizon, overlayReservations } from './overlay';
import { weekOccupancy } from './occupancy';
import { applyOpenRequests } from './pending';
import { laundry, reservation, serviceWindow } from '@/tests/schedule-fixtures';
import { slotAccessibleName } from '@/components/resource-week/slot-words';
import en from '@/messages/en.json';
import sv from '@/messages/sv.json';

const SE = 'Europe/Stockholm';
// Wednesday 25 November 2026, 11:00 in Stockholm; the week runs Monday 23 to Sunday 29.
const now = Date.parse('2026-11-25T10:00:00Z');
// What the first pages happened to hold (items come in no order): a past booking, a future one, a
// maintenance window and a booking of another room.
const readSoFar = [
  reservation('2026-11-23T06:00:00Z', '2026-11-23T09:00:00Z', { id: 'past-booking', status: 'Used' }),
  reservation('2026-11-26T09:00:00Z', '2026-11-26T12:00:00Z', { id: 'future-booking' }),
  serviceWindow('2026-11-27T06:00:00Z', '2026-11-27T09:00:00Z', { id: 'service' }),
  reservation('2026-11-28T06:00:00Z', '2026-11-28T09:00:00Z', { id: 'other-room', resourceId: 'R2' }),
];
const week = () => expandWeek(laundry, '2026-W48', SE);
const partial = () => overlayReservations(week(), readSoFar, { now, resourceId: 'R1', reservationsComplete: false });

describe('a week while the reservations are still being read', () => {
  it('shows the bookings read so far and every other slot as loading', () => {
    const slots = partial();
    const byReservation = (id: string) => slots.find((s) => s.reservation?.id === id);
    expect(byReservation('past-booking')).toMatchObject({ state: 'used', checking: true });
    expect(byReservation('future-booking')).toMatchObject({ state: 'booked', checking: true, ownerLabel: { kind: 'someApartment' } });
    expect(byReservation('service')).toMatchObject({ state: 'maintenance', checking: true });
    expect(byReservation('other-room')).toBeUndefined();
    const rest = slots.filter((s) => s.reservations.length === 0);
    expect(rest).toHaveLength(slots.length - 3);
    // Past or future, free or not: not known yet. Never "free", never "past".
    expect(new Set(rest.map((s) => s.state))).toEqual(new Set(['loading']));
    expect(rest.some((s) => s.isPast) && rest.some((s) => !s.isPast)).toBe(true);
  });

  it('offers no slot as bookable, however free it looks, also after the horizon is applied again', () => {
    const slots = partial();
    expect(slots.filter((s) => s.bookable)).toEqual([]);
    expect(applyBookingHorizon(slots, { now, horizonDays: 28 }).filter((s) => s.bookable)).toEqual([]);
    // The same week with every reservation read: free future slots are bookable again.
    const complete = overlayReservations(week(), readSoFar, { now, resourceId: 'R1' });
    expect(complete.some((s) => s.bookable)).toBe(true);
    expect(complete.every((s) => s.checking === false && s.state !== 'loading')).toBe(true);
  });

  it('a cancelled booking seen during the load leaves its slot being checked, not free', () => {
    const slots = partial();
    const booked = slots.find((s) => s.reservation?.id === 'future-booking')!;
    const cancelled = applyOpenRequests(
      slots,
      [{ id: 'q', kind: 'cancel', status: 'succeeded', startTime: booked.startTime, endTime: booked.endTime, reservationId: 'future-booking' }],
      now,
    ).find((s) => s.id === booked.id);
    expect(cancelled).toMatchObject({ state: 'loading', bookable: false, reservation: null });
    // A booking request on a slot being checked changes nothing (the portal refuses it anyway).
    const loading = slots.find((s) => s.state === 'loading' && !s.isPast)!;
    const asked = applyOpenRequests(slots, [{ id: 'q2', kind: 'create', status: 'pending', startTime: loading.startTime, endTime: loading.endTime, reservationId: null }], now);
    expect(asked.find((s) => s.id === loading.id)).toEqual(loading);
  });

  it('counts slots being checked apart: in the total, not in the capacity', () => {
    const stats = weekOccupancy(partial());
    expect(stats.loading).toBe(stats.total - 3);
    expect(stats.capacity).toBe(2);
    expect(stats.reserved).toBe(2);
    expect(stats.free + stats.booked + stats.used + stats.past + stats.maintenance + stats.loading).toBe(stats.total);
    expect(weekOccupancy(overlayReservations(week(), readSoFar, { now, resourceId: 'R1' })).loading).toBe(0);
  });

  it('names a slot being checked so in both languages', () => {
    const slot = partial().find((s) => s.state === 'loading' && s.startMs === Date.parse('2026-11-26T06:00:00Z'))!;
    expect(slotAccessibleName(slot, createTranslator({ locale: 'en', messages: en, namespace: 'slot' }), 'en')).toBe('Thursday 26 November, 07:00–10:00, being checked');
    expect(slotAccessibleName(slot, createTranslator({ locale: 'sv', messages: sv, namespace: 'slot' }), 'sv')).toBe('torsdag 26 november, 07:00–10:00, kontrolleras');
  });
});
