import { expect, it } from 'vitest';
import { alreadyStarted, hasStarted } from './not-started';
import { messageText } from '@/tests/message-text';

it('a slot has started from its first minute on', () => {
  expect(hasStarted({ startMs: 1000 }, 999)).toBe(false);
  expect(hasStarted({ startMs: 1000 }, 1000)).toBe(true);
  expect(hasStarted({ startMs: 1000 }, 5000)).toBe(true);
  expect(messageText(alreadyStarted('create', 'Mon 07:00–10:00').message)).toBe('The slot Mon 07:00–10:00 has already started; it can no longer be booked.');
  expect(messageText(alreadyStarted('cancel', 'Mon 07:00–10:00').message)).toBe('The booking Mon 07:00–10:00 has already started; it can no longer be cancelled.');
  expect(messageText(alreadyStarted('create', 'mån 07:00–10:00').message, 'sv')).toBe('Passet mån 07:00–10:00 har redan börjat och kan inte längre bokas.');
  expect(alreadyStarted('create', 'x').message.key).toBe('rules.startedBooking');
});
