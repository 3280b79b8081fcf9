import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DbHandle } from '@/lib/db/client';
import { createPostgresTestDb, describeWithDb, type TestDatabase } from '@/tests/db';
import { env } from '@/lib/env';
import { claimRefresh, claimRefreshWith, completeRefresh, failRefresh, readState } from './store';

const BUDGET = { perHour: 2400, enforce: true };
/** The claim of a page view at `at`: freshness window 30 s, backoff, the budget enforced. */
const viewAt = (at: Date) => ({ at, windowSeconds: 30, respectBackoff: true, budget: BUDGET });

// Two handles on one PostgreSQL are two portal instances: separate pools, separate connections.
describe.skipIf(!env.TEST_DATABASE_URL)('mirror refresh lease across instances [postgres]', () => {
  let db: TestDatabase;
  let other: DbHandle;

  beforeAll(async () => {
    if (!env.TEST_DATABASE_URL) return;
    db = await createPostgresTestDb(env.TEST_DATABASE_URL, { maxConnections: 10 });
    other = await openDatabase({ url: db.options.url, maxConnections: 10 });
  }, 60_000);
  afterAll(async () => {
    await other?.close();
    await db?.dispose();
  }, 60_000);

  it('lets exactly one of many racing claims from two instances win, for each system', async () => {
    for (let round = 0; round < 5; round += 1) {
      const deviceId = randomUUID();
      const claims = await Promise.all(
        Array.from({ length: 20 }, (_, i) => claimRefresh((i % 2 === 0 ? db.handle : other).db, deviceId, 300)),
      );
      expect(claims.filter((c) => c !== null)).toEqual([0]);
      expect((await readState(other.db, deviceId))?.refreshing).toBe(true);
    }
  });

  it('hands the system to another instance once the refresh completed, and takes over a dead one', async () => {
    const deviceId = randomUUID();
    const held = await claimRefreshWith(db.handle.db, deviceId, 300);
    expect(held?.generation).toBe(0);
    expect(await claimRefresh(other.db, deviceId, 300)).toBeNull();
    await completeRefresh(db.handle.db, deviceId, held!.refreshId, 1, new Date(), 3);
    expect(await claimRefresh(other.db, deviceId, 300)).toBe(1);
    // The holder "crashed": after the lease ran out, the other instance may claim it again.
    await new Promise((r) => setTimeout(r, 1_100));
    expect(await claimRefresh(db.handle.db, deviceId, 300)).toBeNull();
    expect(await claimRefresh(db.handle.db, deviceId, 1)).toBe(1);
  });

  it('keeps every instance from claiming a system during the backoff after a failure', async () => {
    const deviceId = randomUUID();
    const held = await claimRefreshWith(db.handle.db, deviceId, 300);
    expect(held?.generation).toBe(0);
    await failRefresh(db.handle.db, deviceId, held!.refreshId, 1, { message: 'down', kind: 'unreachable', retryAfterMs: 60_000 });
    // A page view on the other instance, which read the state before the failure was recorded.
    expect(await claimRefresh(other.db, deviceId, 300, { at: new Date(), respectBackoff: true })).toBeNull();
    expect(await claimRefresh(other.db, deviceId, 300, { at: new Date(Date.now() + 61_000), respectBackoff: true })).toBe(0);
    expect((await readState(other.db, deviceId))?.consecutiveFailures).toBe(1);
  });

  it('starts one re-page per window however many views race on two instances, also right after one ended', async () => {
    const deviceId = randomUUID();
    // A's refresh runs; B's page views read the state meanwhile (stale copy, refresh due).
    const first = await claimRefreshWith(db.handle.db, deviceId, 300, viewAt(new Date()));
    expect(first?.generation).toBe(0);
    await completeRefresh(db.handle.db, deviceId, first!.refreshId, 1, new Date(), 5, null, 'unavailable', { requests: 5, reserved: 0, at: new Date(), budget: BUDGET });
    // Right after A's refresh ended, twenty claims from both instances: none may start another.
    const now = new Date();
    const racing = await Promise.all(Array.from({ length: 20 }, (_, i) => claimRefresh((i % 2 === 0 ? db.handle : other).db, deviceId, 300, viewAt(now))));
    expect(racing.every((c) => c === null)).toBe(true);
    // A window later exactly one of them wins.
    const later = new Date(now.getTime() + 31_000);
    const next = await Promise.all(Array.from({ length: 20 }, (_, i) => claimRefresh((i % 2 === 0 ? db.handle : other).db, deviceId, 300, viewAt(later))));
    expect(next.filter((c) => c !== null)).toEqual([1]);
  });

  it('keeps one request budget per system for all instances: what A spent, B must wait for', async () => {
    const deviceId = randomUUID();
    const held = await claimRefreshWith(db.handle.db, deviceId, 300, viewAt(new Date()));
    expect(held?.generation).toBe(0);
    const ended = new Date();
    // A large system: 500 requests, charged on A; 100 of the 600 tokens are left.
    await completeRefresh(db.handle.db, deviceId, held!.refreshId, 1, ended, 500, null, 'unavailable', { requests: 500, reserved: 0, at: ended, budget: BUDGET });
    const state = await readState(other.db, deviceId);
    expect(state?.budgetTokens).toBeCloseTo(100, 0);
    // On B, a window later the copy is stale but the bucket holds about 121 of the 500 needed.
    expect(await claimRefresh(other.db, deviceId, 300, viewAt(new Date(ended.getTime() + 31_000)))).toBeNull();
    // 400 more tokens take 600 s at 2,400 an hour.
    expect(await claimRefresh(other.db, deviceId, 300, viewAt(new Date(ended.getTime() + 601_000)))).toBe(1);
    // The claim reserved the last refresh's cost at once (about 500.7 held, 500 taken): a crash now would still be charged.
    expect((await readState(db.handle.db, deviceId))?.budgetTokens).toBeCloseTo(0.7, 0);
  });
});


describeWithDb('a refresh whose lease ran out', (ctx) => {
  it('is not shown as refreshing: its instance died with it, and the next claim takes over', async () => {
    const { db, sql } = ctx().handle;
    const deviceId = randomUUID();
    expect(await claimRefresh(db, deviceId, 300)).toBe(0);
    expect((await readState(db, deviceId))?.refreshing).toBe(true);
    await sql.exec(`UPDATE mirror_state SET refresh_started_at = now() - interval '301 seconds' WHERE device_id = '${deviceId}'`);
    expect((await readState(db, deviceId))?.refreshing).toBe(false);
    expect(await claimRefresh(db, deviceId, 300)).toBe(0);
    expect((await readState(db, deviceId))?.refreshing).toBe(true);
  });
});
