import 'server-only';
import { getToken, type JWT } from 'next-auth/jwt';
import { cookies, headers } from 'next/headers';
import { forbidden, redirect } from 'next/navigation';
import { cache } from 'react';
import { ApiError } from '@/lib/errors/api-error';
import { msg } from '@/lib/i18n/message';
import { env } from '@/lib/env';
import { log } from '@/lib/log';
import { measure } from '@/lib/observability/server-timing';
import { getSecrets } from '@/lib/secrets';
import { getDb } from '@/lib/db';
import type { SessionUser } from '@/lib/auth/schemas';
import { latestEventRead } from '@/lib/events/store';
import { decodeSessionToken, readSession, sessionTokenOf } from '@/lib/auth/session-token';

/**
 * The signed-in user, checked against the database (revoked sessions give null). Once per page
 * render: the layout, generateMetadata and the page all ask (React's cache; a plain call elsewhere).
 */
export const getSession = cache(async (): Promise<SessionUser | null> => (await requestSession()).user);

/**
 * The newest portal event when the page was rendered (its live stream starts after it), read with
 * the session check: one statement for both. 0 without a session (the page then redirects).
 */
export async function pageLatestEventId(): Promise<number> {
  return (await requestSession()).also?.latestEventId ?? 0;
}

// Once per request render: the session and, beside it, what every page's layout needs.
const requestSession = cache(async () => {
  const [{ authSecret }, jar, { db }] = await Promise.all([getSecrets(), cookies(), getDb()]);
  return readSession(db, authSecret, sessionTokenOf(jar.getAll(), secureCookies()), { latestEventId: latestEventRead() });
});

/**
 * The current request's session token, decrypted and unexpired, not yet checked against the
 * account (see sessionStillValid): for reads that check the account together with other rows.
 */
export async function currentSessionToken(): Promise<JWT | null> {
  const [{ authSecret }, jar] = await Promise.all([getSecrets(), cookies()]);
  const value = sessionTokenOf(jar.getAll(), secureCookies());
  return value ? decodeSessionToken(value, authSecret) : null;
}

/** next-auth's secure cookie names (`__Secure-…`) when the portal is served over https. */
const secureCookies = () => env.PORTAL_URL.startsWith('https://');

/** For route handlers and server actions: 401 when nobody is signed in. */
export async function requireUser(): Promise<SessionUser> {
  const user = await measure('session', getSession);
  if (!user) throw new ApiError('unauthorized', msg('errors.signIn'));
  return user;
}

/**
 * The session version the current request's cookie carries (undefined without a readable session
 * cookie): an open event stream ends when the account's version moves past it.
 */
export async function requestSessionVersion(): Promise<number | undefined> {
  return (await requestSessionClaims()).sessionVersion;
}

/**
 * The session version and session id the current request's cookie carries (undefined without a
 * readable session cookie). The id is `sid`, given at sign-in; a token from before it existed
 * falls back to its `jti` (new with each re-issue, so such a session counts only toward the
 * per-user cap in effect).
 */
export async function requestSessionClaims(): Promise<{ sessionVersion: number | undefined; sessionId: string | undefined }> {
  const [{ authSecret }, jar, head] = await Promise.all([getSecrets(), cookies(), headers()]);
  const req = { cookies: jar, headers: head } as unknown as Parameters<typeof getToken>[0]['req'];
  const token = await getToken({ req, secret: authSecret, secureCookie: secureCookies() });
  const sessionId = typeof token?.sid === 'string' ? token.sid : typeof token?.jti === 'string' ? token.jti : undefined;
  return { sessionVersion: typeof token?.sv === 'number' ? token.sv : undefined, sessionId };
}

/** For route handlers and server actions: 403 unless an admin is signed in. */
export async function requireAdmin(): Promise<SessionUser> {
  const user = await requireUser();
  if (user.role !== 'admin') {
    log.warn('admin action refused', { userId: user.id });
    throw new ApiError('forbidden', msg('errors.adminOnly'));
  }
  return user;
}

/** For pages: anonymous visitors go to the sign-in page. */
export async function requirePageUser(returnTo?: string): Promise<SessionUser> {
  const user = await getSession();
  if (!user) redirect(returnTo ? `/sign-in?callbackUrl=${encodeURIComponent(returnTo)}` : '/sign-in');
  return user;
}

/** For admin pages: managers get a 404, as if the page did not exist. */
export async function requirePageAdmin(returnTo?: string): Promise<SessionUser> {
  const user = await requirePageUser(returnTo);
  if (user.role !== 'admin') {
    log.warn('admin page refused', { userId: user.id });
    // 403 with "for admins" (app/(portal)/admin/forbidden.tsx), not a 404 that says the page is missing (issue 48).
    forbidden();
  }
  return user;
}
