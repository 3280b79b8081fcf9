import 'server-only';
import { env } from '@/lib/env';
import { log } from '@/lib/log';
import { isSameOriginRequest, ownOrigins, refusedOrigin } from '@/lib/security/own-origin';
import { ApiError } from '@/lib/errors/api-error';
import { msg } from '@/lib/i18n/message';

/** Origins a state-changing request may come from: PORTAL_URL's and the address the browser used (decision 016). */
export function allowedOrigins(request: Request): string[] {
  return ownOrigins(request, { portalUrl: env.PORTAL_URL, trustedProxies: env.TRUSTED_PROXIES });
}

/** For state-changing route handlers: 403 for a cross-site request (Origin / Sec-Fetch-Site), naming the origin refused. */
export function assertSameOrigin(request: Request): void {
  if (!isSameOriginRequest(request.method, request.headers, allowedOrigins(request))) {
    const origin = refusedOrigin(request.headers);
    log.warn('cross-site request refused', { method: request.method, path: new URL(request.url).pathname, origin });
    throw new ApiError('forbidden', origin === null ? msg('errors.crossSiteNoOrigin') : msg('errors.crossSite', { origin }));
  }
}

/**
 * The address to put in a link the manager takes to another device (a display's): the one their
 * browser used to reach the portal, which is how the portal is reached on their network; PORTAL_URL
 * when the request names none.
 */
export function addressUsed(request: Request): string {
  return allowedOrigins(request).at(-1) ?? env.PORTAL_URL;
}
