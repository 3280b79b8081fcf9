import { createTranslator } from 'next-intl';
import type { Locale } from '@/lib/i18n/config';
import { catalogues } from '@/tests/intl';
import { describe, expect, it } from 'vitest';
import type { RequestView } from '@/lib/events/types';
import { noticeText, requestWhat } from './outcome-notices';
import type { Words } from './words';


/** The wording functions' translator and language, as a component of that language has them. */
function wordsFor(locale: Locale = 'en'): Words {
  return { t: createTranslator({ locale, messages: catalogues[locale] }), locale };
}

const en = wordsFor('en');
const sv = wordsFor('sv');

const TZ = 'Europe/Stockholm';
const request = (over: Partial<RequestView>): RequestView =>
  ({
    kind: 'create',
    status: 'pending',
    startTime: '2026-11-30T06:00:00.000Z',
    endTime: '2026-11-30T09:00:00.000Z',
    residentApartment: '1203',
    residentName: 'Anna Persson',
    resourceName: 'Tvättstuga 1',
    outcomeUnknown: false,
    reason: null,
    ...over,
  }) as RequestView;

describe('outcome notices', () => {
  it('names the room where a page shows several, the apartment where it shows several residents', () => {
    expect(requestWhat(request({}), TZ, { room: true }, en)).toBe('Booking Monday 30 November, 07:00–10:00 in Tvättstuga 1');
    expect(requestWhat(request({}), TZ, { room: true, resident: true }, sv)).toBe('Bokning måndag 30 november 07:00–10:00 i Tvättstuga 1 för lägenhet 1203');
    expect(requestWhat(request({}), TZ, { resident: true }, en)).toMatch(/^Booking .+07:00–10:00 for apartment 1203$/);
    expect(requestWhat(request({ kind: 'cancel', residentApartment: null }), TZ, { resident: true }, en)).toMatch(/^Cancelling .+ of Anna Persson$/);
    expect(requestWhat(request({ startTime: null }), TZ, {}, en)).toBe('Booking a slot');
  });

  it('says so of a room the service no longer lists, instead of leaving the room out', () => {
    const unlisted = request({ kind: 'cancel', resourceId: '00000000-0000-4000-8000-0000000000b1', resourceName: null });
    expect(requestWhat(unlisted, TZ, { room: true }, en)).toBe('Cancelling Monday 30 November, 07:00–10:00 in a room no longer listed by the booking system');
    expect(requestWhat(unlisted, TZ, { room: true }, sv)).toBe('Avbokning måndag 30 november 07:00–10:00 i ett rum som bokningssystemet inte längre listar');
    // A listed room without a name is still just not named.
    expect(requestWhat({ ...unlisted, resourceName: '' }, TZ, { room: true }, en)).toBe('Cancelling Monday 30 November, 07:00–10:00');
  });

  it('says how each state stands, and never calls an unknown outcome a failure', () => {
    expect(noticeText(request({ status: 'sending' }), TZ, {}, en)).toMatch(/: sending…$/);
    expect(noticeText(request({ outcomeUnknown: true }), TZ, {}, en)).toMatch(/waiting for the service's answer \(checking the service's bookings\)…$/);
    expect(noticeText(request({ status: 'succeeded' }), TZ, {}, en)).toMatch(/: booked\.$/);
    expect(noticeText(request({ kind: 'cancel', status: 'succeeded' }), TZ, {}, en)).toMatch(/: cancelled\.$/);
    expect(noticeText(request({ status: 'failed', reason: { key: 'outcomes.reason.reservationNotFound' } }), TZ, {}, en)).toMatch(/: not booked\. The booking no longer exists; it may have been cancelled already\.$/);
    expect(noticeText(request({ kind: 'cancel', status: 'failed', reason: { key: 'outcomes.reason.noOutcome', values: { kind: 'cancel' } } }), TZ, {}, sv)).toMatch(
      /: inte avbokad\. Inget utfall kom; bokningen avbokades inte\.$/,
    );
    // An event stored before reasons were messages keeps its words.
    expect(noticeText(request({ status: 'failed', reason: 'Old words.' as unknown as RequestView['reason'] }), TZ, {}, en)).toMatch(/: not booked\. Old words\.$/);
  });
});
