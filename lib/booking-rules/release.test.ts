import { describe, expect, it } from 'vitest';
import { activationWindowOf, releaseAtMs, wasReleased } from './group-rules';
import { wallClock } from '@/lib/schedule/zoned';

// Released no-shows (issue 35): an unused booking nobody activated within its room group's window
// is released by the service at start + window, an absolute span whatever the wall clock does.
const zone = 'Europe/Stockholm';
const min = 60_000;
const local = (ms: number) => {
  const w = wallClock(ms, zone);
  return `${w.year}-${String(w.month).padStart(2, '0')}-${String(w.day).padStart(2, '0')} ${String(w.hour).padStart(2, '0')}:${String(w.minute).padStart(2, '0')}`;
};
const booking = (startIso: string, hours: number, status: string | null = 'Unused') => {
  const startMs = Date.parse(startIso);
  return { startMs, endMs: startMs + hours * 60 * min, status };
};

describe('when an unused booking is released', () => {
  it('is its start plus the window, and only for an Unused booking the window does not outlast', () => {
    const b = booking('2026-11-24T06:00:00Z', 3);
    expect(releaseAtMs(b, 30)).toBe(b.startMs + 30 * min);
    expect(releaseAtMs({ ...b, status: 'Used' }, 30)).toBeNull();
    expect(releaseAtMs({ ...b, status: null }, 30)).toBeNull();
    expect(releaseAtMs(b, null)).toBeNull();
    expect(releaseAtMs(b, 180)).toBeNull();
    expect(releaseAtMs(b, 179)).toBe(b.startMs + 179 * min);
  });

  it('crosses midnight: 23:45 with 30 minutes is released at 00:15 the next day, not a minute before', () => {
    const b = booking('2026-11-24T22:45:00Z', 3); // 23:45 in Stockholm (CET)
    expect(local(b.startMs)).toBe('2026-11-24 23:45');
    const at = releaseAtMs(b, 30)!;
    expect(local(at)).toBe('2026-11-25 00:15');
    expect(wasReleased(b, 30, at - 1)).toBe(false);
    expect(wasReleased(b, 30, at)).toBe(true);
    // Still released once the booking has ended (the service deleted it then).
    expect(wasReleased(b, 30, b.endMs + 60 * min)).toBe(true);
  });

  it('counts real minutes when the clocks go back: 01:30 CEST + 90 minutes reads 02:00 CET', () => {
    const b = booking('2026-10-24T23:30:00Z', 3); // 01:30 CEST on 25 October, the night summer time ends
    expect(local(b.startMs)).toBe('2026-10-25 01:30');
    const at = releaseAtMs(b, 90)!;
    expect(at - b.startMs).toBe(90 * min);
    expect(local(at)).toBe('2026-10-25 02:00');
    expect(wasReleased(b, 90, at - min)).toBe(false);
  });

  it('counts real minutes when the clocks go forward: 01:30 CET + 60 minutes reads 03:30 CEST', () => {
    const b = booking('2026-03-29T00:30:00Z', 3); // 01:30 CET on 29 March, the night summer time starts
    expect(local(b.startMs)).toBe('2026-03-29 01:30');
    const at = releaseAtMs(b, 60)!;
    expect(local(at)).toBe('2026-03-29 03:30');
    expect(wasReleased(b, 60, at)).toBe(true);
  });

  it('takes the window of the room’s group; a room in no group, or a group without one, has none', () => {
    const rules = { groups: [{ resourceIds: ['t1', 't4'], activationMinutes: 30 }, { resourceIds: ['t5'], activationMinutes: null }] };
    expect(activationWindowOf('t4', rules)).toBe(30);
    expect(activationWindowOf('t5', rules)).toBeNull();
    expect(activationWindowOf('t9', rules)).toBeNull();
    expect(activationWindowOf('t1', null)).toBeNull();
  });
});
