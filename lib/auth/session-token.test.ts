import { getServerSession } from 'next-auth';
import { encode } from 'next-auth/jwt';
import { beforeAll, expect, it } from 'vitest';
import { countingDb, describeWithDb } from '@/tests/db';
import { createAuthOptions } from './options';
import { hashPassword } from './passwords';
import { latestEventId, latestEventRead } from '@/lib/events/store';
import { readSession, readSessionUser, sessionCookieName, sessionTokenOf } from './session-token';
import { createSignInThrottle } from './throttle';
import { bumpSessionVersion, createUser, findUserById } from './users';

const SECRET = 'session-token-test-secret-0123456789abcdef';

describeWithDb('reading the session cookie', (ctx) => {
  let userId = '';
  beforeAll(async () => {
    const user = await createUser(ctx().handle.db, { email: 'eve@example.com', name: 'Eve', role: 'manager', passwordHash: await hashPassword('a-long-password', 4) });
    userId = user.id;
  });

  const tokenFor = async (claims: Record<string, unknown>, maxAge?: number) =>
    encode({ secret: SECRET, maxAge, token: { uid: userId, email: 'eve@example.com', name: 'Eve', role: 'manager', ...claims } });
  const currentVersion = async () => (await findUserById(ctx().handle.db, userId))?.sessionVersion ?? -1;

  // next-auth's own session read: what the fast read must agree with.
  async function nextAuthUser(token: string) {
    const options = createAuthOptions({ authSecret: SECRET, database: () => Promise.resolve(ctx().handle.db), throttle: () => Promise.resolve(createSignInThrottle(ctx().handle.db)) });
    const req = { headers: {}, cookies: { [sessionCookieName(false)]: token } };
    const res = { getHeader: () => undefined, setHeader: () => undefined, setCookie: () => undefined };
    return (await getServerSession(req as never, res as never, options))?.user ?? null;
  }

  it("gives the account's current fields for a valid token, as next-auth's session read does", async () => {
    const token = await tokenFor({ sv: await currentVersion(), name: 'Old name in the token' });
    const user = await readSessionUser(ctx().handle.db, SECRET, token);
    expect(user).toEqual({ id: userId, email: 'eve@example.com', name: 'Eve', role: 'manager', locale: null, signedInUnder: null });
    expect(await nextAuthUser(token)).toMatchObject({ id: userId, name: 'Eve', role: 'manager' });
  });

  it('carries the language the session signed in under, from the sign-in request’s cookie or Accept-Language (issue 48)', async () => {
    const options = createAuthOptions({ authSecret: SECRET, database: () => Promise.resolve(ctx().handle.db), throttle: () => Promise.resolve(createSignInThrottle(ctx().handle.db)) });
    const provider = options.providers[0] as unknown as { options: { authorize: (c: Record<string, string>, req: { headers: Record<string, string> }) => Promise<{ signedInUnder?: string } | null> } };
    const signIn = (headers: Record<string, string>) => provider.options.authorize({ email: 'eve@example.com', password: 'a-long-password' }, { headers: { 'x-forwarded-for': '203.0.113.9', ...headers } });
    expect((await signIn({ 'accept-language': 'en-GB,en;q=0.9' }))?.signedInUnder).toBe('en');
    expect((await signIn({ 'accept-language': 'en', cookie: 'a=1; portal-locale=sv' }))?.signedInUnder).toBe('sv');
    expect((await signIn({}))?.signedInUnder).toBeUndefined();
    // The token's claim reaches the session user: the language an API answer falls back to.
    const token = await tokenFor({ sv: await currentVersion(), lng: 'en' });
    expect((await readSessionUser(ctx().handle.db, SECRET, token))?.signedInUnder).toBe('en');
  });

  it('refuses a token of another version, of another secret, a malformed one, and none', async () => {
    const db = ctx().handle.db;
    const stale = await tokenFor({ sv: (await currentVersion()) + 1 });
    expect(await readSessionUser(db, SECRET, stale)).toBeNull();
    expect(await nextAuthUser(stale)).toBeNull();
    const forged = await encode({ secret: 'another-secret-another-secret-0123456789', token: { uid: userId, sv: await currentVersion() } });
    expect(await readSessionUser(db, SECRET, forged)).toBeNull();
    expect(await readSessionUser(db, SECRET, 'not.a.token')).toBeNull();
    expect(await readSessionUser(db, SECRET, null)).toBeNull();
  });

  it('checks the account on every use: a token read once is refused after sign-out', async () => {
    const { db, queries } = await countingDb(ctx().handle);
    const token = await tokenFor({ sv: await currentVersion() });
    expect(await readSessionUser(db, SECRET, token)).not.toBeNull();
    const before = queries();
    expect(await readSessionUser(db, SECRET, token)).not.toBeNull();
    // The decrypted token is kept, the account is read again: one query per use.
    expect(queries() - before).toBe(1);
    await bumpSessionVersion(db, userId);
    expect(await readSessionUser(db, SECRET, token)).toBeNull();
  });

  it('refuses an expired token, with the same 15 s tolerance as next-auth, also when it was read before', async () => {
    const db = ctx().handle.db;
    const token = await tokenFor({ sv: await currentVersion() }, 60);
    const now = Date.now();
    expect(await readSessionUser(db, SECRET, token, now)).not.toBeNull();
    expect(await readSessionUser(db, SECRET, token, now + 70_000)).not.toBeNull();
    expect(await readSessionUser(db, SECRET, token, now + 80_000)).toBeNull();
    const expired = await tokenFor({ sv: await currentVersion() }, -60);
    expect(await readSessionUser(db, SECRET, expired)).toBeNull();
    expect(await nextAuthUser(expired)).toBeNull();
  });

  it("reads a page's other rows with the session in one statement, and gives none without a valid session", async () => {
    const { db, queries } = await countingDb(ctx().handle);
    const token = await tokenFor({ sv: await currentVersion() });
    const before = queries();
    const read = await readSession(db, SECRET, token, { newest: latestEventRead() });
    expect(queries() - before).toBe(1);
    expect(read.user?.id).toBe(userId);
    expect(read.also?.newest).toBe(await latestEventId(db));
    expect(await readSession(db, SECRET, await tokenFor({ sv: -1 }), { newest: latestEventRead() })).toEqual({ user: null, also: null });
  });

  it('refuses a deactivated account', async () => {
    const other = await createUser(ctx().handle.db, { email: 'mallory@example.com', name: 'Mallory', role: 'admin' });
    const sv = (await findUserById(ctx().handle.db, other.id))?.sessionVersion;
    const token = await encode({ secret: SECRET, token: { uid: other.id, sv } });
    expect(await readSessionUser(ctx().handle.db, SECRET, token)).toMatchObject({ id: other.id, role: 'admin' });
    await ctx().handle.sql.exec(`UPDATE users SET deactivated_at = now() WHERE id = '${other.id}'`);
    expect(await readSessionUser(ctx().handle.db, SECRET, token)).toBeNull();
  });
});

it('joins a chunked session cookie in the order of its suffixes, and picks the secure name over https', () => {
  const cookies = [
    { name: 'next-auth.session-token.1', value: 'b' },
    { name: 'other', value: 'x' },
    { name: 'next-auth.session-token.0', value: 'a' },
  ];
  expect(sessionTokenOf(cookies, false)).toBe('ab');
  expect(sessionTokenOf([{ name: 'next-auth.session-token', value: 'whole' }], false)).toBe('whole');
  expect(sessionTokenOf(cookies, true)).toBeNull();
  expect(sessionTokenOf([{ name: '__Secure-next-auth.session-token', value: 's' }], true)).toBe('s');
});
