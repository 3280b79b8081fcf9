import { describe, expect, it } from 'vitest';
import type { RequestView } from '@/lib/events/types';
import type { MirrorReservation } from '@/lib/mirror/types';
import { heldPerResource } from './quota';

const booking = (resourceId: string, startTime: string): MirrorReservation => ({
  id: `r-${resourceId}-${startTime}`,
  deviceId: 'd',
  resourceId,
  userId: 'u',
  ownerId: 'g',
  ownerType: 'Group',
  status: 'Unused',
  startTime,
  endTime: startTime.replace('T06', 'T09'),
});
const open = (resourceId: string, startTime: string) => ({ resourceId, startTime }) as RequestView;

describe('heldPerResource', () => {
  it('counts future bookings and open requests per room', () => {
    const held = heldPerResource({
      bookings: [booking('a', '2026-12-01T06:00:00.000Z'), booking('b', '2026-12-02T06:00:00.000Z')],
      open: [open('a', '2026-12-03T06:00:00.000Z')],
    });
    expect(held.get('a')).toBe(2);
    expect(held.get('b')).toBe(1);
    expect(held.get('c')).toBeUndefined();
  });

  it('counts a request whose booking the mirror already shows once', () => {
    // The same instant written two ways: the mirror's long form and the request's.
    const held = heldPerResource({ bookings: [booking('a', '2026-12-01T06:00:00.000Z')], open: [open('a', '2026-12-01T06:00Z')] });
    expect(held.get('a')).toBe(1);
  });
});
