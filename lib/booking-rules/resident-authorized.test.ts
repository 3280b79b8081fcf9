import { expect, it } from 'vitest';
import { isResidentAuthorized, notAuthorized } from './resident-authorized';

it('a resident may book the resources listed for them, and unknown authorizations are left to the service', () => {
  expect(isResidentAuthorized(['r1', 'r2'], 'r2')).toBe(true);
  expect(isResidentAuthorized(['r1'], 'r2')).toBe(false);
  expect(isResidentAuthorized([], 'r2')).toBe(false);
  expect(isResidentAuthorized(null, 'r2')).toBe(true);
  expect(notAuthorized('Apartment 1203 (Eva)', 'Tvättstuga 1').message).toBe('Apartment 1203 (Eva) is not allowed to book Tvättstuga 1.');
});
