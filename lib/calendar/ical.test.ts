import { describe, expect, it } from 'vitest';
import { summaryOf, veventsOf } from '@/tests/ical';
import { buildFeedCalendar, eventUid, isRepeatedWallTime, vtimezoneBlock } from './ical';

const TZ = 'Europe/Stockholm';
const at = (iso: string) => Date.parse(iso);

// 29 March 2026: clocks go from 02:00 CET to 03:00 CEST; 25 October 2026: from 03:00 CEST back to 02:00 CET.
const events = [
  { reservationId: 'A1B2C3D4-0000-4000-8000-000000000001', startMs: at('2026-03-29T00:00:00Z'), endMs: at('2026-03-29T03:00:00Z'), summary: 'Bokad – lägenhet 1203' },
  // 01:00 CEST to 04:00 CET: four hours across the autumn change.
  { reservationId: 'a1b2c3d4-0000-4000-8000-000000000002', startMs: at('2026-10-24T23:00:00Z'), endMs: at('2026-10-25T03:00:00Z'), summary: 'Underhåll' },
  { reservationId: 'a1b2c3d4-0000-4000-8000-000000000003', startMs: at('2026-03-28T21:00:00Z'), endMs: at('2026-03-29T01:30:00Z'), summary: 'Booked – apartment 7' },
  // 07:00–10:00 CET on the day after the autumn change.
  { reservationId: 'a1b2c3d4-0000-4000-8000-000000000004', startMs: at('2026-10-25T06:00:00Z'), endMs: at('2026-10-25T09:00:00Z'), summary: 'Bokad' },
  // Starts at 02:00 CEST, the first of the night's two 02:00s: written in UTC.
  { reservationId: 'a1b2c3d4-0000-4000-8000-000000000005', startMs: at('2026-10-25T00:00:00Z'), endMs: at('2026-10-25T04:00:00Z'), summary: 'Bokad' },
];

describe('the iCal feed', () => {
  const text = buildFeedCalendar({ name: 'Tvättstuga 1', timeZone: TZ, events, now: new Date('2026-03-01T10:00:00Z') });

  it('puts each event at its instant across both DST changes, as read back by a parser', () => {
    const parsed = veventsOf(text);
    expect(parsed).toHaveLength(5);
    const byUid = new Map(parsed.map((e) => [e.uid, e]));
    for (const e of events) {
      const got = byUid.get(eventUid(e.reservationId))!;
      expect(got.start.getTime()).toBe(e.startMs);
      expect(got.end?.getTime()).toBe(e.endMs);
      expect(summaryOf(got)).toBe(e.summary);
    }
    expect(byUid.get(eventUid(events[0]!.reservationId))!.start.tz).toBe(TZ);
  });

  it('writes wall-clock times with TZID and the VTIMEZONE that defines them (UTC offsets on either side of the change)', () => {
    // 00:00Z on 29 March is 01:00 CET, 03:00Z is 05:00 CEST (02:00–03:00 does not exist that night).
    expect(text).toContain('DTSTART;TZID=Europe/Stockholm:20260329T010000');
    expect(text).toContain('DTEND;TZID=Europe/Stockholm:20260329T050000');
    // 23:00Z on 24 October is 01:00 CEST, 03:00Z is 04:00 CET; 06:00Z is 07:00 CET.
    expect(text).toContain('DTSTART;TZID=Europe/Stockholm:20261025T010000');
    expect(text).toContain('DTEND;TZID=Europe/Stockholm:20261025T040000');
    expect(text).toContain('DTSTART;TZID=Europe/Stockholm:20261025T070000');
    // The repeated hour: UTC, one instant.
    expect(text).toContain('DTSTART:20261025T000000Z');
    const vtimezone = text.slice(text.indexOf('BEGIN:VTIMEZONE'), text.indexOf('END:VTIMEZONE'));
    expect(vtimezone).toContain('TZID:Europe/Stockholm');
    expect(vtimezone).not.toContain('Europe/Berlin');
    expect(vtimezone).toMatch(/TZOFFSETTO:\+0200/);
    expect(vtimezone).toMatch(/TZOFFSETTO:\+0100/);
    expect(text).toContain('X-WR-TIMEZONE:Europe/Stockholm');
  });

  it('stamps events in UTC, as RFC 5545 requires, and uses CRLF line ends', () => {
    expect(text).toContain('DTSTAMP:20260301T100000Z');
    expect(text.split('\r\n').length).toBeGreaterThan(20);
    expect(text.replace(/\r\n/g, '')).not.toContain('\n');
  });

  it('gives each reservation the same UID on every read', () => {
    const again = buildFeedCalendar({ name: 'x', timeZone: TZ, events: [...events].reverse(), now: new Date() });
    const uids = (t: string) => [...t.matchAll(/^UID:(.*)$/gm)].map((m) => m[1]!.trim()).sort();
    expect(uids(again)).toEqual(uids(text));
    expect(uids(text)).toContain('a1b2c3d4-0000-4000-8000-000000000001@laundry-portal');
  });

  it('knows the repeated hour of the autumn night and nothing else', () => {
    expect(isRepeatedWallTime(at('2026-10-25T00:00:00Z'), TZ)).toBe(true); // 02:00 CEST
    expect(isRepeatedWallTime(at('2026-10-25T00:59:00Z'), TZ)).toBe(true);
    expect(isRepeatedWallTime(at('2026-10-25T01:30:00Z'), TZ)).toBe(true); // 02:30 CET, the second time
    expect(isRepeatedWallTime(at('2026-10-25T02:00:00Z'), TZ)).toBe(false); // 03:00 CET
    expect(isRepeatedWallTime(at('2026-10-24T23:59:00Z'), TZ)).toBe(false); // 01:59 CEST
    expect(isRepeatedWallTime(at('2026-03-29T01:00:00Z'), TZ)).toBe(false); // 03:00 CEST, spring
    expect(isRepeatedWallTime(at('2026-10-25T00:30:00Z'), 'UTC')).toBe(false);
  });

  it('writes UTC times when the zone has no VTIMEZONE the library knows', () => {
    expect(vtimezoneBlock('Nowhere/Special')).toBeNull();
    const utc = buildFeedCalendar({ name: 'x', timeZone: 'Nowhere/Special', events: events.slice(0, 1), now: new Date() });
    expect(utc).toContain('DTSTART:20260329T000000Z');
    expect(utc).not.toContain('VTIMEZONE');
    const [event] = veventsOf(utc);
    expect(event!.start.getTime()).toBe(events[0]!.startMs);
  });
});
