import { expect, it } from 'vitest';
import { isResidentAuthorized, notAuthorized } from './resident-authorized';
import { messageText } from '@/tests/message-text';

it('a resident may book the resources listed for them, and unknown authorizations are left to the service', () => {
  expect(isResidentAuthorized(['r1', 'r2'], 'r2')).toBe(true);
  expect(isResidentAuthorized(['r1'], 'r2')).toBe(false);
  expect(isResidentAuthorized([], 'r2')).toBe(false);
  expect(isResidentAuthorized(null, 'r2')).toBe(true);
  expect(messageText(notAuthorized({ apartment: '1203', name: 'Eva' }, 'Tvättstuga 1').message)).toBe('Apartment 1203 (Eva) is not allowed to book Tvättstuga 1.');
  expect(messageText(notAuthorized({ apartment: null, name: 'Eva' }, 'Tvättstuga 1').message)).toBe('Eva is not allowed to book Tvättstuga 1.');
  expect(messageText(notAuthorized({ apartment: '1203', name: 'Eva' }, 'Tvättstuga 1').message, 'sv')).toBe('Lägenhet 1203 (Eva) får inte boka Tvättstuga 1.');
});
