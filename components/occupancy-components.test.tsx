import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { type Heatmap, occupancyHeatmap, resourceNowStatus, weekOccupancy } from '@/lib/schedule';
import { createTranslator } from 'next-intl';
import { catalogues, withIntl } from '@/tests/intl';
import { daily, reservation } from '@/tests/schedule-fixtures';
import { NowStatusBadge } from './now-status-badge';
import { OccupancyBar } from './occupancy-bar';
import { OccupancyHeatmap, heatmapLevel, heatmapSummary } from './occupancy-heatmap';

const SE = 'Europe/Stockholm';
const en = createTranslator({ locale: 'en', messages: catalogues.en, namespace: 'occupancy' });
const sv = createTranslator({ locale: 'sv', messages: catalogues.sv, namespace: 'occupancy' });
const now = Date.parse('2027-02-15T12:00:00Z');

function tuesdayHeatmap(): Heatmap {
  const list = [];
  for (let day = Date.parse('2026-12-22T06:00:00Z'); day < now; day += 7 * 86_400_000) {
    list.push(reservation(new Date(day).toISOString(), new Date(day + 3 * 3_600_000).toISOString()));
  }
  return occupancyHeatmap([{ id: 'R1', schedule: daily([360, 180]) }], list, { now, timeZone: SE });
}

describe('OccupancyHeatmap', () => {
  it('levels rates into the legend steps', () => {
    expect([null, 0, 0.004, 0.01, 0.25, 0.26, 0.5, 0.75, 0.76, 1].map(heatmapLevel)).toEqual([-1, 0, 0, 1, 1, 2, 2, 3, 4, 4]);
  });

  it('summarises the busiest times in words', () => {
    expect(heatmapSummary(tuesdayHeatmap(), en, 'en')).toBe(
      'Busiest times in the last 8 weeks: Tuesday 07:00–08:00 (100% booked), Tuesday 08:00–09:00 (100% booked), Tuesday 09:00–10:00 (100% booked). Overall 14% of slot time was booked.',
    );
    const empty = occupancyHeatmap([{ id: 'R1', schedule: daily([360, 180]) }], [], { now, timeZone: SE });
    expect(heatmapSummary(empty, en, 'en')).toBe('No bookings in the last 8 weeks.');
    expect(heatmapSummary(occupancyHeatmap([], [], { now, timeZone: SE }), en, 'en')).toBe('No bookable slots in the last 8 weeks.');
    expect(heatmapSummary(tuesdayHeatmap(), sv, 'sv')).toBe(
      'Mest bokade tider de senaste 8 veckorna: tisdag 07:00–08:00 (100\u00a0% bokat), tisdag 08:00–09:00 (100\u00a0% bokat), tisdag 09:00–10:00 (100\u00a0% bokat). Totalt var 14\u00a0% av passtiden bokad.',
    );
    expect(heatmapSummary(empty, sv, 'sv')).toBe('Inga bokningar de senaste 8 veckorna.');
  });

  it('renders a table whose cells carry their rate as text, with a caption and a legend', () => {
    const html = renderToStaticMarkup(withIntl(<OccupancyHeatmap heatmap={tuesdayHeatmap()} />));
    expect(html).toContain('<caption class="sr-only">Booking rate, last 8 weeks, by weekday and time of day (Europe/Stockholm). Busiest times');
    expect(html.match(/<th scope="row"/g)).toHaveLength(3);
    expect(html.match(/<th scope="col"/g)).toHaveLength(7);
    expect(html.match(/<td title=/g)).toHaveLength(21);
    expect(html).toContain('title="Tuesday 07:00–08:00: 100% booked, 8 slots" data-level="4"');
    expect(html).toContain('title="Monday 07:00–08:00: 0% booked, 8 slots" data-level="0"');
    expect(html).toContain('<span class="sr-only">100% booked, 8 slots</span>');
    for (const step of ['0%', '1–25%', '26–50%', '51–75%', '76–100%', 'no slots']) expect(html).toContain(step);
  });

  it('speaks Swedish: weekdays, legend and percentages', () => {
    const html = renderToStaticMarkup(withIntl(<OccupancyHeatmap heatmap={tuesdayHeatmap()} />, 'sv'));
    expect(html).toContain('Beläggning, senaste 8 veckorna');
    expect(html).toContain('<span class="sr-only">måndag</span>');
    expect(html).toContain('title="tisdag 07:00–08:00: 100\u00a0% bokat, 8 pass"');
    expect(html).toContain('1–25\u00a0%');
    expect(html).toContain('aria-label="Teckenförklaring"');
  });

  it('breaks the picture where the schedule has hours without slots', () => {
    const gappy = occupancyHeatmap([{ id: 'R1', schedule: daily([360, 60], [720, 60]) }], [], { now, timeZone: SE });
    const html = renderToStaticMarkup(withIntl(<OccupancyHeatmap heatmap={gappy} />));
    expect(gappy.minutes).toEqual([420, 780]);
    expect(html.match(/<tr aria-hidden="true"><td colSpan="8"/gi)).toHaveLength(1);
    const contiguous = renderToStaticMarkup(withIntl(<OccupancyHeatmap heatmap={tuesdayHeatmap()} />));
    expect(contiguous).not.toContain('aria-hidden="true"><td');
  });

  it('says there is nothing to show instead of an empty table', () => {
    const html = renderToStaticMarkup(withIntl(<OccupancyHeatmap heatmap={occupancyHeatmap([], [], { now, timeZone: SE })} />));
    expect(html).not.toContain('<table');
    expect(html).toContain('No bookable slots in the last 8 weeks.');
  });
});

