import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { csrfCookieName, csrfTokenFromCookie, newCsrfToken } from './csrf';

describe('sign-in CSRF token', () => {
  it("is next-auth's own format: token|sha256(token + secret)", () => {
    const { token, cookieValue } = newCsrfToken('s3cret');
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(cookieValue).toBe(`${token}|${createHash('sha256').update(`${token}s3cret`).digest('hex')}`);
    expect(csrfTokenFromCookie(cookieValue, 's3cret')).toBe(token);
  });

  it('refuses a cookie signed with another secret, or none', () => {
    const { cookieValue } = newCsrfToken('one');
    expect(csrfTokenFromCookie(cookieValue, 'two')).toBeNull();
    expect(csrfTokenFromCookie(undefined, 'two')).toBeNull();
    expect(csrfTokenFromCookie('abc', 'two')).toBeNull();
  });

  it('uses the __Host- cookie over https, as next-auth does', () => {
    expect(csrfCookieName(true)).toBe('__Host-next-auth.csrf-token');
    expect(csrfCookieName(false)).toBe('next-auth.csrf-token');
  });
});
