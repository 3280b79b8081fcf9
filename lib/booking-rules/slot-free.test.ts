import { expect, it } from 'vitest';
import { alreadyBooked, isSlotFree } from './slot-free';
import { messageText } from '@/tests/message-text';

it('a slot any reservation overlaps is not free, and the refusal is a conflict', () => {
  expect(isSlotFree(0)).toBe(true);
  expect(isSlotFree(1)).toBe(false);
  const refusal = alreadyBooked({ slot: 'Mon 07:00–10:00', resource: 'Tvättstuga 1' });
  expect(refusal).toMatchObject({ rule: 'slot-free', code: 'conflict' });
  expect(messageText(refusal.message)).toBe('The slot Mon 07:00–10:00 in Tvättstuga 1 is already booked.');
  expect(messageText(refusal.message, 'sv')).toBe('Passet Mon 07:00–10:00 i Tvättstuga 1 är redan bokat.');
});
