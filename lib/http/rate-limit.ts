import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

/**
 * Counts one attempt against a limiter: null when allowed, else the whole seconds to wait (≥ 1).
 * Anything but a refusal (a store that is down) propagates, so the caller fails closed.
 */
export async function consume(limiter: RateLimiterAbstract, key: string): Promise<number | null> {
  try {
    await limiter.consume(key);
    return null;
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
    throw rejection;
  }
}

/** One attempt counted against every (limiter, key) at once: null when all allow it, else the longest wait. */
export async function consumeAll(...counts: ReadonlyArray<readonly [RateLimiterAbstract, string]>): Promise<number | null> {
  const waits = await Promise.all(counts.map(([limiter, key]) => consume(limiter, key)));
  return waits.every((wait) => wait === null) ? null : Math.max(...waits.map((wait) => wait ?? 0));
}
