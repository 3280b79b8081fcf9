import 'server-only';
import { performance } from 'node:perf_hooks';
import { currentRequestContext } from './request-context';

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

export function newTimings(): Timings {
  return { parts: new Map(), queries: 0, queryMs: 0 };
}

function current(): Timings | undefined {
  return currentRequestContext()?.timings;
}

/** Runs `fn`, adding its duration to the part `name` of the current request (when timed). */
export async function measure<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const timings = current();
  if (!timings) return fn();
  const started = performance.now();
  try {
    return await fn();
  } finally {
    timings.parts.set(name, (timings.parts.get(name) ?? 0) + performance.now() - started);
  }
}

/** Counts one database statement of the current request (when timed). */
export function noteQuery(ms: number): void {
  const timings = current();
  if (!timings) return;
  timings.queries += 1;
  timings.queryMs += ms;
}

/** Wraps a query function so that each call is counted for the request that made it. */
export function timedQueries<A extends unknown[], R>(fn: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return async (...args: A) => {
    if (!current()) return fn(...args);
    const started = performance.now();
    try {
      return await fn(...args);
    } finally {
      noteQuery(performance.now() - started);
    }
  };
}

const ms = (v: number) => Math.round(v * 100) / 100;

/** The header's value: `handler;dur=…`, each part, and `db;desc="N queries";dur=…`. */
export function serverTimingValue(timings: Timings, handlerMs: number): string {
  const entries = [`handler;dur=${ms(handlerMs)}`];
  for (const [name, dur] of timings.parts) entries.push(`${name};dur=${ms(dur)}`);
  entries.push(`db;desc="${timings.queries} queries";dur=${ms(timings.queryMs)}`);
  return entries.join(', ');
}
