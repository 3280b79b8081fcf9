import { createTranslator } from 'next-intl';
import type { Locale } from '@/lib/i18n/config';
import { catalogues } from '@/tests/intl';
import { describe, expect, it } from 'vitest';
import { requestStatusLine, requestStatusText } from './request-status';
import type { Words } from './words';


/** The wording functions' translator and language, as a component of that language has them. */
function wordsFor(locale: Locale = 'en'): Words {
  return { t: createTranslator({ locale, messages: catalogues[locale] }), locale };
}

const en = wordsFor('en');

describe('requestStatusText', () => {
  it('says Booked for a booking and Cancelled for a cancellation, never "Done"', () => {
    expect(requestStatusLine({ kind: 'create', status: 'succeeded' }, en)).toBe('Booked');
    expect(requestStatusLine({ kind: 'cancel', status: 'succeeded' }, en)).toBe('Cancelled');
  });

  it('gives a failure its reason, or a sentence per kind when none is known', () => {
    expect(requestStatusLine({ kind: 'create', status: 'failed', reason: { key: 'outcomes.reason.quotaExceeded', values: { who: 'apartment', apartment: '1203', quota: 2, room: 'Laundry 1', roomKnown: 'yes' } } }, en)).toBe(
      'Failed: Apartment 1203 already has 2 future bookings in Laundry 1.',
    );
    expect(requestStatusLine({ kind: 'cancel', status: 'failed', reason: null }, en)).toBe('Failed: The booking was not cancelled.');
    expect(requestStatusText({ kind: 'create', status: 'failed' }, en).tone).toBe('danger');
  });

  it('tells a pending request from one whose outcome is unknown, and from one still being sent', () => {
    expect(requestStatusLine({ kind: 'create', status: 'pending' }, en)).toBe('Pending');
    expect(requestStatusLine({ kind: 'cancel', status: 'pending', outcomeUnknown: true }, en)).toBe('Outcome unknown — checking with the service');
    expect(requestStatusLine({ kind: 'create', status: 'sending' }, en)).toBe('Sending');
    expect(requestStatusLine({ kind: 'cancel', status: 'pending', outcomeUnknown: true }, wordsFor('sv'))).toBe('Utfallet okänt — kontrollerar med tjänsten');
    expect(requestStatusLine({ kind: 'cancel', status: 'failed', reason: null }, wordsFor('sv'))).toBe('Misslyckades: Bokningen avbokades inte.');
  });
});
