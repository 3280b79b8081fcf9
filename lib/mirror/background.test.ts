import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Sandbox } from '@/sandbox';
import type { ServiceClient } from '@/lib/service';
import { describeWithDb } from '@/tests/db';
import { startTestSandbox } from '@/tests/sandbox-service';
import { backgroundIntervalMs, backgroundPass, startMirrorWorker, stopMirrorWorker, type BackgroundDeps } from './background';
import { refreshSystem } from './refresh';
import { serviceMirrorSource } from './service-source';
import { readState } from './store';

const HOUR = 3_600_000;

describeWithDb('background refresh of systems nobody views', (ctx) => {
  let sandbox: Sandbox;
  let client: ServiceClient;
  let apiKey: string;
  let otherKey: string;
  let stale: string;
  let fresh: string;
  let neverLoaded: string;
  // Requests that reached the service, per system (the system's id is in every list path).
  const seen = new Map<string, number>();

  beforeAll(async () => {
    let fixtures;
    ({ sandbox, fixtures, client } = await startTestSandbox({ sql: ctx().handle.sql, preset: 'demo', seed: 7 }, (request) => {
      for (const id of [stale, fresh, neverLoaded]) if (id && request.url.includes(id)) seen.set(id, (seen.get(id) ?? 0) + 1);
    }));
    const approval = fixtures.approvals[0]!;
    [stale, fresh] = approval.deviceIds as [string, string];
    neverLoaded = fixtures.approvals[1]!.deviceIds[0]!;
    apiKey = (await client.apiKeys.generate(approval.approvalId)).apiKey;
    otherKey = (await client.apiKeys.generate(fixtures.approvals[1]!.approvalId)).apiKey;
    for (const id of [stale, fresh]) await refreshSystem(ctx().handle.db, id, serviceMirrorSource(client, apiKey));
  }, 120_000);
  afterAll(async () => {
    await sandbox.stop();
  });

  const deps = (change: Partial<BackgroundDeps> = {}): BackgroundDeps => ({
    db: ctx().handle.db,
    systems: () => Promise.resolve([stale, fresh, neverLoaded]),
    source: (deviceId) => Promise.resolve(serviceMirrorSource(client, deviceId === neverLoaded ? otherKey : apiKey)),
    backgroundMs: HOUR,
    freshnessMs: 30_000,
    budgetPerHour: 2400,
    ...change,
  });
  /** Makes a copy look read and finished `ageMs` ago. */
  const age = (deviceId: string, ageMs: number) =>
    ctx().handle.sql.query(
      `UPDATE mirror_state SET refreshed_at = now() - make_interval(secs => $2::float8), refresh_ended_at = now() - make_interval(secs => $2::float8) WHERE device_id = $1`,
      [deviceId, ageMs / 1000],
    );

  it('loads a system never loaded and re-reads a copy older than the cadence, and leaves a fresh one alone', async () => {
    await age(stale, 2 * HOUR);
    await age(fresh, HOUR / 2);
    seen.clear();
    const before = (await readState(ctx().handle.db, stale))!.refreshedAt!;
    expect(await readState(ctx().handle.db, neverLoaded)).toBeNull();
    const result = await backgroundPass(deps());
    // The never-loaded one first (no copy at all), then the old copy.
    expect(result).toEqual({ refreshed: [neverLoaded, stale], skipped: [] });
    expect(seen.get(stale)).toBeGreaterThan(3);
    expect(seen.get(fresh)).toBeUndefined();
    // Nobody had to open it (issue 49: a portfolio must not wait for each system's first view).
    expect(seen.get(neverLoaded)).toBeGreaterThan(3);
    expect((await readState(ctx().handle.db, neverLoaded))?.refreshedAt).not.toBeNull();
    expect((await readState(ctx().handle.db, stale))!.refreshedAt!.getTime()).toBeGreaterThan(before.getTime());
    // Just refreshed: the next pass has nothing to do.
    seen.clear();
    expect(await backgroundPass(deps())).toEqual({ refreshed: [], skipped: [] });
    expect(seen.size).toBe(0);
  });

  it('respects the request budget: a stale copy whose bucket is short waits', async () => {
    await age(stale, 2 * HOUR);
    await ctx().handle.sql.query(`UPDATE mirror_state SET budget_tokens = -1000, budget_at = now() WHERE device_id = $1`, [stale]);
    seen.clear();
    expect(await backgroundPass(deps())).toEqual({ refreshed: [], skipped: [] });
    expect(seen.size).toBe(0);
    // Without a budget it would have gone ahead.
    expect(await backgroundPass(deps({ budgetPerHour: 0 }))).toEqual({ refreshed: [stale], skipped: [] });
  });

  it('runs in the background at a tenth of the cadence until stopped', async () => {
    expect(backgroundIntervalMs(HOUR)).toBe(60_000);
    expect(backgroundIntervalMs(1_000)).toBe(1_000);
    await age(stale, 10_000);
    await ctx().handle.sql.query(`UPDATE mirror_state SET budget_tokens = NULL WHERE device_id = $1`, [stale]);
    const before = (await readState(ctx().handle.db, stale))!.refreshedAt!;
    startMirrorWorker(() => Promise.resolve(deps({ backgroundMs: 5_000 })), 5_000);
    try {
      const deadline = Date.now() + 10_000;
      while ((await readState(ctx().handle.db, stale))!.refreshedAt!.getTime() === before.getTime() && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      await stopMirrorWorker();
    }
    expect((await readState(ctx().handle.db, stale))!.refreshedAt!.getTime()).toBeGreaterThan(before.getTime());
  }, 20_000);
});
