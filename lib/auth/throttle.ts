import 'server-only';
import { RateLimiterDrizzle } from 'rate-limiter-flexible';
import { consumeCounting } from '@/lib/http/rate-limit';
import type { Database } from '@/lib/db';
import { authRateLimits } from '@/lib/db/schema';

/**
 * Sign-in limits after rate-limiter-flexible's login-protection pattern (decision 020). None of
 * them lets one client lock the owner of an account out from another address:
 * - per (account, address): 5 attempts in 15 minutes — a guesser at one account from one place;
 * - per address: 50 attempts in 15 minutes — a spray over many accounts from one place (several
 *   people behind one office NAT share an address, hence not lower);
 * - per account, a backstop of 100 attempts a day from anywhere: once over it, an address that
 *   has failed at this account today gets no more attempts, while an address that has not (the
 *   owner at home) still may try — each new address of a distributed guesser gets one guess a day;
 * - an address this account has signed in from (in the last KNOWN_S) is never refused by the
 *   backstop, only by its own pair and address limits: a spray from other addresses cannot aim at
 *   the owner's usual address even after the owner's own typo there (issue 47, decision 020).
 */
export const PAIR_ATTEMPTS = 5;
export const PAIR_WINDOW_S = 15 * 60;
export const IP_ATTEMPTS = 50;
export const IP_WINDOW_S = 15 * 60;
export const ACCOUNT_DAY_ATTEMPTS = 100;
export const DAY_S = 24 * 60 * 60;
/** How long an address stays known to an account after a successful sign-in from it (renewed by each). */
export const KNOWN_S = 90 * DAY_S;

export interface SignInThrottle {
  /** Counts an attempt; resolves with seconds to wait when it is over a limit, else null. */
  attempt(email: string, ip: string): Promise<number | null>;
  /**
   * After a successful sign-in: the pair's failures are forgiven, the address's and account's
   * attempt refunded, and the address remembered as one the account signs in from.
   */
  succeeded(email: string, ip: string): Promise<void>;
}

/**
 * Counters live in the database (table auth_rate_limits) through rate-limiter-flexible's Drizzle
 * store, whose atomic upsert works on PGlite and PostgreSQL alike; so limits hold across restarts
 * and across every instance sharing one PostgreSQL. Every attempt is counted before the password
 * is checked (concurrent guesses cannot slip past a count that only failures would raise) and
 * refunded when it succeeds.
 */
export function createSignInThrottle(db: Database): SignInThrottle {
  const common = { storeClient: db, schema: authRateLimits, clearExpiredByTimeout: false };
  const perPair = new RateLimiterDrizzle({ ...common, keyPrefix: 'signin-pair', points: PAIR_ATTEMPTS, duration: PAIR_WINDOW_S });
  const perIp = new RateLimiterDrizzle({ ...common, keyPrefix: 'signin-ip', points: IP_ATTEMPTS, duration: IP_WINDOW_S });
  const perAccountDay = new RateLimiterDrizzle({ ...common, keyPrefix: 'signin-account-day', points: ACCOUNT_DAY_ATTEMPTS, duration: DAY_S });
  // Only counts (never refuses by itself): whether this address already failed at this account today.
  const pairDay = new RateLimiterDrizzle({ ...common, keyPrefix: 'signin-pair-day', points: Number.MAX_SAFE_INTEGER, duration: DAY_S });
  // Only marks (never counts): the addresses this account has signed in from, as rate-limiter-flexible's
  // login pattern trusts a source that has succeeded before.
  const knownPair = new RateLimiterDrizzle({ ...common, keyPrefix: 'signin-known', points: Number.MAX_SAFE_INTEGER, duration: KNOWN_S });

  const pairKey = (email: string, ip: string) => JSON.stringify([email, ip]);

  return {
    async attempt(email, ip) {
      const [pair, address, account, day, known] = await Promise.all([
        consumeCounting(perPair, pairKey(email, ip)),
        consumeCounting(perIp, ip),
        consumeCounting(perAccountDay, email),
        consumeCounting(pairDay, pairKey(email, ip)),
        knownPair.get(pairKey(email, ip)),
      ]);
      // The backstop refuses only addresses that failed at this account before today's attempt and
      // that it has never signed in from.
      const backstop = account.wait !== null && day.consumed > 1 && known === null ? account.wait : null;
      const waits = [pair.wait, address.wait, backstop].filter((w): w is number => w !== null);
      return waits.length === 0 ? null : Math.max(...waits);
    },
    async succeeded(email, ip) {
      await Promise.all([
        perPair.delete(pairKey(email, ip)),
        pairDay.delete(pairKey(email, ip)),
        perIp.reward(ip, 1),
        perAccountDay.reward(email, 1),
        knownPair.set(pairKey(email, ip), 1, KNOWN_S),
      ]);
    },
  };
}
