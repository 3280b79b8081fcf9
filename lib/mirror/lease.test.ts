import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DbHandle } from '@/lib/db/client';
import { createPostgresTestDb, type TestDatabase } from '@/tests/db';
import { env } from '@/lib/env';
import { claimRefresh, completeRefresh, failRefresh, readState } from './store';

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
    expect(await claimRefresh(db.handle.db, deviceId, 300)).toBe(0);
    expect(await claimRefresh(other.db, deviceId, 300)).toBeNull();
    await completeRefresh(db.handle.db, deviceId, 1, new Date(), 3);
    expect(await claimRefresh(other.db, deviceId, 300)).toBe(1);
    // The holder "crashed": after the lease ran out, the other instance may claim it again.
    await new Promise((r) => setTimeout(r, 1_100));
    expect(await claimRefresh(db.handle.db, deviceId, 300)).toBeNull();
    expect(await claimRefresh(db.handle.db, deviceId, 1)).toBe(1);
  });

  it('keeps every instance from claiming a system during the backoff after a failure', async () => {
    const deviceId = randomUUID();
    expect(await claimRefresh(db.handle.db, deviceId, 300)).toBe(0);
    await failRefresh(db.handle.db, deviceId, 1, { message: 'down', kind: 'unreachable', retryAfterMs: 60_000 });
    // A page view on the other instance, which read the state before the failure was recorded.
    expect(await claimRefresh(other.db, deviceId, 300, { at: new Date(), respectBackoff: true })).toBeNull();
    expect(await claimRefresh(other.db, deviceId, 300, { at: new Date(Date.now() + 61_000), respectBackoff: true })).toBe(0);
    expect((await readState(other.db, deviceId))?.consecutiveFailures).toBe(1);
  });
});
