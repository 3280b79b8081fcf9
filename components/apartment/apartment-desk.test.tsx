import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { Locale } from '@/lib/i18n/config';
import type { ApartmentBooking, ApartmentView, NextFreeView } from '@/lib/views/apartment-types';
import { withIntl } from '@/tests/intl';
import { ApartmentDesk } from './apartment-desk';

const TZ = 'Europe/Stockholm';
const start = Date.UTC(2026, 10, 30, 6);
const booking = (over: Partial<ApartmentBooking>): ApartmentBooking => ({
  reservationId: '00000000-0000-4000-8000-0000000000a1',
  resourceId: '00000000-0000-4000-8000-0000000000b1',
  resourceName: 'Tvättstuga 1',
  roomListed: true,
  startTime: new Date(start).toISOString(),
  endTime: new Date(start + 3 * 3_600_000).toISOString(),
  startMs: start,
  endMs: start + 3 * 3_600_000,
  timeLabel: '07:00–10:00',
  bookedByName: null,
  bookedThroughPortal: false,
  residentName: null,
  status: 'Unused',
  cancellable: true,
  ...over,
});

const view = (upcoming: ApartmentBooking[], past: ApartmentBooking[] = []): ApartmentView => ({
  system: { deviceId: '00000000-0000-4000-8000-000000000001', name: 'Demo', timeZone: TZ, bookingQuota: 2, bookingHorizonDays: 28 },
  group: { id: '00000000-0000-4000-8000-000000000002', name: 'LGH 1001', apartmentId: '1001', referenceId: '' },
  title: { kind: 'apartment', apartment: '1001', name: 'LGH 1001' },
  residents: [],
  residentsKnown: true,
  authorizationsKnown: true,
  rooms: [],
  upcoming,
  past,
  pastWeeks: 8,
  open: [],
  history: [],
  historyLimit: 50,
  freshness: { status: 'ready', refreshedAt: new Date(start).toISOString(), refreshing: false, lastErrorAt: null, lastError: null, lastErrorKind: null, retryAt: null, nextRefreshAt: null, deferredBy: null },
  generatedAt: start - 86_400_000,
});
const nextFree: NextFreeView = { slots: [], kind: null, dayPart: null, count: 5, atQuota: [], timeZone: TZ, generatedAt: 0 };

function render(v: ApartmentView, locale: Locale = 'en') {
  return renderToStaticMarkup(
    withIntl(
      <QueryClientProvider client={new QueryClient()}>
        <ApartmentDesk initial={v} initialNextFree={nextFree} />
      </QueryClientProvider>,
      locale,
    ),
  );
}

describe('the apartment desk', () => {
  it('names a booking whose room the service no longer lists, and says what its Cancel cancels', () => {
    const unlisted = booking({ resourceName: '', roomListed: false });
    const html = render(view([unlisted], [{ ...unlisted, reservationId: '00000000-0000-4000-8000-0000000000a2' }]));
    expect(html).not.toContain('Unnamed room');
    expect(html.match(/Room no longer listed by the booking system/g)).toHaveLength(2);
    // The service cancels by reservation id, whatever the room: Cancel stays, worded.
    expect(html).toContain('aria-label="Cancel Monday 30 November, 07:00–10:00 in a room no longer listed by the booking system"');
  });

  it('keeps a listed room without a name "Unnamed room"', () => {
    const html = render(view([booking({ resourceName: '' })]));
    expect(html).toContain('Unnamed room');
    expect(html).not.toContain('no longer listed');
    expect(html).toContain('aria-label="Cancel Monday 30 November, 07:00–10:00 in Unnamed room"');
  });

  it('speaks Swedish to a Swedish reader', () => {
    const html = render(view([booking({ resourceName: '', roomListed: false })]), 'sv');
    expect(html).toContain('Rum som bokningssystemet inte längre listar');
    expect(html).toContain('aria-label="Avboka måndag 30 november 07:00–10:00 i ett rum som bokningssystemet inte längre listar"');
  });
});
