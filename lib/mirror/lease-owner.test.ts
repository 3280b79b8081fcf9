// A refresh's lease has an owner (migration 0026). A refresh slower than the lease used to be taken
// over while it still ran: both wrote one generation, the first to end released the other's lease,
// and a failure of the second deleted the copy readers were using. Now the lease is renewed by
// every page written, and a refresh that lost it writes, switches and deletes nothing.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Sandbox, type SandboxFixtures } from '@/sandbox';
import type { ServiceClient } from '@/lib/service';
import { describeWithDb } from '@/tests/db';
import { startTestSandbox } from '@/tests/sandbox-service';
import { heldBack } from '@/tests/held-back-source';
import { refreshSystem } from './refresh';
import { serviceMirrorSource } from './service-source';
import { claimRefreshWith, completeRefresh, failRefresh, isLeaseLost, readResources, readState, recordProgress, writeRefreshPage } from './store';

describeWithDb('the owner of a refresh lease', (ctx) => {
  let sandbox: Sandbox;
  let fixtures: SandboxFixtures;
  let client: ServiceClient;
  let apiKey: string;
  let deviceId: string;

  beforeAll(async () => {
    ({ sandbox, fixtures, client } = await startTestSandbox({ sql: ctx().handle.sql, preset: 'demo', seed: 5 }));
    const approval = fixtures.approvals[0];
    if (!approval?.deviceIds[0]) throw new Error('no demo approval');
    deviceId = approval.deviceIds[0];
    apiKey = (await client.apiKeys.generate(approval.approvalId)).apiKey;
  }, 120_000);

  afterAll(async () => {
    await sandbox.stop();
  });

  const db = () => ctx().handle.db;
  const rowsOf = async (generation: number) =>
    (
      await ctx().handle.sql.query<{ n: number }>(
        `SELECT ((SELECT count(*) FROM mirror_reservations WHERE device_id = $1 AND generation = $2)
              + (SELECT count(*) FROM mirror_resources WHERE device_id = $1 AND generation = $2))::int AS n`,
        [deviceId, generation],
      )
    ).rows[0]!.n;
  /** The lease ran out: nothing renewed it for longer than the lease (300 s). */
  const expireLease = () => ctx().handle.sql.query(`UPDATE mirror_state SET refresh_started_at = now() - interval '301 seconds' WHERE device_id = $1`, [deviceId]);

  async function firstPageWritten(): Promise<void> {
    for (let i = 0; i < 400; i += 1) {
      // Written by this refresh: its structure is in (reservationsRead alone may be the last one's).
      const state = await readState(db(), deviceId);
      if (state?.structureGeneration != null && state.reservationsRead > 0) return;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('the first reservations page never arrived');
  }

  it('is renewed by the refresh writing: a long refresh that keeps writing is never taken over', async () => {
    const claim = await claimRefreshWith(db(), deviceId, 300);
    if (!claim) throw new Error('lease held');
    await expireLease();
    expect((await readState(db(), deviceId))?.refreshing).toBe(false);
    await recordProgress(db(), deviceId, claim.refreshId, 3);
    expect((await readState(db(), deviceId))?.refreshing).toBe(true);
    expect(await claimRefreshWith(db(), deviceId, 300)).toBeNull();
    // Finish it, so the system has a live copy for the next cases.
    await writeRefreshPage(db(), deviceId, claim.refreshId, { kind: 'resources', generation: claim.generation + 1, items: [] }, 4);
    await completeRefresh(db(), deviceId, claim.refreshId, claim.generation + 1, new Date(), 4);
    expect((await refreshSystem(db(), deviceId, serviceMirrorSource(client, apiKey))).status).toBe('refreshed');
  });

  it('taken over, a refresh writes nothing more, does not switch readers, and stops as busy; the copy readers use is untouched', async () => {
    const live = (await readState(db(), deviceId))!.generation;
    const rooms = await readResources(db(), deviceId);
    expect(rooms.length).toBeGreaterThan(0);
    const { source, release } = heldBack(serviceMirrorSource(client, apiKey));
    const running = refreshSystem(db(), deviceId, source);
    await firstPageWritten();
    expect(await rowsOf(live + 1)).toBeGreaterThan(0);

    // Its upstream stalls past the lease; another instance's view claims the system.
    await expireLease();
    const successor = await claimRefreshWith(db(), deviceId, 300);
    expect(successor?.generation).toBe(live);
    // The claim cleared what the stalled refresh had written into the generation it now owns.
    expect(await rowsOf(live + 1)).toBe(0);

    release();
    expect(await running).toEqual({ status: 'busy' });
    expect(await rowsOf(live + 1)).toBe(0);
    const state = await readState(db(), deviceId);
    expect(state).toMatchObject({ generation: live, refreshing: true, lastError: null });
    expect((await readResources(db(), deviceId)).map((r) => r.id)).toEqual(rooms.map((r) => r.id));

    // The successor's own writes and switch go through.
    await writeRefreshPage(db(), deviceId, successor!.refreshId, { kind: 'resources', generation: live + 1, items: rooms }, 1);
    await completeRefresh(db(), deviceId, successor!.refreshId, live + 1, new Date(), 1);
    expect((await readState(db(), deviceId))?.generation).toBe(live + 1);
    expect((await readResources(db(), deviceId)).map((r) => r.id).sort()).toEqual(rooms.map((r) => r.id).sort());
  });

  it('taken over and then failing, a refresh records nothing and deletes nothing of its successor', async () => {
    const live = (await readState(db(), deviceId))!.generation;
    const { source, release } = heldBack(serviceMirrorSource(client, apiKey), { fail: true });
    const running = refreshSystem(db(), deviceId, source);
    await firstPageWritten();
    await expireLease();
    const successor = await claimRefreshWith(db(), deviceId, 300);
    if (!successor) throw new Error('the successor could not claim');
    const rooms = await readResources(db(), deviceId);
    await writeRefreshPage(db(), deviceId, successor.refreshId, { kind: 'resources', generation: live + 1, items: rooms }, 1);

    release();
    // Its own failure, or the lost lease, whichever its writes met first: either way it stops.
    await running.then(
      (outcome) => expect(outcome).toEqual({ status: 'busy' }),
      (error: unknown) => expect((error as Error).message).toBe('the reservations went away'),
    );
    // The successor's page is still there, no failure was recorded, no backoff set.
    expect(await rowsOf(live + 1)).toBe(rooms.length);
    expect(await readState(db(), deviceId)).toMatchObject({ generation: live, refreshing: true, lastError: null, consecutiveFailures: 0, nextRefreshAt: null });
    // Directly: the old owner's failure and completion are refused.
    expect(await failRefresh(db(), deviceId, 'e0000000-0000-4000-8000-000000000000', live + 1, { message: 'late', kind: 'unreachable', retryAfterMs: 5_000 })).toBe('lease-lost');
    await expect(completeRefresh(db(), deviceId, 'e0000000-0000-4000-8000-000000000000', live + 1, new Date(), 1)).rejects.toSatisfy(isLeaseLost);
    await expect(recordProgress(db(), deviceId, 'e0000000-0000-4000-8000-000000000000', 2)).rejects.toSatisfy(isLeaseLost);
    expect(await rowsOf(live + 1)).toBe(rooms.length);

    await completeRefresh(db(), deviceId, successor.refreshId, live + 1, new Date(), 1);
    expect((await readState(db(), deviceId))?.generation).toBe(live + 1);
  });

  it('never deletes the live copy when a failure names it', async () => {
    const live = (await readState(db(), deviceId))!.generation;
    const rows = await rowsOf(live);
    const claim = await claimRefreshWith(db(), deviceId, 300);
    if (!claim) throw new Error('lease held');
    expect(await failRefresh(db(), deviceId, claim.refreshId, live, { message: 'down', kind: 'unreachable', retryAfterMs: 0 })).toBe('recorded');
    expect(await rowsOf(live)).toBe(rows);
  });
});
