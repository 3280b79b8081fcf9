// What a first load in progress looks like (issue 20): loading cells, the progress bar, the rooms list.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { bookingHorizonEnd } from '@/lib/booking-rules';
import { expandWeek, overlayReservations, weekFromKey } from '@/lib/schedule';
import { withIntl } from '@/tests/intl';
import { laundry, reservation } from '@/tests/schedule-fixtures';
import { FreshnessNote } from '@/components/freshness-note';
import { ResourceSummary } from '@/components/resource-summary';
import { SlotGrid } from './slot-grid';
import { SlotLegend } from './resource-week';

const SE = 'Europe/Stockholm';
const now = Date.parse('2026-11-25T10:00:00Z');
const week = weekFromKey('2026-W48', SE);
const slots = overlayReservations(expandWeek(laundry, week, SE), [reservation('2026-11-26T06:00:00Z', '2026-11-26T09:00:00Z')], {
  now,
  reservationsComplete: false,
});

function slotButtons(html: string): Record<string, string>[] {
  return [...html.matchAll(/<button([^>]*)>/g)]
    .map((m) => Object.fromEntries([...m[1]!.matchAll(/([\w-]+)="([^"]*)"/g)].map((a) => [a[1]!, a[2]!])))
    .filter((b) => 'data-slot-id' in b);
}

describe('the week grid while the reservations are read', () => {
  const html = renderToStaticMarkup(withIntl(<SlotGrid week={week} slots={slots} now={now} label="Laundry room 1, week 48" horizonEnd={bookingHorizonEnd(now)} />));
  const all = slotButtons(html);

  it('names each unread slot as being checked, marks it unavailable, and shows a known booking as booked', () => {
    expect(all).toHaveLength(35);
    const loading = all.filter((b) => b['data-state'] === 'loading');
    expect(loading).toHaveLength(34);
    expect(loading.every((b) => b['aria-disabled'] === 'true' && / being checked(, now|, past)?$/.test(b['aria-label']!))).toBe(true);
    expect(all.map((b) => b['aria-label'])).toContain('Thursday 26 November, 10:00–13:00, being checked');
    expect(all.find((b) => b['data-state'] === 'booked')?.['aria-label']).toBe('Thursday 26 November, 07:00–10:00, booked by an apartment');
    expect(html).toContain('Checking…');
    expect(html).not.toMatch(/>Free</);
  });

  it('says so in Swedish too', () => {
    const sv = renderToStaticMarkup(withIntl(<SlotGrid week={week} slots={slots} now={now} label="Tvättstuga 1" />, 'sv'));
    expect(slotButtons(sv).map((b) => b['aria-label'])).toContain('torsdag 26 november, 10:00–13:00, kontrolleras');
    expect(sv).toContain('Kontrolleras…');
  });

  it('adds "Checking…" to the legend only while checking', () => {
    expect(renderToStaticMarkup(withIntl(<SlotLegend checking />))).toContain('Checking…');
    expect(renderToStaticMarkup(withIntl(<SlotLegend />))).not.toContain('Checking…');
  });
});

describe('the progress of a first load', () => {
  const loading = { status: 'loading', pagesFetched: 40, refreshing: true, lastError: null, lastErrorKind: null, retryAt: null, nextRefreshAt: null, deferredBy: null } as const;

  it('is an indeterminate progress bar with the count read when no honest estimate exists', () => {
    const html = renderToStaticMarkup(withIntl(<FreshnessNote freshness={{ ...loading, partial: { reservationsRead: 12_400, reservationsExpected: null } }} timeZone={SE} />));
    expect(html).toContain('Reservations: 12,400 read');
    expect(html).not.toContain('of about');
    const bar = /<div role="progressbar"([^>]*)>/.exec(html)?.[1] ?? '';
    expect(bar).toContain('aria-label="Reading reservations"');
    expect(bar).not.toMatch(/aria-value(now|max|min)/);
    // Only a page that shows the slots explains the slots being checked.
    expect(html).not.toContain('Checking…');
    const grid = renderToStaticMarkup(withIntl(<FreshnessNote freshness={{ ...loading, partial: { reservationsRead: 0, reservationsExpected: null } }} timeZone={SE} slotsShown />));
    expect(grid).toContain('Slots whose bookings have not been read yet say “Checking…”');
  });

  it('carries the value and the estimate when the last complete load gives one', () => {
    const html = renderToStaticMarkup(withIntl(<FreshnessNote freshness={{ ...loading, partial: { reservationsRead: 12_400, reservationsExpected: 50_000 } }} timeZone={SE} />));
    expect(html).toContain('Reservations: 12,400 read of about 50,000');
    const bar = /<div role="progressbar"([^>]*)>/.exec(html)?.[1] ?? '';
    expect(bar).toContain('aria-valuenow="12400"');
    expect(bar).toContain('aria-valuemax="50000"');
    expect(bar).toContain('aria-valuetext="Reservations: 12,400 read of about 50,000"');
    expect(renderToStaticMarkup(withIntl(<FreshnessNote freshness={{ ...loading, partial: { reservationsRead: 12_400, reservationsExpected: 50_000 } }} timeZone={SE} />, 'sv'))).toContain(
      'Bokningar: 12\u00a0400 inlästa av ungefär 50\u00a0000',
    );
  });

  it('before the rooms are in, it is the page count as before', () => {
    expect(renderToStaticMarkup(withIntl(<FreshnessNote freshness={{ ...loading, partial: null }} timeZone={SE} />))).toContain('Loading reservations… 40 pages fetched');
  });

  it('lists a room with its occupancy marked as being read', () => {
    const html = renderToStaticMarkup(withIntl(<ResourceSummary name="Tvättstuga 1" href="/x" stats={null} status={null} loadingText="Bookings are still being read" />));
    expect(html).toContain('Tvättstuga 1');
    expect(html).toContain('Bookings are still being read');
    expect(html).not.toContain('role="meter"');
  });
});
