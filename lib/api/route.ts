import 'server-only';
import { env } from '@/lib/env';
import { log } from '@/lib/log';
import { handleApiError } from '@/lib/errors/api-error';
import { LOCALE_COOKIE, type Locale } from '@/lib/i18n/config';
import { resolveLocale } from '@/lib/i18n/negotiate';
import { getMetrics } from '@/lib/observability/metrics';
import { routeOfPath } from '@/lib/observability/route-table';
import { REQUEST_ID_HEADER, requestIdFrom, runWithRequestContext } from '@/lib/observability/request-context';
import { newTimings, serverTimingValue } from '@/lib/observability/server-timing';
import { withApiHeaders } from './headers';
import { getSession } from './session';

/**
 * The caller's language for an error answer of a route handler: the signed-in user's saved
 * choice, else the `portal-locale` cookie, else Accept-Language, else the language the session
 * signed in under, else PORTAL_DEFAULT_LOCALE (the order of lib/api/request-locale.ts). Read from the Request itself, so it also works called
 * in-process without Next's request scope; the saved choice only when the session can be had
 * (never an error of its own).
 */
export async function localeOfRequest(request: Request): Promise<Locale> {
  let user: Awaited<ReturnType<typeof getSession>> = null;
  try {
    user = await getSession();
  } catch {
    user = null;
  }
  return resolveLocale({
    saved: user?.locale,
    cookie: cookieValue(request.headers.get('cookie'), LOCALE_COOKIE),
    acceptLanguage: request.headers.get('accept-language'),
    signedInUnder: user?.signedInUnder,
    fallback: env.PORTAL_DEFAULT_LOCALE,
  });
}

function cookieValue(header: string | null, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.slice(0, 8192).split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

type Handler<C> = (request: Request, context: C) => Promise<Response> | Response;

export interface WithErrorsOptions {
  /** The `route` label of the request metrics, when the path does not tell it (the catch-all 404). */
  route?: string;
  /** Headers every answer of the route carries, errors included (a feed's 404 is not indexed either). */
  headers?: Readonly<Record<string, string>>;
}

/**
 * Wraps a route handler so that every error goes through handleApiError, every log line written
 * meanwhile carries the request id (echoed as `x-request-id`), and the request is timed.
 */
export function withErrors<C>(handler: Handler<C>, options: WithErrorsOptions = {}): Handler<C> {
  return async (request, context) => {
    const startedAt = performance.now();
    const requestId = requestIdFrom(request.headers);
    const timings = env.SERVER_TIMING ? newTimings() : undefined;
    let response = await runWithRequestContext({ requestId, timings }, async () => {
      try {
        return await handler(request, context);
      } catch (error) {
        return await handleApiError(error, () => localeOfRequest(request));
      }
    });
    if (options.headers) response = withHeaders(response, options.headers);
    response = withRequestId(withApiHeaders(response), requestId);
    if (timings) response.headers.set('Server-Timing', serverTimingValue(timings, performance.now() - startedAt));
    observeRequest(request, response.status, options.route, startedAt);
    return response;
  };
}

function withHeaders(response: Response, headers: Readonly<Record<string, string>>): Response {
  let out = response;
  try {
    for (const [name, value] of Object.entries(headers)) out.headers.set(name, value);
  } catch {
    out = new Response(response.body, response);
    for (const [name, value] of Object.entries(headers)) out.headers.set(name, value);
  }
  return out;
}

function withRequestId(response: Response, requestId: string): Response {
  if (response.headers.has(REQUEST_ID_HEADER)) return response;
  try {
    response.headers.set(REQUEST_ID_HEADER, requestId);
    return response;
  } catch {
    // Headers of a fetched or redirect response are immutable: answer with a copy.
    const copy = new Response(response.body, response);
    copy.headers.set(REQUEST_ID_HEADER, requestId);
    return copy;
  }
}

function observeRequest(request: Request, status: number, route: string | undefined, startedAt: number): void {
  try {
    getMetrics()
      .httpDuration.labels({ route: route ?? routeOfPath(new URL(request.url).pathname), method: methodLabel(request.method), status: String(status) })
      .observe((performance.now() - startedAt) / 1000);
  } catch (error) {
    log.warn('could not record request metrics', { error });
  }
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** The method as a label: the standard ones, anything else one value (a client chooses the text). */
function methodLabel(method: string): string {
  return METHODS.has(method) ? method : 'OTHER';
}
