import { createHash, randomBytes } from 'node:crypto';

/**
 * next-auth v4's double-submit CSRF token, made the way its own /api/auth/csrf makes it (cookie
 * `token|sha256(token + secret)`, the token itself in the form), so that the sign-in page can carry
 * it in a plain POST form that works before hydration and without JavaScript.
 */
/** Request header that carries the sign-in form's token from proxy.ts to app/sign-in/page.tsx. */
export const CSRF_HEADER = 'x-portal-csrf-token';

export function csrfCookieName(secure: boolean): string {
  return `${secure ? '__Host-' : ''}next-auth.csrf-token`;
}

const hash = (token: string, secret: string) => createHash('sha256').update(`${token}${secret}`).digest('hex');

/** The token of a cookie value next-auth will accept, or null (absent, or signed with another secret). */
export function csrfTokenFromCookie(value: string | undefined, secret: string): string | null {
  if (!value) return null;
  const [token, tokenHash] = value.split('|');
  return token && tokenHash && tokenHash === hash(token, secret) ? token : null;
}

/** A fresh token and the cookie value that goes with it. */
export function newCsrfToken(secret: string): { token: string; cookieValue: string } {
  const token = randomBytes(32).toString('hex');
  return { token, cookieValue: `${token}|${hash(token, secret)}` };
}
