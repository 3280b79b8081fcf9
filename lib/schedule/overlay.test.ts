import { describe, expect, it } from 'vitest';
import { expandWeek } from './expand';
import { type StatefulSlot, applyBookingHorizon, overlayReservations } from './overlay';
import { createOwnerLabeler } from './owner-label';
import { laundry, reservation, serviceWindow } from '@/tests/schedule-fixtures';
import { createTranslator } from 'next-intl';
import * as words from '@/components/resource-week/slot-words';
import en from '@/messages/en.json';

const SE = 'Europe/Stockholm';
// The slot's words are the components' (slot-words.test.ts covers Swedish); English here.
const t = createTranslator({ locale: 'en', messages: en, namespace: 'slot' });
const slotAccessibleName = (slot: StatefulSlot) => words.slotAccessibleName(slot, t, 'en');
const slotStateText = (slot: StatefulSlot) => words.slotStateText(slot, t);
const slotTimeRange = (slot: Parameters<typeof words.slotTimeRange>[0]) => words.slotTimeRange(slot, t);
const at = (iso: string) => Date.parse(iso);

const ownerLabel = createOwnerLabeler({
  groups: [
    { id: 'g1203', name: 'Lgh 1203', apartmentId: '1203' },
    { id: 'g0405', name: 'Flat 4', apartmentId: '0405' },
    { id: 'gBoard', name: 'Board room', apartmentId: '' },
  ],
  users: [
    { userId: 'u1', name: 'Bo Resident', userGroupId: 'g0405' },
    { userId: 'u2', name: 'Alice Example', userGroupId: null },
  ],
});

// Wednesday 25 November 2026, 11:00 in Stockholm.
const now = at('2026-11-25T10:00:00Z');
const reservations = [
  reservation('2026-11-23T06:00:00Z', '2026-11-23T09:00:00Z', { status: 'Used' }),
  reservation('2026-11-23T09:00:00Z', '2026-11-23T12:00:00Z'),
  reservation('2026-11-26T06:00:00Z', '2026-11-26T09:00:00Z'),
  reservation('2026-11-26T09:00:00Z', '2026-11-26T12:00:00Z', { ownerType: 'User', ownerId: 'u1', userId: 'u1' }),
  reservation('2026-11-26T12:00:00Z', '2026-11-26T15:00:00Z', { ownerType: 'User', ownerId: 'u2', userId: 'u2' }),
  // Overlap: a booking and a Service window on the same slot.
  reservation('2026-11-26T15:00:00Z', '2026-11-26T18:00:00Z', { id: 'overlap-user', ownerType: 'User', ownerId: 'u1' }),
  serviceWindow('2026-11-26T15:00:00Z', '2026-11-26T18:00:00Z', { id: 'overlap-service' }),
  // A Service window over the whole of local Friday.
  serviceWindow('2026-11-26T23:00:00Z', '2026-11-27T23:00:00Z', { id: 'friday-service' }),
  // A Service window covering only 08:00–09:00 local of the 07:00–10:00 slot.
  serviceWindow('2026-11-28T07:00:00Z', '2026-11-28T08:00:00Z', { id: 'partial-service' }),
  // Two bookings overlapping one slot: the one covering it wholly decides.
  reservation('2026-11-28T10:00:00Z', '2026-11-28T11:00:00Z', { id: 'short', ownerType: 'User', ownerId: 'u2', userId: 'u2' }),
  reservation('2026-11-28T09:00:00Z', '2026-11-28T12:00:00Z', { id: 'whole', ownerType: 'User', ownerId: 'u1' }),
  // A booking covering only part of a slot.
  reservation('2026-11-28T13:00:00Z', '2026-11-28T14:00:00Z', { id: 'partial-booking', ownerType: 'User', ownerId: 'u2', userId: 'u2' }),
  // One reservation spanning two slots.
  reservation('2026-11-29T06:00:00Z', '2026-11-29T12:00:00Z', { id: 'double', ownerId: 'gBoard' }),
  // Another resource, and an unreadable interval: both ignored.
  reservation('2026-11-29T12:00:00Z', '2026-11-29T15:00:00Z', { resourceId: 'R2' }),
  reservation('2026-11-29T18:00:00Z', '2026-11-29T15:00:00Z'),
  reservation('not a date', '2026-11-29T18:00:00Z'),
];

function overlaid(): StatefulSlot[] {
  return overlayReservations(expandWeek(laundry, '2026-W48', SE), reservations, { now, ownerLabel, resourceId: 'R1' });
}

const find = (slots: StatefulSlot[], startTime: string) => {
  const slot = slots.find((s) => s.startTime === startTime);
  if (!slot) throw new Error(`no slot at ${startTime}`);
  return slot;
};

