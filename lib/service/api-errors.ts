import 'server-only';
import { ApiError, registerErrorTranslator } from '@/lib/api/errors';
import {
  ServiceAuthError,
  ServiceContractError,
  ServiceError,
  ServiceListTooLargeError,
  ServiceNotFoundError,
  ServiceRateLimitedError,
  ServiceUnavailableError,
  ServiceValidationError,
} from './errors';

/**
 * What a browser is told when a call to the reservation service fails. Nothing here echoes a
 * credential: auth failures are the portal's own configuration problem, answered as 502.
 */
export function translateServiceError(error: unknown): ApiError | undefined {
  if (!(error instanceof ServiceError)) return undefined;
  if (error instanceof ServiceUnavailableError) {
    const headers: Record<string, string> =
      error.retryAfterSeconds === undefined ? {} : { 'Retry-After': String(error.retryAfterSeconds) };
    return new ApiError(
      'service_unavailable',
      'The reservation service is unreachable right now. Please try again in a moment.',
      headers,
    );
  }
  if (error instanceof ServiceRateLimitedError) {
    const seconds = Math.max(1, Math.ceil(error.retryAfterSeconds));
    return new ApiError(
      'rate_limited',
      `The reservation service is busy. Please try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
      { 'Retry-After': String(seconds) },
    );
  }
  if (error instanceof ServiceValidationError) {
    const detail = error.problem.detail ?? error.problem.title ?? 'no reason given';
    return new ApiError('unprocessable_entity', `The reservation service refused the request: ${detail}`);
  }
  if (error instanceof ServiceNotFoundError) {
    return new ApiError('not_found', 'The reservation service does not know what was asked for.');
  }
  if (error instanceof ServiceAuthError) {
    const which =
      error.credential === 'apiKey' ? "this system's API key" : "the portal's service credentials";
    return new ApiError(
      'bad_gateway',
      `The reservation service refused ${which}. An administrator needs to check the connection settings.`,
    );
  }
  if (error instanceof ServiceContractError || error instanceof ServiceListTooLargeError) {
    return new ApiError('bad_gateway', 'The reservation service sent an answer the portal cannot use. Please try again later.');
  }
  return new ApiError('bad_gateway', 'The reservation service failed to answer properly. Please try again later.');
}

// Registered with the lib/api/errors instance this module sees, whenever the client is imported.
// (No global guard: bundlers may give route bundles their own instances of lib/api/errors.)
registerErrorTranslator(translateServiceError);
