import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { Locale } from '@/lib/i18n/config';
import type { RequestView } from '@/lib/events/types';
import { withIntl } from '@/tests/intl';
import { Results } from './requests-list';

const DEVICE = '00000000-0000-4000-8000-000000000001';
const systems = [{ deviceId: DEVICE, name: 'Björkgatan 3', timeZone: 'Europe/Stockholm' }];

function request(patch: Partial<RequestView> & { note?: string | null } = {}): RequestView {
  return {
    id: '00000000-0000-4000-8000-0000000000aa',
    kind: 'create',
    status: 'succeeded',
    deviceId: DEVICE,
    resourceId: null,
    residentUserId: '00000000-0000-4000-8000-0000000000bb',
    reservationId: null,
    startTime: '2026-11-26T06:00:00.000Z',
    endTime: '2026-11-26T09:00:00.000Z',
    requestedBy: 'u1',
    requestedByName: 'Demo Manager',
    residentName: 'Anna Berg',
    residentApartment: '1203',
    resourceName: 'Laundry room 1',
    errorCode: null,
    errorDescription: null,
    createdAt: '2026-11-25T10:00:00.000Z',
    updatedAt: '2026-11-25T10:00:00.000Z',
    resolvedAt: null,
    ...patch,
  };
}

const render = (requests: RequestView[], locale: Locale = 'en') =>
  renderToStaticMarkup(withIntl(<Results systems={systems} filters={{}} requests={requests} paged={false} />, locale));

describe('Results', () => {
  it('shows a booking note when the request carries one, in the cards and the table', () => {
    const html = render([request({ note: 'Key is with the caretaker' })]);
    expect(html.match(/Key is with the caretaker/g)).toHaveLength(2);
    expect(html).toContain('<dt class="text-slate-600 dark:text-slate-400">Note</dt>');
  });

  it('names a room the service no longer lists as such, a room without a name as "a room"', () => {
    const resourceId = '00000000-0000-4000-8000-0000000000cc';
    const html = render([request({ kind: 'cancel', resourceId, resourceName: null })]);
    expect(html).toContain('Cancellation in a room no longer listed by the booking system');
    expect(render([request({ kind: 'cancel', resourceId, resourceName: null })], 'sv')).toContain('Avbokning i ett rum som bokningssystemet inte längre listar');
    expect(render([request({ kind: 'cancel', resourceId, resourceName: '' })])).toContain('Cancellation in a room<');
  });

  it('shows no note line when there is none, or only blanks', () => {
    for (const note of [undefined, null, '', '   ']) expect(render([request({ note })])).not.toContain('Note');
  });

  it('words each state by kind in both layouts, and never says "Done"', () => {
    const html = render([
      request({ id: '00000000-0000-4000-8000-000000000001' }),
      request({ id: '00000000-0000-4000-8000-000000000002', kind: 'cancel' }),
      request({ id: '00000000-0000-4000-8000-000000000003', status: 'failed', reason: { key: 'outcomes.reason.quotaExceeded', values: { who: 'apartment', apartment: '1203', quota: 2, room: 'Laundry room 1', roomKnown: 'yes' } } }),
      request({ id: '00000000-0000-4000-8000-000000000004', status: 'pending', outcomeUnknown: true }),
    ]);
    expect(html.match(/>Booked</g)).toHaveLength(2);
    expect(html.match(/>Cancelled</g)).toHaveLength(2);
    expect(html.match(/Apartment 1203 already has 2 future bookings/g)).toHaveLength(2);
    expect(html.match(/>Outcome unknown — checking with the service</g)).toHaveLength(2);
    expect(html).not.toContain('Done');
    expect(html).toContain('Only requests for Anna Berg');
  });

  it('speaks Swedish to a Swedish reader, the reason and the dates too', () => {
    const html = render(
      [request({ status: 'failed', reason: { key: 'outcomes.reason.quotaExceeded', values: { who: 'apartment', apartment: '1203', quota: 2, room: 'Laundry room 1', roomKnown: 'yes' } } })],
      'sv',
    );
    expect(html).toContain('Lägenhet 1203 har redan 2 kommande bokningar i Laundry room 1.');
    expect(html).toContain('>Misslyckades<');
    expect(html).toContain('torsdag 26 november kl. 07:00–10:00');
    expect(html).toContain('Endast förfrågningar för Anna Berg');
  });
});