describe('overlayReservations', () => {
  const slots = overlaid();

  it('gives every slot of the week a state', () => {
    expect(slots).toHaveLength(35);
    const byDay = Array.from({ length: 7 }, (_, day) => slots.filter((s) => s.dayIndex === day).map((s) => s.state));
    expect(byDay).toEqual([
      ['used', 'booked', 'past', 'past', 'past'],
      ['past', 'past', 'past', 'past', 'past'],
      ['past', 'free', 'free', 'free', 'free'],
      ['booked', 'booked', 'booked', 'maintenance', 'free'],
      ['maintenance', 'maintenance', 'maintenance', 'maintenance', 'maintenance'],
      ['maintenance', 'booked', 'booked', 'free', 'free'],
      ['booked', 'booked', 'free', 'free', 'free'],
    ]);
  });

  it('names holders through the labeler and builds accessible names', () => {
    expect(slotAccessibleName(find(slots, '2026-11-26T06:00Z'))).toBe('Thursday 26 November, 07:00–10:00, booked by apartment 1203');
    expect(slotAccessibleName(find(slots, '2026-11-26T09:00Z'))).toBe('Thursday 26 November, 10:00–13:00, booked by apartment 0405');
    expect(slotAccessibleName(find(slots, '2026-11-26T12:00Z'))).toBe('Thursday 26 November, 13:00–16:00, booked by Alice Example');
    expect(slotAccessibleName(find(slots, '2026-11-26T18:00Z'))).toBe('Thursday 26 November, 19:00–22:00, free');
    expect(slotAccessibleName(find(slots, '2026-11-27T06:00Z'))).toBe('Friday 27 November, 07:00–10:00, maintenance');
    expect(slotAccessibleName(find(slots, '2026-11-24T06:00Z'))).toBe('Tuesday 24 November, 07:00–10:00, past');
    expect(slotAccessibleName(find(slots, '2026-11-29T06:00Z'))).toBe('Sunday 29 November, 07:00–10:00, booked by Board room');
  });

  it('marks a used booking, and a booking that has ended, as history', () => {
    const used = find(slots, '2026-11-23T06:00Z');
    expect(used).toMatchObject({ state: 'used', ownerLabel: { kind: 'apartment', apartment: '1203' }, isPast: true, bookable: false });
    expect(slotAccessibleName(used)).toBe('Monday 23 November, 07:00–10:00, used by apartment 1203, past');
    const expired = find(slots, '2026-11-23T09:00Z');
    expect(expired).toMatchObject({ state: 'booked', isPast: true });
    expect(slotAccessibleName(expired)).toBe('Monday 23 November, 10:00–13:00, was booked by apartment 1203, past');
  });

  it('marks the running slot as now and not bookable', () => {
    const running = find(slots, '2026-11-25T09:00Z');
    expect(running).toMatchObject({ state: 'free', isCurrent: true, isPast: false, bookable: false });
    expect(slotAccessibleName(running)).toBe('Wednesday 25 November, 10:00–13:00, free, now');
    expect(find(slots, '2026-11-25T12:00Z')).toMatchObject({ state: 'free', isCurrent: false, bookable: true });
    expect(slots.filter((s) => s.isCurrent)).toHaveLength(1);
  });

  it('lets a Service window win over an overlapping booking and keeps both', () => {
    const slot = find(slots, '2026-11-26T15:00Z');
    expect(slot.state).toBe('maintenance');
    expect(slot.ownerLabel).toBeNull();
    expect(slot.reservation?.id).toBe('overlap-service');
    expect(slot.reservations.map((r) => r.id).sort()).toEqual(['overlap-service', 'overlap-user']);
  });

  it('marks every slot a long Service window overlaps', () => {
    const friday = slots.filter((s) => s.date === '2026-11-27');
    expect(friday.every((s) => s.state === 'maintenance' && s.reservation?.id === 'friday-service')).toBe(true);
    expect(friday.every((s) => s.reservation?.coverage === 'full')).toBe(true);
  });

  it('reports a Service window covering part of a slot with its own times', () => {
    const slot = find(slots, '2026-11-28T06:00Z');
    expect(slot.reservation).toMatchObject({ id: 'partial-service', coverage: 'partial', startLabel: '08:00', endLabel: '09:00' });
    expect(slotAccessibleName(slot)).toBe('Saturday 28 November, 07:00–10:00, maintenance 08:00–09:00');
  });

  it('picks the booking covering the slot when two bookings overlap it', () => {
    const slot = find(slots, '2026-11-28T09:00Z');
    expect(slot.reservation?.id).toBe('whole');
    expect(slot.reservations.map((r) => r.id)).toEqual(['whole', 'short']);
    expect(slot.reservations.map((r) => r.coverage)).toEqual(['full', 'partial']);
    expect(slotStateText(slot)).toBe('booked by apartment 0405');
  });

  it('marks a slot booked when a reservation covers only part of it', () => {
    const slot = find(slots, '2026-11-28T12:00Z');
    expect(slot).toMatchObject({ state: 'booked', ownerLabel: { kind: 'name', name: 'Alice Example' }, bookable: false });
    expect(slotStateText(slot)).toBe('booked by Alice Example 14:00–15:00');
  });

  it('marks both slots a reservation spans', () => {
    expect(find(slots, '2026-11-29T06:00Z').reservation?.id).toBe('double');
    expect(find(slots, '2026-11-29T09:00Z').reservation?.id).toBe('double');
    expect(find(slots, '2026-11-29T09:00Z').reservation?.coverage).toBe('full'); // it covers each slot wholly
  });

  it('ignores other resources and unreadable intervals', () => {
    expect(find(slots, '2026-11-29T12:00Z').state).toBe('free');
    expect(find(slots, '2026-11-29T15:00Z').state).toBe('free');
    const all = overlayReservations(expandWeek(laundry, '2026-W48', SE), reservations, { now });
    expect(find(all, '2026-11-29T12:00Z').state).toBe('booked'); // without resourceId nothing is filtered
  });

  it('does not let a reservation touching a slot edge mark it', () => {
    const touching = [reservation('2026-11-30T09:00:00Z', '2026-11-30T12:00:00Z')];
    const next = overlayReservations(expandWeek(laundry, '2026-W49', SE), touching, { now });
    expect(next.filter((s) => s.state === 'booked').map((s) => s.startTime)).toEqual(['2026-11-30T09:00Z']);
  });

  it('gives default labels without a labeler, and none for Service', () => {
    const list = [
      reservation('2026-11-30T06:00:00Z', '2026-11-30T09:00:00Z'),
      reservation('2026-11-30T09:00:00Z', '2026-11-30T12:00:00Z', { ownerType: 'User' }),
    ];
    const next = overlayReservations(expandWeek(laundry, '2026-W49', SE), list, { now });
    expect(next.slice(0, 2).map(slotStateText)).toEqual(['booked by an apartment', 'booked by a resident']);
  });

  it('accepts Date instants in reservations', () => {
    const list = [reservation('x', 'y', { startTime: new Date('2026-11-30T06:00:00Z'), endTime: new Date('2026-11-30T09:00:00Z') })];
    const next = overlayReservations(expandWeek(laundry, '2026-W49', SE), list, { now });
    expect(next[0]!.state).toBe('booked');
  });

  it('rejects an invalid now', () => {
    expect(() => overlayReservations([], [], { now: 'yesterday' })).toThrow(/now is not a valid date/);
  });
});

