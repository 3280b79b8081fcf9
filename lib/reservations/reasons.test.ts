import { expect, it } from 'vitest';
import { describeOutcomeError, NO_OUTCOME, OUTCOME_ERROR_CODES, residentLabel } from './reasons';

const ctx = { kind: 'create' as const, residentName: 'Anna Berg', residentApartment: '1203', resourceName: 'Laundry room 1', slotLabel: 'Monday 24 November, 07:00–10:00' };

it('names the quota with the resident and the room', () => {
  expect(describeOutcomeError('QuotaExceeded', { ...ctx, errorDescription: 'At most 2 future bookings per apartment on this resource.' })).toBe(
    'Apartment 1203 already has 2 future bookings in Laundry room 1.',
  );
  expect(describeOutcomeError('QuotaExceeded', { ...ctx, errorDescription: 'At most 1 future bookings' })).toBe('Apartment 1203 already has 1 future booking in Laundry room 1.');
  expect(describeOutcomeError('QuotaExceeded', { ...ctx, errorDescription: null })).toBe('Apartment 1203 already has the most future bookings allowed in Laundry room 1.');
});

it('gives every upstream code its own sentence with context', () => {
  const sentences = OUTCOME_ERROR_CODES.map((code) => describeOutcomeError(code, ctx));
  expect(new Set(sentences).size).toBe(OUTCOME_ERROR_CODES.length);
  for (const s of sentences) expect(s).toMatch(/^[A-Z].*\.$/);
  expect(describeOutcomeError('SlotUnavailable', ctx)).toBe('The slot Monday 24 November, 07:00–10:00 in Laundry room 1 is already booked by someone else.');
  expect(describeOutcomeError('UserNotAuthorized', ctx)).toBe('Apartment 1203 is not allowed to book Laundry room 1.');
  expect(describeOutcomeError('InPast', { ...ctx, kind: 'cancel', slotLabel: null })).toBe('This slot has already started, so it can no longer be cancelled.');
  expect(describeOutcomeError('OutsideBookingWindow', ctx)).toContain('too far ahead');
});

it('says what happened when no outcome came, and falls back to the upstream words for unknown codes', () => {
  expect(describeOutcomeError(NO_OUTCOME, ctx)).toBe('No outcome arrived; the booking was not made.');
  expect(describeOutcomeError(NO_OUTCOME, { ...ctx, kind: 'cancel' })).toBe('No outcome arrived; the booking was not cancelled.');
  expect(describeOutcomeError('SomethingNew', { ...ctx, errorDescription: 'The moon is full.' })).toBe('The moon is full.');
  expect(describeOutcomeError(null, { kind: 'create' })).toBe('The reservation service refused the request.');
});

it('labels the resident by apartment, then name', () => {
  expect(residentLabel({ residentApartment: '12 B', residentName: 'X' })).toBe('Apartment 12 B');
  expect(residentLabel({ residentName: 'Anna Berg' })).toBe('Anna Berg');
  expect(residentLabel({})).toBe('The resident');
});
