import 'server-only';
import { performance } from 'node:perf_hooks';
import { singleton } from '@/lib/singleton';

/**
 * Asked as each statement starts: the function to call with its duration when it ends, or
 * undefined when nobody counts this one. lib/db knows nothing of requests; the wiring
 * (lib/wiring.ts) observes queries for the request's Server-Timing.
 */
export type QueryObserver = () => ((elapsedMs: number) => void) | undefined;

// On globalThis: the database handle is one per process, whichever bundle opened it.
const slot = singleton('db-query-observer', () => ({ observer: undefined as QueryObserver | undefined }));

export function observeQueries(observer: QueryObserver | undefined): void {
  slot.observer = observer;
}

/** Wraps a driver's query function so that each call is reported to the observer, if any. */
export function observedQueries<A extends unknown[], R>(fn: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return async (...args: A) => {
    const done = slot.observer?.();
    if (!done) return fn(...args);
    const started = performance.now();
    try {
      return await fn(...args);
    } finally {
      done(performance.now() - started);
    }
  };
}
