import 'server-only';
import { env } from '@/lib/env';
import { log } from '@/lib/log';
import { isSameOriginRequest } from '@/lib/security/headers';
import { ApiError } from '@/lib/errors/api-error';
import { msg } from '@/lib/i18n/message';

/** Origins a state-changing request may come from: the public URL and the host it was sent to. */
export function allowedOrigins(request: Request): string[] {
  return [...new Set([new URL(env.PORTAL_URL).origin, new URL(request.url).origin])];
}

/** For state-changing route handlers: 403 for a cross-site request (Origin / Sec-Fetch-Site). */
export function assertSameOrigin(request: Request): void {
  if (!isSameOriginRequest(request.method, request.headers, allowedOrigins(request))) {
    log.warn('cross-site request refused', { method: request.method, path: new URL(request.url).pathname, origin: request.headers.get('origin') });
    throw new ApiError('forbidden', msg('errors.crossSite'));
  }
}
