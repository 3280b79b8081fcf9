import 'server-only';
import { randomUUID } from 'node:crypto';
import type { AuthOptions } from 'next-auth';
import AzureADProvider from 'next-auth/providers/azure-ad';
import CredentialsProvider from 'next-auth/providers/credentials';
import { getDb, type Database } from '@/lib/db';
import { env } from '@/lib/env';
import { log } from '@/lib/log';
import { getSecrets } from '@/lib/secrets';
import { clientIp, verifyCredentials } from './credentials';
import { roleSchema } from './schemas';
import { createSignInThrottle, type SignInThrottle } from './throttle';
import { bumpSessionVersion, findUserByEmail, findUserById } from './users';
import { sessionStillValid } from './session-token';
import { singletonPromise } from '@/lib/singleton';
import { requestedLocale } from '@/lib/i18n/negotiate';

declare module 'next-auth' {
  interface Session {
    user: { id: string; email: string; name: string; role: 'admin' | 'manager' };
  }
  interface User {
    role?: 'admin' | 'manager';
    sessionVersion?: number;
    /** The sign-in request's own language (requestedLocale), carried into the token as `lng`. */
    signedInUnder?: string;
  }
}
declare module 'next-auth/jwt' {
  interface JWT {
    uid?: string;
    role?: 'admin' | 'manager';
    /** Session version: must equal users.session_version, or the session is revoked. */
    sv?: number;
    /** Session id, given at sign-in: open event streams are capped per session (lib/events/open-streams.ts). */
    sid?: string;
    /** The account's saved language choice, read with the session check on every use. */
    locale?: string | null;
    /** The language the session signed in under (the sign-in request's cookie or Accept-Language): see resolveLocale. */
    lng?: string | null;
  }
}

/** Sessions last a working day; sign-out and password changes end them earlier (see `sv`). */
export const SESSION_MAX_AGE_S = 8 * 60 * 60;

/** The error text next-auth hands to the sign-in page when attempts are throttled. */
export const THROTTLED_ERROR = 'Throttled';

export const entraEnabled = (): boolean =>
  env.ENTRA_TENANT_ID !== undefined && env.ENTRA_CLIENT_ID !== undefined && env.ENTRA_CLIENT_SECRET !== undefined;

class SessionRevokedError extends Error {
  override name = 'SessionRevokedError';
}

function portalThrottle(): Promise<SignInThrottle> {
  return singletonPromise('sign-in-throttle', async () => createSignInThrottle((await getDb()).db));
}

export interface AuthDeps {
  authSecret: string;
  database: () => Promise<Database>;
  throttle: () => Promise<SignInThrottle>;
}

/**
 * The language a sign-in request names itself (its `portal-locale` cookie, else Accept-Language),
 * kept in the session so that a later request naming none is answered in it (issue 48).
 */
function signInLocale(headers: Record<string, unknown>): string | undefined {
  const header = (name: string) => {
    const value = headers[name];
    return typeof value === 'string' ? value : undefined;
  };
  const cookie = /(?:^|;\s*)portal-locale=([^;]*)/.exec(header('cookie') ?? '')?.[1]?.trim();
  return requestedLocale(cookie, header('accept-language'));
}

/** The configuration, given its dependencies (tests pass their own database). */
export function createAuthOptions({ authSecret, database, throttle }: AuthDeps): AuthOptions {
  const providers: AuthOptions['providers'] = [
    CredentialsProvider({
      id: 'credentials',
      name: 'E-mail and password',
      credentials: { email: { label: 'E-mail', type: 'email' }, password: { label: 'Password', type: 'password' } },
      async authorize(credentials, req) {
        const result = await verifyCredentials(await database(), await throttle(), credentials, clientIp(req.headers ?? {}));
        if (result.ok) return { ...result.user, signedInUnder: signInLocale(req.headers ?? {}) };
        if (result.reason === 'throttled') throw new Error(THROTTLED_ERROR);
        return null;
      },
    }),
  ];
  if (entraEnabled()) {
    providers.push(
      AzureADProvider({
        clientId: env.ENTRA_CLIENT_ID ?? '',
        clientSecret: env.ENTRA_CLIENT_SECRET ?? '',
        tenantId: env.ENTRA_TENANT_ID,
      }),
    );
  }

  return {
    secret: authSecret,
    providers,
    session: { strategy: 'jwt', maxAge: SESSION_MAX_AGE_S },
    useSecureCookies: env.PORTAL_URL.startsWith('https://'),
    pages: { signIn: '/sign-in', error: '/sign-in' },
    callbacks: {
      // Entra ID signs in only people an admin has already given an account (matched by e-mail).
      async signIn({ user, account }) {
        if (account?.provider === 'credentials') return true;
        const email = user.email?.trim().toLowerCase();
        if (!email) return false;
        const known = await findUserByEmail(await database(), email);
        if (!known) log.warn('single sign-on refused: no portal account', { provider: account?.provider });
        else if (known.deactivatedAt !== null) log.warn('single sign-on refused: account deactivated', { provider: account?.provider, userId: known.id });
        return known !== undefined && known.deactivatedAt === null;
      },
      async jwt({ token, user, account }) {
        const db = await database();
        if (user) {
          // Sign-in: record who and which session version this token belongs to.
          const record = account?.provider === 'credentials' ? await findUserById(db, user.id) : await findUserByEmail(db, user.email ?? '');
          if (!record || record.deactivatedAt !== null) throw new SessionRevokedError('account vanished or deactivated during sign-in');
          return { ...token, uid: record.id, sid: randomUUID(), email: record.email, name: record.name, role: record.role, sv: record.sessionVersion, locale: record.locale, lng: user.signedInUnder ?? null };
        }
        // Every later use: the account must still exist with the same session version.
        const current = token.uid ? await findUserById(db, token.uid) : undefined;
        if (!sessionStillValid(current, token)) throw new SessionRevokedError('session revoked');
        // A token from before session ids gets one when next-auth re-issues it.
        return { ...token, sid: token.sid ?? randomUUID(), email: current.email, name: current.name, role: current.role, locale: current.locale };
      },
      session({ session, token }) {
        const role = roleSchema.safeParse(token.role);
        return {
          ...session,
          user: { id: token.uid ?? '', email: token.email ?? '', name: token.name ?? '', role: role.success ? role.data : 'manager', locale: token.locale ?? null },
        };
      },
    },
    events: {
      // Signing out ends every session of the account, including copies of the cookie.
      async signOut({ token }) {
        if (token.uid) await bumpSessionVersion(await database(), token.uid);
      },
    },
    logger: {
      // next-auth's own messages can carry tokens in their metadata; keep only the code.
      error: (code) => log.info('auth', { code }),
      warn: (code) => log.debug('auth warning', { code }),
      debug: () => undefined,
    },
  };
}

/** next-auth's configuration; async because the secret may come from DATA_DIR. */
export function getAuthOptions(): Promise<AuthOptions> {
  return singletonPromise('auth-options', () =>
    getSecrets().then(({ authSecret }) => createAuthOptions({ authSecret, database: async () => (await getDb()).db, throttle: portalThrottle })),
  );
}
