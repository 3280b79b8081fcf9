import { createTranslator } from 'next-intl';
import { describe, expect, it } from 'vitest';
import type { Locale } from '@/lib/i18n/config';
import { expandWeek, overlayReservations, weekFromKey } from '@/lib/schedule';
import { catalogues } from '@/tests/intl';
import { laundry, reservation } from '@/tests/schedule-fixtures';
import { dayHeading, slotAccessibleName, slotLength, slotStateText, slotTimeRange, weekLabel } from './slot-words';

const SE = 'Europe/Stockholm';
const slotT = (locale: Locale) => createTranslator({ locale, messages: catalogues[locale], namespace: 'slot' });
const gridT = (locale: Locale) => createTranslator({ locale, messages: catalogues[locale], namespace: 'grid' });
const label = (key: string, locale: Locale) => weekLabel(weekFromKey(key, SE), gridT(locale), locale);

describe('weekLabel', () => {
  it('names the week and its days in English', () => {
    expect(label('2026-W48', 'en')).toBe('Week 48, 23–29 November 2026');
    expect(label('2026-W49', 'en')).toBe('Week 49, 30 November – 6 December 2026');
    expect(label('2026-W53', 'en')).toBe('Week 53, 28 December 2026 – 3 January 2027');
  });

  it('names the week and its days in Swedish', () => {
    expect(label('2026-W48', 'sv')).toBe('v. 48, 23–29 november 2026');
    expect(label('2026-W49', 'sv')).toBe('v. 49, 30 november – 6 december 2026');
    expect(label('2026-W53', 'sv')).toBe('v. 53, 28 december 2026 – 3 januari 2027');
  });

  it('holds through the DST week (29 March 2026, 02:00 → 03:00 in Stockholm)', () => {
    expect(label('2026-W13', 'en')).toBe('Week 13, 23–29 March 2026');
    expect(label('2026-W13', 'sv')).toBe('v. 13, 23–29 mars 2026');
    // ...and through the autumn change (25 October, 03:00 → 02:00).
    expect(label('2026-W43', 'sv')).toBe('v. 43, 19–25 oktober 2026');
  });
});

describe('dayHeading', () => {
  it('gives short and long day names in both languages, DST days included', () => {
    const week = weekFromKey('2026-W13', SE);
    expect(week.days.map((d) => dayHeading(d, SE, 'en').short)).toEqual(['Mon 23', 'Tue 24', 'Wed 25', 'Thu 26', 'Fri 27', 'Sat 28', 'Sun 29']);
    expect(week.days.map((d) => dayHeading(d, SE, 'sv').short)).toEqual(['mån 23', 'tis 24', 'ons 25', 'tors 26', 'fre 27', 'lör 28', 'sön 29']);
    // The 23-hour Sunday is still Sunday 29 March.
    expect(dayHeading(week.days[6]!, SE, 'en').long).toBe('Sunday 29 March');
    expect(dayHeading(week.days[6]!, SE, 'sv').long).toBe('söndag 29 mars');
    expect(week.days[6]!.endMs - week.days[6]!.startMs).toBe(23 * 3_600_000);
  });
});

