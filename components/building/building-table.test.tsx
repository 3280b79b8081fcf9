import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { createOwnerLabeler, expandWeek, overlayReservations, weekFromKey, type StatefulSlot } from '@/lib/schedule';
import { withIntl } from '@/tests/intl';
import { daily, laundry, reservation, serviceWindow } from '@/tests/schedule-fixtures';
import { BuildingDayLegend, BuildingDayTable, BuildingWeekTable, type BuildingTableRoom } from './building-table';

const SE = 'Europe/Stockholm';
const now = Date.parse('2026-11-25T10:00:00Z'); // Wednesday 11:00 local
const week = weekFromKey('2026-W48', SE);
const wednesday = week.days[2]!;
// 'LGH 1203' as the service sometimes spells it; a group with only a name (a person's, here).
const ownerLabel = createOwnerLabeler({ groups: [{ id: 'g1203', apartmentId: 'LGH 1203' }, { id: 'gNamed', name: 'Anna Svensson' }] });

function room(id: string, name: string, schedule: number[][][], reservations: Parameters<typeof overlayReservations>[1], onlyDay = false): BuildingTableRoom {
  let slots: StatefulSlot[] = overlayReservations(expandWeek(schedule, week, SE), reservations, { now, ownerLabel, resourceId: 'R1' });
  if (onlyDay) slots = slots.filter((s) => s.date === wednesday.date);
  return { id, name, slots, free: slots.filter((s) => s.bookable).length, taken: slots.filter((s) => s.state === 'booked').length };
}

