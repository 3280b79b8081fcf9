import 'server-only';
import { decode } from 'next-auth/jwt';
import type { JWT } from 'next-auth/jwt';
import type { Database } from '@/lib/db';
import { roleSchema, type SessionUser } from './schemas';
import { readTogether, type JsonRead, type ReadResults } from '@/lib/db/read-together';
import { userRead, type UserRecord } from './users';

/** next-auth's session cookie (and the chunks `.0`, `.1`… it splits a long one into). */
export function sessionCookieName(secure: boolean): string {
  return secure ? '__Secure-next-auth.session-token' : 'next-auth.session-token';
}

/** The session token a request carries, its chunks joined in order as next-auth does; null without one. */
export function sessionTokenOf(cookies: Iterable<{ name: string; value: string }>, secure: boolean): string | null {
  const name = sessionCookieName(secure);
  const chunks: { suffix: number; value: string }[] = [];
  for (const cookie of cookies) {
    if (!cookie.name.startsWith(name)) continue;
    chunks.push({ suffix: Number.parseInt(cookie.name.split('.').pop() ?? '0', 10) || 0, value: cookie.value });
  }
  if (chunks.length === 0) return null;
  return chunks
    .sort((a, b) => a.suffix - b.suffix)
    .map((c) => c.value)
    .join('');
}

/**
 * Whether the account behind a token still holds the session: it exists, is active, and its
 * session version is the token's (sign-out and password changes move it on). The one rule both
 * next-auth's jwt callback and the fast read below apply.
 */
export function sessionStillValid(record: UserRecord | undefined, token: Pick<JWT, 'sv'>): record is UserRecord {
  return record !== undefined && record.deactivatedAt === null && record.sessionVersion === token.sv;
}

/** The signed-in user as the portal sees it: the token's account, with the account's current fields. */
export function sessionUserOf(record: UserRecord): SessionUser {
  const role = roleSchema.safeParse(record.role);
  return { id: record.id, email: record.email, name: record.name, role: role.success ? role.data : 'manager', locale: record.locale };
}

// Decrypting a JWE costs more than the database check; a token that decrypted once decrypts the
// same way again, so its payload is kept (by the whole cookie value) until the token expires.
const DECODED_MAX = 2_000;
const decodedBySecret = new Map<string, Map<string, { token: JWT; expMs: number }>>();

/** jose's tolerance in next-auth's decode: a token is accepted up to 15 s past its `exp`. */
const CLOCK_TOLERANCE_MS = 15_000;

/** The payload of a session cookie value that decrypts under `secret` and has not expired; else null. */
export async function decodeSessionToken(value: string, secret: string, nowMs = Date.now()): Promise<JWT | null> {
  let decoded = decodedBySecret.get(secret);
  if (!decoded) {
    decoded = new Map();
    decodedBySecret.set(secret, decoded);
  }
  const held = decoded.get(value);
  if (held) {
    if (nowMs <= held.expMs + CLOCK_TOLERANCE_MS) return held.token;
    decoded.delete(value);
    return null;
  }
  let token: JWT | null;
  try {
    token = await decode({ token: value, secret });
  } catch {
    return null;
  }
  if (!token || typeof token.exp !== 'number') return null;
  if (nowMs > token.exp * 1000 + CLOCK_TOLERANCE_MS) return null;
  // The oldest entry makes room (insertion order); an expired one is dropped when next asked for.
  if (decoded.size >= DECODED_MAX) decoded.delete(decoded.keys().next().value as string);
  decoded.set(value, { token, expMs: token.exp * 1000 });
  return token;
}

/**
 * Reads the session a cookie value carries, the way next-auth's session route does (decrypt,
 * expiry with its 15 s tolerance, then the account check on every use), without the rest of that
 * route: it re-encrypts a new token on every call only to set a cookie that a server component or
 * route handler drops anyway. Null for no, a forged, an expired or a revoked session.
 */
export async function readSessionUser(db: Database, secret: string, value: string | null, nowMs = Date.now()): Promise<SessionUser | null> {
  return (await readSession(db, secret, value, {}, nowMs)).user;
}

/**
 * readSessionUser with more reads in the same statement (a page's layout adds the newest event
 * id): they run before the account is known to be valid, so they must not depend on who it is,
 * and without a valid session their results are not given.
 */
export async function readSession<R extends Record<string, JsonRead<unknown>>>(
  db: Database,
  secret: string,
  value: string | null,
  reads: R,
  nowMs = Date.now(),
): Promise<{ user: SessionUser; also: ReadResults<R> } | { user: null; also: null }> {
  const token = value ? await decodeSessionToken(value, secret, nowMs) : null;
  if (!token?.uid) return { user: null, also: null };
  const { user: record, ...also } = await readTogether(db, { ...reads, user: userRead(token.uid) });
  if (!sessionStillValid(record as UserRecord | undefined, token)) return { user: null, also: null };
  return { user: { ...sessionUserOf(record as UserRecord), signedInUnder: token.lng ?? null }, also: also as ReadResults<R> };
}
