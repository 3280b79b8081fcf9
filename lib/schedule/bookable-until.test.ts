import { describe, expect, it } from 'vitest';
import { bookingHorizonEnd } from '@/lib/booking-rules/within-booking-horizon';
import { bookableUntil } from './bookable-until';

const TZ = 'Europe/Stockholm';
// Local 07–10, 10–13 and 23:00–02:00 the next day, every day.
const schedule = Array.from({ length: 7 }, () => [[420, 180], [600, 180], [1380, 180]] as [number, number][]);
const horizon = (nowMs: number, days: number, daysAhead: number | null) => ({ nowMs, horizonEndMs: bookingHorizonEnd(nowMs, days), daysAhead, timeZone: TZ, basis: 'local' as const });

describe('Bookable until (issue 48)', () => {
  it("is the end of the last slot within the system's horizon, not the clock's minute", () => {
    const at = (iso: string) => bookableUntil(schedule, horizon(Date.parse(iso), 28, null));
    // 10:30 and 10:42 on 2 December: the same slot, 07:00–10:00 on 30 December, ends last within 28 days.
    expect(at('2026-12-02T09:30:00Z')).toBe(Date.parse('2026-12-30T09:00:00Z'));
    expect(at('2026-12-02T09:42:00Z')).toBe(Date.parse('2026-12-30T09:00:00Z'));
    // Once 10:00–13:00 on the 30th comes within reach (its end 28 days ahead), it moves to that slot.
    expect(at('2026-12-02T12:00:00Z')).toBe(Date.parse('2026-12-30T12:00:00Z'));
  });

  it("is the earlier of the system's horizon and the room group's days ahead", () => {
    const nowMs = Date.parse('2026-12-02T09:30:00Z');
    // Only today or tomorrow: tomorrow's 23:00 slot, ending at 02:00 on Friday.
    expect(bookableUntil(schedule, horizon(nowMs, 28, 1))).toBe(Date.parse('2026-12-04T01:00:00Z'));
    expect(bookableUntil(schedule, horizon(nowMs, 28, 0))).toBe(Date.parse('2026-12-03T01:00:00Z'));
    // A shorter system horizon wins over a longer group rule.
    expect(bookableUntil(schedule, horizon(nowMs, 2, 10))).toBe(Date.parse('2026-12-04T09:00:00Z'));
    // Nothing left in reach: today only, and today's last slot has begun.
    expect(bookableUntil(schedule, horizon(Date.parse('2026-12-02T22:30:00Z'), 28, 0))).toBeNull();
  });
});
