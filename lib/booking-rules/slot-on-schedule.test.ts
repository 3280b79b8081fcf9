import { expect, it } from 'vitest';
import { isScheduledSlot, noListedSchedule, notOnSchedule } from './slot-on-schedule';
import { messageText } from '@/tests/message-text';

it('a booking must match a slot of the schedule exactly, start and end', () => {
  const slot = { startMs: 1000, endMs: 2000 };
  expect(isScheduledSlot(slot, 1000, 2000)).toBe(true);
  expect(isScheduledSlot(slot, 1000, 1500)).toBe(false);
  expect(isScheduledSlot(slot, 900, 2000)).toBe(false);
  expect(isScheduledSlot(undefined, 1000, 2000)).toBe(false);
  expect(messageText(notOnSchedule({ slot: 'Mon 07:00–08:00', resource: 'Tvättstuga 1' }).message)).toBe('Mon 07:00–08:00 is not a booking slot of Tvättstuga 1.');
});

it('says why a room whose schedule the service does not list cannot be booked', () => {
  const refusal = noListedSchedule({ slot: 'Mon 07:00–08:00', resource: 'Tvättstuga Gården' });
  expect(refusal).toMatchObject({ rule: 'slot-on-schedule', code: 'unprocessable_entity' });
  expect(messageText(refusal.message)).toBe('The booking system lists no time schedule for Tvättstuga Gården that the portal can read, so Mon 07:00–08:00 cannot be booked here. Book it in the booking system itself.');
});
