import 'server-only';
import { RateLimiterDrizzle } from 'rate-limiter-flexible';
import { consumeAll } from '@/lib/http/rate-limit';
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

  return {
    async attempt(email, ip) {
      return consumeAll([perAccount, email], [perIp, ip]);
    },
    async succeeded(email, ip) {
      await Promise.all([perAccount.delete(email), perIp.reward(ip, 1)]);
    },
  };
}
