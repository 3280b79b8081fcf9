import { expect, it } from 'vitest';
import { messageText } from '@/tests/message-text';
import { closureOver, markClosedSlots, withClosedSlots, roomClosed } from './not-closed';

const room = '11111111-1111-4111-8111-111111111111';
const other = '22222222-2222-4222-8222-222222222222';
const closure = { id: 'c1', resourceIds: [room], startMs: 1000, endMs: 2000, reason: 'Pipe repair' };

it('a slot is closed when a closure of its room overlaps any part of it', () => {
  expect(closureOver({ startMs: 1500, endMs: 2500 }, room, [closure])).toBe(closure);
  expect(closureOver({ startMs: 500, endMs: 1001 }, room, [closure])).toBe(closure);
  expect(closureOver({ startMs: 1200, endMs: 1300 }, room, [closure])).toBe(closure);
});

it('a slot that only touches the period, or is in another room, is not closed', () => {
  expect(closureOver({ startMs: 2000, endMs: 3000 }, room, [closure])).toBeNull();
  expect(closureOver({ startMs: 0, endMs: 1000 }, room, [closure])).toBeNull();
  expect(closureOver({ startMs: 1500, endMs: 2500 }, other, [closure])).toBeNull();
  expect(closureOver({ startMs: 1500, endMs: 2500 }, room, [])).toBeNull();
});

it('the refusal names the room, the slot, the reason and the period', () => {
  const refusal = roomClosed({ slot: 'Tue 24 Nov 13:00–16:00', resource: 'Laundry 1' }, 'Pipe repair', 'Tue 24 Nov 12:00 – 18:00');
  expect(refusal).toMatchObject({ rule: 'not-closed', code: 'unprocessable_entity' });
  expect(messageText(refusal.message)).toBe('Laundry 1 is closed Tue 24 Nov 12:00 – 18:00 (Pipe repair); the slot Tue 24 Nov 13:00–16:00 cannot be booked.');
  expect(messageText(refusal.message, 'sv')).toBe('Laundry 1 är stängd Tue 24 Nov 12:00 – 18:00 (Pipe repair); passet Tue 24 Nov 13:00–16:00 kan inte bokas.');
});

it('the grid marks the closed slots of the room not bookable, with the reason and period, and leaves the others', () => {
  const slots = [
    { startMs: 0, endMs: 1000, bookable: true },
    { startMs: 1000, endMs: 2000, bookable: true },
    { startMs: 2000, endMs: 3000, bookable: true },
  ];
  markClosedSlots(slots, room, [closure]);
  expect(slots.map((s) => s.bookable)).toEqual([true, false, true]);
  expect(slots[1]).toMatchObject({ closed: { closureId: 'c1', reason: 'Pipe repair', startMs: 1000, endMs: 2000 } });
  const others = [{ startMs: 1000, endMs: 2000, bookable: true }];
  markClosedSlots(others, other, [closure]);
  expect(others[0]).toEqual({ startMs: 1000, endMs: 2000, bookable: true });
});

it('withClosedSlots marks copies and leaves the slots it was given as they were', () => {
  const slots: { startMs: number; endMs: number; bookable: boolean; closed?: { reason: string; closureId: string; startMs: number; endMs: number } | null }[] = [
    { startMs: 0, endMs: 1000, bookable: true },
    { startMs: 1000, endMs: 2000, bookable: true },
  ];
  const marked = withClosedSlots(slots, room, [closure]);
  expect(marked.map((s) => [s.bookable, s.closed?.reason ?? null])).toEqual([[true, null], [false, 'Pipe repair']]);
  expect(marked[0]).toBe(slots[0]);
  expect(slots[1]).toEqual({ startMs: 1000, endMs: 2000, bookable: true });
  expect(withClosedSlots(slots, other, [closure])).toBe(slots);
});
