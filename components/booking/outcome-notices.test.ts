import { describe, expect, it } from 'vitest';
import type { RequestView } from '@/lib/events/types';
import { noticeText, requestWhat } from './outcome-notices';

const TZ = 'Europe/Stockholm';
const request = (over: Partial<RequestView>): RequestView =>
  ({
    kind: 'create',
    status: 'pending',
    startTime: '2026-11-30T06:00:00.000Z',
    endTime: '2026-11-30T09:00:00.000Z',
    residentApartment: '1203',
    residentName: 'Anna Persson',
    resourceName: 'Tvättstuga 1',
    outcomeUnknown: false,
    reason: null,
    ...over,
  }) as RequestView;

describe('outcome notices', () => {
  it('names the room where a page shows several, the apartment where it shows several residents', () => {
    expect(requestWhat(request({}), TZ, { room: true })).toMatch(/^Booking .+07:00–10:00 in Tvättstuga 1$/);
    expect(requestWhat(request({}), TZ, { resident: true })).toMatch(/^Booking .+07:00–10:00 for apartment 1203$/);
    expect(requestWhat(request({ kind: 'cancel', residentApartment: null }), TZ, { resident: true })).toMatch(/^Cancelling .+ of Anna Persson$/);
    expect(requestWhat(request({ startTime: null }), TZ, {})).toBe('Booking a slot');
  });

  it('says how each state stands, and never calls an unknown outcome a failure', () => {
    expect(noticeText(request({ status: 'sending' }), TZ, {})).toMatch(/: sending…$/);
    expect(noticeText(request({ outcomeUnknown: true }), TZ, {})).toMatch(/waiting for the service's answer \(checking the service's bookings\)…$/);
    expect(noticeText(request({ status: 'succeeded' }), TZ, {})).toMatch(/: booked\.$/);
    expect(noticeText(request({ kind: 'cancel', status: 'succeeded' }), TZ, {})).toMatch(/: cancelled\.$/);
    expect(noticeText(request({ status: 'failed', reason: 'The slot is already booked.' }), TZ, {})).toMatch(/: not booked\. The slot is already booked\.$/);
  });
});
