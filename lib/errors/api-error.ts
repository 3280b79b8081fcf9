import 'server-only';
import { z } from 'zod';
import { env } from '@/lib/env';
import { log } from '@/lib/log';
import { isServiceError, type ServiceError } from '@/lib/service/errors';
import type { Locale } from '@/lib/i18n/config';
import { msg, type Message, type MessageValues } from '@/lib/i18n/message';
import { renderMessage } from './render';
import { clip, localizeZodError } from './validation';

// The one error map: what a route handler, server action or job may throw (ApiError, the
// service's errors, zod's), and the answer each becomes. The route wrapper that applies it to
// every handler is lib/api/route.ts; reading a request's body is lib/api/body.ts.

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

/** Whether a stored or received string is one of the codes above. */
export function isErrorCode(value: string): value is ErrorCode {
  return Object.hasOwn(ErrorCode, value);
}

export interface ErrorBody {
  error: {
    code: ErrorCode;
    /** Which error, stably: the message's key without its namespace ("quotaExceeded", "noSuchSystem"). */
    reason: string;
    /** The sentence, in the caller's language. */
    message: string;
    issues?: { path: string; message: string }[];
  };
}

/** Values of a sentence that depend on the reader's language (a slot's day and time). */
export type LocalizedValues = (locale: Locale) => MessageValues;

const API_ERROR = Symbol.for('laundry-portal.api-error');

/**
 * An error whose sentence is safe to show to the caller: a Message, rendered in the caller's
 * language when it is answered (`renderApiError`). Recognised by `isApiError` (a `Symbol.for`
 * brand), never `instanceof`: a bundler may load this module more than once. Its `message` (for
 * logs) is the key; its `reason` the key without the namespace.
 */
export class ApiError extends Error {
  override name = 'ApiError';
  readonly [API_ERROR] = true;
  readonly reason: string;
  constructor(
    readonly code: ErrorCode,
    readonly text: Message,
    readonly headers: Record<string, string> = {},
    /** Values made per language when answered; they override `text.values` of the same name. */
    readonly localValues?: LocalizedValues,
  ) {
    super(text.key);
    this.reason = reasonOfKey(text.key);
  }
}

/** "errors.noSuchSystem" → "noSuchSystem". */
export function reasonOfKey(key: string): string {
  return key.slice(key.lastIndexOf('.') + 1);
}

export function isApiError(error: unknown): error is ApiError {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[API_ERROR] === true;
}

/** An ApiError's sentence in a language. */
export async function renderApiError(error: ApiError, locale: Locale): Promise<string> {
  const values = error.localValues ? { ...error.text.values, ...error.localValues(locale) } : error.text.values;
  return renderMessage(locale, values === undefined ? error.text : { key: error.text.key, values });
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
          ? msg('errors.serviceCircuitOpen')
          : error.reason === 'timeout'
            ? msg('errors.serviceTimeout')
            : error.reason === 'status'
              ? msg('errors.serviceStatus', { status: error.status ?? '5xx' })
              : msg('errors.serviceUnreachable');
      return new ApiError('service_unavailable', message, headers);
    }
    case 'rate-limited': {
      const seconds = Math.max(1, Math.ceil(error.retryAfterSeconds));
      return new ApiError('rate_limited', msg('errors.serviceBusy', { seconds }), { 'Retry-After': String(seconds) });
    }
    case 'validation': {
      // The service's own words (English, from its problem document), clipped: it says why.
      const detail = error.problem.detail ?? error.problem.title;
      return new ApiError(
        'unprocessable_entity',
        detail ? msg('errors.serviceRefused', { detail: clip(detail, 300) }) : msg('errors.serviceRefusedNoReason'),
      );
    }
    case 'not-found':
      return new ApiError('not_found', msg('errors.serviceNotFound'));
    case 'auth':
      return new ApiError('bad_gateway', msg(error.credential === 'apiKey' ? 'errors.serviceRefusedApiKey' : 'errors.serviceRefusedCredentials'));
    case 'contract':
    case 'list-too-large':
      return new ApiError('bad_gateway', msg('errors.serviceUnreadable'));
  }
}

/** Any thrown value as an ApiError when its family is known (ours, the service's); else undefined. */
export function toApiError(error: unknown): ApiError | undefined {
  if (isApiError(error)) return error;
  if (isServiceError(error)) return translateServiceError(error);
  return undefined;
}

/** An error answer with the sentence already made (the webhook's English answers to the service, a stored first answer). */
export function errorResponse(
  code: ErrorCode,
  message: string,
  extra: Partial<Omit<ErrorBody['error'], 'code' | 'message'>> = {},
  headers: Record<string, string> = {},
): Response {
  const body: ErrorBody = { error: { code, reason: extra.reason ?? code, message, ...extra } };
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

/** At most this many validation issues, each clipped, are listed (a body with 90k bad keys must not echo them all). */
const MAX_ISSUES = 20;

/** Where the caller's language comes from: a locale, or a way to find it (asked only when an error is answered). */
export type LocaleSource = Locale | (() => Promise<Locale>);

/**
 * The one place where thrown errors become HTTP answers, in the caller's language (the portal's
 * default when none is given). Unknown errors are logged, never echoed.
 */
export async function handleApiError(error: unknown, locale: LocaleSource = env.PORTAL_DEFAULT_LOCALE): Promise<Response> {
  const lang = typeof locale === 'function' ? await locale().catch(() => env.PORTAL_DEFAULT_LOCALE) : locale;
  if (isZodError(error)) {
    const { summary, issues } = await localizeZodError(error, lang, MAX_ISSUES);
    return errorResponse('unprocessable_entity', summary, { reason: 'invalidInput', issues });
  }
  const known = toApiError(error);
  if (known) {
    if (isServiceError(error)) log.warn('reservation service call failed', { kind: error.kind, operation: error.operation, status: error.status, detail: error.message });
    return errorResponse(known.code, await renderApiError(known, lang), { reason: known.reason }, known.headers);
  }
  log.error('unhandled error in route handler', { error });
  return errorResponse('internal_server_error', await renderMessage(lang, msg('errors.internal')), { reason: 'internal' });
}
