import { describe, expect, it } from 'vitest';
import { requestStatusLine, requestStatusText } from './request-status';

describe('requestStatusText', () => {
  it('says Booked for a booking and Cancelled for a cancellation, never "Done"', () => {
    expect(requestStatusLine({ kind: 'create', status: 'succeeded' })).toBe('Booked');
    expect(requestStatusLine({ kind: 'cancel', status: 'succeeded' })).toBe('Cancelled');
  });

  it('gives a failure its reason, or a sentence per kind when none is known', () => {
    expect(requestStatusLine({ kind: 'create', status: 'failed', reason: 'Apartment 1203 already has 2 future bookings in Laundry 1.' })).toBe(
      'Failed: Apartment 1203 already has 2 future bookings in Laundry 1.',
    );
    expect(requestStatusLine({ kind: 'cancel', status: 'failed', reason: null })).toBe('Failed: The booking was not cancelled.');
    expect(requestStatusText({ kind: 'create', status: 'failed' }).tone).toBe('danger');
  });

  it('tells a pending request from one whose outcome is unknown, and from one still being sent', () => {
    expect(requestStatusLine({ kind: 'create', status: 'pending' })).toBe('Pending');
    expect(requestStatusLine({ kind: 'cancel', status: 'pending', outcomeUnknown: true })).toBe('Outcome unknown — checking with the service');
    expect(requestStatusLine({ kind: 'create', status: 'sending' })).toBe('Sending');
  });
});
