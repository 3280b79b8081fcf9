import { expect, it } from 'vitest';
import { alreadyBooked, isSlotFree } from './slot-free';

it('a slot any reservation overlaps is not free, and the refusal is a conflict', () => {
  expect(isSlotFree(0)).toBe(true);
  expect(isSlotFree(1)).toBe(false);
  expect(alreadyBooked({ slot: 'Mon 07:00–10:00', resource: 'Tvättstuga 1' })).toEqual({
    rule: 'slot-free',
    code: 'conflict',
    message: 'The slot Mon 07:00–10:00 in Tvättstuga 1 is already booked.',
  });
});