describe('slot words', () => {
  const week = weekFromKey('2026-W48', SE);
  const now = Date.parse('2026-11-25T10:00:00Z');
  const slots = overlayReservations(expandWeek(laundry, week, SE), [reservation('2026-11-26T06:00:00Z', '2026-11-26T09:00:00Z')], {
    now,
    ownerLabel: () => ({ kind: 'apartment', apartment: '1203' }),
  });
  const find = (start: string) => slots.find((s) => s.startTime === start)!;

  it('names a slot in English', () => {
    expect(slotAccessibleName(find('2026-11-24T06:00Z'), slotT('en'), 'en')).toBe('Tuesday 24 November, 07:00–10:00, past');
    expect(slotAccessibleName(find('2026-11-25T09:00Z'), slotT('en'), 'en')).toBe('Wednesday 25 November, 10:00–13:00, free, now');
    expect(slotAccessibleName(find('2026-11-26T06:00Z'), slotT('en'), 'en')).toBe('Thursday 26 November, 07:00–10:00, booked by apartment 1203');
  });

  it('names a slot in Swedish', () => {
    expect(slotAccessibleName(find('2026-11-23T06:00Z'), slotT('sv'), 'sv')).toBe('måndag 23 november, 07:00–10:00, passerat');
    expect(slotAccessibleName(find('2026-11-25T09:00Z'), slotT('sv'), 'sv')).toBe('onsdag 25 november, 10:00–13:00, ledigt, pågår nu');
    expect(slotAccessibleName(find('2026-11-27T06:00Z'), slotT('sv'), 'sv')).toBe('fredag 27 november, 07:00–10:00, ledigt');
    expect(slotStateText(find('2026-11-26T06:00Z'), slotT('sv'))).toBe('bokat av lägenhet 1203');
  });

  it('names a slot in a room closure "Closed: reason", after what a booked slot still holds', () => {
    const closed = { closureId: 'c1', reason: 'Pipe repair', startMs: 0, endMs: 1 };
    const closedText = (locale: Locale) => (reason: string) => createTranslator({ locale, messages: catalogues[locale], namespace: 'closedSlot' })('label', { reason });
    const free = { ...find('2026-11-27T06:00Z'), closed, bookable: false };
    expect(slotAccessibleName(free, slotT('en'), 'en', closedText('en'))).toBe('Friday 27 November, 07:00–10:00, Closed: Pipe repair');
    expect(slotAccessibleName(free, slotT('sv'), 'sv', closedText('sv'))).toBe('fredag 27 november, 07:00–10:00, Stängd: Pipe repair');
    const booked = { ...find('2026-11-26T06:00Z'), closed };
    expect(slotStateText(booked, slotT('en'), closedText('en'))).toBe('booked by apartment 1203; Closed: Pipe repair');
  });

  it('says "next day" for a slot crossing midnight', () => {
    const crossing = { startLabel: '23:00', endLabel: '02:00', endsNextDay: true };
    expect(slotTimeRange(crossing, slotT('en'))).toBe('23:00–02:00 next day');
    expect(slotTimeRange(crossing, slotT('sv'))).toBe('23:00–02:00 nästa dag');
    const [late] = overlayReservations(expandWeek([[[1320, 180]]], '2026-W48', SE), [], { now: Date.parse('2026-12-01T00:00:00Z') });
    expect(slotAccessibleName(late!, slotT('sv'), 'sv')).toBe('måndag 23 november, 23:00–02:00 nästa dag, passerat');
  });

  it('words a slot beyond the booking horizon', () => {
    const far = overlayReservations(expandWeek(laundry, weekFromKey('2027-W02', SE), SE), [], { now });
    expect(slotStateText(far[0]!, slotT('en'))).toBe('free, beyond the booking horizon');
    expect(slotStateText(far[0]!, slotT('sv'))).toBe('ledigt, utanför bokningsfönstret');
  });
});

describe('slotLength', () => {
  // Issue 48: the nested plural's `#` was the minutes, so every whole-hour slot said "0 h".
  const lengths = [90, 120, 180, 240, 300, 45, 60].map((lengthMinutes) => ({ lengthMinutes }));

  it('says the length in hours and minutes in English', () => {
    expect(lengths.map((s) => slotLength(s, slotT('en')))).toEqual(['1 h 30 min', '2 h', '3 h', '4 h', '5 h', '45 min', '1 h']);
  });

  it('says the length in hours and minutes in Swedish', () => {
    expect(lengths.map((s) => slotLength(s, slotT('sv')))).toEqual(['1 tim 30 min', '2 tim', '3 tim', '4 tim', '5 tim', '45 min', '1 tim']);
  });

  it('counts a slot past midnight by its length, not its clock times', () => {
    const week = weekFromKey('2026-W49', SE);
    // Monday 21:00 UTC for 240 minutes, as the demo's irregular room: 22:00–02:00 in Stockholm.
    const crossing = expandWeek([[[1260, 240]], [], [], [], [], [], []], week, SE).find((s) => s.endsNextDay)!;
    expect(slotTimeRange(crossing, slotT('en'))).toBe('22:00–02:00 next day');
    expect(slotLength(crossing, slotT('en'))).toBe('4 h');
  });
});

describe("a slot a room group's days ahead forbids (issue 48)", () => {
  it('names the rule in its words, in English and Swedish', () => {
    const nowMs = Date.parse('2026-12-02T09:30:00Z');
    const week = expandWeek(Array.from({ length: 7 }, () => [[420, 180]] as [number, number][]), weekFromKey('2026-W50', SE), SE, 'local');
    const [slot] = overlayReservations(week, [], { now: nowMs, daysAhead: { days: 1, rooms: ['Tvättstuga 1', 'Tvättstuga 3'] } });
    expect(slot!.bookable).toBe(false);
    expect(slotStateText(slot!, slotT('en'), undefined, 'en')).toBe('free, not bookable yet: Tvättstuga 1 and 3 can be booked only for today or tomorrow');
    expect(slotStateText(slot!, slotT('sv'), undefined, 'sv')).toBe('ledigt, kan inte bokas än: Tvättstuga 1 och 3 kan bokas bara för i dag eller i morgon');
  });
});
