import 'server-only';
import { performance } from 'node:perf_hooks';
import { currentRequestContext, type Timings } from './request-context';

export type { Timings };

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

/** What lib/db's query observer calls for each statement: a counter for the current request, when it is timed. */
export function requestQueryTimer(): ((elapsedMs: number) => void) | undefined {
  return current() ? noteQuery : undefined;
}

const ms = (v: number) => Math.round(v * 100) / 100;

/** The header's value: `handler;dur=…`, each part, and `db;desc="N queries";dur=…`. */
export function serverTimingValue(timings: Timings, handlerMs: number): string {
  const entries = [`handler;dur=${ms(handlerMs)}`];
  for (const [name, dur] of timings.parts) entries.push(`${name};dur=${ms(dur)}`);
  entries.push(`db;desc="${timings.queries} queries";dur=${ms(timings.queryMs)}`);
  return entries.join(', ');
}
