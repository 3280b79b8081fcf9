import { describe, expect, it } from 'vitest';
import { bookingStatus } from './bookings';

describe('bookingStatus', () => {
  const now = Date.UTC(2026, 10, 25, 12);
  it('words a reservation by who owns it, its status and whether it is over', () => {
    expect(bookingStatus({ ownerType: 'Service', status: 'Used', endMs: now - 1 }, now)).toBe('maintenance');
    expect(bookingStatus({ ownerType: 'Group', status: 'Used', endMs: now - 1 }, now)).toBe('used');
    expect(bookingStatus({ ownerType: 'User', status: 'Unused', endMs: now }, now)).toBe('unused');
    expect(bookingStatus({ ownerType: 'Group', status: 'Unused', endMs: now + 1 }, now)).toBe('booked');
    expect(bookingStatus({ ownerType: 'Unknown', status: 'Released', endMs: now - 1 }, now)).toBe('unknown');
  });
});
