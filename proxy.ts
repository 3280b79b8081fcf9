import { NextResponse, type NextRequest } from 'next/server';
import { CSRF_HEADER, csrfCookieName, csrfTokenFromCookie, newCsrfToken } from '@/lib/auth/csrf';
import { env } from '@/lib/env';
import { getSecrets } from '@/lib/secrets';
import { localeFromAcceptLanguage } from '@/lib/i18n/negotiate';
import { msg } from '@/lib/i18n/message';
import { renderMessage } from '@/lib/i18n/server';
import { createNonce, securityHeaders } from '@/lib/security/headers';
import { isSameOriginRequest, ownOrigins, refusedOrigin } from '@/lib/security/own-origin';

/**
 * First gate for pages only: security headers with a nonce for each page, cross-site refusal of
 * state-changing requests (server actions), and anonymous visitors sent to sign-in. Every page
 * and server action still checks the session and system access itself. API routes are outside
 * the matcher (see `config`).
 */

// Pages reachable without a session.
// /feeds/: calendar feeds, read by calendar apps without a session (the token in the address is the key).
const PUBLIC_PAGES = ['/sign-in', '/feeds'];
const SESSION_COOKIES = ['next-auth.session-token', '__Secure-next-auth.session-token'];

// eslint-disable-next-line no-restricted-properties -- inlined by Next at build time; settings module is server-only
const production = process.env.NODE_ENV === 'production';

function isPublic(pathname: string): boolean {
  return pathname === '/' || PUBLIC_PAGES.some((p) => pathname === p || pathname.startsWith(`${p}/`));
}

function hasSessionCookie(request: NextRequest): boolean {
  // next-auth splits large tokens into name.0, name.1, …
  return request.cookies.getAll().some((c) => SESSION_COOKIES.some((name) => c.name === name || c.name.startsWith(`${name}.`)));
}

/** The refusal of a cross-site request, in the reader's language, naming the origin refused. */
async function crossSiteRefusal(request: NextRequest): Promise<string> {
  const origin = refusedOrigin(request.headers);
  const locale = localeFromAcceptLanguage(request.headers.get('accept-language')) ?? env.PORTAL_DEFAULT_LOCALE;
  return renderMessage(locale, origin === null ? msg('errors.crossSiteNoOrigin') : msg('errors.crossSite', { origin }));
}

/**
 * The sign-in page's CSRF token: the one of next-auth's cookie the browser holds, else a new one
 * whose cookie goes out with the page (a page cannot set cookies itself). With it the form posts
 * straight to next-auth's credentials callback, before hydration and without JavaScript too.
 */
async function signInCsrf(request: NextRequest): Promise<{ token: string; cookie?: { name: string; value: string; secure: boolean } }> {
  const { authSecret } = await getSecrets();
  const secure = env.PORTAL_URL.startsWith('https://');
  const name = csrfCookieName(secure);
  const current = csrfTokenFromCookie(request.cookies.get(name)?.value, authSecret);
  if (current) return { token: current };
  const fresh = newCsrfToken(authSecret);
  return { token: fresh.token, cookie: { name, value: fresh.cookieValue, secure } };
}

export async function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  const https = request.nextUrl.protocol === 'https:' || request.headers.get('x-forwarded-proto') === 'https';
  const nonce = createNonce();
  const headers = securityHeaders({ production, https, nonce });

  const finish = (response: NextResponse) => {
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
    return response;
  };

  const origins = ownOrigins(request, { portalUrl: env.PORTAL_URL, trustedProxies: env.TRUSTED_PROXIES });
  if (!isSameOriginRequest(request.method, request.headers, origins)) {
    return finish(new NextResponse(await crossSiteRefusal(request), { status: 403, headers: { 'Content-Type': 'text/plain; charset=utf-8' } }));
  }

  if (!isPublic(pathname) && !hasSessionCookie(request)) {
    const signIn = new URL('/sign-in', request.url);
    signIn.searchParams.set('callbackUrl', `${pathname}${request.nextUrl.search}`);
    return finish(NextResponse.redirect(signIn));
  }

  // Next reads the nonce from the request's CSP header and puts it on its own scripts.
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set('x-nonce', nonce);
  requestHeaders.set('Content-Security-Policy', headers['Content-Security-Policy'] ?? '');
  requestHeaders.delete(CSRF_HEADER);
  if (pathname === '/sign-in' && request.method === 'GET') {
    // Without a token (secrets unreadable) the hydrated form still signs in with fetch.
    const csrf = await signInCsrf(request).catch(() => null);
    if (csrf) requestHeaders.set(CSRF_HEADER, csrf.token);
    const response = NextResponse.next({ request: { headers: requestHeaders } });
    if (csrf?.cookie) {
      response.cookies.set(csrf.cookie.name, csrf.cookie.value, { httpOnly: true, sameSite: 'lax', path: '/', secure: csrf.cookie.secure });
    }
    return finish(response);
  }
  return finish(NextResponse.next({ request: { headers: requestHeaders } }));
}

// API routes and the sandbox mount are left out: running the proxy cost about 3.5 ms a request
// (measured against next start). Their handlers check session, access and origin themselves, and
// withErrors / withApiHeaders (lib/api/route.ts, lib/api/headers.ts) give them the security headers and no-store.
export const config = {
  // public/ files (icons, manifest, robots.txt) are served to anyone, without the page gate.
  // feeds/ is a route handler with its own headers (Referrer-Policy: no-referrer), set by withErrors;
  // so is display/ (a laundry-room display: its own CSP with a nonce, no-referrer, noindex).
  matcher: ['/((?!api/|feeds/|display/|sandbox/|sandbox$|_next/static|_next/image|favicon\\.ico$|robots\\.txt$|manifest\\.webmanifest$|icon-\\d+\\.png$).*)'],
};
