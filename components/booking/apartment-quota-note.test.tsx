import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { Locale } from '@/lib/i18n/config';
import { queryKeys } from '@/lib/client/query-keys';
import { withIntl } from '@/tests/intl';
import type { ApartmentView } from '@/lib/views/apartment-types';
import { ApartmentQuotaNote, QuotaNoteText } from './apartment-quota-note';

const DEVICE = '00000000-0000-4000-8000-000000000001';
const GROUP = '00000000-0000-4000-8000-000000000002';

function view(held: number): ApartmentView {
  return {
    system: { deviceId: DEVICE, name: 'Björkgatan 3', timeZone: 'Europe/Stockholm', bookingQuota: 2, bookingHorizonDays: 28 },
    group: { id: GROUP, name: '', apartmentId: '1203', referenceId: '' },
    title: { kind: 'apartment', apartment: '1203', name: '' },
    residents: [],
    residentsKnown: true,
    authorizationsKnown: true,
    rooms: [{ resourceId: 'R1', name: 'Tvättstuga 1', kind: 'laundry', allowed: true, held, quota: 2, atQuota: held >= 2 }],
    upcoming: [],
    past: [],
    pastWeeks: 8,
    open: [],
    history: [],
    historyLimit: 50,
    freshness: { status: 'ready', refreshedAt: '2026-11-24T10:00:00.000Z', refreshing: false, lastErrorAt: null, lastError: null, lastErrorKind: null, retryAt: null, nextRefreshAt: null, deferredBy: null },
    generatedAt: 0,
  };
}

function render(held: number, resourceId = 'R1', locale: Locale = 'en') {
  return renderToStaticMarkup(withIntl(<QuotaNoteText view={view(held)} resourceId={resourceId} slotStartMs={Date.UTC(2026, 10, 26, 6)} />, locale));
}

describe('the apartment quota note', () => {
  it('says how much of the quota the apartment holds in the room', () => {
    expect(render(1)).toContain('Apartment 1203: 1 of 2 future bookings in Tvättstuga 1.');
    expect(render(1)).not.toContain('role="alert"');
  });

  it('warns at the quota, naming the slot', () => {
    const html = render(2);
    expect(html).toContain('role="alert"');
    expect(html).toContain('Apartment 1203: 2 of 2 future bookings in Tvättstuga 1.');
    expect(html).toMatch(/a booking of Thursday 26 November.* would be refused/);
  });

  it('speaks Swedish to a Swedish reader', () => {
    expect(render(1, 'R1', 'sv')).toContain('Lägenhet 1203: 1 av 2 kommande bokningar i Tvättstuga 1.');
    expect(render(2, 'R1', 'sv')).toMatch(/en bokning av torsdag 26 november kl\. 07:00 skulle avvisas/);
  });

  it('names the rule group when the room shares its quota with other rooms (issue 35)', () => {
    const grouped = view(2);
    grouped.rooms = [{ resourceId: 'R4', name: 'Tvättstuga 4', kind: 'laundry', allowed: true, held: 2, quota: 2, atQuota: true, groupRooms: ['Tvättstuga 1', 'Tvättstuga 4', 'Tvättstuga 5'] }];
    const html = (locale: Locale) => renderToStaticMarkup(withIntl(<QuotaNoteText view={grouped} resourceId="R4" slotStartMs={Date.UTC(2026, 10, 26, 6)} />, locale));
    expect(html('en')).toContain('Apartment 1203: 2 of 2 future bookings in Tvättstuga 1, 4, and 5 together.');
    expect(html('en')).toContain('role="alert"');
    expect(html('sv')).toContain('Lägenhet 1203: 2 av 2 kommande bokningar i Tvättstuga 1, 4 och 5 tillsammans.');
  });

  it('says nothing about a room it does not know', () => {
    expect(render(2, 'R2')).toBe('');
  });

  it('shows no cached answer before its own fresh read (a booking made a moment ago must count)', () => {
    const client = new QueryClient();
    client.setQueryData(queryKeys.apartment(DEVICE, GROUP), view(1));
    const html = renderToStaticMarkup(
      withIntl(
        <QueryClientProvider client={client}>
          <ApartmentQuotaNote deviceId={DEVICE} groupId={GROUP} resourceId="R1" />
        </QueryClientProvider>,
      ),
    );
    expect(html).toBe('');
  });
});
