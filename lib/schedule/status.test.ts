import { describe, expect, it } from 'vitest';
import { expandRange } from './expand';
import { overlayReservations } from './overlay';
import { createOwnerLabeler } from './owner-label';
import { currentStatus, resourceNowStatus } from './status';
import { laundry, reservation, serviceWindow } from '@/tests/schedule-fixtures';

const SE = 'Europe/Stockholm';
const at = (iso: string) => Date.parse(iso);
const ownerLabel = createOwnerLabeler({ groups: [{ id: 'g1203', apartmentId: '1203' }] });

const status = (reservations: ReturnType<typeof reservation>[], now: string, schedule = laundry) =>
  resourceNowStatus({ schedule, reservations, now, timeZone: SE, ownerLabel, resourceId: 'R1' });

describe('currentStatus', () => {
  it('is free when the running slot has no reservation', () => {
    expect(status([], '2026-11-25T10:00:00Z')).toMatchObject({ kind: 'free', until: null, untilMs: null });
    expect(status([], '2026-11-25T10:00:00Z').slot?.startTime).toBe('2026-11-25T09:00Z');
  });

  it('is free, with no slot, outside the schedule', () => {
    expect(status([], '2026-11-25T03:00:00Z')).toMatchObject({ kind: 'free', slot: null });
  });

  it('is in use until the booking ends, following back-to-back bookings of the same apartment', () => {
    const list = [
      reservation('2026-11-25T09:00:00Z', '2026-11-25T12:00:00Z'),
      reservation('2026-11-25T12:00:00Z', '2026-11-25T15:00:00Z', { userId: 'u2' }),
    ];
    expect(status(list, '2026-11-25T10:00:00Z')).toMatchObject({
      kind: 'in-use',
      until: { clock: '16:00', weekday: null },
      untilMs: at('2026-11-25T15:00:00Z'),
      ownerLabel: { kind: 'apartment', apartment: '1203' },
    });
    // A gap (a free slot) ends the chain.
    expect(status(list.slice(0, 1), '2026-11-25T10:00:00Z').until).toEqual({ clock: '13:00', weekday: null });
  });

  it('does not merge back-to-back bookings of different apartments', () => {
    // Issue 15: apartment 2008's booking ended at 13:00, yet the badge said "until 22:00".
    const list = [
      reservation('2026-11-25T09:00:00Z', '2026-11-25T12:00:00Z'),
      reservation('2026-11-25T12:00:00Z', '2026-11-25T15:00:00Z', { ownerId: 'g2008' }),
      reservation('2026-11-25T15:00:00Z', '2026-11-25T18:00:00Z', { ownerId: 'g2008' }),
    ];
    expect(status(list, '2026-11-25T10:06:00Z')).toMatchObject({ kind: 'in-use', until: { clock: '13:00', weekday: null }, ownerLabel: { kind: 'apartment', apartment: '1203' } });
    // The next apartment's two bookings in a row do merge.
    expect(status(list, '2026-11-25T12:30:00Z')).toMatchObject({ until: { clock: '19:00', weekday: null }, untilMs: at('2026-11-25T18:00:00Z') });
    // A user-owned booking followed by another user's is not a continuation either.
    const users = [
      reservation('2026-11-25T09:00:00Z', '2026-11-25T12:00:00Z', { ownerType: 'User', ownerId: null, userId: 'u1' }),
      reservation('2026-11-25T12:00:00Z', '2026-11-25T15:00:00Z', { ownerType: 'User', ownerId: null, userId: 'u2' }),
    ];
    expect(status(users, '2026-11-25T10:00:00Z').until).toEqual({ clock: '13:00', weekday: null });
  });

  it('counts a used booking as in use', () => {
    const list = [reservation('2026-11-25T09:00:00Z', '2026-11-25T12:00:00Z', { status: 'Used' })];
    expect(status(list, '2026-11-25T11:59:00Z')).toMatchObject({ kind: 'in-use', until: { clock: '13:00', weekday: null } });
  });

  it('reports maintenance with the window end, even past the slot', () => {
    const list = [serviceWindow('2026-11-25T08:00:00Z', '2026-11-25T13:30:00Z')];
    expect(status(list, '2026-11-25T10:00:00Z')).toMatchObject({ kind: 'maintenance', until: { clock: '14:30', weekday: null }, ownerLabel: null });
  });

  it('prefers maintenance when a booking overlaps a Service window', () => {
    const list = [reservation('2026-11-25T09:00:00Z', '2026-11-25T12:00:00Z'), serviceWindow('2026-11-25T09:00:00Z', '2026-11-25T12:00:00Z')];
    expect(status(list, '2026-11-25T10:00:00Z').kind).toBe('maintenance');
  });

  it('only counts a partial reservation while it runs', () => {
    const list = [serviceWindow('2026-11-25T10:00:00Z', '2026-11-25T11:00:00Z')];
    expect(status(list, '2026-11-25T09:30:00Z').kind).toBe('free');
    expect(status(list, '2026-11-25T10:30:00Z')).toMatchObject({ kind: 'maintenance', until: { clock: '12:00', weekday: null } });
  });

  it('sees a booking that started yesterday and crosses midnight', () => {
    const schedule = [[], [], [[1320, 180]], [], [], [], []]; // Wednesday 23:00–02:00 local
    const list = [reservation('2026-11-25T22:00:00Z', '2026-11-26T01:00:00Z')];
    expect(status(list, '2026-11-26T00:30:00Z', schedule)).toMatchObject({ kind: 'in-use', until: { clock: '02:00', weekday: null } });
    // Seen from before midnight, the end is on another local day.
    expect(status(list, '2026-11-25T22:30:00Z', schedule).until).toEqual({ clock: '02:00', weekday: 3 });
  });

  it('works on overlaid slots directly', () => {
    const slots = overlayReservations(
      expandRange(laundry, at('2026-11-25T00:00:00Z'), at('2026-11-26T00:00:00Z'), SE),
      [reservation('2026-11-25T15:00:00Z', '2026-11-25T18:00:00Z')],
      { now: at('2026-11-25T10:00:00Z') },
    );
    expect(currentStatus(slots, at('2026-11-25T16:00:00Z')).until).toEqual({ clock: '19:00', weekday: null });
    expect(currentStatus([], at('2026-11-25T16:00:00Z')).kind).toBe('free');
  });
});
