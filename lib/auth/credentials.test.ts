import { beforeAll, expect, it } from 'vitest';
import { describeWithDb } from '@/tests/db';
import { ACCOUNT_ATTEMPTS, createSignInThrottle } from './throttle';
import { verifyCredentials } from './credentials';
import { hashPassword } from './passwords';
import { createUser } from './users';

describeWithDb('verifyCredentials', (ctx) => {
  const password = 'correct horse battery';
  beforeAll(async () => {
    await createUser(ctx().handle.db, { email: 'Ann@Example.com', name: 'Ann', role: 'manager', passwordHash: await hashPassword(password) });
  });

  it('signs in with the right password, whatever the e-mail case', async () => {
    const db = ctx().handle.db;
    const result = await verifyCredentials(db, createSignInThrottle(db), { email: ' ANN@example.com ', password }, '10.0.0.1');
    expect(result).toMatchObject({ ok: true, user: { email: 'ann@example.com', role: 'manager', sessionVersion: 1 } });
  });

  it('answers a wrong password and an unknown account the same, in about the same time', async () => {
    const db = ctx().handle.db;
    const throttle = createSignInThrottle(db);
    const time = async (email: string) => {
      const started = performance.now();
      const result = await verifyCredentials(db, throttle, { email, password: 'wrong password!' }, '10.0.0.2');
      return { result, ms: performance.now() - started };
    };
    await time('warm-up@example.com'); // the dummy hash is computed on first use
    // The fastest of three each, alternating: a busy machine slows single runs, not every one.
    const runs: { wrong: Awaited<ReturnType<typeof time>>; unknown: Awaited<ReturnType<typeof time>> }[] = [];
    for (let i = 0; i < 3; i += 1) runs.push({ wrong: await time('ann@example.com'), unknown: await time(`nobody-${i}@example.com`) });
    const wrong = { result: runs[0]!.wrong.result, ms: Math.min(...runs.map((r) => r.wrong.ms)) };
    const unknown = { result: runs[0]!.unknown.result, ms: Math.min(...runs.map((r) => r.unknown.ms)) };
    expect(wrong.result).toEqual({ ok: false, reason: 'invalid' });
    expect(unknown.result).toEqual(wrong.result);
    // Both did one bcrypt comparison at cost 12 (hundreds of ms); a skipped comparison would be ~1 ms.
    expect(unknown.ms).toBeGreaterThan(wrong.ms * 0.5);
    expect(unknown.ms).toBeLessThan(wrong.ms * 2);
  });

  it('throttles the sixth rapid failure for one account, even with the right password, and across instances', async () => {
    const db = ctx().handle.db;
    await createUser(db, { email: 'cy@example.com', name: 'Cy', role: 'manager', passwordHash: await hashPassword(password, 4) });
    for (let i = 0; i < ACCOUNT_ATTEMPTS; i += 1) {
      // A fresh limiter each time: the counts must come from the database, not process memory.
      const r = await verifyCredentials(db, createSignInThrottle(db), { email: 'cy@example.com', password: `wrong-${i}` }, `10.1.0.${i}`);
      expect(r).toEqual({ ok: false, reason: 'invalid' });
    }
    const sixth = await verifyCredentials(db, createSignInThrottle(db), { email: 'cy@example.com', password }, '10.1.0.99');
    expect(sixth).toMatchObject({ ok: false, reason: 'throttled' });
    if (!sixth.ok && sixth.reason === 'throttled') expect(sixth.retryAfterSeconds).toBeGreaterThan(0);
    const { rows } = await ctx().handle.sql.query<{ points: number }>("SELECT points FROM auth_rate_limits WHERE key = 'signin-account:cy@example.com'");
    expect(rows[0]?.points).toBe(ACCOUNT_ATTEMPTS + 1);
    // Unknown accounts are throttled alike, so throttling reveals nothing about existence.
    for (let i = 0; i < ACCOUNT_ATTEMPTS; i += 1) {
      await verifyCredentials(db, createSignInThrottle(db), { email: 'ghost@example.com', password: 'x' }, `10.2.0.${i}`);
    }
    expect(await verifyCredentials(db, createSignInThrottle(db), { email: 'ghost@example.com', password: 'x' }, '10.2.0.9')).toMatchObject({ reason: 'throttled' });
  });

  it('forgives an account its failures after a successful sign-in', async () => {
    const db = ctx().handle.db;
    await createUser(db, { email: 'bo@example.com', name: 'Bo', role: 'manager', passwordHash: await hashPassword(password, 4) });
    const throttle = createSignInThrottle(db);
    for (let i = 0; i < ACCOUNT_ATTEMPTS - 1; i += 1) await verifyCredentials(db, throttle, { email: 'bo@example.com', password: 'nope' }, '10.3.0.1');
    expect(await verifyCredentials(db, throttle, { email: 'bo@example.com', password }, '10.3.0.1')).toMatchObject({ ok: true });
    expect(await verifyCredentials(db, throttle, { email: 'bo@example.com', password: 'nope' }, '10.3.0.1')).toEqual({ ok: false, reason: 'invalid' });
    const { rows } = await ctx().handle.sql.query<{ n: number }>("SELECT count(*)::int AS n FROM auth_rate_limits WHERE key = 'signin-account:bo@example.com' AND points = 1");
    expect(rows[0]?.n).toBe(1);
  });

  it('treats malformed input as a wrong password, not an error', async () => {
    const db = ctx().handle.db;
    expect(await verifyCredentials(db, createSignInThrottle(db), { email: 42 }, '10.4.0.1')).toEqual({ ok: false, reason: 'invalid' });
    expect(await verifyCredentials(db, createSignInThrottle(db), undefined, '10.4.0.2')).toEqual({ ok: false, reason: 'invalid' });
  });
});
