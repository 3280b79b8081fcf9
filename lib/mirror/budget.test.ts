import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Sandbox } from '@/sandbox';
import type { ServiceClient } from '@/lib/service';
import { describeWithDb } from '@/tests/db';
import { startTestSandbox } from '@/tests/sandbox-service';
import { budgetCapacity, refreshBackoffMs } from './policy';
import { ensureFresh, refreshSystem, viewRefreshOptions, waitForRefresh, type ViewRefreshPolicy } from './refresh';
import { serviceMirrorSource } from './service-source';
import { claimRefresh, readState } from './store';
import type { MirrorSource } from './types';

const BUDGET = 2400;
const ENFORCED = { perHour: BUDGET, enforce: true };
const VIEWS: ViewRefreshPolicy = { freshnessMs: 30_000, budgetPerHour: BUDGET };

// The policy's conditions as the claim checks them in SQL, against a real upstream (the in-process
// sandbox behind the real service client), on PGlite and PostgreSQL.
describeWithDb('mirror refresh budget and single flight', (ctx) => {
  let sandbox: Sandbox;
  let client: ServiceClient;
  let apiKey: string;
  let deviceId: string;
  let requests = 0;

  beforeAll(async () => {
    let fixtures;
    ({ sandbox, fixtures, client } = await startTestSandbox({ sql: ctx().handle.sql, preset: 'demo', seed: 5 }, () => {
      requests += 1;
    }));
    const approval = fixtures.approvals[0]!;
    deviceId = approval.deviceIds[0]!;
    apiKey = (await client.apiKeys.generate(approval.approvalId)).apiKey;
  }, 120_000);
  afterAll(async () => {
    await sandbox.stop();
  });

  const source = (): MirrorSource => serviceMirrorSource(client, apiKey);
  const setFaults = (faults: object) =>
    sandbox.fetch(new Request('http://sandbox.test/_sandbox/faults', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(faults) }));
  const setBucket = (tokens: number, at: Date) =>
    ctx().handle.sql.query('UPDATE mirror_state SET budget_tokens = $2, budget_at = $3 WHERE device_id = $1', [deviceId, tokens, at.toISOString()]);

  it('charges a refresh with every upstream request it made, counted as they leave', async () => {
    const { db } = ctx().handle;
    requests = 0;
    const outcome = await refreshSystem(db, deviceId, source(), { budget: ENFORCED });
    expect(outcome.status).toBe('refreshed');
    const state = await readState(db, deviceId);
    // Pages of the four collections, the user list, and the token request: all that reached the service.
    expect(requests).toBeGreaterThan(4);
    expect(state?.lastRequests).toBe(requests);
    expect(outcome.status === 'refreshed' && outcome.requests).toBe(requests);
    // A first load reserves nothing (it is always allowed) and is charged once it is done.
    expect(state?.budgetTokens).toBeCloseTo(budgetCapacity(BUDGET) - requests, 0);
  });

  it('starts one re-page per window: a claim right after a refresh ended is refused, one a window later is not', async () => {
    const { db } = ctx().handle;
    const ended = (await readState(db, deviceId))!.refreshEndedAt!;
    // As a second page view would, with the state it read before that refresh ended.
    expect(await claimRefresh(db, deviceId, 300, { at: new Date(ended.getTime() + 1_000), windowSeconds: 30 })).toBeNull();
    expect(await claimRefresh(db, deviceId, 300, { at: new Date(ended.getTime() + 29_000), windowSeconds: 30 })).toBeNull();
    requests = 0;
    const stale = new Date(ended.getTime() + 31_000);
    expect((await refreshSystem(db, deviceId, source(), viewRefreshOptions({ freshnessMs: 30_000, budgetPerHour: 0 }, stale))).status).toBe('refreshed');
    expect(requests).toBeGreaterThan(4);
  });

  it('defers a stale copy while the bucket is short, says until when, and refreshes once it has refilled', async () => {
    const { db } = ctx().handle;
    const before = (await readState(db, deviceId))!;
    const cost = before.lastRequests;
    const ended = before.refreshEndedAt!;
    // The bucket is 50 in debt when that refresh ended; 2,400 an hour refill 2 every 3 s.
    await setBucket(-50, ended);
    const stale = new Date(ended.getTime() + 31_000);
    requests = 0;
    const deferred = await ensureFresh(db, deviceId, source, VIEWS, stale);
    expect(deferred).toMatchObject({ status: 'ready', refreshing: false, deferredBy: 'budget' });
    const readyMs = ended.getTime() + ((cost + 50) / (BUDGET / 3600)) * 1000;
    expect(Math.abs(deferred.nextRefreshAt!.getTime() - readyMs)).toBeLessThanOrEqual(1);
    await waitForRefresh(deviceId);
    expect(requests).toBe(0);
    // The claim itself refuses too (another instance that decided on an older state).
    expect(await claimRefresh(db, deviceId, 300, { at: stale, budget: ENFORCED })).toBeNull();

    const refilled = await ensureFresh(db, deviceId, source, VIEWS, deferred.nextRefreshAt!);
    expect(refilled).toMatchObject({ refreshing: true, nextRefreshAt: null, deferredBy: null });
    await waitForRefresh(deviceId);
    expect(requests).toBe(cost);
    const after = (await readState(db, deviceId))!;
    expect(after.refreshedAt!.getTime()).toBeGreaterThan(before.refreshedAt!.getTime());
    // The bucket was full enough at the start and was charged: empty again (and the refill since).
    expect(after.budgetTokens).toBeLessThan(5);
  });

  it('lets a closure refresh past the window and the budget, but not the lease, and still charges it', async () => {
    const { db, sql } = ctx().handle;
    const now = new Date();
    await setBucket(0, now);
    const cost = (await readState(db, deviceId))!.lastRequests;
    const closure = { freshnessMs: 30_000, budget: { perHour: BUDGET, enforce: false } };
    expect((await refreshSystem(db, deviceId, source(), closure)).status).toBe('refreshed');
    const charged = (await readState(db, deviceId))!;
    // In debt by what it cost, give or take the refill of a second or two.
    expect(charged.budgetTokens!).toBeLessThan(-cost + 5);
    await sql.query('UPDATE mirror_state SET refresh_started_at = now() WHERE device_id = $1', [deviceId]);
    expect(await refreshSystem(db, deviceId, source(), closure)).toEqual({ status: 'busy' });
    await sql.query('UPDATE mirror_state SET refresh_started_at = NULL WHERE device_id = $1', [deviceId]);
  });

  it('charges a failed refresh with the requests it made, and holds the next during the backoff', async () => {
    const { db } = ctx().handle;
    const start = new Date();
    await setBucket(budgetCapacity(BUDGET), start);
    // The second page of reservations is refused (a 400 is not retried).
    await setFaults({ failures: [{ status: 400, times: 1, skip: 1, pathPrefix: `/v1/reservations/${deviceId}/all` }] });
    const reserved = (await readState(db, deviceId))!.lastRequests;
    requests = 0;
    try {
      await expect(refreshSystem(db, deviceId, source(), { freshnessMs: 30_000, budget: ENFORCED, at: start })).rejects.toThrow();
    } finally {
      await setFaults({});
    }
    const failed = (await readState(db, deviceId))!;
    expect(requests).toBeGreaterThanOrEqual(2);
    expect(failed.lastRequests).toBe(requests);
    expect(failed.budgetTokens!).toBeCloseTo(budgetCapacity(BUDGET) - reserved - (requests - reserved), -1);
    expect(failed.consecutiveFailures).toBe(1);
    expect(failed.nextRefreshAt!.getTime() - failed.lastErrorAt!.getTime()).toBeCloseTo(refreshBackoffMs(1, 30_000), -2);
    // Views wait out the backoff (window long passed), and then only need what the failure cost.
    const soon = new Date(failed.lastErrorAt!.getTime() + 10_000);
    expect(await claimRefresh(db, deviceId, 300, { at: soon, respectBackoff: true, windowSeconds: 0, budget: ENFORCED })).toBeNull();
    const later = new Date(failed.nextRefreshAt!.getTime() + 1);
    expect(await claimRefresh(db, deviceId, 300, { at: later, respectBackoff: true, windowSeconds: 0, budget: ENFORCED })).not.toBeNull();
    await ctx().handle.sql.query('UPDATE mirror_state SET refresh_started_at = NULL WHERE device_id = $1', [deviceId]);
  });
});
