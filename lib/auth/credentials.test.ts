import { beforeAll, expect, it } from 'vitest';
import { captureLog } from '@/lib/log';
import { describeWithDb } from '@/tests/db';
import { ACCOUNT_DAY_ATTEMPTS, IP_ATTEMPTS, PAIR_ATTEMPTS, createSignInThrottle } from './throttle';
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

  it('throttles the sixth rapid failure for one account from one address, even with the right password, across instances', async () => {
    const db = ctx().handle.db;
    await createUser(db, { email: 'cy@example.com', name: 'Cy', role: 'manager', passwordHash: await hashPassword(password, 4) });
    for (let i = 0; i < PAIR_ATTEMPTS; i += 1) {
      // A fresh limiter each time: the counts must come from the database, not process memory.
      const r = await verifyCredentials(db, createSignInThrottle(db), { email: 'cy@example.com', password: `wrong-${i}` }, '10.1.0.1');
      expect(r).toEqual({ ok: false, reason: 'invalid' });
    }
    const lines: string[] = [];
    const restore = captureLog({ write: (line: string) => void lines.push(line) });
    const sixth = await verifyCredentials(db, createSignInThrottle(db), { email: 'cy@example.com', password }, '10.1.0.1').finally(restore);
    expect(sixth).toMatchObject({ ok: false, reason: 'throttled' });
    // The throttle is logged by address, with no part of the account's e-mail address (issue 37).
    expect(lines.join('')).toContain('sign-in throttled');
    expect(lines.join('')).not.toMatch(/"cy|cy@/);
    if (!sixth.ok && sixth.reason === 'throttled') expect(sixth.retryAfterSeconds).toBeGreaterThan(0);
    // Unknown accounts are throttled alike, so throttling reveals nothing about existence.
    for (let i = 0; i < PAIR_ATTEMPTS; i += 1) {
      await verifyCredentials(db, createSignInThrottle(db), { email: 'ghost@example.com', password: 'x' }, '10.2.0.1');
    }
    expect(await verifyCredentials(db, createSignInThrottle(db), { email: 'ghost@example.com', password: 'x' }, '10.2.0.1')).toMatchObject({ reason: 'throttled' });
  });

  it('victim case: five wrong passwords from one address do not lock the owner out from another (issue 33)', async () => {
    const db = ctx().handle.db;
    await createUser(db, { email: 'vic@example.com', name: 'Vic', role: 'admin', passwordHash: await hashPassword(password, 4) });
    for (let i = 0; i < PAIR_ATTEMPTS + 3; i += 1) {
      await verifyCredentials(db, createSignInThrottle(db), { email: 'vic@example.com', password: `wrong-${i}` }, '10.5.0.1');
    }
    expect(await verifyCredentials(db, createSignInThrottle(db), { email: 'vic@example.com', password }, '10.5.0.1')).toMatchObject({ reason: 'throttled' });
    expect(await verifyCredentials(db, createSignInThrottle(db), { email: 'vic@example.com', password }, '10.5.0.2')).toMatchObject({ ok: true });
  });

  it('backstop: past 100 attempts a day an address that failed is refused, a new address with the right password is not', async () => {
    const db = ctx().handle.db;
    await createUser(db, { email: 'dee@example.com', name: 'Dee', role: 'manager', passwordHash: await hashPassword(password, 4) });
    // A distributed guesser: two guesses from each of many addresses (under every per-address limit).
    const throttle = createSignInThrottle(db);
    for (let i = 0; i < ACCOUNT_DAY_ATTEMPTS / 2; i += 1) {
      for (let j = 0; j < 2; j += 1) await throttle.attempt('dee@example.com', `10.6.${i}.1`);
    }
    // One more guess from an address that already failed: refused by the backstop.
    expect(await throttle.attempt('dee@example.com', '10.6.0.1')).toBeGreaterThan(0);
    // The owner from an address that never failed at the account still signs in.
    expect(await verifyCredentials(db, throttle, { email: 'dee@example.com', password }, '10.7.0.1')).toMatchObject({ ok: true });
  });

  it('spray after a typo (issue 47): one typo by the owner at their usual address, 110 wrong tries from 22 other addresses, and the owner still signs in there', async () => {
    const db = ctx().handle.db;
    await createUser(db, { email: 'ola@example.com', name: 'Ola', role: 'admin', passwordHash: await hashPassword(password, 4) });
    const home = '10.9.0.1';
    // The owner's usual address: signed in from before.
    expect(await verifyCredentials(db, createSignInThrottle(db), { email: 'ola@example.com', password }, home)).toMatchObject({ ok: true });
    expect(await verifyCredentials(db, createSignInThrottle(db), { email: 'ola@example.com', password: 'a typo, once' }, home)).toEqual({ ok: false, reason: 'invalid' });
    // The spray: 5 wrong passwords (the pair limit) from each of 22 addresses, past the day's backstop.
    const sprayers = Array.from({ length: 22 }, (_, i) => `10.9.1.${i + 1}`);
    expect(sprayers.length * PAIR_ATTEMPTS).toBeGreaterThan(ACCOUNT_DAY_ATTEMPTS);
    for (const address of sprayers) {
      for (let i = 0; i < PAIR_ATTEMPTS; i += 1) await verifyCredentials(db, createSignInThrottle(db), { email: 'ola@example.com', password: `guess-${i}` }, address);
    }
    // The owner's right password at the usual address: signed in, not "Throttled".
    expect(await verifyCredentials(db, createSignInThrottle(db), { email: 'ola@example.com', password }, home)).toMatchObject({ ok: true });
    // The backstop still holds for the sprayers (even with the right password) and still lets a fresh address try.
    expect(await verifyCredentials(db, createSignInThrottle(db), { email: 'ola@example.com', password }, sprayers[0]!)).toMatchObject({ reason: 'throttled' });
    expect(await verifyCredentials(db, createSignInThrottle(db), { email: 'ola@example.com', password }, '10.9.2.1')).toMatchObject({ ok: true });
    // The usual address still has its own pair limit: no unlimited guessing from there.
    for (let i = 0; i < PAIR_ATTEMPTS; i += 1) await verifyCredentials(db, createSignInThrottle(db), { email: 'ola@example.com', password: `again-${i}` }, home);
    expect(await verifyCredentials(db, createSignInThrottle(db), { email: 'ola@example.com', password }, home)).toMatchObject({ reason: 'throttled' });
  });

  it('spray case: many accounts from one address are throttled after the per-address limit', async () => {
    const db = ctx().handle.db;
    const throttle = createSignInThrottle(db);
    const waits: (number | null)[] = [];
    for (let i = 0; i < IP_ATTEMPTS + 5; i += 1) waits.push(await throttle.attempt(`spray-${i}@example.com`, '10.8.0.1'));
    expect(waits.slice(0, IP_ATTEMPTS).every((w) => w === null)).toBe(true);
    expect(waits.slice(IP_ATTEMPTS).every((w) => w !== null && w > 0)).toBe(true);
    // Another address is not affected.
    expect(await throttle.attempt('spray-0@example.com', '10.8.0.2')).toBeNull();
  });

  it('forgives an account its failures after a successful sign-in', async () => {
    const db = ctx().handle.db;
    await createUser(db, { email: 'bo@example.com', name: 'Bo', role: 'manager', passwordHash: await hashPassword(password, 4) });
    const throttle = createSignInThrottle(db);
    for (let i = 0; i < PAIR_ATTEMPTS - 1; i += 1) await verifyCredentials(db, throttle, { email: 'bo@example.com', password: 'nope' }, '10.3.0.1');
    expect(await verifyCredentials(db, throttle, { email: 'bo@example.com', password }, '10.3.0.1')).toMatchObject({ ok: true });
    expect(await verifyCredentials(db, throttle, { email: 'bo@example.com', password: 'nope' }, '10.3.0.1')).toEqual({ ok: false, reason: 'invalid' });
    const { rows } = await ctx().handle.sql.query<{ n: number }>("SELECT count(*)::int AS n FROM auth_rate_limits WHERE key = $1 AND points = 1", [`signin-pair:${JSON.stringify(['bo@example.com', '10.3.0.1'])}`]);
    expect(rows[0]?.n).toBe(1);
  });

  it('treats malformed input as a wrong password, not an error', async () => {
    const db = ctx().handle.db;
    expect(await verifyCredentials(db, createSignInThrottle(db), { email: 42 }, '10.4.0.1')).toEqual({ ok: false, reason: 'invalid' });
    expect(await verifyCredentials(db, createSignInThrottle(db), undefined, '10.4.0.2')).toEqual({ ok: false, reason: 'invalid' });
  });
});
