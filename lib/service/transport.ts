import 'server-only';
import { type z } from 'zod';
import type { CircuitBreakerPolicy } from 'cockatiel';
import {
  isServiceErrorOf,
  ServiceContractError,
  ServiceNotFoundError,
  ServiceRateLimitedError,
  ServiceUnavailableError,
  ServiceValidationError,
  type ServiceErrorContext,
} from './errors';
import { ProblemSchema, type Problem } from './schemas';
import { underBreaker, withTimeout } from './policies';
import { readBodyCapped } from '@/shared/read-capped';
import { getMetrics, upstreamOutcomeOfStatus, type UpstreamOutcome } from '@/lib/observability/metrics';
import { tallyUpstreamRequest } from './request-tally';

/** Anything that answers a Request: the global fetch, or the sandbox's handler in-process. */
export type FetchLike = (request: Request) => Promise<Response>;

/** Upstream bodies are small (a page is at most 100 items); anything far larger is not our service. */
export const MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

export interface RawResponse {
  status: number;
  headers: Headers;
  text: string;
}

export interface ExchangeOptions {
  fetch: FetchLike;
  breaker: CircuitBreakerPolicy;
  timeoutMs: number;
  /** Route template for messages, e.g. `GET /v1/usergroups/{deviceId}/all`. */
  operation: string;
}

/**
 * One HTTP exchange under the upstream's breaker and the timeout (which covers reading the body).
 * Network errors, timeouts, 408 and 5xx throw ServiceUnavailableError (and count for the breaker);
 * every other status comes back as a RawResponse for the caller to interpret.
 */
export async function exchange(url: string, init: RequestInit, options: ExchangeOptions): Promise<RawResponse> {
  const startedAt = performance.now();
  let outcome: UpstreamOutcome = 'error';
  try {
    const raw = await exchangeOnce(url, init, options);
    outcome = upstreamOutcomeOfStatus(raw.status);
    return raw;
  } catch (error) {
    outcome = outcomeOfError(error);
    throw error;
  } finally {
    const labels = { operation: options.operation, outcome };
    const metrics = getMetrics();
    metrics.upstreamCalls.inc(labels);
    metrics.upstreamDuration.observe(labels, (performance.now() - startedAt) / 1000);
    // What a mirror refresh is charged with (lib/mirror/policy.ts): requests that left.
    if (outcome !== 'circuit_open') tallyUpstreamRequest();
  }
}

function outcomeOfError(error: unknown): UpstreamOutcome {
  if (isServiceErrorOf(error, 'unavailable')) {
    if (error.reason === 'circuit-open') return 'circuit_open';
    if (error.reason === 'timeout') return 'timeout';
    if (error.reason === 'network') return 'network';
    return 'server_error';
  }
  if (isServiceErrorOf(error, 'contract')) return 'unreadable';
  return 'error';
}

async function exchangeOnce(url: string, init: RequestInit, options: ExchangeOptions): Promise<RawResponse> {
  const { operation } = options;
  return underBreaker(options.breaker, operation, async () => {
    const raw = await withTimeout(options.timeoutMs, operation, async (signal) => {
      let response: Response;
      try {
        // A fresh Request per attempt: bodies are strings, so a retry can send the same one again.
        response = await options.fetch(new Request(url, { ...init, signal }));
      } catch (error) {
        if (signal.aborted) throw error; // the timeout speaks for itself
        throw new ServiceUnavailableError(
          'the service could not be reached',
          { operation, reason: 'network', retryable: true, effect: neverConnected(error) ? 'none' : 'unknown' },
          { cause: error },
        );
      }
      try {
        return { status: response.status, headers: response.headers, text: await readCapped(response, operation) };
      } catch (error) {
        if (signal.aborted || isServiceErrorOf(error, 'contract')) throw error;
        // The request was received (a status came back): whatever it asked for may have been done.
        throw new ServiceUnavailableError(
          'the connection broke while reading the answer',
          { operation, reason: 'network', retryable: true, effect: 'unknown' },
          { cause: error },
        );
      }
    });
    if (raw.status === 408 || raw.status >= 500) {
      throw new ServiceUnavailableError(`the service answered ${raw.status}`, {
        operation,
        status: raw.status,
        reason: 'status',
        // 501 Not Implemented and 505 HTTP Version Not Supported will not change on a retry.
        retryable: raw.status !== 501 && raw.status !== 505,
        retryAfterSeconds: parseRetryAfter(raw.headers.get('retry-after')),
        // 408: the server gave up waiting for the request, so it did nothing; a 5xx may come after acting.
        effect: raw.status === 408 ? 'none' : 'unknown',
      });
    }
    return raw;
  });
}

/** Connection-level failures that happen before a request can have reached the service. */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ERR_INVALID_URL']);

function neverConnected(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 4; depth += 1) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && NOT_CONNECTED.has(code)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

async function readCapped(response: Response, operation: string): Promise<string> {
  const text = await readBodyCapped(response.body, MAX_RESPONSE_BYTES);
  if (text === null) {
    throw new ServiceContractError([{ path: '', message: `response larger than ${MAX_RESPONSE_BYTES} bytes` }], { operation, status: response.status });
  }
  return text;
}

/** `Retry-After` as seconds (delta-seconds or an HTTP date); undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

/** Reads a problem+json body; whatever the upstream sent, the result is a Problem. */
export function readProblem(raw: RawResponse, scrub: (text: string) => string): Problem {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.text);
  } catch {
    parsed = undefined;
  }
  const result = ProblemSchema.safeParse(parsed);
  const problem: Problem = result.success ? result.data : {};
  return {
    ...problem,
    status: problem.status ?? raw.status,
    title: problem.title === undefined ? `HTTP ${raw.status}` : scrub(problem.title),
    ...(problem.detail === undefined ? {} : { detail: scrub(problem.detail) }),
  };
}

/** Parses and validates a success body; any mismatch is a ServiceContractError naming the field. */
export function parseBody<S extends z.ZodType>(
  raw: RawResponse,
  schema: S,
  context: ServiceErrorContext & { effect?: 'none' | 'unknown' },
): z.output<S> {
  let json: unknown;
  try {
    json = raw.text === '' ? undefined : JSON.parse(raw.text);
  } catch {
    throw new ServiceContractError([{ path: '', message: 'the body is not JSON' }], context);
  }
  const result = schema.safeParse(json);
  if (!result.success) {
    throw new ServiceContractError(
      result.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message })),
      context,
    );
  }
  return result.data;
}

/**
 * Turns a non-success status (other than 401/403, which the caller knows how to name) into its
 * typed error. 408 and 5xx never get here: `exchange` threw them already.
 */
export function statusError(raw: RawResponse, context: ServiceErrorContext, scrub: (text: string) => string): Error {
  if (raw.status === 429) {
    return new ServiceRateLimitedError(parseRetryAfter(raw.headers.get('retry-after')) ?? 1, context);
  }
  const problem = readProblem(raw, scrub);
  if (raw.status === 404) return new ServiceNotFoundError(problem, context);
  if (raw.status >= 400) return new ServiceValidationError(problem, context);
  // 1xx/3xx: fetch follows redirects, so these mean the upstream is not speaking our protocol.
  return new ServiceContractError([{ path: '', message: `unexpected status ${raw.status}` }], context);
}
