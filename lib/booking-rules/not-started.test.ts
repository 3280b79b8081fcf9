import { expect, it } from 'vitest';
import { alreadyStarted, hasStarted } from './not-started';

it('a slot has started from its first minute on', () => {
  expect(hasStarted({ startMs: 1000 }, 999)).toBe(false);
  expect(hasStarted({ startMs: 1000 }, 1000)).toBe(true);
  expect(hasStarted({ startMs: 1000 }, 5000)).toBe(true);
  expect(alreadyStarted('create', 'Mon 07:00–10:00').message).toBe('The slot Mon 07:00–10:00 has already started; it can no longer be booked.');
  expect(alreadyStarted('cancel', 'Mon 07:00–10:00').message).toBe('The booking Mon 07:00–10:00 has already started; it can no longer be cancelled.');
});
