import 'server-only';
import type { Database } from '@/lib/db';
import { env } from '@/lib/env';
import { clientAddress, type TrustedProxies } from '@/lib/http/client-address';
import { log } from '@/lib/log';
import { verifyPassword } from './passwords';
import { signInSchema, type SessionUser } from './schemas';
import type { SignInThrottle } from './throttle';
import { findUserByEmail } from './users';

export type CredentialsResult =
  | { ok: true; user: SessionUser & { sessionVersion: number } }
  | { ok: false; reason: 'invalid' }
  | { ok: false; reason: 'throttled'; retryAfterSeconds: number };

/**
 * Checks an e-mail and password. An unknown account and a wrong password give the same answer
 * after the same work (one bcrypt comparison); throttling counts attempts per account and per IP
 * before any check, so that it also holds for accounts that do not exist.
 */
export async function verifyCredentials(
  db: Database,
  throttle: SignInThrottle,
  input: unknown,
  ip: string,
): Promise<CredentialsResult> {
  const parsed = signInSchema.safeParse(input);
  const email = parsed.success ? parsed.data.email : '';
  const password = parsed.success ? parsed.data.password : '';
  const wait = await throttle.attempt(`${email}`, ip);
  if (wait !== null) {
    // No part of the e-mail address: it is personal data (issue 37), and the address is enough to act on.
    log.warn('sign-in throttled', { ip });
    return { ok: false, reason: 'throttled', retryAfterSeconds: wait };
  }
  const user = email ? await findUserByEmail(db, email) : undefined;
  const valid = await verifyPassword(password, user?.passwordHash);
  // A deactivated account gets the same answer as a wrong password: no one learns its state.
  if (!user || !valid || user.deactivatedAt !== null) {
    log.info('sign-in refused', { ip });
    return { ok: false, reason: 'invalid' };
  }
  await throttle.succeeded(email, ip);
  log.info('signed in', { userId: user.id, ip });
  return { ok: true, user: { id: user.id, email: user.email, name: user.name, role: user.role, sessionVersion: user.sessionVersion } };
}

/** The client address for throttling: the socket's, or the proxies' word for it when TRUSTED_PROXIES says so. */
export function clientIp(headers: Headers | Record<string, string | string[] | undefined>, trusted: TrustedProxies = env.TRUSTED_PROXIES): string {
  const get = (name: string): string | undefined => {
    if (headers instanceof Headers) return headers.get(name) ?? undefined;
    const v = headers[name];
    return Array.isArray(v) ? v.join(', ') : v;
  };
  return clientAddress(get, trusted);
}
