import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { createOwnerLabeler, expandWeek, overlayReservations, weekFromKey } from '@/lib/schedule';
import { withIntl } from '@/tests/intl';
import { laundry, reservation } from '@/tests/schedule-fixtures';
import { BookingDetails } from './slot-panel';

const SE = 'Europe/Stockholm';
const week = weekFromKey('2026-W48', SE);
const ownerLabel = createOwnerLabeler({ groups: [{ id: 'g3001', apartmentId: '3001' }] });
const booking = reservation('2026-11-26T06:00:00Z', '2026-11-26T09:00:00Z', { id: 'res-1', ownerId: 'g3001' });
const slots = overlayReservations(expandWeek(laundry, week, SE), [booking], { now: Date.parse('2026-11-25T10:00:00Z'), ownerLabel });
const booked = slots.find((s) => s.state === 'booked')!;
const text = (html: string) => html.replace(/<[^>]+>/g, '|').replace(/\|+/g, '|');

describe('BookingDetails', () => {
  it('names the resident, the apartment, who booked it through the portal and when, and the note', () => {
    const html = renderToStaticMarkup(withIntl(<dl>
        <BookingDetails
          slot={booked}
          origin={{ reservationId: 'res-1', requestedByName: 'Demo Manager', requestedAt: '2026-11-20T09:15:00Z', residentName: 'Ada Berg', note: 'Asked at the door, has no app' }}
        />
      </dl>));
    expect(text(html)).toBe('|Booked for|Ada Berg, apartment 3001|How|Booked through the portal by Demo Manager on 20 November 2026|Note|Asked at the door, has no app|');
  });

  it('says only the apartment for a booking made elsewhere, and nothing for a free slot', () => {
    expect(text(renderToStaticMarkup(withIntl(<dl><BookingDetails slot={booked} origin={null} /></dl>)))).toBe('|Booked for|apartment 3001|');
    const free = slots.find((s) => s.state === 'free')!;
    expect(renderToStaticMarkup(withIntl(<dl><BookingDetails slot={free} origin={null} /></dl>))).toBe('<dl></dl>');
    // With the system known, an apartment's booking links to the apartment's page.
    const linked = renderToStaticMarkup(withIntl(<dl><BookingDetails slot={booked} origin={null} deviceId="d1" /></dl>));
    expect(linked).toContain(`href="/systems/d1/apartments/${booked.reservation?.ownerId}"`);
    expect(linked).toContain('Open the apartment');
  });

  it('speaks Swedish', () => {
    const html = renderToStaticMarkup(
      withIntl(
        <dl>
          <BookingDetails slot={booked} origin={{ reservationId: 'res-1', requestedByName: null, requestedAt: '2026-11-20T09:15:00Z', residentName: null, note: null }} />
        </dl>,
        'sv',
      ),
    );
    expect(text(html)).toBe('|Bokat för|lägenhet 3001|Hur|Bokat via portalen av en förvaltare den 20 november 2026|');
  });

  it('words an anonymised booking by its apartment in the reader’s language, never the stored placeholder (issue 47)', () => {
    const origin = { reservationId: 'res-1', requestedByName: null, requestedAt: '2026-11-20T09:15:00Z', residentName: null, residentAnonymised: true, note: null };
    expect(text(renderToStaticMarkup(withIntl(<dl><BookingDetails slot={booked} origin={origin} /></dl>)))).toMatch(/^\|Booked for\|apartment 3001\|/);
    expect(text(renderToStaticMarkup(withIntl(<dl><BookingDetails slot={{ ...booked, ownerLabel: null }} origin={origin} /></dl>)))).toMatch(/^\|Booked for\|Resident\|/);
  });
});
