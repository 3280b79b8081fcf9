import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithDb } from '@/tests/db';
import { startTestSandbox, type TestSandbox } from '@/tests/sandbox-service';
import { BreakerRegistry, createServiceClient } from '@/lib/service';
import { systemMirror, type ViewDeps } from '@/lib/views/freshness';
import type { Faults } from '@/sandbox/faults';
import { refreshSystem } from './refresh';
import { serviceMirrorSource } from './service-source';
import { readState } from './store';
import type { MirrorState } from './types';

// Issue 47, item 4: one page failing in the middle of a long list (more times than the client's
// retries) made the read start again from page one.

const RESERVATIONS = 'GET /v1/reservations/{deviceId}/all';
/** Fast waits for the test; the portal's are 1 s doubling to 30 s (policy.ts RESUME_DEFAULT). */
const QUICK = { initialDelayMs: 150, maxDelayMs: 1_000 };

describeWithDb('a long read resumes at the page that failed', (ctx) => {
  let started: TestSandbox;
  let deviceId: string;
  let apiKey: string;

  beforeAll(async () => {
    started = await startTestSandbox({ sql: ctx().handle.sql, preset: 'demo', seed: 1 });
    const approval = started.fixtures.approvals[0]!;
    deviceId = approval.deviceIds[0]!;
    ({ apiKey } = await started.client.apiKeys.generate(approval.approvalId));
  }, 120_000);
  afterAll(() => started.sandbox.stop());

  const control = async (method: 'PUT' | 'DELETE', path: string, body?: unknown) => {
    const response = await started.sandbox.fetch(
      new Request(`http://sandbox.test${path}`, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) }),
    );
    expect(response.ok).toBe(true);
  };
  const setFaults = (faults: Faults) => control('PUT', '/_sandbox/faults', faults);
  /** The upstream as the portal reads it, with breakers of its own (one test's open circuit is not the next one's). */
  const source = () =>
    serviceMirrorSource(
      createServiceClient({
        baseUrl: 'http://sandbox.test',
        tokenUrl: `http://sandbox.test${started.fixtures.tokenPath}`,
        clientId: started.fixtures.clientId,
        clientSecret: started.fixtures.clientSecret,
        scope: started.fixtures.scope,
        breaker: { registry: new BreakerRegistry() },
        fetch: (request) => started.sandbox.fetch(request),
      }),
      apiKey,
    );
  const reservationRequests = async () => {
    const response = await started.sandbox.fetch(new Request('http://sandbox.test/_sandbox/stats'));
    const stats = (await response.json()) as { byDevice: Record<string, { byRoute: Record<string, { requests: number; firstPages: number; errors: number }> } | undefined> };
    return stats.byDevice[deviceId]?.byRoute[RESERVATIONS] ?? { requests: 0, firstPages: 0, errors: 0 };
  };
  /** Samples the state row every 25 ms until `done` settles. */
  async function watch<T>(done: Promise<T>): Promise<{ result: PromiseSettledResult<T>; waits: NonNullable<MirrorState['waiting']>[] }> {
    const waits: NonNullable<MirrorState['waiting']>[] = [];
    let settled = false;
    const result = done.then(
      (value): PromiseSettledResult<T> => ({ status: 'fulfilled', value }),
      (reason: unknown): PromiseSettledResult<T> => ({ status: 'rejected', reason }),
    ).finally(() => (settled = true));
    while (!settled) {
      const state = await readState(ctx().handle.db, deviceId);
      if (state?.waiting) waits.push(state.waiting);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return { result: await result, waits };
  }

  it('reads a page that failed four times (429, 429, 503, 503) again from its own token, and never from page one', async () => {
    await control('DELETE', '/_sandbox/stats');
    // Page 4 of about 8: 429 twice and 503 twice — one more failure than the client's three retries.
    await setFaults({ pageFailure: { list: 'reservations', page: 4, statuses: [429, 429, 503, 503], retryAfterSeconds: 0 } });
    const { result, waits } = await watch(refreshSystem(ctx().handle.db, deviceId, source(), { resume: QUICK }));
    expect(result.status).toBe('fulfilled');
    const counted = await reservationRequests();
    // Before the fix: the refresh failed here, and the next one began at page one again.
    expect(counted.firstPages).toBe(1);
    expect(counted.errors).toBe(4);
    const state = await readState(ctx().handle.db, deviceId);
    expect(state).toMatchObject({ lastError: null, consecutiveFailures: 0, waiting: null });
    expect(state?.reservationsLoaded).toBeGreaterThan(300);
    // The progress said that it waited for the service (the last failure was a 503: no answer).
    expect(waits.length).toBeGreaterThan(0);
    expect(waits[0]?.kind).toBe('unreachable');
  });

  it('says in the views’ freshness that it waits for the service, until when', async () => {
    await setFaults({ pageFailure: { list: 'reservations', page: 3, statuses: [429, 429, 429, 429], retryAfterSeconds: 0 } });
    const deps: ViewDeps = { db: ctx().handle.db, source: () => Promise.resolve(source()), freshnessMs: 3_600_000 };
    const running = refreshSystem(ctx().handle.db, deviceId, source(), { resume: { initialDelayMs: 1_500, maxDelayMs: 1_500 } });
    let seen: Awaited<ReturnType<typeof systemMirror>>['freshness'] | undefined;
    for (let i = 0; i < 200 && !seen?.waiting; i++) {
      seen = (await systemMirror(deps, deviceId)).freshness;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(seen?.waiting).toMatchObject({ kind: 'busy' });
    expect(Date.parse(seen?.waiting?.retryAt ?? '')).toBeGreaterThan(Date.now());
    await running;
    expect((await systemMirror(deps, deviceId)).freshness.waiting).toBeUndefined();
  });

  it('gives up after its tries, and fails the refresh as before (its own backoff, then a new read)', async () => {
    await setFaults({ pageFailure: { list: 'reservations', page: 2, statuses: Array.from({ length: 50 }, () => 503), retryAfterSeconds: 0 } });
    const failed = await refreshSystem(ctx().handle.db, deviceId, source(), { resume: { ...QUICK, maxAttempts: 2 } }).catch((e: unknown) => e);
    expect(failed).toMatchObject({ kind: 'unavailable' });
    expect(await readState(ctx().handle.db, deviceId)).toMatchObject({ lastErrorKind: 'unreachable', waiting: null });
    // Without resuming, one such page fails the refresh at once.
    await setFaults({ pageFailure: { list: 'reservations', page: 2, statuses: [503, 503, 503, 503], retryAfterSeconds: 0 } });
    await control('DELETE', '/_sandbox/stats');
    expect(await refreshSystem(ctx().handle.db, deviceId, source(), { resume: false }).catch((e: unknown) => e)).toMatchObject({ kind: 'unavailable' });
    expect((await reservationRequests()).errors).toBe(4);
    // Nor is a list's first page: nothing read is lost by failing, and an outage shows at once.
    await setFaults({ pageFailure: { list: 'reservations', page: 1, statuses: [503, 503, 503, 503], retryAfterSeconds: 0 } });
    await control('DELETE', '/_sandbox/stats');
    expect(await refreshSystem(ctx().handle.db, deviceId, source(), { resume: QUICK }).catch((e: unknown) => e)).toMatchObject({ kind: 'unavailable' });
    expect((await reservationRequests()).errors).toBe(4);
    await control('DELETE', '/_sandbox/faults');
  });

  it('waits for the request budget before a new try of a re-read when the bucket cannot pay for it', async () => {
    await control('DELETE', '/_sandbox/faults');
    await refreshSystem(ctx().handle.db, deviceId, source());
    const perHour = 1_800; // half a request a second: a try of 4 requests needs 8 s of refill
    const loaded = await readState(ctx().handle.db, deviceId);
    // The bucket holds exactly what the claim reserves: nothing is left for a try.
    await ctx().handle.sql.query('UPDATE mirror_state SET budget_tokens = last_requests, budget_at = now() WHERE device_id = $1', [deviceId]);
    await setFaults({ pageFailure: { list: 'reservations', page: 3, statuses: [503, 503, 503, 503], retryAfterSeconds: 0 } });
    const before = Date.now();
    const { result, waits } = await watch(
      refreshSystem(ctx().handle.db, deviceId, source(), { budget: { perHour, enforce: true }, resume: { initialDelayMs: 10, maxDelayMs: 10 } }),
    );
    expect(result.status).toBe('fulfilled');
    expect(loaded?.lastRequests).toBeGreaterThan(0);
    expect(waits.length).toBeGreaterThan(0);
    // The try waits until the bucket holds its 4 requests (8 s after it was left empty), not the 10 ms
    // backoff after the failure (about 1.5 s in: the client's own retries).
    expect(waits[0]!.until.getTime() - before).toBeGreaterThan(6_000);
  }, 40_000);
});
