import { describe, expect, it } from 'vitest';
import { bookingHorizonEnd, isBeyondHorizon, tooFarAhead } from './within-booking-horizon';
import { messageText } from '@/tests/message-text';

const DAY = 86_400_000;
const now = Date.UTC(2026, 10, 23, 12);
const words = { slot: 'Monday 25 May, 07:00–10:00', resource: 'Tvättstuga 1' };

describe('within the booking horizon', () => {
  it('ends now + 28 days unless the system says otherwise', () => {
    expect(bookingHorizonEnd(now)).toBe(now + 28 * DAY);
    expect(bookingHorizonEnd(now, 14)).toBe(now + 14 * DAY);
    expect(() => bookingHorizonEnd(now, -1)).toThrow(RangeError);
  });

  it('allows a slot that ends exactly at the horizon and refuses one that ends after it', () => {
    const end = bookingHorizonEnd(now, 28);
    expect(isBeyondHorizon({ endMs: end }, end)).toBe(false);
    expect(isBeyondHorizon({ endMs: end + 1 }, end)).toBe(true);
  });

  it("names the system's own horizon", () => {
    expect(tooFarAhead(words, 28)).toMatchObject({ rule: 'within-booking-horizon', code: 'unprocessable_entity' });
    expect(messageText(tooFarAhead(words, 28).message)).toBe(
      'The slot Monday 25 May, 07:00–10:00 is too far ahead: Tvättstuga 1 can be booked at most 28 days in advance.',
    );
    expect(messageText(tooFarAhead(words, 1).message)).toMatch(/at most 1 day in advance/);
    expect(messageText(tooFarAhead(words, 1).message, 'sv')).toMatch(/kan bokas högst 1 dag i förväg\.$/);
    expect(messageText(tooFarAhead(words, 28).message, 'sv')).toMatch(/högst 28 dagar i förväg\.$/);
  });
});
