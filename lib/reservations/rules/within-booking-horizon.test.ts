import { describe, expect, it } from 'vitest';
import { beyondBookingHorizon } from './within-booking-horizon';

const DAY = 86_400_000;
const now = Date.UTC(2026, 10, 23, 12);
const words = { slot: 'Monday 25 May, 07:00–10:00', resource: 'Tvättstuga 1' };

describe('beyondBookingHorizon', () => {
  it('allows a slot that ends exactly at the horizon', () => {
    expect(beyondBookingHorizon({ endMs: now + 28 * DAY }, now, 28, words)).toBeNull();
  });

  it('refuses a slot that ends after it, naming the horizon', () => {
    expect(beyondBookingHorizon({ endMs: now + 28 * DAY + 1 }, now, 28, words)).toBe(
      'Monday 25 May, 07:00–10:00 is too far ahead: Tvättstuga 1 can be booked at most 28 days in advance.',
    );
  });

  it("uses the system's own horizon", () => {
    expect(beyondBookingHorizon({ endMs: now + 10 * DAY }, now, 7, words)).toMatch(/at most 7 days/);
    expect(beyondBookingHorizon({ endMs: now + 10 * DAY }, now, 14, words)).toBeNull();
    expect(beyondBookingHorizon({ endMs: now + 2 * DAY }, now, 1, words)).toMatch(/at most 1 day in advance/);
  });
});