describe('booking horizon', () => {
  it('makes slots ending after the horizon not bookable', () => {
    // Horizon: 23 December 10:00 UTC (11:00 local).
    const slots = overlayReservations(expandWeek(laundry, '2026-W52', SE), [], { now, ownerLabel });
    const dec23 = slots.filter((s) => s.date === '2026-12-23');
    expect(dec23.map((s) => [s.startLabel, s.bookable, s.beyondHorizon])).toEqual([
      ['07:00', true, false],
      ['10:00', false, true],
      ['13:00', false, true],
      ['16:00', false, true],
      ['19:00', false, true],
    ]);
    expect(slots.filter((s) => s.date < '2026-12-23').every((s) => s.bookable)).toBe(true);
    expect(slotAccessibleName(dec23[1]!)).toBe('Wednesday 23 December, 10:00–13:00, free, beyond the booking horizon');
  });

  it('can be narrowed with horizonDays or an explicit end', () => {
    const base = overlayReservations(expandWeek(laundry, '2026-W48', SE), [], { now });
    const week = applyBookingHorizon(base, { now, horizonDays: 1 });
    // Thursday 26 November 10:00 UTC: the 07:00–10:00 local slot (06–09 UTC) fits, the next does not.
    expect(week.filter((s) => s.bookable).map((s) => s.startTime)).toEqual([
      '2026-11-25T12:00Z',
      '2026-11-25T15:00Z',
      '2026-11-25T18:00Z',
      '2026-11-26T06:00Z',
    ]);
    const explicit = overlayReservations(expandWeek(laundry, '2026-W48', SE), [], { now, horizonEnd: '2026-11-25T15:00:00Z' });
    expect(explicit.filter((s) => s.bookable).map((s) => s.startTime)).toEqual(['2026-11-25T12:00Z']);
  });

  it('never makes a booked or maintenance slot bookable', () => {
    const slots = overlaid();
    expect(slots.filter((s) => s.bookable).every((s) => s.state === 'free' && !s.isPast && !s.isCurrent)).toBe(true);
  });
});

describe('labels', () => {
  it('marks a range that crosses local midnight', () => {
    expect(slotTimeRange({ startLabel: '23:00', endLabel: '02:00', endsNextDay: true })).toBe('23:00–02:00 next day');
    const [slot] = overlayReservations(expandWeek([[[1320, 180]]], '2026-W48', SE), [], { now });
    expect(slotAccessibleName(slot!)).toBe('Monday 23 November, 23:00–02:00 next day, past');
  });
});
