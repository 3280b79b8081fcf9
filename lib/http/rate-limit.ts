import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

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

/** A public read's limits: per token and address, and per address over all tokens. */
export interface TokenLimits {
  perToken: { points: number; duration: number };
  perAddress: { points: number; duration: number };
}

export interface TokenRateLimiter {
  /** Counts a read; resolves with the seconds to wait when it is over a limit, else null. */
  consume(tokenKey: string, address: string): Promise<number | null>;
}

/**
 * Limits for reads whose address holds a token (calendar feeds, displays): per token and client
 * address, and per address over all tokens (unknown ones included, which slows anyone trying
 * tokens). In this process's memory: the reads are public, a count lost on restart costs nothing,
 * and each instance of a scaled-out portal counts its own share.
 */
export function createTokenRateLimiter(prefix: string, limits: TokenLimits): TokenRateLimiter {
  const perToken = new RateLimiterMemory({ keyPrefix: `${prefix}-token`, ...limits.perToken });
  const perAddress = new RateLimiterMemory({ keyPrefix: `${prefix}-address`, ...limits.perAddress });
  return {
    async consume(tokenKey, address) {
      return consumeAll([perToken, `${tokenKey}|${address}`], [perAddress, address]);
    },
  };
}
