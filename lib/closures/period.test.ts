import { expect, it } from 'vitest';
import { messageText } from '@/tests/message-text';
import { CLOSURE_MAX_DAYS, localInstant, periodProblem, periodProblemMessage } from './period';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const now = Date.parse('2026-11-24T10:00:00Z');

it('reads a datetime-local value in the system’s time zone', () => {
  expect(localInstant('2026-11-24T13:00', 'Europe/Stockholm')).toBe(Date.parse('2026-11-24T12:00:00Z'));
  expect(localInstant('2026-07-01T13:00:30', 'Europe/Stockholm')).toBe(Date.parse('2026-07-01T11:00:30Z'));
  expect(localInstant('2026-11-24T13:00', 'UTC')).toBe(Date.parse('2026-11-24T13:00:00Z'));
});

it('refuses what is not a local date-time or names no real day', () => {
  for (const bad of ['', '2026-11-24', '2026-11-24T13:00Z', '2026-11-24T13:00+01:00', '2026-02-30T10:00', '2026-13-01T10:00', '2026-11-24T24:00', 'tomorrow']) {
    expect(localInstant(bad, 'Europe/Stockholm'), bad).toBeNull();
  }
});

it('an end before or equal to the start is refused', () => {
  expect(periodProblem(now + HOUR, now + HOUR, now)).toBe('endNotAfterStart');
  expect(periodProblem(now + 2 * HOUR, now + HOUR, now)).toBe('endNotAfterStart');
});

it(`a closure longer than ${CLOSURE_MAX_DAYS} days is refused; exactly ${CLOSURE_MAX_DAYS} is allowed`, () => {
  expect(periodProblem(now + HOUR, now + HOUR + CLOSURE_MAX_DAYS * DAY + 1, now)).toBe('tooLong');
  expect(periodProblem(now + HOUR, now + HOUR + CLOSURE_MAX_DAYS * DAY, now)).toBeNull();
});

it('a closure that ends at or before now is refused', () => {
  expect(periodProblem(now - 2 * HOUR, now, now)).toBe('endsInPast');
  expect(periodProblem(now - 2 * HOUR, now - HOUR, now)).toBe('endsInPast');
});

it('a closure may start up to 15 minutes before now, not earlier', () => {
  expect(periodProblem(now - 15 * 60_000, now + HOUR, now)).toBeNull();
  expect(periodProblem(now - 15 * 60_000 - 1, now + HOUR, now)).toBe('startsInPast');
  expect(periodProblem(now + HOUR, now + 3 * HOUR, now)).toBeNull();
});

it('each problem has its sentence in both languages', () => {
  const period = 'Tue 24 Nov 13:00 – 17:00';
  expect(messageText(periodProblemMessage('endNotAfterStart', period))).toBe('The closure Tue 24 Nov 13:00 – 17:00 ends before or when it starts; choose an end after the start.');
  expect(messageText(periodProblemMessage('tooLong', period))).toBe('The closure Tue 24 Nov 13:00 – 17:00 is too long: a closure may last at most 90 days.');
  expect(messageText(periodProblemMessage('endsInPast', period))).toBe('The closure Tue 24 Nov 13:00 – 17:00 is already over; choose a period that ends in the future.');
  expect(messageText(periodProblemMessage('startsInPast', period))).toBe('The closure Tue 24 Nov 13:00 – 17:00 starts in the past; it may start at most 15 minutes before now.');
  expect(messageText(periodProblemMessage('tooLong', period), 'sv')).toBe('Stängningen Tue 24 Nov 13:00 – 17:00 är för lång: en stängning får vara högst 90 dagar.');
});
