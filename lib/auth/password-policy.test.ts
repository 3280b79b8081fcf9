import { expect, it } from 'vitest';
import { passwordWeakness } from './password-policy';

it('refuses short, common, repetitive and self-naming passwords, each with its reason', () => {
  expect(passwordWeakness('short-pw1')).toBe('must be at least 10 characters');
  expect(passwordWeakness('x'.repeat(73))).toMatch(/at most 72 bytes/);
  expect(passwordWeakness('Password123')).toMatch(/most common passwords/);
  expect(passwordWeakness('abababababab')).toMatch(/too few different characters/);
  expect(passwordWeakness('annasvensson1', { email: 'anna@example.se', name: 'Anna Svensson' })).toMatch(/too close to the account/);
  expect(passwordWeakness('anna-grön-kaffe-tvätt', { email: 'anna@example.se' })).toBeNull();
  expect(passwordWeakness('portal-demo')).toBeNull();
  expect(passwordWeakness('e2e-password-123')).toBeNull();
});
