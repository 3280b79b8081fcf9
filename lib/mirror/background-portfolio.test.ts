import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { storeConnection } from '@/lib/systems/store';
import type { Sandbox, SandboxFixtures } from '@/sandbox';
import type { ServiceClient } from '@/lib/service';
import { describeWithDb } from '@/tests/db';
import { inFlightTracker } from '@/tests/in-flight-source';
import { startTestSandbox } from '@/tests/sandbox-service';
import { backgroundPass, type BackgroundDeps } from './background';
import { readLoadProgress } from './progress';
import { serviceMirrorSource } from './service-source';
import { markViewed, readStates } from './store';

const HOUR = 3_600_000;
const SYSTEMS = 10;
const CONCURRENCY = 3;

// Issue 49: a portfolio whose systems nobody has opened yet is loaded by the background worker,
// a bounded number at a time, the most recently opened first.
describeWithDb('the background worker over a portfolio of systems never loaded', (ctx) => {
  let sandbox: Sandbox;
  let fixtures: SandboxFixtures;
  let client: ServiceClient;
  const keyOf = new Map<string, string>();

  beforeAll(async () => {
    ({ sandbox, fixtures, client } = await startTestSandbox({ sql: ctx().handle.sql, preset: 'portfolio', systems: SYSTEMS, seed: 3 }));
    for (const approval of fixtures.approvals) {
      const { apiKey } = await client.apiKeys.generate(approval.approvalId);
      for (const deviceId of approval.deviceIds) keyOf.set(deviceId, apiKey);
      // Connected as the portal connects them: the progress counts the connected systems.
      await storeConnection(ctx().handle.db, { approvalId: approval.approvalId, apiKey, deviceIds: approval.deviceIds, encryptionKey: randomBytes(32) });
    }
  }, 120_000);
  afterAll(async () => {
    await sandbox.stop();
  });

  it('loads every system, at most the concurrency at a time, the one opened last first', async () => {
    const deviceIds = fixtures.systems.map((s) => s.deviceId);
    expect(deviceIds).toHaveLength(SYSTEMS);
    const tracker = inFlightTracker();
    // The order the pass takes the systems in: its source is asked for each as it is taken up (the
    // tracker's order is the upstream's, which races between the first three taken at once).
    const takenUp: string[] = [];
    const [opened] = deviceIds.slice(-1);
    await markViewed(ctx().handle.db, opened!, new Date());
    const deps: BackgroundDeps = {
      db: ctx().handle.db,
      systems: () => Promise.resolve(deviceIds),
      source: (deviceId) => {
        takenUp.push(deviceId);
        return Promise.resolve(tracker.wrap(serviceMirrorSource(client, keyOf.get(deviceId)!)));
      },
      backgroundMs: HOUR,
      freshnessMs: 30_000,
      budgetPerHour: 2400,
      concurrency: CONCURRENCY,
    };
    const before = await readLoadProgress(ctx().handle.db);
    expect(before).toMatchObject({ total: SYSTEMS, loaded: 0, remaining: SYSTEMS, etaSeconds: null });
    const result = await backgroundPass(deps);
    expect(result.skipped).toEqual([]);
    expect([...result.refreshed].sort()).toEqual([...deviceIds].sort());
    expect(tracker.most()).toBeLessThanOrEqual(CONCURRENCY);
    // It did run side by side (else the bound proves nothing).
    expect(tracker.most()).toBeGreaterThan(1);
    expect(takenUp[0]).toBe(opened);
    expect(new Set(takenUp).size).toBe(SYSTEMS);
    const states = await readStates(ctx().handle.db);
    for (const deviceId of deviceIds) expect(states.get(deviceId)?.refreshedAt, deviceId).not.toBeNull();
    expect(await readLoadProgress(ctx().handle.db)).toMatchObject({ total: SYSTEMS, loaded: SYSTEMS, remaining: 0, etaSeconds: 0 });
    // Nothing left to do: the next pass reads nothing.
    expect(await backgroundPass(deps)).toEqual({ refreshed: [], skipped: [] });
  }, 120_000);

  it('notes a view at most once a minute per system', async () => {
    const deviceId = fixtures.systems[0]!.deviceId;
    const at = new Date();
    await markViewed(ctx().handle.db, deviceId, at);
    const first = (await readStates(ctx().handle.db)).get(deviceId)?.viewedAt;
    expect(first?.getTime()).toBe(at.getTime());
    await markViewed(ctx().handle.db, deviceId, new Date(at.getTime() + 30_000));
    expect((await readStates(ctx().handle.db)).get(deviceId)?.viewedAt?.getTime()).toBe(at.getTime());
    await markViewed(ctx().handle.db, deviceId, new Date(at.getTime() + 61_000));
    expect((await readStates(ctx().handle.db)).get(deviceId)?.viewedAt?.getTime()).toBe(at.getTime() + 61_000);
  });
});
