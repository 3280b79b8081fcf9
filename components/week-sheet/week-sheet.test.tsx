import { createTranslator } from 'next-intl';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { Locale } from '@/lib/i18n/config';
import { createOwnerLabeler, expandWeek, overlayReservations, weekFromKey, type ScheduleBasis, type WeekScheduleInput } from '@/lib/schedule';
import { catalogues, withIntl } from '@/tests/intl';
import { daily, laundry, reservation, serviceWindow } from '@/tests/schedule-fixtures';
import { WeekSheet, sheetEntryText } from './week-sheet';
import { type SheetRow, weekSheetRows } from './week-sheet-table';

const SE = 'Europe/Stockholm';
const now = Date.parse('2026-11-25T10:00:00Z'); // Wednesday 11:00 local, week 48
const ownerLabel = createOwnerLabeler({
  groups: [{ id: 'g1203', apartmentId: '1203' }],
  users: [{ userId: 'u-named', name: 'Anna Andersson' }],
});
const sheetT = (locale: Locale) => createTranslator({ locale, messages: catalogues[locale], namespace: 'sheet' });

function sheetOf(key: string, schedule: WeekScheduleInput, reservations: Parameters<typeof overlayReservations>[1] = [], basis: ScheduleBasis = 'utc') {
  const week = weekFromKey(key, SE);
  const slots = overlayReservations(expandWeek(schedule, week, SE, basis), reservations, { now, ownerLabel });
  return { week, slots, rows: weekSheetRows(week, slots) };
}

/** The table as the door reads it: "time | Mon | … | Sun", a cell "·" when free and "#" when the day has no such slot. */
function words(rows: SheetRow[], locale: Locale): string[] {
  const t = sheetT(locale);
  return rows.map((row) =>
    [
      `${row.startLabel}–${row.endLabel}${row.endsNextDay ? '+' : ''}`,
      ...row.cells.map((cell) => (cell.length === 0 ? '#' : cell.map((e) => sheetEntryText(e, t) || '·').join('/'))),
    ].join(' | '),
  );
}

