import 'server-only';
import { z } from 'zod';
import { readBodyCapped } from '@/shared/read-capped';
import { env } from '@/lib/env';
import { log } from '@/lib/log';
import { securityHeaders } from '@/lib/security/headers';
import { isServiceError, type ServiceError } from '@/lib/service/errors';
import { getMetrics, routeTemplate } from '@/lib/observability/metrics';
import { REQUEST_ID_HEADER, requestIdFrom, runWithRequestContext } from '@/lib/observability/request-context';

/** Every error a route handler may answer, with its HTTP status. */
export const ErrorCode = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unprocessable_entity: 422,
  rate_limited: 429,
  internal_server_error: 500,
  bad_gateway: 502,
  service_unavailable: 503,
  gateway_timeout: 504,
} as const;
export type ErrorCode = keyof typeof ErrorCode;

export interface ErrorBody {
  error: { code: ErrorCode; message: string; issues?: { path: string; message: string }[] };
}

const API_ERROR = Symbol.for('laundry-portal.api-error');

/**
 * An error whose message is safe to show to the caller. Recognised by `isApiError` (a
 * `Symbol.for` brand), never `instanceof`: a bundler may load this module more than once.
 */
export class ApiError extends Error {
  override name = 'ApiError';
  readonly [API_ERROR] = true;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export function isApiError(error: unknown): error is ApiError {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[API_ERROR] === true;
}

/** A zod validation error, from whichever copy of zod made it. */
export function isZodError(error: unknown): error is z.ZodError {
  return (
    error instanceof z.ZodError ||
    (error instanceof Error && error.name === 'ZodError' && Array.isArray((error as { issues?: unknown }).issues))
  );
}

/**
 * What a caller is told when a call to the reservation service fails. Nothing here echoes a
 * credential: auth failures are the portal's own configuration problem, answered as 502.
 */
export function translateServiceError(error: ServiceError): ApiError {
  switch (error.kind) {
    case 'unavailable': {
      const headers: Record<string, string> =
        error.retryAfterSeconds === undefined ? { 'Retry-After': '5' } : { 'Retry-After': String(error.retryAfterSeconds) };
      const message =
        error.reason === 'circuit-open'
          ? 'The reservation service is failing right now, so the portal is pausing its calls for a moment. Please try again shortly.'
          : error.reason === 'timeout'
            ? 'The reservation service did not answer in time. Please try again in a moment.'
            : error.reason === 'status'
              ? `The reservation service answered with an error (HTTP ${error.status ?? '5xx'}). Please try again in a moment.`
              : 'The reservation service is unreachable right now. Please try again in a moment.';
      return new ApiError('service_unavailable', message, headers);
    }
    case 'rate-limited': {
      const seconds = Math.max(1, Math.ceil(error.retryAfterSeconds));
      return new ApiError(
        'rate_limited',
        `The reservation service is busy. Please try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
        { 'Retry-After': String(seconds) },
      );
    }
    case 'validation': {
      const detail = error.problem.detail ?? error.problem.title ?? 'no reason given';
      return new ApiError('unprocessable_entity', `The reservation service refused the request: ${detail}`);
    }
    case 'not-found':
      return new ApiError('not_found', 'The reservation service does not know what was asked for.');
    case 'auth': {
      const which = error.credential === 'apiKey' ? "this system's API key" : "the portal's service credentials";
      return new ApiError('bad_gateway', `The reservation service refused ${which}. An administrator needs to check the connection settings.`);
    }
    case 'contract':
    case 'list-too-large':
      return new ApiError('bad_gateway', 'The reservation service answered, but with something the portal cannot read. Please try again later.');
  }
}

/** Any thrown value as an ApiError when its family is known (ours, the service's); else undefined. */
export function toApiError(error: unknown): ApiError | undefined {
  if (isApiError(error)) return error;
  if (isServiceError(error)) return translateServiceError(error);
  return undefined;
}

export function errorResponse(code: ErrorCode, message: string, extra: Partial<ErrorBody['error']> = {}, headers: Record<string, string> = {}): Response {
  const body: ErrorBody = { error: { code, message, ...extra } };
  return Response.json(body, {
    status: ErrorCode[code],
    headers: {
      'Cache-Control': 'no-store',
      // A body refused for its size was not read to its end: the connection cannot carry another
      // request, and a client that reused it would see a reset.
      ...(code === 'payload_too_large' ? { Connection: 'close' } : {}),
      ...headers,
    },
  });
}

/** The one place where thrown errors become HTTP answers. Unknown errors are logged, never echoed. */
export function handleApiError(error: unknown): Response {
  if (isZodError(error)) {
    const issues = error.issues.slice(0, MAX_ISSUES).map((i) => ({ path: clip(i.path.map(String).join('.')), message: clip(i.message) }));
    const more = error.issues.length - issues.length;
    const summary = issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ') + (more > 0 ? `; and ${more} more` : '');
    return errorResponse('unprocessable_entity', `Invalid input: ${summary}`, { issues });
  }
  const known = toApiError(error);
  if (known) {
    if (isServiceError(error)) log.warn('reservation service call failed', { kind: error.kind, operation: error.operation, status: error.status, detail: error.message });
    return errorResponse(known.code, known.message, {}, known.headers);
  }
  log.error('unhandled error in route handler', { error });
  return errorResponse('internal_server_error', 'Something went wrong on our side. Please try again.');
}

/** At most this many validation issues, each clipped, are listed (a body with 90k bad keys must not echo them all). */
const MAX_ISSUES = 20;
const clip = (text: string, max = 200) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

type Handler<C> = (request: Request, context: C) => Promise<Response> | Response;

export interface WithErrorsOptions {
  /** The `route` label of the request metrics, when the path does not tell it (the catch-all 404). */
  route?: string;
}

/**
 * Wraps a route handler so that every error goes through handleApiError, every log line written
 * meanwhile carries the request id (echoed as `x-request-id`), and the request is timed.
 */
export function withErrors<C>(handler: Handler<C>, options: WithErrorsOptions = {}): Handler<C> {
  return async (request, context) => {
    const startedAt = performance.now();
    const requestId = requestIdFrom(request.headers);
    let response = await runWithRequestContext({ requestId }, async () => {
      try {
        return await handler(request, context);
      } catch (error) {
        return handleApiError(error);
      }
    });
    response = withRequestId(withApiHeaders(response), requestId);
    observeRequest(request, response.status, options.route, startedAt);
    return response;
  };
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
      .httpDuration.labels({ route: route ?? routeTemplate(new URL(request.url).pathname), method: request.method, status: String(status) })
      .observe((performance.now() - startedAt) / 1000);
  } catch (error) {
    log.warn('could not record request metrics', { error });
  }
}

// API routes are outside proxy.ts's matcher (it cost about 3.5 ms a request, measured), so the
// headers it used to add to them are added here, for every answer, errors included.
const apiHeaders = Object.entries(securityHeaders({ production: env.NODE_ENV === 'production', https: false }));

/** The security headers of a non-HTML response, and `no-store` unless the handler chose a policy. */
export function withApiHeaders(response: Response): Response {
  let out = response;
  try {
    applyApiHeaders(out.headers);
  } catch {
    // Headers of a fetched response are immutable: answer with a copy.
    out = new Response(response.body, response);
    applyApiHeaders(out.headers);
  }
  return out;
}

function applyApiHeaders(headers: Headers): void {
  for (const [name, value] of apiHeaders) if (!headers.has(name)) headers.set(name, value);
  if (!headers.has('Cache-Control')) headers.set('Cache-Control', 'no-store');
}

export const MAX_JSON_BODY_BYTES = 1_048_576;

/** Reads a JSON body with a size cap and a clear error for each way it can be wrong. */
export async function readJson(request: Request, maxBytes = MAX_JSON_BODY_BYTES): Promise<unknown> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/(.+\+)?json\b/i.test(type)) {
    throw new ApiError('unsupported_media_type', 'The request body must be JSON (Content-Type: application/json).');
  }
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > maxBytes) throw new ApiError('payload_too_large', `The request body is larger than ${maxBytes} bytes.`);
  const text = await readTextCapped(request, maxBytes);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ApiError('bad_request', 'The request body is not valid JSON.');
  }
}

/** Reads a body as text, refusing it once it exceeds maxBytes (whatever Content-Length claimed). */
export async function readTextCapped(request: Request, maxBytes = MAX_JSON_BODY_BYTES): Promise<string> {
  const text = await readBodyCapped(request.body, maxBytes);
  if (text === null) throw new ApiError('payload_too_large', `The request body is larger than ${maxBytes} bytes.`);
  return text;
}