describe('OccupancyBar', () => {
  it('is a meter named after the resource with the share as text', () => {
    const stats = weekOccupancy([]);
    const none = renderToStaticMarkup(withIntl(<OccupancyBar label="Room 1" stats={stats} />));
    expect(none).toContain('aria-valuetext="no bookable slots"');
    const full = { ...stats, total: 20, capacity: 18, reserved: 9, maintenance: 2, share: 0.5, upcomingCapacity: 10, upcomingReserved: 2, upcomingShare: 0.2 };
    const html = renderToStaticMarkup(withIntl(<OccupancyBar label="Room 1" stats={full} />));
    expect(html).toContain('role="meter" aria-label="Room 1: booked this week" aria-valuemin="0" aria-valuemax="100" aria-valuenow="50"');
    expect(html).toContain('aria-valuetext="50% booked (9 of 18 slots booked, 2 under maintenance)"');
    expect(html).toContain('style="width:50%"');
    const upcoming = renderToStaticMarkup(withIntl(<OccupancyBar label="Room 1" stats={full} scope="upcoming" />));
    expect(upcoming).toContain('aria-valuenow="20"');
    expect(upcoming).toContain('booked for the rest of the week');
    const sv = renderToStaticMarkup(withIntl(<OccupancyBar label="Tvättstuga 1" stats={full} />, 'sv'));
    expect(sv).toContain('aria-label="Tvättstuga 1: bokat den här veckan"');
    expect(sv).toContain('aria-valuetext="50\u00a0% bokat (9 av 18 pass bokade, 2 med underhåll)"');
  });
});

describe('NowStatusBadge', () => {
  it('says what is happening in words', () => {
    const status = resourceNowStatus({
      schedule: daily([360, 180]),
      reservations: [reservation('2027-02-15T06:00:00Z', '2027-02-15T09:00:00Z')],
      now: '2027-02-15T07:00:00Z',
      timeZone: SE,
      ownerLabel: () => ({ kind: 'apartment', apartment: '1203' }),
    });
    const html = renderToStaticMarkup(withIntl(<NowStatusBadge status={status} showOwner />));
    expect(html).toContain('data-kind="in-use"');
    expect(html).toContain('<span class="sr-only">Now: </span>In use until 10:00 (apartment 1203)');
    const sv = renderToStaticMarkup(withIntl(<NowStatusBadge status={status} />, 'sv'));
    expect(sv).toContain('<span class="sr-only">Nu: </span>Upptaget till 10:00');
  });

  it('names the weekday when the use ends on another day', () => {
    const status = resourceNowStatus({
      schedule: [[], [], [[1320, 180]], [], [], [], []],
      reservations: [reservation('2026-11-25T22:00:00Z', '2026-11-26T01:00:00Z')],
      now: '2026-11-25T22:30:00Z',
      timeZone: SE,
    });
    expect(renderToStaticMarkup(withIntl(<NowStatusBadge status={status} />))).toContain('In use until Thu 02:00');
    expect(renderToStaticMarkup(withIntl(<NowStatusBadge status={status} />, 'sv'))).toContain('Upptaget till tors 02:00');
  });
});