describe('weekSheetRows', () => {
  const booked = sheetOf('2026-W48', laundry, [
    reservation('2026-11-26T06:00:00Z', '2026-11-26T09:00:00Z'), // Thu 07:00, apartment 1203
    reservation('2026-11-23T06:00:00Z', '2026-11-23T09:00:00Z', { status: 'Used' }), // Mon 07:00, used
    reservation('2026-11-24T09:00:00Z', '2026-11-24T12:00:00Z', { ownerType: 'User', ownerId: 'u-named', userId: 'u-named' }), // Tue 10:00
    serviceWindow('2026-11-27T06:00:00Z', '2026-11-27T09:00:00Z'), // Fri 07:00, whole slot
    serviceWindow('2026-11-28T12:00:00Z', '2026-11-28T13:00:00Z'), // Sat 13:00–14:00 of 13:00–16:00
  ]);

  it('puts each slot time in a row, apartments and maintenance in their cells, free cells empty', () => {
    expect(words(booked.rows, 'en')).toEqual([
      '07:00–10:00 | Apartment 1203 | · | · | Apartment 1203 | Maintenance | · | ·',
      '10:00–13:00 | · | Booked | · | · | · | · | ·',
      '13:00–16:00 | · | · | · | · | · | Maintenance 13:00–14:00 | ·',
      '16:00–19:00 | · | · | · | · | · | · | ·',
      '19:00–22:00 | · | · | · | · | · | · | ·',
    ]);
    expect(words(booked.rows, 'sv')[0]).toBe('07:00–10:00 | Lägenhet 1203 | · | · | Lägenhet 1203 | Underhåll | · | ·');
    expect(words(booked.rows, 'sv')[1]).toBe('10:00–13:00 | · | Bokat | · | · | · | · | ·');
    expect(words(booked.rows, 'sv')[2]).toContain('Underhåll 13:00–14:00');
    // A resident's name is never put on the door.
    expect(booked.rows[1]!.cells[1]).toEqual([{ kind: 'booked', owner: { kind: 'name', name: 'Anna Andersson' } }]);
    expect(words(booked.rows, 'en').join()).not.toContain('Anna');
    // A past slot nobody booked is simply free on the sheet (Tuesday 07:00 is over).
    expect(booked.rows[0]!.cells[1]).toEqual([{ kind: 'free' }]);
  });

  it('makes the union of different slot times per weekday, shading days without a row’s time', () => {
    // Monday–Friday three 4-hour slots from 07:00; the weekend two 5-hour slots from 09:00 (local winter).
    const schedule = [...Array.from({ length: 5 }, () => [[360, 240], [600, 240], [840, 240]]), [[480, 300], [780, 300]], [[480, 300], [780, 300]]];
    const { rows } = sheetOf('2026-W48', schedule);
    expect(words(rows, 'en')).toEqual([
      '07:00–11:00 | · | · | · | · | · | # | #',
      '09:00–14:00 | # | # | # | # | # | · | ·',
      '11:00–15:00 | · | · | · | · | · | # | #',
      '14:00–19:00 | # | # | # | # | # | · | ·',
      '15:00–19:00 | · | · | · | · | · | # | #',
    ]);
  });

  it('names a slot crossing midnight and keeps it on the day it starts', () => {
    // Monday 23:00–02:00 local; Sunday's 00:00–02:00 slot (UTC Sunday 23:00) from the week before lands on Monday.
    const { rows } = sheetOf('2026-W48', [[[1320, 180]], [], [], [], [], [], [[1380, 120]]], [reservation('2026-11-23T22:00:00Z', '2026-11-24T01:00:00Z')]);
    expect(words(rows, 'en')).toEqual(['00:00–02:00 | · | # | # | # | # | # | #', '23:00–02:00+ | Apartment 1203 | # | # | # | # | # | #']);
  });

  it('fits the spring DST week (2026-W13): Sunday’s UTC slots move an hour later and get rows of their own', () => {
    const { rows } = sheetOf('2026-W13', laundry, [reservation('2026-03-29T06:00:00Z', '2026-03-29T09:00:00Z')]);
    expect(rows.map((r) => `${r.startLabel}–${r.endLabel}`)).toEqual([
      '07:00–10:00', '08:00–11:00', '10:00–13:00', '11:00–14:00', '13:00–16:00', '14:00–17:00', '16:00–19:00', '17:00–20:00', '19:00–22:00', '20:00–23:00',
    ]);
    expect(words(rows, 'sv')[0]).toBe('07:00–10:00 | · | · | · | · | · | · | #');
    expect(words(rows, 'sv')[1]).toBe('08:00–11:00 | # | # | # | # | # | # | Lägenhet 1203');
    // Every slot is in exactly one cell: 35 entries, 35 shaded cells.
    expect(rows.flatMap((r) => r.cells).filter((c) => c.length === 1)).toHaveLength(35);
    expect(rows.flatMap((r) => r.cells).filter((c) => c.length === 0)).toHaveLength(35);
  });

  it('fits the autumn DST week (2026-W43): Sunday’s UTC slots move an hour earlier', () => {
    const { rows } = sheetOf('2026-W43', laundry);
    expect(words(rows, 'en').slice(0, 2)).toEqual(['07:00–10:00 | # | # | # | # | # | # | ·', '08:00–11:00 | · | · | · | · | · | · | #']);
    expect(rows).toHaveLength(10);
  });

  it('keeps one row per slot time in a DST week when the schedule is local wall-clock time', () => {
    for (const key of ['2026-W13', '2026-W43']) {
      const { rows } = sheetOf(key, daily([420, 180], [600, 180]), [], 'local');
      expect(words(rows, 'en')).toEqual(['07:00–10:00 | · | · | · | · | · | · | ·', '10:00–13:00 | · | · | · | · | · | · | ·']);
    }
  });
});

