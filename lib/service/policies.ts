import 'server-only';
import {
  type CircuitBreakerPolicy,
  ConsecutiveBreaker,
  DelegateBackoff,
  ExponentialBackoff,
  TimeoutStrategy,
  circuitBreaker,
  handleWhen,
  isBrokenCircuitError,
  TaskCancelledError,
  retry,
  timeout,
  type IBackoff,
  type IRetryBackoffContext,
  type RetryPolicy,
} from 'cockatiel';
import { log } from '@/lib/log';
import { isServiceError, ServiceUnavailableError } from './errors';
import { singleton } from '@/lib/singleton';
import { getMetrics } from '@/lib/observability/metrics';

/** Retries of reads: capped exponential backoff with decorrelated jitter, honouring Retry-After. */
export interface RetrySettings {
  /** Retries after the first attempt (0 disables retrying). */
  maxRetries: number;
  initialDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the error surfaces at once. */
  maxRetryAfterSeconds: number;
}

export interface BreakerSettings {
  /** Consecutive failures (network, timeout, 408, 5xx) that open the circuit. */
  consecutiveFailures: number;
  /** How long the circuit stays open before one probe call is let through. */
  halfOpenAfterMs: number;
  /** Where breakers live; the process-wide registry unless given (tests isolate with their own). */
  registry?: BreakerRegistry;
}

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_RETRY: RetrySettings = {
  maxRetries: 3,
  initialDelayMs: 200,
  maxDelayMs: 5_000,
  // A person is usually waiting on the answer: a longer Retry-After surfaces as a 429 at once.
  maxRetryAfterSeconds: 5,
};
export const DEFAULT_BREAKER: Required<Omit<BreakerSettings, 'registry'>> = {
  consecutiveFailures: 5,
  halfOpenAfterMs: 30_000,
};

/** The error is the service failing (not answering, 5xx), as opposed to refusing or a local fault. */
export function isServiceFault(error: unknown): boolean {
  return isServiceError(error) && error.kind === 'unavailable' && error.reason !== 'circuit-open';
}

/**
 * Kinds of call, each behind its own breaker: a failing lookup (or a lookup a caller made fail)
 * cannot stop bookings, and a failing list cannot stop lookups.
 */
export type CallLane = 'reads' | 'lookups' | 'writes' | 'token';

/** The values of the portal_upstream_circuit_state gauge. */
export const BREAKER_STATE = { closed: 0, halfOpen: 1, open: 2 } as const;

/** Circuit breakers per upstream and lane (`<base URL>#writes`), shared by every client of the process. */
export class BreakerRegistry {
  private readonly breakers = new Map<string, CircuitBreakerPolicy>();

  get(key: string, settings: Omit<BreakerSettings, 'registry'>): CircuitBreakerPolicy {
    let breaker = this.breakers.get(key);
    if (!breaker) {
      breaker = circuitBreaker(
        // Only faults of the service count (5xx, timeouts, network); 4xx and 429 say it is alive,
        // so no input a caller sends can open the circuit for everyone.
        handleWhen(isServiceFault),
        { halfOpenAfter: settings.halfOpenAfterMs, breaker: new ConsecutiveBreaker(settings.consecutiveFailures) },
      );
      const upstream = safeOrigin(key);
      const state = getMetrics().breakerState.labels({ upstream, lane: key.slice(key.lastIndexOf('#') + 1) });
      state.set(BREAKER_STATE.closed);
      breaker.onBreak(() => {
        state.set(BREAKER_STATE.open);
        log.warn('reservation service circuit opened', { upstream });
      });
      breaker.onHalfOpen(() => {
        state.set(BREAKER_STATE.halfOpen);
        log.info('reservation service circuit half-open: probing', { upstream });
      });
      breaker.onReset(() => {
        state.set(BREAKER_STATE.closed);
        log.info('reservation service circuit closed', { upstream });
      });
      this.breakers.set(key, breaker);
    }
    return breaker;
  }
}

/** The process-wide registry. */
export const defaultBreakerRegistry: BreakerRegistry = singleton('service-breakers', () => new BreakerRegistry());

function safeOrigin(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return '(invalid url)';
  }
}

/** Runs `fn` under the upstream's breaker; an open circuit becomes a ServiceUnavailableError. */
export async function underBreaker<T>(breaker: CircuitBreakerPolicy, operation: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await breaker.execute(fn);
  } catch (error) {
    if (isBrokenCircuitError(error)) {
      throw new ServiceUnavailableError('the service is failing; calls are paused for a moment (circuit open)', {
        operation,
        reason: 'circuit-open',
        retryable: false,
      });
    }
    throw error;
  }
}

/**
 * Runs `fn` with an AbortSignal that fires after `ms`, and gives up at that moment even if `fn`
 * ignores the signal (aggressive strategy). A timeout becomes a retryable ServiceUnavailableError.
 */
export async function withTimeout<T>(ms: number, operation: string, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
  try {
    return await timeout(ms, TimeoutStrategy.Aggressive).execute((_ctx, signal) => fn(signal));
  } catch (error) {
    // instanceof, not cockatiel's isTaskCancelledError: in 3.2.1 that helper tests the wrong marker.
    if (error instanceof TaskCancelledError) {
      // The request left: the service may have acted on it.
      throw new ServiceUnavailableError(`no answer within ${ms} ms`, { operation, reason: 'timeout', retryable: true, effect: 'unknown' });
    }
    throw error;
  }
}

/** Timers run on the event loop's cached clock and may fire a few ms early; Retry-After is a minimum. */
const TIMER_SLACK_MS = 5;

function retryAfterMs(error: unknown): number | undefined {
  if (!isServiceError(error)) return undefined;
  if (error.kind === 'rate-limited') return error.retryAfterSeconds * 1000;
  if (error.kind === 'unavailable' && error.retryAfterSeconds !== undefined) return error.retryAfterSeconds * 1000;
  return undefined;
}

/** The retry policy for reads: retryable ServiceErrors only, and never past a long Retry-After. */
export function readRetryPolicy(settings: RetrySettings): RetryPolicy {
  const exponential = new ExponentialBackoff({ initialDelay: settings.initialDelayMs, maxDelay: settings.maxDelayMs });
  const backoff = new DelegateBackoff<IRetryBackoffContext<unknown>, IBackoff<unknown> | undefined>((context, previous) => {
    const next = previous ? previous.next(context) : exponential.next();
    const error = 'error' in context.result ? context.result.error : undefined;
    // Retry-After is a floor (the service asked us not to come back sooner); the jittered backoff
    // goes on top so that callers told the same Retry-After do not all return at one instant.
    const floor = retryAfterMs(error);
    return { delay: (floor === undefined ? 0 : floor + TIMER_SLACK_MS) + next.duration, state: next };
  });
  const policy = retry(
    handleWhen(
      (e) =>
        isServiceError(e) &&
        e.retryable &&
        (retryAfterMs(e) ?? 0) <= settings.maxRetryAfterSeconds * 1000,
    ),
    { maxAttempts: settings.maxRetries, backoff },
  );
  policy.onRetry((event) => {
    const error = 'error' in event ? event.error : undefined;
    log.warn('retrying reservation service read', {
      operation: isServiceError(error) ? error.operation : undefined,
      attempt: event.attempt,
      delayMs: Math.round(event.delay),
      reason: isServiceError(error) ? error.kind : 'unknown',
      status: isServiceError(error) ? error.status : undefined,
    });
  });
  return policy;
}
