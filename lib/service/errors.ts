import 'server-only';
import type { Problem } from './schemas';

/**
 * Errors of the reservation-service client. Messages name the operation (as a route template, never
 * the concrete URL, which may hold an e-mail address) and never contain a credential.
 *
 * Identity: callers test `isServiceError(e)` and switch on `e.kind`, never `instanceof`. A bundler
 * may load this module more than once (a client kept on globalThis by one server chunk throws the
 * classes of that chunk); the brand is `Symbol.for`, which is the same symbol in every copy.
 */
const SERVICE_ERROR = Symbol.for('laundry-portal.service-error');

/** Which operation failed, e.g. `GET /v1/reservations/{deviceId}/all`. */
export interface ServiceErrorContext {
  operation?: string;
  /** HTTP status from the upstream, when there was one. */
  status?: number;
}

/**
 * What the upstream may have done with the request. `none`: it was refused or never left the
 * portal (a definite "not done"). `unknown`: it left and may have been acted on (timeout, broken
 * connection, 5xx, an unreadable 2xx) — for a booking that is a pending outcome, never a failure.
 */
export type ServiceEffect = 'none' | 'unknown';

export type ServiceErrorKind = 'unavailable' | 'auth' | 'validation' | 'not-found' | 'rate-limited' | 'contract' | 'list-too-large';

abstract class ServiceErrorBase extends Error {
  readonly [SERVICE_ERROR] = true;
  abstract readonly kind: ServiceErrorKind;
  readonly operation: string | undefined;
  readonly status: number | undefined;
  /** Whether the same request may succeed if sent again later (the client retries reads on it). */
  readonly retryable: boolean = false;
  readonly effect: ServiceEffect;
  constructor(message: string, context: ServiceErrorContext & { effect?: ServiceEffect } = {}, options?: { cause?: unknown }) {
    super(context.operation ? `${context.operation}: ${message}` : message, options);
    this.operation = context.operation;
    this.status = context.status;
    this.effect = context.effect ?? 'none';
  }
}

export type UnavailableReason = 'network' | 'timeout' | 'status' | 'circuit-open';

/** The upstream could not be reached, timed out, answered 408/5xx, or its breaker is open. */
export class ServiceUnavailableError extends ServiceErrorBase {
  override name = 'ServiceUnavailableError';
  readonly kind = 'unavailable' as const;
  override readonly retryable: boolean;
  readonly reason: UnavailableReason;
  /** From a `Retry-After` header on a 503, if any. */
  readonly retryAfterSeconds: number | undefined;
  constructor(
    message: string,
    details: ServiceErrorContext & { reason: UnavailableReason; retryable: boolean; retryAfterSeconds?: number; effect?: ServiceEffect },
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

export class ServiceAuthError extends ServiceErrorBase {
  override name = 'ServiceAuthError';
  readonly kind = 'auth' as const;
  readonly credential: ServiceCredential;
  constructor(credential: ServiceCredential, message: string, context: ServiceErrorContext = {}) {
    super(message, context);
    this.credential = credential;
  }
}

/** The upstream refused the request as malformed (400 and other 4xx), with its problem detail. */
export class ServiceValidationError extends ServiceErrorBase {
  override name = 'ServiceValidationError';
  readonly kind = 'validation' as const;
  readonly problem: Problem;
  constructor(problem: Problem, context: ServiceErrorContext = {}) {
    super(`the service refused the request: ${problem.detail ?? problem.title ?? 'no detail given'}`, context);
    this.problem = problem;
  }
}

export class ServiceNotFoundError extends ServiceErrorBase {
  override name = 'ServiceNotFoundError';
  readonly kind = 'not-found' as const;
  readonly problem: Problem;
  constructor(problem: Problem, context: ServiceErrorContext = {}) {
    super(`not found: ${problem.detail ?? problem.title ?? 'the service does not know this address'}`, context);
    this.problem = problem;
  }
}

/** 429. `retryAfterSeconds` is the upstream's `Retry-After`, or 1 when it sent none. */
export class ServiceRateLimitedError extends ServiceErrorBase {
  override name = 'ServiceRateLimitedError';
  readonly kind = 'rate-limited' as const;
  override readonly retryable: boolean;
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number, context: ServiceErrorContext & { retryable?: boolean } = {}) {
    super(`rate limited by the service; retry after ${retryAfterSeconds} s`, context);
    this.retryAfterSeconds = retryAfterSeconds;
    this.retryable = context.retryable ?? true;
  }
}

/**
 * A response the portal cannot read: not JSON, or missing what the portal relies on. For a 2xx
 * answer to a write, the upstream acted (`effect: 'unknown'`).
 */
export class ServiceContractError extends ServiceErrorBase {
  override name = 'ServiceContractError';
  readonly kind = 'contract' as const;
  /** Dotted path of the first offending field (`reservations.3.startTime`), `''` for the whole body. */
  readonly path: string;
  readonly issues: { path: string; message: string }[];
  constructor(issues: { path: string; message: string }[], context: ServiceErrorContext & { effect?: ServiceEffect } = {}) {
    const first = issues[0] ?? { path: '', message: 'invalid response' };
    const summary = issues
      .slice(0, 3)
      .map((i) => `${i.path || '(body)'}: ${i.message}`)
      .join('; ');
    super(`the service sent a response the portal cannot read: ${summary}${issues.length > 3 ? '; …' : ''}`, context);
    this.path = first.path;
    this.issues = issues;
  }
}

/** `toArray({ limit })` found more items than the caller accepts; no truncated list is returned. */
export class ServiceListTooLargeError extends ServiceErrorBase {
  override name = 'ServiceListTooLargeError';
  readonly kind = 'list-too-large' as const;
  readonly limit: number;
  constructor(limit: number, context: ServiceErrorContext = {}) {
    super(`the list has more than ${limit} items`, context);
    this.limit = limit;
  }
}

/** Every error the service client throws, discriminated by `kind`. */
export type ServiceError =
  | ServiceUnavailableError
  | ServiceAuthError
  | ServiceValidationError
  | ServiceNotFoundError
  | ServiceRateLimitedError
  | ServiceContractError
  | ServiceListTooLargeError;

/** True for an error of the service client, from whichever copy of this module threw it. */
export function isServiceError(error: unknown): error is ServiceError {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[SERVICE_ERROR] === true;
}

/** Narrows to one kind: `isServiceErrorOf(e, 'unavailable')`. */
export function isServiceErrorOf<K extends ServiceErrorKind>(error: unknown, kind: K): error is Extract<ServiceError, { kind: K }> {
  return isServiceError(error) && error.kind === kind;
}

/**
 * The service does not have this endpoint (404, 405): how a service built from the interface
 * document alone answers the reads that only service-notes name (users/fetch, a user's reservations).
 */
export function isMissingEndpoint(error: unknown): boolean {
  return isServiceError(error) && (error.kind === 'not-found' || (error.kind === 'validation' && error.status === 405));
}

/** Copies an error with another effect (the client knows whether a write had left the portal). */
export function withEffect<E extends ServiceError>(error: E, effect: ServiceEffect): E {
  if (error.effect === effect) return error;
  Object.defineProperty(error, 'effect', { value: effect, enumerable: true });
  return error;
}
