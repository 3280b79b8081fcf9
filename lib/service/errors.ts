import 'server-only';
import type { Problem } from './schemas';

/**
 * Errors of the reservation-service client. Messages name the operation (as a route template, never
 * the concrete URL, which may hold an e-mail address) and never contain a credential.
 */

/** Which operation failed, e.g. `GET /v1/reservations/{deviceId}/all`. */
export interface ServiceErrorContext {
  operation?: string;
  /** HTTP status from the upstream, when there was one. */
  status?: number;
}

export class ServiceError extends Error {
  override name = 'ServiceError';
  readonly operation: string | undefined;
  readonly status: number | undefined;
  /** Whether the same request may succeed if sent again later (the client retries reads on it). */
  readonly retryable: boolean = false;
  constructor(message: string, context: ServiceErrorContext = {}, options?: { cause?: unknown }) {
    super(context.operation ? `${context.operation}: ${message}` : message, options);
    this.operation = context.operation;
    this.status = context.status;
  }
}

export type UnavailableReason = 'network' | 'timeout' | 'status' | 'circuit-open';

/** The upstream could not be reached, timed out, answered 408/5xx, or its breaker is open. */
export class ServiceUnavailableError extends ServiceError {
  override name = 'ServiceUnavailableError';
  override readonly retryable: boolean;
  readonly reason: UnavailableReason;
  /** From a `Retry-After` header on a 503, if any. */
  readonly retryAfterSeconds: number | undefined;
  constructor(
    message: string,
    details: ServiceErrorContext & { reason: UnavailableReason; retryable: boolean; retryAfterSeconds?: number },
    options?: { cause?: unknown },
  ) {
    super(message, details, options);
    this.reason = details.reason;
    this.retryable = details.retryable;
    this.retryAfterSeconds = details.retryAfterSeconds;
  }
}

/**
 * A credential was refused. `clientCredentials`: the token endpoint refused the client id/secret;
 * `token`: the service refused the bearer token (after one forced refresh); `apiKey`: the service
 * refused the API key, or the key does not cover the system.
 */
export type ServiceCredential = 'clientCredentials' | 'token' | 'apiKey';

export class ServiceAuthError extends ServiceError {
  override name = 'ServiceAuthError';
  readonly credential: ServiceCredential;
  constructor(credential: ServiceCredential, message: string, context: ServiceErrorContext = {}) {
    super(message, context);
    this.credential = credential;
  }
}

/** The upstream refused the request as malformed (400 and other 4xx), with its problem detail. */
export class ServiceValidationError extends ServiceError {
  override name = 'ServiceValidationError';
  readonly problem: Problem;
  constructor(problem: Problem, context: ServiceErrorContext = {}) {
    super(`the service refused the request: ${problem.detail ?? problem.title ?? 'no detail given'}`, context);
    this.problem = problem;
  }
}

export class ServiceNotFoundError extends ServiceError {
  override name = 'ServiceNotFoundError';
  readonly problem: Problem;
  constructor(problem: Problem, context: ServiceErrorContext = {}) {
    super(`not found: ${problem.detail ?? problem.title ?? 'the service does not know this address'}`, context);
    this.problem = problem;
  }
}

/** 429. `retryAfterSeconds` is the upstream's `Retry-After`, or 1 when it sent none. */
export class ServiceRateLimitedError extends ServiceError {
  override name = 'ServiceRateLimitedError';
  override readonly retryable: boolean;
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number, context: ServiceErrorContext & { retryable?: boolean } = {}) {
    super(`rate limited by the service; retry after ${retryAfterSeconds} s`, context);
    this.retryAfterSeconds = retryAfterSeconds;
    this.retryable = context.retryable ?? true;
  }
}

/** A response did not match the upstream contract; nothing of it was passed on. */
export class ServiceContractError extends ServiceError {
  override name = 'ServiceContractError';
  /** Dotted path of the first offending field (`reservations.3.startTime`), `''` for the whole body. */
  readonly path: string;
  readonly issues: { path: string; message: string }[];
  constructor(issues: { path: string; message: string }[], context: ServiceErrorContext = {}) {
    const first = issues[0] ?? { path: '', message: 'invalid response' };
    const summary = issues
      .slice(0, 3)
      .map((i) => `${i.path || '(body)'}: ${i.message}`)
      .join('; ');
    super(`the service sent a response that breaks its contract: ${summary}${issues.length > 3 ? '; …' : ''}`, context);
    this.path = first.path;
    this.issues = issues;
  }
}

/** `toArray({ limit })` found more items than the caller accepts; no truncated list is returned. */
export class ServiceListTooLargeError extends ServiceError {
  override name = 'ServiceListTooLargeError';
  readonly limit: number;
  constructor(limit: number, context: ServiceErrorContext = {}) {
    super(`the list has more than ${limit} items`, context);
    this.limit = limit;
  }
}
