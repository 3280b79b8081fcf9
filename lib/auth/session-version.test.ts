import { getServerSession } from 'next-auth';
import { encode } from 'next-auth/jwt';
import { beforeAll, expect, it } from 'vitest';
import { describeWithDb } from '@/tests/db';
import { createAuthOptions } from './options';
import { hashPassword } from './passwords';
import { createSignInThrottle } from './throttle';
import { createUser, findUserByEmail, setPassword } from './users';

const SECRET = 'test-secret-test-secret-test-secret-42';
const COOKIE = 'next-auth.session-token';

describeWithDb('session versions', (ctx) => {
  const options = () =>
    createAuthOptions({ authSecret: SECRET, database: () => Promise.resolve(ctx().handle.db), throttle: () => Promise.resolve(createSignInThrottle(ctx().handle.db)) });

  let userId = '';
  beforeAll(async () => {
    const user = await createUser(ctx().handle.db, { email: 'dee@example.com', name: 'Dee', role: 'admin', passwordHash: await hashPassword('a-long-password', 4) });
    userId = user.id;
  });

  // next-auth's own session read (the same path getSession() takes), on a request carrying the cookie.
  async function session(token: string): Promise<{ user?: { id: string; role: string } }> {
    const req = { headers: {}, cookies: { [COOKIE]: token } };
    const res = { getHeader: () => undefined, setHeader: () => undefined, setCookie: () => undefined };
    const result = await getServerSession(req as never, res as never, options());
    return result ?? {};
  }

  async function tokenFor(sv: number) {
    return encode({ secret: SECRET, token: { uid: userId, email: 'dee@example.com', name: 'Dee', role: 'admin', sv } });
  }

  it('accepts a token carrying the current version and refuses another version', async () => {
    expect((await session(await tokenFor(1))).user).toMatchObject({ id: userId, role: 'admin' });
    expect((await session(await tokenFor(2))).user).toBeUndefined();
  });

  it('refuses a cookie saved before sign-out once the user has signed out', async () => {
    const saved = await tokenFor((await findUserByEmail(ctx().handle.db, 'dee@example.com'))?.sessionVersion ?? 0);
    expect((await session(saved)).user).toBeDefined();

    // What next-auth's sign-out route calls with the decoded token (the e2e test goes through the route).
    const opts = options();
    await opts.events?.signOut?.({ token: { uid: userId, sv: 1 }, session: undefined as never });
    expect((await session(saved)).user).toBeUndefined();
  });

  it('refuses older cookies after a password change', async () => {
    const before = await tokenFor((await findUserByEmail(ctx().handle.db, 'dee@example.com'))?.sessionVersion ?? 0);
    expect((await session(before)).user).toBeDefined();
    await setPassword(ctx().handle.db, userId, 'another-long-password', await hashPassword('another-long-password', 4));
    expect((await session(before)).user).toBeUndefined();
  });
});
