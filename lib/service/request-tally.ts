import 'server-only';
import { AsyncLocalStorage } from 'node:async_hooks';
import { singleton } from '@/lib/singleton';

/** Upstream HTTP requests made within one piece of work (a mirror refresh), counted as they leave. */
export interface RequestTally {
  requests: number;
}

// One store per process, shared by every bundled copy of this module (see lib/singleton.ts): the
// refresh that counts and the transport that sends may sit in different server chunks.
const storage = () => singleton('upstream-request-tally', () => new AsyncLocalStorage<RequestTally>());

/** Runs `work` counting, into `tally`, every upstream request it makes (retries and token requests included). */
export function withRequestTally<T>(tally: RequestTally, work: () => Promise<T>): Promise<T> {
  return storage().run(tally, work);
}

/** Called by the transport for each request that left (not for one an open breaker kept back). */
export function tallyUpstreamRequest(): void {
  const tally = storage().getStore();
  if (tally) tally.requests += 1;
}
