// A list whose paging never completes (the sandbox's `paging` fault), over real HTTP: the mirror
// keeps what was read, is usable ('ready'), says which list is incomplete and retries with backoff.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Sandbox, type SandboxFixtures } from '@/sandbox';
import { createServiceClient, type ServiceClient } from '@/lib/service';
import { BreakerRegistry } from '@/lib/service/policies';
import { describeWithDb } from '@/tests/db';
import { startHttpReceiver } from '@/tests/http-receiver';
import { startTestSandbox } from '@/tests/sandbox-service';
import { ensureFresh, refreshSystem } from './refresh';
import { serviceMirrorSource } from './service-source';
import { readReservations, readResources, readState } from './store';

const VIEW = { freshnessMs: 30_000, budgetPerHour: 0 };

describeWithDb('a list that cannot be read to its end', (ctx) => {
  let sandbox: Sandbox;
  let fixtures: SandboxFixtures;
  let client: ServiceClient;
  let apiKey: string;
  let deviceId: string;
  let server: { url: string; close: () => Promise<void> };
  let base: string;

  beforeAll(async () => {
    ({ sandbox, fixtures } = await startTestSandbox({ sql: ctx().handle.sql, preset: 'demo', seed: 5 }));
    // The sandbox over real HTTP on a free local port.
    server = await startHttpReceiver((request) => sandbox.fetch(request));
    base = server.url.replace(/\/api\/webhooks$/, '');
    client = createServiceClient({
      baseUrl: base,
      tokenUrl: `${base}${fixtures.tokenPath}`,
      clientId: fixtures.clientId,
      clientSecret: fixtures.clientSecret,
      scope: fixtures.scope,
      breaker: { registry: new BreakerRegistry() },
      fetch: (request) => fetch(request),
    });
    const approval = fixtures.approvals[0];
    if (!approval?.deviceIds[0]) throw new Error('no demo approval');
    deviceId = approval.deviceIds[0];
    apiKey = (await client.apiKeys.generate(approval.approvalId)).apiKey;
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await sandbox?.stop();
  });

  const setPaging = (paging: unknown) =>
    fetch(`${base}/_sandbox/faults`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ paging }) });
  const clearFaults = () => fetch(`${base}/_sandbox/faults`, { method: 'DELETE' });

  it('keeps every reservation of a list whose continuation repeats, serves the system, marks the list incomplete and backs off', async () => {
    const { db } = ctx().handle;
    const upstream = await client.reservations.list(apiKey, deviceId, { pageSize: 100 }).toArray({ limit: 100_000 });
    expect((await setPaging({ mode: 'repeat', list: 'reservations' })).status).toBe(200);
    try {
      const before = Date.now();
      // Before: the repeat failed the whole refresh, and a system never loaded stayed "loading".
      const outcome = await refreshSystem(db, deviceId, serviceMirrorSource(client, apiKey));
      expect(outcome.status).toBe('refreshed');
      const state = await readState(db, deviceId);
      expect(state?.incompleteLists).toEqual(['reservations']);
      expect(state?.refreshedAt).not.toBeNull();
      // Tried again after a backoff, not at once.
      expect(state?.nextRefreshAt?.getTime()).toBeGreaterThan(before);
      expect(state?.consecutiveFailures).toBe(1);
      const mirrored = await readReservations(db, deviceId, { from: new Date(0), to: new Date('2100-01-01') });
      expect(new Set(mirrored.map((r) => r.id))).toEqual(new Set(upstream.map((r) => r.id)));
      expect((await readResources(db, deviceId)).length).toBeGreaterThan(0);
      const status = await ensureFresh(db, deviceId, () => serviceMirrorSource(client, apiKey), VIEW, new Date(), state);
      expect(status).toMatchObject({ status: 'ready', incomplete: ['reservations'] });
    } finally {
      await clearFaults();
    }
    // Once the list ends again, the mark goes.
    await refreshSystem(db, deviceId, serviceMirrorSource(client, apiKey));
    const after = await readState(db, deviceId);
    expect(after).toMatchObject({ incompleteLists: null, consecutiveFailures: 0, nextRefreshAt: null });
  });

  it('stops a list whose continuation never ends after the page cap, keeping its items', async () => {
    const all = await client.resources.list(apiKey, deviceId, { pageSize: 2 }).toArray({ limit: 10_000 });
    await setPaging({ mode: 'endless' });
    try {
      const pages = [];
      for await (const page of client.resources.list(apiKey, deviceId, { pageSize: 2, maxPages: all.length + 20 }).pages()) pages.push(page);
      expect(pages).toHaveLength(all.length + 20);
      expect(pages.at(-1)).toMatchObject({ incomplete: 'pageLimit', continuationToken: null });
      expect(new Set(pages.flatMap((p) => p.items.map((r) => r.id)))).toEqual(new Set(all.map((r) => r.id)));
      // A whole-list read never passes a list that did not end as complete.
      await expect(client.resources.list(apiKey, deviceId, { pageSize: 2, maxPages: 50 }).toArray({ limit: 10_000 })).rejects.toMatchObject({ kind: 'contract' });
    } finally {
      await clearFaults();
    }
  });
});