describe('WeekSheet', () => {
  const { week, slots } = sheetOf('2026-W48', laundry, [
    reservation('2026-11-26T06:00:00Z', '2026-11-26T09:00:00Z'),
    serviceWindow('2026-11-27T06:00:00Z', '2026-11-27T09:00:00Z'),
  ]);
  const render = (locale: Locale, withSlots = slots) =>
    renderToStaticMarkup(
      withIntl(
        <WeekSheet systemName="Brf Lärkan" resourceName="Tvättstuga 1" timeZone={SE} week={week} slots={withSlots} generatedAt={now} roomHref="/systems/d/resources/r?week=2026-W48" />,
        locale,
      ),
    );

  it('is a table with a caption, column and row headers, in English', () => {
    const html = render('en');
    expect(html).toContain('<caption class="sr-only">Bookings in Tvättstuga 1, Week 48, 23–29 November 2026</caption>');
    const cols = [...html.matchAll(/<th scope="col"[^>]*>(.*?)<\/th>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, ''));
    expect(cols).toEqual(['Time', 'Monday 23 November', 'Tuesday 24 November', 'Wednesday 25 November', 'Thursday 26 November', 'Friday 27 November', 'Saturday 28 November', 'Sunday 29 November']);
    const rows = [...html.matchAll(/<th scope="row"[^>]*>(.*?)<\/th>/g)].map((m) => m[1]);
    expect(rows).toEqual(['07:00–10:00', '10:00–13:00', '13:00–16:00', '16:00–19:00', '19:00–22:00']);
    expect(html).toContain('>Apartment 1203<');
    expect(html).toContain('>Maintenance<');
    expect((html.match(/<span class="sr-only">free<\/span>/g) ?? []).length).toBe(33);
    expect(html).toContain('Week 48, 23–29 November 2026');
    expect(html).toContain('Printed Wednesday 25 November at 11:00.');
    expect(html).toContain('>Print</button>');
    expect(html).toContain('href="/systems/d/resources/r?week=2026-W48"');
    expect(html).toContain('Back to Tvättstuga 1');
    // No day lacks a slot, so no shaded cell and no legend for one.
    expect(html).not.toContain('data-sheet-cell="none"');
    expect(html).not.toContain('Shaded');
  });

  it('says it all in Swedish, shaded cells named for screen readers', () => {
    const dst = sheetOf('2026-W13', laundry);
    const html = renderToStaticMarkup(
      withIntl(<WeekSheet systemName="Brf Lärkan" resourceName="Tvättstuga 1" timeZone={SE} week={dst.week} slots={dst.slots} generatedAt={now} roomHref="/r" />, 'sv'),
    );
    expect(html).toContain('<caption class="sr-only">Bokningar i Tvättstuga 1, v. 13, 23–29 mars 2026</caption>');
    const cols = [...html.matchAll(/<th scope="col"[^>]*>(.*?)<\/th>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, ''));
    expect(cols).toEqual(['Tid', 'måndag 23 mars', 'tisdag 24 mars', 'onsdag 25 mars', 'torsdag 26 mars', 'fredag 27 mars', 'lördag 28 mars', 'söndag 29 mars']);
    expect([...html.matchAll(/<th scope="row"/g)]).toHaveLength(10);
    expect((html.match(/data-sheet-cell="none"/g) ?? []).length).toBe(35);
    expect(html).toContain('<span class="sr-only">inget pass denna dag</span>');
    expect(html).toContain('Skuggat: inget pass den dagen.');
    expect(html).toContain('>Skriv ut</button>');
    expect(html).toContain('Utskrivet onsdag 25 november kl. 11:00.');
    expect(html).toContain('--sheet-rows:10');
    expect(html).not.toMatch(/Print|Time|Week /);
  });

  it('says so when the week has no slots', () => {
    expect(render('en', [])).toContain('This room has no slots this week.');
    expect(render('sv', [])).not.toContain('<table');
  });
});