/** Every element's opening tag with its attributes, for the given tag. */
const tags = (html: string, tag: string) =>
  [...html.matchAll(new RegExp(`<${tag}(\\s[^>]*)?>([^<]*)`, 'g'))].map((m) => ({ attrs: Object.fromEntries([...(m[1] ?? '').matchAll(/([\w-]+)="([^"]*)"/g)].map((a) => [a[1]!, a[2]!.replaceAll('&#x27;', "'")])), text: m[2]! }));

describe('the building tables', () => {
  // Wednesday 25 November: 07–10 (past), 10–13 (running), 13–16 booked by 1203, 16–19 and 19–22 free.
  const a = room('b0000000-0000-4000-8000-000000000001', 'Laundry room A', laundry, [reservation('2026-11-25T12:00:00Z', '2026-11-25T15:00:00Z')], true);
  // A drying room with one late slot that crosses midnight (22:30–01:30 local).
  const b = room('b0000000-0000-4000-8000-000000000002', 'Drying room', daily([1290, 180]), [], true);

  it('the day: rooms as rows, the slot times as columns, free slots as links to the room week, booked ones in words', () => {
    const html = renderToStaticMarkup(withIntl(<BuildingDayTable weekKey={week.key} timeZone={SE} rooms={[a, b]} day={wednesday} />));
    expect(html).toContain('<caption class="sr-only">Slots of every room on Wednesday 25 November</caption>');
    expect(tags(html, 'th').map((t) => t.text)).toEqual(['Room', '07:00–10:00', '10:00–13:00', '13:00–16:00', '16:00–19:00', '19:00–22:00', '22:30–01:30 next day', '', '']);
    const links = tags(html, 'a').filter((l) => l.attrs['data-state'] === 'free');
    expect(links.map((l) => l.attrs['aria-label'])).toEqual([
      "16:00–19:00 free in Laundry room A on Wednesday 25 November: open the room's week to book it",
      "19:00–22:00 free in Laundry room A on Wednesday 25 November: open the room's week to book it",
      "22:30–01:30 next day free in Drying room on Wednesday 25 November: open the room's week to book it",
    ]);
    // Relative to the building page (/systems/{id}/building): the room's week grid.
    for (const l of links) expect(l.attrs.href).toMatch(/^resources\/b0000000-0000-4000-8000-00000000000[12]\?week=2026-W48$/);
    const spans = tags(html, 'span').filter((s) => s.attrs['data-state']);
    expect(spans.map((s) => [s.attrs['data-state'], s.text])).toEqual([
      ['past', 'past'],
      // Running now: not bookable, so not a link, and not called "free" beside the green "Free" links.
      ['free', 'running now, not booked'],
      ['booked', 'booked by apartment 1203'],
    ]);
    // Rooms without a slot at a time have an empty cell.
    expect(html.match(/<td><\/td>/g)).toHaveLength(6);
    expect(html).toContain('2 free, 1 booked');
  });

  it('the week in Swedish: days as columns, counts per day and the free slots listed', () => {
    const full = room('b0000000-0000-4000-8000-000000000001', 'Tvättstuga A', laundry, [reservation('2026-11-26T12:00:00Z', '2026-11-26T15:00:00Z')]);
    const html = renderToStaticMarkup(withIntl(<BuildingWeekTable weekKey={week.key} timeZone={SE} rooms={[full]} days={week.days} weekLabel="Vecka 48" />, 'sv'));
    expect(html).toContain('Alla rums lediga pass under Vecka 48');
    expect(tags(html, 'span').filter((s) => s.attrs.class === 'sr-only').map((s) => s.text)).toEqual([
      'måndag 23 november',
      'tisdag 24 november',
      'onsdag 25 november',
      'torsdag 26 november',
      'fredag 27 november',
      'lördag 28 november',
      'söndag 29 november',
    ]);
    // Monday and Tuesday are over; Wednesday has three free (13–16 is not booked this time); Thursday four free and one booked.
    const counts = tags(html, 'span').filter((s) => s.attrs.class === 'counts').map((s) => s.text);
    expect(counts).toEqual(['22 lediga, 1 bokat', '0 lediga, 0 bokade', '0 lediga, 0 bokade', '3 lediga, 0 bokade', '4 lediga, 1 bokat', '5 lediga, 0 bokade', '5 lediga, 0 bokade', '5 lediga, 0 bokade']);
    const links = tags(html, 'a').filter((l) => l.attrs.class !== 'room');
    expect(links).toHaveLength(22);
    // Named by its time, inside a list named by the room and the day.
    expect(links[0]).toMatchObject({ text: '13:00–16:00', attrs: { href: 'resources/b0000000-0000-4000-8000-000000000001?week=2026-W48' } });
    expect(html).toContain('<ul aria-label="Lediga pass i Tvättstuga A onsdag 25 november"><li><a href="resources/');
    expect(html).toContain('aria-label="Lediga pass i Tvättstuga A torsdag 26 november"');
  });

  it('never says "free" in grey: a slot beyond the horizon is "not bookable yet"; the legend tells green from grey, in both languages', () => {
    const late = room('b0000000-0000-4000-8000-000000000003', 'Laundry room C', laundry, [], true);
    const beyond = { ...late, slots: late.slots.map((s) => (s.bookable ? { ...s, bookable: false, beyondHorizon: true } : s)) };
    const html = renderToStaticMarkup(withIntl(<BuildingDayTable weekKey={week.key} timeZone={SE} rooms={[beyond]} day={wednesday} />));
    const grey = tags(html, 'span').filter((s) => s.attrs['data-state']).map((s) => s.text);
    expect(grey).toContain('not bookable yet (beyond the booking horizon)');
    for (const text of grey) expect(text).not.toMatch(/\bfree\b/i);
    const legend = renderToStaticMarkup(withIntl(<BuildingDayLegend />));
    expect(legend).toContain('aria-label="What the day&#x27;s cells mean"');
    expect(legend).toContain('Free: can be booked; opens the room&#x27;s week to book it');
    expect(legend).toContain('Grey: cannot be booked (booked, past, running now or not yet bookable; the words say which)');
    const sv = renderToStaticMarkup(withIntl(<BuildingDayLegend />, 'sv'));
    expect(sv).toContain('Ledigt: kan bokas');
    expect(sv).toContain('Grått: kan inte bokas');
  });

  describe('with the apartments shown', () => {
    // Thursday 26 November: 07–10 booked by LGH 1203, 10–13 by a group known only by a person's name,
    // 13–16 maintenance 14:00–15:00 (part of the slot), 16–19 and 19–22 free.
    const thursday = [
      reservation('2026-11-26T06:00:00Z', '2026-11-26T09:00:00Z'),
      reservation('2026-11-26T09:00:00Z', '2026-11-26T12:00:00Z', { ownerId: 'gNamed', userId: 'u2' }),
      serviceWindow('2026-11-26T13:00:00Z', '2026-11-26T14:00:00Z'),
    ];
    const full = room('b0000000-0000-4000-8000-000000000001', 'Laundry room A', laundry, thursday);

    it('the week names each held slot with its apartment, never a name; free slots and counts as before', () => {
      const html = renderToStaticMarkup(withIntl(<BuildingWeekTable weekKey={week.key} timeZone={SE} rooms={[full]} days={week.days} weekLabel="Week 48" show="apartments" />));
      expect(html).toContain('<caption class="sr-only">Free slots and the apartments that booked, every room in Week 48</caption>');
      // One line per held slot, in the Thursday cell only (the week holds nothing else).
      const held = tags(html, 'span').filter((s) => s.attrs.class === 'held');
      expect(held.map((s) => s.text)).toEqual(['07:00–10:00 Apt 1203\n10:00–13:00 Booked\n13:00–16:00 Maintenance 14:00–15:00']);
      expect(html).not.toContain('Anna');
      // Thursday's two free slots are still links in their named list, counted as before.
      expect(html).toContain('<ul aria-label="Free slots in Laundry room A on Thursday 26 November">');
      expect(tags(html, 'span').filter((s) => s.attrs.class === 'counts').map((s) => s.text)[4]).toBe('2 free, 3 booked');
      const sv = renderToStaticMarkup(withIntl(<BuildingWeekTable weekKey={week.key} timeZone={SE} rooms={[full]} days={week.days} weekLabel="Vecka 48" show="apartments" />, 'sv'));
      expect(sv).toContain('<span class="held">07:00–10:00 Lgh 1203\n10:00–13:00 Bokat\n13:00–16:00 Underhåll 14:00–15:00</span>');
    });

    it('the default week is unchanged: no held list, the same HTML with show="default" as without', () => {
      const without = renderToStaticMarkup(withIntl(<BuildingWeekTable weekKey={week.key} timeZone={SE} rooms={[full]} days={week.days} weekLabel="Week 48" />));
      const byDefault = renderToStaticMarkup(withIntl(<BuildingWeekTable weekKey={week.key} timeZone={SE} rooms={[full]} days={week.days} weekLabel="Week 48" show="default" />));
      expect(byDefault).toBe(without);
      expect(without).not.toContain('class="held"');
      expect(without).not.toContain('1203');
      expect(without).toContain('<caption class="sr-only">Free slots of every room in Week 48</caption>');
    });

    it('the day says only who holds each slot ("Apt 1203", "Booked", "Maintenance"), a pending request without its name; the default words stay', () => {
      const thursdayOnly = { ...full, slots: full.slots.filter((s) => s.date === week.days[3]!.date) };
      // A request for a resident without an apartment carries their name (lib/views/building.ts ownerOfRequest).
      const slots = thursdayOnly.slots.map((s, i) => (i === 3 ? { ...s, state: 'pending' as const, bookable: false, ownerLabel: { kind: 'name' as const, name: 'Anna Svensson' } } : s));
      const pending = { ...thursdayOnly, slots };
      const html = renderToStaticMarkup(withIntl(<BuildingDayTable weekKey={week.key} timeZone={SE} rooms={[pending]} day={week.days[3]!} show="apartments" />));
      const spans = tags(html, 'span').filter((s) => s.attrs['data-state']);
      expect(spans.map((s) => [s.attrs['data-state'], s.text])).toEqual([
        ['booked', 'Apt 1203'],
        ['booked', 'Booked'],
        ['maintenance', 'Maintenance 14:00–15:00'],
        ['pending', 'Booked (pending)'],
      ]);
      expect(html).not.toContain('Anna');
      // The default words are the grid's, unchanged: whatever owner the labeler gives (the mirror's
      // labeler gives no group names, lib/views/owner-labels.ts; this test's does, to show the mode above never says one).
      const plain = renderToStaticMarkup(withIntl(<BuildingDayTable weekKey={week.key} timeZone={SE} rooms={[thursdayOnly]} day={week.days[3]!} />));
      expect(tags(plain, 'span').filter((s) => s.attrs['data-state']).map((s) => s.text)).toEqual(['booked by apartment 1203', 'booked by Anna Svensson', 'maintenance 14:00–15:00']);
    });
  });
});
