import 'server-only';
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { singleton } from '@/lib/singleton';

/**
 * Where an API request's time goes, for the `Server-Timing` response header (shown by browsers'
 * developer tools; read by `npm run bench`). Only when SERVER_TIMING is on (lib/env.ts): a request
 * then carries a Timings in its context, and each measured part adds to it. Parts nest (the
 * database time inside `session` is counted in both), so they explain a total, not sum to it.
 */
export interface Timings {
  /** Milliseconds per part, in the order first measured. */
  parts: Map<string, number>;
  queries: number;
  queryMs: number;
}

/** What is known about the request being handled, for every log line written meanwhile. */
export interface RequestContext {
  requestId: string;
  /** Where the time goes, when SERVER_TIMING is on (./server-timing.ts). */
  timings?: Timings;
}

// One store per process: a module loaded into several chunks must still see the same context.
const storage = singleton('request-context', () => new AsyncLocalStorage<RequestContext>());

/** The header a request id comes in on (from a proxy or the caller) and goes back out on. */
export const REQUEST_ID_HEADER = 'x-request-id';

const VALID_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The caller's request id when it is a sane one (≤ 128 of [A-Za-z0-9._:-]); else a new UUID. */
export function requestIdFrom(headers: Headers): string {
  const given = headers.get(REQUEST_ID_HEADER);
  return given !== null && VALID_REQUEST_ID.test(given) ? given : randomUUID();
}

/** Runs `fn` with `context` as the current request's. */
export function runWithRequestContext<T>(context: RequestContext, fn: () => T): T {
  return storage.run(context, fn);
}

/** The current request's context, or undefined outside a request (jobs, startup). */
export function currentRequestContext(): RequestContext | undefined {
  return storage.getStore();
}
