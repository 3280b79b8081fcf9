import 'server-only';
import { RateLimiterDrizzle, RateLimiterRes } from 'rate-limiter-flexible';
import type { Database } from '@/lib/db';
import { authRateLimits } from '@/lib/db/schema';

/** Sign-in attempts allowed per account in the window; the next one is refused. */
export const ACCOUNT_ATTEMPTS = 5;
export const ACCOUNT_WINDOW_S = 15 * 60;
/** Per client IP (several people behind one office NAT share it). */
export const IP_ATTEMPTS = 50;
export const IP_WINDOW_S = 15 * 60;

export interface SignInThrottle {
  /** Counts an attempt; resolves with seconds to wait when it is over a limit, else null. */
  attempt(email: string, ip: string): Promise<number | null>;
  /** After a successful sign-in: the account's failures are forgiven, the IP's attempt refunded. */
  succeeded(email: string, ip: string): Promise<void>;
}

/**
 * Counters live in the database (table auth_rate_limits) through rate-limiter-flexible's Drizzle
 * store, whose atomic upsert works on PGlite and PostgreSQL alike; so limits hold across restarts
 * and across every instance sharing one PostgreSQL.
 */
export function createSignInThrottle(db: Database): SignInThrottle {
  const common = { storeClient: db, schema: authRateLimits, clearExpiredByTimeout: false };
  const perAccount = new RateLimiterDrizzle({ ...common, keyPrefix: 'signin-account', points: ACCOUNT_ATTEMPTS, duration: ACCOUNT_WINDOW_S });
  const perIp = new RateLimiterDrizzle({ ...common, keyPrefix: 'signin-ip', points: IP_ATTEMPTS, duration: IP_WINDOW_S });

  const consume = async (limiter: RateLimiterDrizzle, key: string): Promise<number | null> => {
    try {
      await limiter.consume(key);
      return null;
    } catch (rejection) {
      // Over the limit; anything else (database down) fails closed by propagating.
      if (rejection instanceof RateLimiterRes) return Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
      throw rejection;
    }
  };

  return {
    async attempt(email, ip) {
      const [account, address] = await Promise.all([consume(perAccount, email), consume(perIp, ip)]);
      if (account === null && address === null) return null;
      return Math.max(account ?? 0, address ?? 0);
    },
    async succeeded(email, ip) {
      await Promise.all([perAccount.delete(email), perIp.reward(ip, 1)]);
    },
  };
}
