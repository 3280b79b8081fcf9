import { expect, it } from 'vitest';
import { expandRange } from './expand';
import { overlayReservations } from './overlay';
import { applyOpenRequests, type SlotRequest } from './pending';
import { laundry, reservation } from '@/tests/schedule-fixtures';

const from = Date.parse('2030-01-07T00:00:00Z');
const now = Date.parse('2030-01-01T00:00:00Z');
const slots = () =>
  overlayReservations(expandRange(laundry, from, from + 86_400_000, 'UTC'), [reservation('2030-01-07T09:00:00Z', '2030-01-07T12:00:00Z', { id: 'r-1' })], {
    now,
    horizonEnd: from + 30 * 86_400_000,
    ownerLabel: () => ({ kind: 'apartment', apartment: '7' }),
  });

const request = (over: Partial<SlotRequest>): SlotRequest => ({
  id: 'q-1', kind: 'create', status: 'pending', startTime: '2030-01-07T06:00:00.000Z', endTime: '2030-01-07T09:00:00.000Z', reservationId: null, label: { kind: 'apartment', apartment: '1203' }, ...over,
});

it('shows an open booking as pending, a succeeded one as booked, and ignores a failed one', () => {
  const base = slots();
  expect(base[0]?.state).toBe('free');
  const pending = applyOpenRequests(base, [request({})], now)[0];
  expect(pending).toMatchObject({ state: 'pending', bookable: false, ownerLabel: { kind: 'apartment', apartment: '1203' }, pending: { requestId: 'q-1', kind: 'create' } });
  expect(applyOpenRequests(base, [request({ status: 'succeeded' })], now)[0]).toMatchObject({ state: 'booked', ownerLabel: { kind: 'apartment', apartment: '1203' }, pending: null });
  expect(applyOpenRequests(base, [request({ status: 'failed' })], now)[0]).toEqual(base[0]);
  // Other slots are untouched.
  expect(applyOpenRequests(base, [request({})], now).slice(2)).toEqual(base.slice(2));
});

it('marks a booked slot while its cancellation is open, and frees it once cancelled', () => {
  const base = slots();
  expect(base[1]?.state).toBe('booked');
  const cancel = request({ kind: 'cancel', reservationId: 'r-1', startTime: '2030-01-07T09:00:00.000Z', endTime: '2030-01-07T12:00:00.000Z' });
  expect(applyOpenRequests(base, [cancel], now)[1]).toMatchObject({ state: 'booked', pending: { kind: 'cancel' } });
  expect(applyOpenRequests(base, [{ ...cancel, status: 'succeeded' }], now)[1]).toMatchObject({ state: 'free', bookable: true, reservation: null });
  // A booking request never overrides a slot that is already booked.
  expect(applyOpenRequests(base, [request({ startTime: '2030-01-07T09:00:00.000Z', endTime: '2030-01-07T12:00:00.000Z' })], now)[1]?.state).toBe('booked');
});
