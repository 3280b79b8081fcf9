// Test helpers for lib/service: instrumentation around the real sandbox, never a stand-in for it.
import { expect } from 'vitest';
import type { Faults } from '@/sandbox';
import { createServiceClient, type FetchLike, type ServiceClientConfig } from '@/lib/service/client';
import { BreakerRegistry } from '@/lib/service/policies';

export interface Sent {
  method: string;
  path: string;
  /** The raw (still percent-encoded) path and query. */
  target: string;
  authorization: string | null;
  apiKey: string | null;
  at: number;
}

/** Wraps a fetch to record what was sent; the response is the real one, untouched. */
export function recording(inner: FetchLike) {
  const sent: Sent[] = [];
  const fetch: FetchLike = (request) => {
    const url = new URL(request.url);
    sent.push({
      method: request.method,
      path: url.pathname,
      target: url.pathname + url.search,
      authorization: request.headers.get('authorization'),
      apiKey: request.headers.get('x-api-key'),
      at: Date.now(),
    });
    return inner(request);
  };
  return {
    fetch,
    sent,
    tokenRequests: () => sent.filter((s) => s.path.endsWith('/oauth2/v2.0/token')).length,
    serviceRequests: (prefix = '/v1/') => sent.filter((s) => s.path.startsWith(prefix)),
    reset: () => sent.splice(0, sent.length),
  };
}

/** Test settings: short backoff and a breaker of its own, so tests do not influence each other. */
export const FAST_RETRY = { maxRetries: 3, initialDelayMs: 5, maxDelayMs: 20, maxRetryAfterSeconds: 5 };

export interface SandboxCredentials {
  tokenPath: string;
  clientId: string;
  clientSecret: string;
  scope: string;
}

export function clientFor(
  baseUrl: string,
  fixtures: SandboxCredentials,
  fetch: FetchLike,
  overrides: Partial<ServiceClientConfig> = {},
) {
  return createServiceClient({
    baseUrl,
    tokenUrl: `${baseUrl}${fixtures.tokenPath}`,
    clientId: fixtures.clientId,
    clientSecret: fixtures.clientSecret,
    scope: fixtures.scope,
    fetch,
    timeoutMs: 2_000,
    retry: FAST_RETRY,
    breaker: { registry: new BreakerRegistry(), consecutiveFailures: 50, halfOpenAfterMs: 1_000 },
    ...overrides,
  });
}

/** Sets the sandbox's faults through its HTTP control API. */
export async function putFaults(fetch: FetchLike, baseUrl: string, faults: Faults): Promise<void> {
  const response = await fetch(
    new Request(`${baseUrl}/_sandbox/faults`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(faults),
    }),
  );
  expect(response.status, await response.clone().text()).toBe(200);
}

export async function clearFaults(fetch: FetchLike, baseUrl: string): Promise<void> {
  const response = await fetch(new Request(`${baseUrl}/_sandbox/faults`, { method: 'DELETE' }));
  expect(response.status).toBe(204);
}

/** Everything an error exposes as text: message, stack, own fields and its causes. */
export function errorText(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 5; depth++) {
    if (current instanceof Error) {
      parts.push(current.message, current.stack ?? '', JSON.stringify(current), String(current));
      current = current.cause;
    } else {
      parts.push(JSON.stringify(current));
      break;
    }
  }
  return parts.join('\n');
}
