import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

/**
 * Counts one attempt against a limiter: `wait` is null when allowed, else the whole seconds to
 * wait (≥ 1); `consumed` is the key's count in the window, this attempt included. Anything but a
 * refusal (a store that is down) propagates, so the caller fails closed.
 */
export async function consumeCounting(limiter: RateLimiterAbstract, key: string): Promise<{ wait: number | null; consumed: number }> {
  try {
    const res = await limiter.consume(key);
    return { wait: null, consumed: res.consumedPoints };
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return { wait: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)), consumed: rejection.consumedPoints };
    throw rejection;
  }
}

/** Counts one attempt against a limiter: null when allowed, else the whole seconds to wait (≥ 1). */
export async function consume(limiter: RateLimiterAbstract, key: string): Promise<number | null> {
  return (await consumeCounting(limiter, key)).wait;
}

/** One attempt counted against every (limiter, key) at once: null when all allow it, else the longest wait. */
export async function consumeAll(...counts: ReadonlyArray<readonly [RateLimiterAbstract, string]>): Promise<number | null> {
  const waits = await Promise.all(counts.map(([limiter, key]) => consume(limiter, key)));
  return waits.every((wait) => wait === null) ? null : Math.max(...waits.map((wait) => wait ?? 0));
}
