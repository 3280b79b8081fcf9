import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { bookingHorizonEnd } from '@/lib/booking-rules';
import { createOwnerLabeler, expandWeek, overlayReservations, reservationSlots, weekFromKey } from '@/lib/schedule';
import { withIntl } from '@/tests/intl';
import { laundry, reservation, serviceWindow } from '@/tests/schedule-fixtures';
import { SlotGrid } from './slot-grid';
import { defaultActiveSlotId, slotGridLayout, slotVisibleState } from './slot-grid-layout';

const SE = 'Europe/Stockholm';
const now = Date.parse('2026-11-25T10:00:00Z'); // Wednesday 11:00 local
const week = weekFromKey('2026-W48', SE);
const ownerLabel = createOwnerLabeler({ groups: [{ id: 'g1203', apartmentId: '1203' }] });
const slots = overlayReservations(
  expandWeek(laundry, week, SE),
  [
    reservation('2026-11-26T06:00:00Z', '2026-11-26T09:00:00Z'),
    reservation('2026-11-23T06:00:00Z', '2026-11-23T09:00:00Z', { status: 'Used' }),
    serviceWindow('2026-11-27T06:00:00Z', '2026-11-27T09:00:00Z'),
  ],
  { now, ownerLabel },
);

/** Attributes of every slot button in the markup (not the phone's day switcher), in document order. */
function buttons(html: string): Record<string, string>[] {
  return [...html.matchAll(/<button([^>]*)>/g)]
    .map((m) => Object.fromEntries([...m[1]!.matchAll(/([\w-]+)="([^"]*)"/g)].map((a) => [a[1]!, a[2]!])))
    .filter((b) => 'data-slot-id' in b);
}

describe('SlotGrid', () => {
  const html = renderToStaticMarkup(withIntl(<SlotGrid week={week} slots={slots} now={now} label="Laundry room 1, week 48" horizonEnd={bookingHorizonEnd(now)} />));
  const all = buttons(html);

  it('renders every slot as a named button showing its state', () => {
    expect(all).toHaveLength(35);
    const names = all.map((b) => b['aria-label']);
    expect(names).toContain('Thursday 26 November, 07:00–10:00, booked by apartment 1203');
    expect(names).toContain('Monday 23 November, 07:00–10:00, used by apartment 1203, past');
    expect(names).toContain('Friday 27 November, 07:00–10:00, maintenance');
    expect(names).toContain('Wednesday 25 November, 10:00–13:00, free, now');
    expect(names).toContain('Sunday 29 November, 19:00–22:00, free');
    expect(names).toContain('Tuesday 24 November, 07:00–10:00, past');
    const states = all.map((b) => b['data-state']);
    expect(states.filter((s) => s === 'booked')).toHaveLength(1);
    expect(states.filter((s) => s === 'maintenance')).toHaveLength(1);
    expect(states.filter((s) => s === 'used')).toHaveLength(1);
    expect(html).toContain('<span>Booked</span><span class="w-full truncate">apartment 1203</span>');
    expect(all.every((b) => b.type === 'button')).toBe(true);
  });

  it('shows one day at a time below sm, today first, with a day switcher', () => {
    const pressed = [...html.matchAll(/aria-pressed="(true|false)"[^>]*>([^<]*)/g)].map((m) => [m[1], m[2]]);
    expect(pressed).toHaveLength(7);
    expect(pressed.filter(([p]) => p === 'true')).toEqual([['true', 'Wed 25']]);
    const columns = [...html.matchAll(/role="group" aria-labelledby="slot-grid-[^"]*" class="([^"]*)"/g)].map((m) => m[1]!);
    expect(columns).toHaveLength(7);
    expect(columns.filter((c) => c.startsWith('flex '))).toHaveLength(1);
    expect(columns.every((c) => c.includes('sm:flex'))).toBe(true);
    // A week without today opens on the day of its first slot.
    const later = weekFromKey('2026-W50', SE);
    const other = renderToStaticMarkup(withIntl(<SlotGrid week={later} slots={overlayReservations(expandWeek(laundry, later, SE), [], { now })} now={now} label="Later" />));
    expect([...other.matchAll(/aria-pressed="true"[^>]*>([^<]*)/g)].map((m) => m[1])).toEqual(['Mon 7']);
  });

  it('has one tab stop: the running slot', () => {
    const stops = all.filter((b) => b.tabindex === '0');
    expect(stops.map((b) => b['aria-label'])).toEqual(['Wednesday 25 November, 10:00–13:00, free, now']);
    expect(all.filter((b) => b.tabindex === '-1')).toHaveLength(34);
  });

  it('honours initialSlotId', () => {
    const other = buttons(
      renderToStaticMarkup(withIntl(<SlotGrid week={week} slots={slots} now={now} label="x" initialSlotId="2026-11-29T18:00Z/2026-11-29T21:00Z" />)),
    );
    expect(other.filter((b) => b.tabindex === '0').map((b) => b['data-slot-id'])).toEqual(['2026-11-29T18:00Z/2026-11-29T21:00Z']);
  });

  it('marks today and names each day column', () => {
    expect(html.match(/aria-current="date"/g)).toHaveLength(1);
    expect(html).toMatch(/<h3 id="slot-grid-2026-W48-2026-11-25" aria-current="date"[^>]*><span class="sm:hidden">Wednesday 25 November<\/span>/);
    expect(html).toContain('>Today<');
    expect(html.match(/role="group" aria-labelledby="slot-grid-2026-W48-/g)).toHaveLength(7);
    expect(html).toContain('aria-label="Laundry room 1, week 48"');
  });

  it('shows the booking horizon', () => {
    expect(html).toContain('Bookable until <strong class="font-semibold">Wednesday 23 December at 11:00</strong>');
  });

  it('says in words that the service lists no schedule for the room, and shows its bookings at their own times', () => {
    const held = [reservation('2026-11-26T06:30:00Z', '2026-11-26T08:00:00Z'), serviceWindow('2026-11-27T12:00:00Z', '2026-11-27T13:00:00Z')];
    const own = overlayReservations(reservationSlots(held, week.startMs, week.endMs, SE), held, { now, ownerLabel }).map((s) => ({ ...s, bookable: false }));
    const shown = renderToStaticMarkup(withIntl(<SlotGrid week={week} slots={own} now={now} label="x" noListedSchedule />));
    expect(shown).toContain('The booking system lists no time schedule for this room that the portal can read, so no slots can be shown or booked here.');
    expect(shown).not.toContain('No slots this week.');
    expect(buttons(shown).map((b) => b['aria-label'])).toEqual(['Thursday 26 November, 07:30–09:00, booked by apartment 1203', 'Friday 27 November, 13:00–14:00, maintenance']);
    const sv = renderToStaticMarkup(withIntl(<SlotGrid week={week} slots={[]} now={now} label="x" noListedSchedule />, 'sv'));
    expect(sv).toContain('Bokningssystemet anger inget tidsschema för den här lokalen som portalen kan läsa');
  });

  it('says so when the week has no slots', () => {
    const empty = renderToStaticMarkup(withIntl(<SlotGrid week={week} slots={[]} now={now} label="x" />));
    expect(empty).toContain('No slots this week.');
    expect(buttons(empty)).toHaveLength(0);
  });
});

describe('slotGridLayout', () => {
  it('spans whole hours around the slots and places them by local time', () => {
    const layout = slotGridLayout(week, slots, now, 1);
    expect([layout.rangeStart, layout.rangeEnd, layout.heightPx]).toEqual([420, 1320, 900]);
    expect(layout.hours.map((h) => h.label)).toEqual(['07:00', '08:00', '09:00', '10:00', '11:00', '12:00', '13:00', '14:00', '15:00', '16:00', '17:00', '18:00', '19:00', '20:00', '21:00', '22:00']);
    expect(layout.columns.map((c) => c.isToday)).toEqual([false, false, true, false, false, false, false]);
    const monday = layout.columns[0]!.slots;
    expect(monday.map((p) => [p.top, p.height])).toEqual([
      [0, 178],
      [180, 178],
      [360, 178],
      [540, 178],
      [720, 178],
    ]);
  });

  it('extends past midnight for a slot crossing it, and shifts a DST Sunday', () => {
    const crossing = overlayReservations(expandWeek([[[1320, 180]], [[360, 60]]], week, SE), [], { now });
    const layout = slotGridLayout(week, crossing, now, 1);
    expect([layout.rangeStart, layout.rangeEnd]).toEqual([420, 1560]);
    expect(layout.hours.at(-1)?.label).toBe('02:00');
    const dst = weekFromKey('2026-W13', SE);
    const dstSlots = overlayReservations(expandWeek(laundry, dst, SE), [], { now });
    const dstLayout = slotGridLayout(dst, dstSlots, now, 1);
    expect(dstLayout.columns[6]!.slots[0]!.top - dstLayout.columns[5]!.slots[0]!.top).toBe(60);
  });

  it('collapses a long stretch without slots into a break', () => {
    // 07:00–11:00 and 23:00–02:00 local: the 12 empty hours between become one break.
    const gappy = overlayReservations(expandWeek([[[360, 240], [1320, 180]]], week, SE), [], { now });
    const layout = slotGridLayout(week, gappy, now, 1);
    expect(layout.breaks).toEqual([{ top: 240 }]);
    expect(layout.heightPx).toBe(240 + 20 + 180);
    expect(layout.columns[0]!.slots.map((p) => [p.top, p.height])).toEqual([
      [0, 238],
      [260, 178],
    ]);
    expect(layout.hours.map((h) => h.label)).toEqual(['07:00', '08:00', '09:00', '10:00', '23:00', '00:00', '01:00', '02:00']);
    // A short gap (10:00–12:00) stays to scale.
    const short = overlayReservations(expandWeek([[[360, 180], [660, 60]]], week, SE), [], { now });
    expect(slotGridLayout(week, short, now, 1).breaks).toEqual([]);
  });

  it('defaults to 07–22 with no slots, and picks the first slot when all have passed', () => {
    expect(slotGridLayout(week, [], now)).toMatchObject({ rangeStart: 420, rangeEnd: 1320 });
    const later = overlayReservations(expandWeek(laundry, week, SE), [], { now: Date.parse('2027-01-01T00:00:00Z') });
    expect(defaultActiveSlotId(later)).toBe('2026-11-23T06:00Z/2026-11-23T09:00Z');
    expect(defaultActiveSlotId([])).toBeNull();
  });

  it('tells a past booking from a future one in words, not colour only', () => {
    const later = Date.parse('2026-11-26T12:00:00Z'); // Thursday's 07:00 booking has ended
    const after = overlayReservations(expandWeek(laundry, week, SE), [reservation('2026-11-26T06:00:00Z', '2026-11-26T09:00:00Z'), reservation('2026-11-28T06:00:00Z', '2026-11-28T09:00:00Z')], { now: later, ownerLabel });
    const booked = after.filter((s) => s.state === 'booked');
    expect(booked.map(slotVisibleState)).toEqual([
      { title: 'wasBooked', detail: { kind: 'apartment', apartment: '1203' } },
      { title: 'booked', detail: { kind: 'apartment', apartment: '1203' } },
    ]);
    const markup = renderToStaticMarkup(withIntl(<SlotGrid week={week} slots={after} now={later} label="Laundry room 1" />));
    const names = buttons(markup).map((b) => b['aria-label']);
    expect(names).toContain('Thursday 26 November, 07:00–10:00, was booked by apartment 1203, past');
    expect(names).toContain('Saturday 28 November, 07:00–10:00, booked by apartment 1203');
  });

  it('shows "Bookable until" only on weeks not yet over', () => {
    const current = renderToStaticMarkup(withIntl(<SlotGrid week={week} slots={slots} now={now} label="Now" horizonEnd={bookingHorizonEnd(now)} />));
    expect(current).toContain('Bookable until');
    const past = weekFromKey('2026-W46', SE);
    const pastSlots = overlayReservations(expandWeek(laundry, past, SE), [], { now });
    expect(renderToStaticMarkup(withIntl(<SlotGrid week={past} slots={pastSlots} now={now} label="Past" horizonEnd={bookingHorizonEnd(now)} />))).not.toContain('Bookable until');
  });

  it('words states for the eye', () => {
    expect(slots.map(slotVisibleState).filter((v) => v.title === 'booked')).toEqual([{ title: 'booked', detail: { kind: 'apartment', apartment: '1203' } }]);
    const far = overlayReservations(expandWeek(laundry, weekFromKey('2027-W02', SE), SE), [], { now });
    expect(slotVisibleState(far[0]!)).toEqual({ title: 'notYetBookable', detail: null });
  });

  it('speaks Swedish: slot names, day headings, states and the booking horizon', () => {
    const sv = renderToStaticMarkup(
      withIntl(<SlotGrid week={week} slots={slots} now={now} label="Tvättstuga 1, v. 48" horizonEnd={bookingHorizonEnd(now)} />, 'sv'),
    );
    const names = buttons(sv).map((b) => b['aria-label']);
    expect(names).toContain('torsdag 26 november, 07:00–10:00, bokat av lägenhet 1203');
    expect(names).toContain('onsdag 25 november, 10:00–13:00, ledigt, pågår nu');
    expect(names).toContain('måndag 23 november, 07:00–10:00, använt av lägenhet 1203, passerat');
    expect(sv).toContain('>ons 25<');
    expect(sv).toContain('<span class="sm:hidden">onsdag 25 november</span>');
    expect(sv).toContain('>I dag<');
    expect(sv).toContain('Kan bokas till och med <strong class="font-semibold">');
    expect(sv).toContain('<span>Bokat</span>');
    expect(sv).toContain('Dag som visas');
  });
});
