import { NextResponse, type NextRequest } from 'next/server';
import { createNonce, isSameOriginRequest, securityHeaders } from '@/lib/security/headers';

/**
 * First gate only: security headers on every response, a nonce for each page, cross-site
 * refusal of state-changing requests, and anonymous visitors sent to sign-in. Every page, route
 * handler and server action still checks the session and system access itself.
 */

// Reachable without a session.
const PUBLIC_PREFIXES = ['/sign-in', '/api/auth/', '/api/health', '/api/webhooks', '/sandbox/'];
const SESSION_COOKIES = ['next-auth.session-token', '__Secure-next-auth.session-token'];

// eslint-disable-next-line no-restricted-properties -- inlined by Next at build time; settings module is server-only
const production = process.env.NODE_ENV === 'production';

function isPublic(pathname: string): boolean {
  return pathname === '/' || pathname === '/sandbox' || PUBLIC_PREFIXES.some((p) => pathname === p.replace(/\/$/, '') || pathname.startsWith(p));
}

function hasSessionCookie(request: NextRequest): boolean {
  // next-auth splits large tokens into name.0, name.1, …
  return request.cookies.getAll().some((c) => SESSION_COOKIES.some((name) => c.name === name || c.name.startsWith(`${name}.`)));
}

/**
 * Our origin as the browser sees it. Behind a TLS-terminating load balancer the request reaches us
 * as http with the public Host (or X-Forwarded-Host); a cross-site page cannot set those headers
 * without a CORS preflight, so matching on them is safe for this check.
 */
function ownOrigins(request: NextRequest): string[] {
  const host = request.headers.get('x-forwarded-host') ?? request.headers.get('host');
  return host ? [request.nextUrl.origin, `https://${host}`, `http://${host}`] : [request.nextUrl.origin];
}

export function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  const isApi = pathname.startsWith('/api/') || pathname.startsWith('/sandbox');
  const https = request.nextUrl.protocol === 'https:' || request.headers.get('x-forwarded-proto') === 'https';
  const nonce = isApi ? undefined : createNonce();
  const headers = securityHeaders({ production, https, nonce });

  const finish = (response: NextResponse) => {
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
    // The event stream sets its own (no-cache, no-transform); a proxy must not buffer or cache it.
    if (isApi && pathname !== '/api/events') response.headers.set('Cache-Control', 'no-store');
    return response;
  };

  // The sandbox stands in for a remote service called server-to-server; it has no browser callers.
  if (!pathname.startsWith('/sandbox') && !isSameOriginRequest(request.method, request.headers, ownOrigins(request))) {
    return finish(NextResponse.json({ error: { code: 'forbidden', message: 'Cross-site requests are refused.' } }, { status: 403 }));
  }

  if (!isPublic(pathname) && !hasSessionCookie(request)) {
    if (isApi) {
      return finish(NextResponse.json({ error: { code: 'unauthorized', message: 'Sign in to continue.' } }, { status: 401 }));
    }
    const signIn = new URL('/sign-in', request.url);
    signIn.searchParams.set('callbackUrl', `${pathname}${request.nextUrl.search}`);
    return finish(NextResponse.redirect(signIn));
  }

  const requestHeaders = new Headers(request.headers);
  if (nonce !== undefined) {
    // Next reads the nonce from the request's CSP header and puts it on its own scripts.
    requestHeaders.set('x-nonce', nonce);
    requestHeaders.set('Content-Security-Policy', headers['Content-Security-Policy'] ?? '');
  }
  return finish(NextResponse.next({ request: { headers: requestHeaders } }));
}

export const config = {
  matcher: ['/((?!_next/static|_next/image|favicon.ico).*)'],
};
