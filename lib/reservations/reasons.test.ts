import { createTranslator } from 'next-intl';
import { expect, it } from 'vitest';
import type { Locale } from '@/lib/i18n/config';
import type { Message } from '@/lib/i18n/message';
import { catalogues } from '@/tests/intl';
import { describeOutcomeError, NO_OUTCOME, NOT_SENT, OUTCOME_ERROR_CODES, renderReasonValues, residentLabel, type ReasonContext } from './reasons';

const ctx: ReasonContext = { kind: 'create', residentName: 'Anna Berg', residentApartment: '1203', resourceName: 'Laundry room 1' };
const slot = { startMs: Date.parse('2026-11-24T06:00:00Z'), endMs: Date.parse('2026-11-24T09:00:00Z'), timeZone: 'Europe/Stockholm' };

/** A reason as a reader of `locale` reads it. */
function read(message: Message, locale: Locale = 'en'): string {
  const t = createTranslator({ locale, messages: catalogues[locale] }) as unknown as (key: string, values?: object) => string;
  return t(message.key, renderReasonValues(message.values as Record<string, string | number> | undefined, locale));
}
const say = (code: string | null, c: ReasonContext, locale: Locale = 'en') => read(describeOutcomeError(code, c), locale);

it('names the quota with the resident and the room, with the number the service states', () => {
  const quota2 = { ...ctx, errorDescription: 'At most 2 future bookings per apartment on this resource.' };
  expect(describeOutcomeError('QuotaExceeded', quota2)).toMatchObject({ key: 'outcomes.reason.quotaExceeded', values: { quota: 2, who: 'apartment', apartment: '1203' } });
  expect(say('QuotaExceeded', quota2)).toBe('Apartment 1203 already has 2 future bookings in Laundry room 1.');
  expect(say('QuotaExceeded', quota2, 'sv')).toBe('Lägenhet 1203 har redan 2 kommande bokningar i Laundry room 1.');
  expect(say('QuotaExceeded', { ...ctx, errorDescription: 'At most 1 future bookings' })).toBe('Apartment 1203 already has 1 future booking in Laundry room 1.');
  expect(say('QuotaExceeded', { ...ctx, errorDescription: 'At most 1 future bookings' }, 'sv')).toBe('Lägenhet 1203 har redan 1 kommande bokning i Laundry room 1.');
  expect(say('QuotaExceeded', { ...ctx, errorDescription: null })).toBe('Apartment 1203 already has the most future bookings allowed in Laundry room 1.');
});

it('gives every upstream code its own sentence with context, in both languages', () => {
  for (const locale of ['en', 'sv'] as const) {
    const sentences = OUTCOME_ERROR_CODES.map((code) => say(code, ctx, locale));
    expect(new Set(sentences).size).toBe(OUTCOME_ERROR_CODES.length);
    for (const s of sentences) expect(s).toMatch(/^[A-ZÅÄÖ].*\.$/);
  }
  expect(say('SlotUnavailable', ctx)).toBe('This slot in Laundry room 1 is already booked by someone else.');
  expect(say('SlotUnavailable', ctx, 'sv')).toBe('Passet i Laundry room 1 är redan bokat av någon annan.');
  expect(say('UserNotAuthorized', ctx)).toBe('Apartment 1203 is not allowed to book Laundry room 1.');
  expect(say('UserNotAuthorized', { kind: 'create', residentName: 'Anna Berg' }, 'sv')).toBe('Anna Berg får inte boka den här lokalen.');
  expect(say('InPast', { ...ctx, kind: 'cancel' })).toBe('This slot has already started, so it can no longer be cancelled.');
  expect(say('InPast', { ...ctx, kind: 'cancel' }, 'sv')).toBe('Passet har redan börjat och kan inte längre avbokas.');
  expect(say('OutsideBookingWindow', ctx)).toContain('too far ahead');
});

it('words the slot of a reason in the reader’s language, from its instants and the system’s zone', () => {
  const message = describeOutcomeError('SlotUnavailable', { ...ctx, slot });
  expect(JSON.stringify(message)).not.toMatch(/Tuesday|November/);
  expect(read(message)).toBe('The slot Tuesday 24 November 07:00–10:00 in Laundry room 1 is already booked by someone else.');
  expect(read(message, 'sv')).toBe('Passet tisdag 24 november 07:00–10:00 i Laundry room 1 är redan bokat av någon annan.');
});

it('says what happened when no outcome came, and quotes the upstream words for unknown codes', () => {
  expect(say(NO_OUTCOME, ctx)).toBe('No outcome arrived; the booking was not made.');
  expect(say(NO_OUTCOME, { ...ctx, kind: 'cancel' })).toBe('No outcome arrived; the booking was not cancelled.');
  expect(say(NO_OUTCOME, { ...ctx, kind: 'cancel' }, 'sv')).toBe('Inget utfall kom; bokningen avbokades inte.');
  expect(say('SomethingNew', { ...ctx, errorDescription: 'The moon is full.' })).toBe('The reservation service answered: The moon is full.');
  expect(say(null, { kind: 'create' })).toBe('The reservation service refused the request.');
  expect(say(null, { kind: 'create' }, 'sv')).toBe('Bokningstjänsten avvisade förfrågan.');
  expect(say(NOT_SENT, { kind: 'create', errorDescription: 'Too many requests.' })).toBe('The request was not sent: Too many requests.');
  expect(say(NOT_SENT, { kind: 'create' }, 'sv')).toBe('Förfrågan kunde inte skickas till bokningstjänsten.');
});

it('labels the resident by apartment, then name', () => {
  expect(residentLabel({ residentApartment: '12 B', residentName: 'X' })).toMatchObject({ who: 'apartment', apartment: '12 B' });
  expect(residentLabel({ residentName: 'Anna Berg' })).toMatchObject({ who: 'name', name: 'Anna Berg' });
  expect(residentLabel({})).toMatchObject({ who: 'unknown' });
  expect(say('UserNotFound', {kind: 'create'})).toBe('The resident is no longer a resident of this system.');
  expect(say('UserNotFound', {kind: 'create'}, 'sv')).toBe('Den boende är inte längre boende i det här systemet.');
});
