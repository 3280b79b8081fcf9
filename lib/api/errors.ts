import 'server-only';
import { z } from 'zod';
import { readBodyCapped } from '@/lib/http/read-capped';
import { env } from '@/lib/env';
import { log } from '@/lib/log';
import { securityHeaders } from '@/lib/security/headers';

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

/** An error whose message is safe to show to the caller. */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** Maps other error families (e.g. upstream service errors) to ApiErrors; registered by their modules. */
type ErrorTranslator = (error: unknown) => ApiError | undefined;
const translators: ErrorTranslator[] = [];
export function registerErrorTranslator(translator: ErrorTranslator): void {
  translators.push(translator);
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
  if (error instanceof z.ZodError) {
    const issues = error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
    const summary = issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');
    return errorResponse('unprocessable_entity', `Invalid input: ${summary}`, { issues });
  }
  if (error instanceof ApiError) return errorResponse(error.code, error.message, {}, error.headers);
  for (const translate of translators) {
    const translated = translate(error);
    if (translated) return errorResponse(translated.code, translated.message, {}, translated.headers);
  }
  log.error('unhandled error in route handler', { error });
  return errorResponse('internal_server_error', 'Something went wrong on our side. Please try again.');
}

type Handler<C> = (request: Request, context: C) => Promise<Response> | Response;

/** Wraps a route handler so that every error goes through handleApiError. */
export function withErrors<C>(handler: Handler<C>): Handler<C> {
  return async (request, context) => {
    let response: Response;
    try {
      response = await handler(request, context);
    } catch (error) {
      response = handleApiError(error);
    }
    return withApiHeaders(response);
  };
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
