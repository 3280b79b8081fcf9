// The client against the real sandbox handler, in-process (faults set through its HTTP control API).
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createSandbox, type Sandbox, type SandboxFixtures } from '@/sandbox';
import { createPgliteTestDb, type TestDatabase } from '@/tests/db';
import { handleApiError } from '@/lib/errors/api-error';
import { captureLog } from '@/lib/log';
import {
  ServiceAuthError,
  ServiceContractError,
  ServiceListTooLargeError,
  ServiceNotFoundError,
  ServiceRateLimitedError,
  ServiceUnavailableError,
  ServiceValidationError,
} from './errors';
import { createPortalServiceClient, type ServiceClient } from './index';
import { BreakerRegistry } from './policies';
import { ASSUMED_TOKEN_LIFETIME_S, tokenLifetimeSeconds } from './token-provider';
import type { FetchLike } from './transport';
import { clearFaults, clientFor, errorText, putFaults, recording } from '@/tests/service';

const BASE = 'http://sandbox.test';

let db: TestDatabase;
let sandbox: Sandbox;
let fx: SandboxFixtures;
let sandboxFetch: FetchLike;
let apiKey: string;
let deviceId: string;
/** Systems the test API key covers. */
let covered: string[];

beforeAll(async () => {
  db = await createPgliteTestDb();
  sandbox = createSandbox({ sql: db.handle.sql, preset: 'demo', seed: 7, workers: false });
  await sandbox.start();
  sandboxFetch = (request) => sandbox.fetch(request);
  fx = await sandbox.fixtures();
  const approval = fx.approvals[0];
  if (!approval) throw new Error('the demo preset has no approval');
  const grant = await clientFor(BASE, fx, sandboxFetch).apiKeys.generate(approval.approvalId);
  apiKey = grant.apiKey;
  deviceId = grant.deviceIds[0]!;
  covered = grant.deviceIds;
}, 60_000);

afterAll(async () => {
  await sandbox.stop();
  await db.dispose();
});

afterEach(async () => {
  await clearFaults(sandboxFetch, BASE);
});

const rejection = async (promise: Promise<unknown>): Promise<unknown> => {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
};

describe('operations', () => {
  it('generates an API key covering the approval systems, and unknown approvals are not found', async () => {
    const client = clientFor(BASE, fx, sandboxFetch);
    const approval = fx.approvals[0]!;
    const grant = await client.apiKeys.generate(approval.approvalId);
    expect(grant.apiKey).toMatch(/\S{16,}/);
    expect(grant.deviceIds.sort()).toEqual([...approval.deviceIds].sort());
    const error = await rejection(client.apiKeys.generate('00000000-0000-4000-8000-000000000000'));
    expect(error).toBeInstanceOf(ServiceNotFoundError);
  });

  it('reads every list to the end, each item once, across pages', async () => {
    const client = clientFor(BASE, fx, sandboxFetch);
    const all = await client.reservations.list(apiKey, deviceId).toArray({ limit: 10_000 });
    expect(all.length).toBeGreaterThan(10);
    const paged = await client.reservations.list(apiKey, deviceId, { pageSize: 7 }).toArray({ limit: 10_000 });
    expect(paged.map((r) => r.id)).toEqual(all.map((r) => r.id));
    expect(new Set(paged.map((r) => r.id)).size).toBe(paged.length);
    for (const r of paged) expect(r.deviceId).toBe(deviceId);

    const schedules = await client.timeSchedules.list(apiKey, deviceId, { pageSize: 1 }).toArray({ limit: 100 });
    expect(schedules.length).toBeGreaterThan(0);
    expect(schedules[0]!.schedule).toHaveLength(7);
    const resources = await client.resources.list(apiKey, deviceId, { pageSize: 2 }).toArray({ limit: 100 });
    expect(resources.length).toBeGreaterThan(0);
    for (const resource of resources) expect(schedules.map((s) => s.id)).toContain(resource.timeScheduleId);
    const groups = [];
    for await (const group of client.userGroups.list(apiKey, deviceId, { pageSize: 100 })) groups.push(group);
    expect(groups.length).toBeGreaterThan(3);

    const pages = [];
    for await (const page of client.userGroups.list(apiKey, deviceId, { pageSize: 3 }).pages()) pages.push(page);
    expect(pages.at(-1)!.continuationToken).toBeNull();
    expect(pages.slice(0, -1).every((p) => p.items.length === 3 && p.continuationToken)).toBe(true);
    expect(pages.flatMap((p) => p.items).map((g) => g.id)).toEqual(groups.map((g) => g.id));
  });

  it('refuses to present a capped list as complete', async () => {
    const client = clientFor(BASE, fx, sandboxFetch);
    const all = await client.userGroups.list(apiKey, deviceId).toArray({ limit: 10_000 });
    await expect(client.userGroups.list(apiKey, deviceId, { pageSize: 5 }).toArray({ limit: all.length - 1 })).rejects.toBeInstanceOf(
      ServiceListTooLargeError,
    );
    expect(await client.userGroups.list(apiKey, deviceId, { pageSize: 5 }).toArray({ limit: all.length })).toHaveLength(all.length);
  });

  it('looks users up, and reaches all users of a system and the reservations of one user', async () => {
    const client = clientFor(BASE, fx, sandboxFetch);
    const resident = fx.residents.find((r) => r.deviceId === deviceId)!;
    const byRef = await client.users.byReference(apiKey, resident.referenceId);
    expect(byRef.map((u) => u.userId)).toContain(resident.userId);
    const found = byRef.find((u) => u.userId === resident.userId)!;
    expect([...(found.reservationResources ?? [])].sort()).toEqual([...resident.resourceIds].sort());
    const without = await client.users.byReference(apiKey, resident.referenceId, { includeReservationResources: false });
    expect(without.find((u) => u.userId === resident.userId)!.reservationResources).toBeUndefined();
    expect(await client.users.byEmail(apiKey, 'nobody-here@example.com')).toEqual([]);

    const everyone = await client.users.all(apiKey, deviceId);
    expect(everyone.map((u) => u.userId)).toContain(resident.userId);
    expect(everyone.some((u) => u.userGroupId === null)).toBe(true);

    const reservations = await client.reservations.list(apiKey, deviceId).toArray({ limit: 10_000 });
    const booker = reservations.find((r) => r.userId !== null)!;
    const own = await client.reservations.forUser(apiKey, booker.userId!);
    expect(own.map((r) => r.id)).toContain(booker.id);
    expect(own.every((r) => r.userId === booker.userId)).toBe(true);
  });

  it('reaches the right user by e-mail with +, @ and upper case, and by apartment with spaces or /', async () => {
    const client = clientFor(BASE, fx, sandboxFetch);
    const rec = recording(sandboxFetch);
    const traced = clientFor(BASE, fx, rec.fetch);
    const mine = fx.residents.filter((r) => covered.includes(r.deviceId));
    const plus = mine.filter((r) => r.email.includes('+'));
    const upper = mine.filter((r) => /[A-Z]/.test(r.email));
    const spaced = mine.filter((r) => r.apartmentId.includes(' '));
    const slashed = mine.filter((r) => r.apartmentId.includes('/'));
    expect(plus.length * upper.length * spaced.length * slashed.length).toBeGreaterThan(0);

    for (const r of [...plus, ...upper]) {
      const users = await traced.users.byEmail(apiKey, r.email);
      expect(users.map((u) => u.userId), r.email).toContain(r.userId);
      expect(users.every((u) => u.email.toLowerCase() === r.email.toLowerCase())).toBe(true);
    }
    for (const r of [...spaced, ...slashed]) {
      const users = await client.users.byApartment(apiKey, r.apartmentId);
      expect(users.map((u) => u.userId), r.apartmentId).toContain(r.userId);
      // The key may cover several systems, each with its own apartment of that number.
      expect(users.filter((u) => u.deviceId === r.deviceId).every((u) => u.userGroupId === r.userGroupId)).toBe(true);
    }
    // On the wire: one path segment each, percent-encoded.
    const r = slashed[0]!;
    await traced.users.byApartment(apiKey, r.apartmentId);
    expect(rec.sent.at(-1)!.target).toBe(`/v1/reservations/users/apartment/${encodeURIComponent(r.apartmentId)}`);
    expect(rec.sent.at(-1)!.target).toContain('%2F');
    expect(rec.sent.some((s) => s.target.includes('%2B') && s.target.includes('%40'))).toBe(true);
  });

  it('checks input before sending anything, without echoing it', async () => {
    const rec = recording(sandboxFetch);
    const client = clientFor(BASE, fx, rec.fetch);
    expect(() => client.reservations.list(apiKey, 'not-a-guid')).toThrow(z.ZodError);
    expect(() => client.reservations.list(apiKey, deviceId, { pageSize: 101 })).toThrow(z.ZodError);
    await expect(client.users.byApartment(apiKey, '..')).rejects.toBeInstanceOf(z.ZodError);
    await expect(client.users.byEmail(apiKey, '')).rejects.toBeInstanceOf(z.ZodError);
    const badKey = 'bad key\nwith-newline-SECRETKEY';
    const error = await rejection(client.users.byEmail(badKey, 'a@b.se'));
    expect(error).toBeInstanceOf(z.ZodError);
    expect(errorText(error)).not.toContain('SECRETKEY');
    await expect(
      client.reservations.create(apiKey, { userId: fx.residents[0]!.userId, resourceId: fx.residents[0]!.resourceIds[0]!, startTime: '2030-01-01T10:00:00Z', endTime: '2030-01-01T13:00Z' }),
    ).rejects.toBeInstanceOf(z.ZodError);
    expect(rec.sent).toEqual([]);
  });

  it('creates and cancels reservations, returning the validated 202 bodies', async () => {
    const rec = recording(sandboxFetch);
    const client = clientFor(BASE, fx, rec.fetch);
    const resident = fx.residents.find((r) => r.deviceId === deviceId)!;
    const start = new Date(Date.UTC(2031, 0, 6, 7, 0));
    const accepted = await client.reservations.create(apiKey, {
      userId: resident.userId,
      resourceId: resident.resourceIds[0]!,
      startTime: start,
      endTime: '2031-01-06T10:00Z',
    });
    expect(accepted.correlationId).toMatch(/^[0-9a-f-]{36}$/);
    const post = rec.sent.find((s) => s.method === 'POST' && s.path === '/v1/reservations')!;
    expect(post.apiKey).toBe(apiKey);
    const reservation = (await client.reservations.list(apiKey, deviceId).toArray({ limit: 10_000 }))[0]!;
    const cancelled = await client.reservations.cancel(apiKey, reservation.id);
    expect(cancelled.correlationId).not.toBe(accepted.correlationId);
    expect(rec.sent.at(-1)).toMatchObject({ method: 'DELETE', path: `/v1/reservations/${reservation.id}` });
  });
});

describe('access tokens', () => {
  it('makes exactly one token request for 50 concurrent calls with an empty cache', async () => {
    const rec = recording(sandboxFetch);
    const client = clientFor(BASE, fx, rec.fetch);
    const results = await Promise.all(Array.from({ length: 50 }, () => client.users.all(apiKey, deviceId)));
    expect(results.every((users) => users.length > 0)).toBe(true);
    expect(rec.tokenRequests()).toBe(1);
    expect(new Set(rec.serviceRequests().map((s) => s.authorization)).size).toBe(1);
  });

  it('renews a token inside its refresh margin once, while the old token keeps serving', async () => {
    const rec = recording(sandboxFetch);
    let clock = Date.now();
    const client = clientFor(BASE, fx, rec.fetch, { refreshMarginSeconds: 300, now: () => clock });
    await client.users.all(apiKey, deviceId);
    const first = rec.serviceRequests()[0]!.authorization;
    // 100 s before expiry by our clock (the sandbox, on real time, still accepts the old token);
    // token responses are held 300 ms so calls overlap the refresh.
    clock += (3600 - 100) * 1000;
    await putFaults(sandboxFetch, BASE, { hang: { ms: 300, pathPrefix: fx.tokenPath } });
    rec.reset();
    const during = await Promise.all(Array.from({ length: 20 }, () => client.users.all(apiKey, deviceId)));
    expect(during).toHaveLength(20);
    expect(rec.tokenRequests()).toBe(1);
    // Nobody waited for the refresh: they were all served with the old token.
    expect(rec.serviceRequests().every((s) => s.authorization === first)).toBe(true);
    await vi.waitFor(async () => {
      await client.users.all(apiKey, deviceId);
      expect(rec.serviceRequests().at(-1)!.authorization).not.toBe(first);
    }, { timeout: 3_000, interval: 100 });
    expect(rec.tokenRequests()).toBe(1);
    // The new token is outside its margin: no further refresh.
    await Promise.all(Array.from({ length: 10 }, () => client.users.all(apiKey, deviceId)));
    expect(rec.tokenRequests()).toBe(1);
  });

  it('fetches a new token once the cached one has expired', async () => {
    const rec = recording(sandboxFetch);
    let clock = Date.now();
    const client = clientFor(BASE, fx, rec.fetch, { now: () => clock });
    await client.users.all(apiKey, deviceId);
    clock += 3601 * 1000;
    await Promise.all(Array.from({ length: 5 }, () => client.users.all(apiKey, deviceId)));
    expect(rec.tokenRequests()).toBe(2);
  });

  it('recovers from a token the sandbox really expired (a genuine 401) with one refresh', async () => {
    // A second handler on the same database, issuing one-second tokens; our clock stands still,
    // so the client believes its token is fresh when the sandbox already refuses it.
    const shortLived = createSandbox({ sql: db.handle.sql, tokenTtlSeconds: 2, workers: false });
    const rec = recording((request) => shortLived.fetch(request));
    const frozen = Date.now();
    const client = clientFor(BASE, fx, rec.fetch, { refreshMarginSeconds: 0, now: () => frozen });
    await client.users.all(apiKey, deviceId);
    await new Promise((r) => setTimeout(r, 3_100)); // JWT times are whole seconds: surely expired now
    rec.reset();
    const users = await client.users.all(apiKey, deviceId);
    expect(users.length).toBeGreaterThan(0);
    expect(rec.tokenRequests()).toBe(1);
    const [refused, retried] = rec.serviceRequests();
    expect(rec.serviceRequests()).toHaveLength(2);
    expect(retried!.authorization).not.toBe(refused!.authorization);
  });

  it('answers a 401 with one forced refresh and one retry', async () => {
    const rec = recording(sandboxFetch);
    const client = clientFor(BASE, fx, rec.fetch);
    await client.users.all(apiKey, deviceId);
    rec.reset();
    await putFaults(sandboxFetch, BASE, { failures: [{ status: 401, times: 1, pathPrefix: '/v1/' }] });
    const users = await client.users.all(apiKey, deviceId);
    expect(users.length).toBeGreaterThan(0);
    expect(rec.tokenRequests()).toBe(1);
    const [refused, retried] = rec.serviceRequests();
    expect(rec.serviceRequests()).toHaveLength(2);
    expect(retried!.authorization).not.toBe(refused!.authorization);
  });

  it('refreshes once when many concurrent calls get a 401 for the same token', async () => {
    const rec = recording(sandboxFetch);
    const client = clientFor(BASE, fx, rec.fetch);
    await client.users.all(apiKey, deviceId);
    await putFaults(sandboxFetch, BASE, { failures: [{ status: 401, times: 10, pathPrefix: '/v1/' }] });
    const results = await Promise.all(Array.from({ length: 10 }, () => client.users.all(apiKey, deviceId)));
    expect(results.every((users) => users.length > 0)).toBe(true);
    expect(rec.tokenRequests()).toBe(2);
    expect(rec.serviceRequests()).toHaveLength(1 + 10 + 10);
  });

  it('surfaces a second 401 as an authentication error, without looping', async () => {
    const rec = recording(sandboxFetch);
    const client = clientFor(BASE, fx, rec.fetch);
    await putFaults(sandboxFetch, BASE, { failures: [{ status: 401, times: 5, pathPrefix: '/v1/' }] });
    const error = await rejection(client.users.all(apiKey, deviceId));
    expect(error).toBeInstanceOf(ServiceAuthError);
    expect((error as ServiceAuthError).credential).toBe('token');
    expect(rec.tokenRequests()).toBe(2);
    expect(rec.serviceRequests()).toHaveLength(2);
  });

  it('also refreshes once on a 401 to create: the request was refused, not executed', async () => {
    const rec = recording(sandboxFetch);
    const client = clientFor(BASE, fx, rec.fetch);
    const resident = fx.residents.find((r) => r.deviceId === deviceId)!;
    await putFaults(sandboxFetch, BASE, { failures: [{ status: 401, times: 1, pathPrefix: '/v1/reservations', method: 'POST' }] });
    const accepted = await client.reservations.create(apiKey, {
      userId: resident.userId,
      resourceId: resident.resourceIds[0]!,
      startTime: '2031-01-07T07:00Z',
      endTime: '2031-01-07T10:00Z',
    });
    expect(accepted.correlationId).toBeTruthy();
    expect(rec.serviceRequests().filter((s) => s.method === 'POST')).toHaveLength(2);
    expect(rec.tokenRequests()).toBe(2);
  });

  it('names the refused credential: client credentials, or the API key', async () => {
    const wrongSecret = clientFor(BASE, { ...fx, clientSecret: 'sbx~not-the-secret-XYZZY' }, sandboxFetch);
    const e1 = await rejection(wrongSecret.users.all(apiKey, deviceId));
    expect(e1).toBeInstanceOf(ServiceAuthError);
    expect((e1 as ServiceAuthError).credential).toBe('clientCredentials');
    expect((e1 as Error).message).toContain('invalid_client');

    const client = clientFor(BASE, fx, sandboxFetch);
    const e2 = await rejection(client.users.all('sbx_wrong-key-PLUGH', deviceId));
    expect(e2).toBeInstanceOf(ServiceAuthError);
    expect((e2 as ServiceAuthError).credential).toBe('apiKey');
  });
});

describe('resilience', () => {
  it('waits for Retry-After on a 429 and then succeeds', async () => {
    const rec = recording(sandboxFetch);
    const client = clientFor(BASE, fx, rec.fetch);
    await client.users.all(apiKey, deviceId);
    await putFaults(sandboxFetch, BASE, { failures: [{ status: 429, times: 1, retryAfterSeconds: 1, pathPrefix: '/v1/' }] });
    rec.reset();
    const started = performance.now();
    const users = await client.users.all(apiKey, deviceId);
    const elapsed = performance.now() - started;
    expect(users.length).toBeGreaterThan(0);
    expect(elapsed).toBeGreaterThanOrEqual(1000);
    const [first, second] = rec.serviceRequests();
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(1000);
  });

  it('does not retry create or cancel on 429 or 503: it reports instead', async () => {
    const rec = recording(sandboxFetch);
    const client = clientFor(BASE, fx, rec.fetch);
    const resident = fx.residents.find((r) => r.deviceId === deviceId)!;
    const input = { userId: resident.userId, resourceId: resident.resourceIds[0]!, startTime: '2031-01-08T07:00Z', endTime: '2031-01-08T10:00Z' };
    await putFaults(sandboxFetch, BASE, { failures: [{ status: 429, times: 1, retryAfterSeconds: 2, method: 'POST', pathPrefix: '/v1/reservations' }] });
    const limited = await rejection(client.reservations.create(apiKey, input));
    expect(limited).toBeInstanceOf(ServiceRateLimitedError);
    expect((limited as ServiceRateLimitedError).retryAfterSeconds).toBe(2);
    await putFaults(sandboxFetch, BASE, { failures: [{ status: 503, times: 1, method: 'DELETE', pathPrefix: '/v1/reservations' }] });
    const down = await rejection(client.reservations.cancel(apiKey, '11111111-1111-4111-8111-111111111111'));
    expect(down).toBeInstanceOf(ServiceUnavailableError);
    expect(rec.serviceRequests().filter((s) => s.method !== 'GET')).toHaveLength(2);
  });

  it('retries a 503 on page 3 of 5 and yields every item exactly once', async () => {
    const client = clientFor(BASE, fx, sandboxFetch);
    const expected = await client.userGroups.list(apiKey, deviceId).toArray({ limit: 10_000 });
    const pageSize = Math.ceil(expected.length / 5);
    expect(Math.ceil(expected.length / pageSize)).toBe(5);
    const rec = recording(sandboxFetch);
    const traced = clientFor(BASE, fx, rec.fetch);
    const path = `/v1/usergroups/${deviceId}/all`;
    await putFaults(sandboxFetch, BASE, { failures: [{ status: 503, times: 2, skip: 2, pathPrefix: path }] });
    const ids: string[] = [];
    for await (const g of traced.userGroups.list(apiKey, deviceId, { pageSize })) ids.push(g.id);
    expect(ids).toEqual(expected.map((r) => r.id));
    expect(new Set(ids).size).toBe(ids.length);
    expect(rec.serviceRequests(path)).toHaveLength(5 + 2);
  });

  it('fails the iteration when retries run out, never ending it as if complete', async () => {
    const client = clientFor(BASE, fx, sandboxFetch);
    const expected = await client.userGroups.list(apiKey, deviceId).toArray({ limit: 10_000 });
    const pageSize = Math.ceil(expected.length / 5);
    const path = `/v1/usergroups/${deviceId}/all`;
    await putFaults(sandboxFetch, BASE, { failures: [{ status: 503, times: 100, skip: 2, pathPrefix: path }] });
    const ids: string[] = [];
    const error = await rejection(
      (async () => {
        for await (const g of client.userGroups.list(apiKey, deviceId, { pageSize })) ids.push(g.id);
      })(),
    );
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(ids).toHaveLength(pageSize * 2);
    await putFaults(sandboxFetch, BASE, { failures: [{ status: 503, times: 100, skip: 2, pathPrefix: path }] });
    await expect(client.userGroups.list(apiKey, deviceId, { pageSize }).toArray({ limit: 10_000 })).rejects.toBeInstanceOf(ServiceUnavailableError);
  });

  it('does not retry a 400, and carries its problem detail', async () => {
    const rec = recording(sandboxFetch);
    const client = clientFor(BASE, fx, rec.fetch);
    await putFaults(sandboxFetch, BASE, { failures: [{ status: 400, times: 1, pathPrefix: '/v1/' }] });
    const error = await rejection(client.users.all(apiKey, deviceId));
    expect(error).toBeInstanceOf(ServiceValidationError);
    expect((error as ServiceValidationError).problem).toMatchObject({ status: 400, detail: 'Injected by the sandbox fault settings.' });
    expect(rec.serviceRequests()).toHaveLength(1);
  });

  it('cuts a hanging upstream at the timeout', async () => {
    const client = clientFor(BASE, fx, sandboxFetch, { timeoutMs: 150, retry: { maxRetries: 1, initialDelayMs: 5, maxDelayMs: 10 } });
    await client.users.all(apiKey, deviceId);
    await putFaults(sandboxFetch, BASE, { hang: { ms: 5_000, pathPrefix: '/v1/' } });
    let started = performance.now();
    const error = await rejection(client.users.all(apiKey, deviceId));
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect((error as ServiceUnavailableError).reason).toBe('timeout');
    expect(performance.now() - started).toBeLessThan(1_000); // two attempts of 150 ms, not 5 s
    started = performance.now();
    const resident = fx.residents.find((r) => r.deviceId === deviceId)!;
    const write = await rejection(
      client.reservations.create(apiKey, { userId: resident.userId, resourceId: resident.resourceIds[0]!, startTime: '2031-01-09T07:00Z', endTime: '2031-01-09T10:00Z' }),
    );
    expect((write as ServiceUnavailableError).reason).toBe('timeout');
    expect(performance.now() - started).toBeLessThan(600); // one attempt
  });

  it('opens the breaker after repeated failures, fails fast, and recovers through a probe', async () => {
    const rec = recording(sandboxFetch);
    const registry = new BreakerRegistry();
    const client = clientFor(BASE, fx, rec.fetch, {
      retry: { maxRetries: 0 },
      breaker: { registry, consecutiveFailures: 3, halfOpenAfterMs: 300 },
    });
    await client.users.all(apiKey, deviceId);
    await putFaults(sandboxFetch, BASE, { errorRate: 1 });
    for (let i = 0; i < 3; i++) {
      const error = await rejection(client.users.all(apiKey, deviceId));
      expect((error as ServiceUnavailableError).reason).toBe('status');
    }
    rec.reset();
    const open = await rejection(client.users.all(apiKey, deviceId));
    expect(open).toBeInstanceOf(ServiceUnavailableError);
    expect((open as ServiceUnavailableError).reason).toBe('circuit-open');
    expect(rec.serviceRequests()).toHaveLength(0); // nothing was sent

    // Another client of the same upstream shares the breaker.
    const sibling = clientFor(BASE, fx, rec.fetch, { breaker: { registry } });
    expect(((await rejection(sibling.users.all(apiKey, deviceId))) as ServiceUnavailableError).reason).toBe('circuit-open');

    // Still failing at the first probe: open again.
    await new Promise((r) => setTimeout(r, 350));
    expect(((await rejection(client.users.all(apiKey, deviceId))) as ServiceUnavailableError).reason).toBe('status');
    expect(((await rejection(client.users.all(apiKey, deviceId))) as ServiceUnavailableError).reason).toBe('circuit-open');

    await clearFaults(sandboxFetch, BASE);
    await new Promise((r) => setTimeout(r, 350));
    expect((await client.users.all(apiKey, deviceId)).length).toBeGreaterThan(0);
    await Promise.all(Array.from({ length: 5 }, () => client.users.all(apiKey, deviceId)));
  });
});

describe('breakers per kind of call', () => {
  it('20 upstream 500s on lookups open only the lookups breaker: bookings and lists go on', async () => {
    const rec = recording(sandboxFetch);
    const registry = new BreakerRegistry();
    const client = clientFor(BASE, fx, rec.fetch, { retry: { maxRetries: 0 }, breaker: { registry, consecutiveFailures: 5, halfOpenAfterMs: 60_000 } });
    await putFaults(sandboxFetch, BASE, { failures: [{ status: 500, times: 1_000, pathPrefix: '/v1/reservations/users/apartment' }] });
    const reasons: string[] = [];
    for (let i = 0; i < 20; i++) reasons.push(((await rejection(client.users.byApartment(apiKey, `10${i}`))) as ServiceUnavailableError).reason);
    expect(reasons.slice(0, 5)).toEqual(['status', 'status', 'status', 'status', 'status']);
    expect(reasons.slice(5).every((r) => r === 'circuit-open')).toBe(true);
    const accepted = await client.reservations.create(apiKey, {
      userId: '00000000-0000-4000-8000-000000000001',
      resourceId: '00000000-0000-4000-8000-000000000002',
      startTime: '2030-01-07T06:00Z',
      endTime: '2030-01-07T09:00Z',
    });
    expect(accepted.correlationId).toMatch(/^[0-9a-f-]{36}$/);
    expect((await client.resources.list(apiKey, deviceId).toArray({ limit: 1_000 })).length).toBeGreaterThan(0);
  });

  it('refuses a lookup value with a NUL, a control character or over 256 characters before anything is sent', async () => {
    const rec = recording(sandboxFetch);
    const client = clientFor(BASE, fx, rec.fetch, { breaker: { registry: new BreakerRegistry() } });
    for (const bad of ['a\u0000b', 'line\nbreak', 'x'.repeat(257), '   ']) {
      const error = await rejection(client.users.byApartment(apiKey, bad));
      expect(error).toBeInstanceOf(z.ZodError);
    }
    expect(rec.serviceRequests()).toHaveLength(0);
  });

  it('marks what the service may have done: nothing for a refusal or an open circuit, unknown for a timeout or 5xx on a write', async () => {
    const client = clientFor(BASE, fx, sandboxFetch, { retry: { maxRetries: 0 }, breaker: { registry: new BreakerRegistry() } });
    const booking = { userId: '00000000-0000-4000-8000-000000000001', resourceId: '00000000-0000-4000-8000-000000000002', startTime: '2030-01-07T06:00Z', endTime: '2030-01-07T09:00Z' };
    const post = { method: 'POST', pathPrefix: '/v1/reservations' };
    await putFaults(sandboxFetch, BASE, { failures: [{ status: 400, times: 1, ...post }, { status: 503, times: 1, ...post }, { status: 429, times: 1, ...post }] });
    expect(await rejection(client.reservations.create(apiKey, booking))).toMatchObject({ kind: 'validation', effect: 'none' });
    expect(await rejection(client.reservations.create(apiKey, booking))).toMatchObject({ kind: 'unavailable', effect: 'unknown' });
    expect(await rejection(client.reservations.create(apiKey, booking))).toMatchObject({ kind: 'rate-limited', effect: 'none' });
    const refused = clientFor(BASE, fx, () => Promise.reject(Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } })), { retry: { maxRetries: 0 }, breaker: { registry: new BreakerRegistry() } });
    expect(await rejection(refused.reservations.create(apiKey, booking))).toMatchObject({ kind: 'unavailable', effect: 'none' });
    const reset = clientFor(BASE, fx, async (request) => (new URL(request.url).pathname === '/v1/reservations' ? Promise.reject(Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNRESET' } })) : sandboxFetch(request)), { retry: { maxRetries: 0 }, breaker: { registry: new BreakerRegistry() } });
    expect(await rejection(reset.reservations.create(apiKey, booking))).toMatchObject({ kind: 'unavailable', effect: 'unknown' });
  });
});

async function collect<T>(source: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const value of source) out.push(value);
  return out;
}

describe('what the interface leaves open, read tolerantly', () => {
  /** The sandbox, with one route's answer replaced. */
  const replacing = (match: (request: Request) => boolean, answer: (response: Response) => Promise<Response> | Response): FetchLike => async (request) => {
    const response = await sandboxFetch(request);
    return match(request) ? answer(response) : response;
  };

  it('takes a token answer without expires_in or token_type (the JWT exp, else a short life)', async () => {
    const client = clientFor(BASE, fx, replacing((r) => r.url.includes('/oauth2/'), async (response) => {
      const body = (await response.json()) as Record<string, unknown>;
      return Response.json({ access_token: body.access_token });
    }), { breaker: { registry: new BreakerRegistry() } });
    expect((await client.resources.list(apiKey, deviceId).toArray({ limit: 1_000 })).length).toBeGreaterThan(0);
    const jwt = `x.${Buffer.from(JSON.stringify({ exp: Math.floor(Date.now() / 1000) + 3_600 })).toString('base64url')}.y`;
    expect(tokenLifetimeSeconds(jwt, undefined, Date.now())).toBeGreaterThan(3_590);
    expect(tokenLifetimeSeconds('opaque-token', undefined, Date.now())).toBe(ASSUMED_TOKEN_LIFETIME_S);
    expect(tokenLifetimeSeconds(jwt, 60, Date.now())).toBe(60);
  });

  it('reads an unknown key that a service answers 404 as no users, not an error', async () => {
    const client = clientFor(BASE, fx, replacing((r) => r.url.includes('/users/apartment/'), () => new Response(JSON.stringify({ title: 'Not Found' }), { status: 404 })), {
      breaker: { registry: new BreakerRegistry() },
    });
    expect(await client.users.byApartment(apiKey, 'no-such-apartment')).toEqual([]);
  });
});

describe('upstream contract', () => {
  /** Alters one real sandbox response body: the only place a response is changed. */
  const alter = (match: (path: string) => boolean, edit: (body: Record<string, unknown>) => void): FetchLike => async (request) => {
    const response = await sandboxFetch(request);
    if (!match(new URL(request.url).pathname) || !response.ok) return response;
    const body = (await response.json()) as Record<string, unknown>;
    edit(body);
    return new Response(JSON.stringify(body), { status: response.status, headers: response.headers });
  };

  it('skips an item missing what the portal relies on, names it, and keeps the rest of its page', async () => {
    const reported: { operation: string; id: string | null; reason: string }[] = [];
    let dropped = '';
    const client = clientFor(
      BASE,
      fx,
      alter((p) => p.endsWith('/all') && p.startsWith('/v1/reservations/'), (body) => {
        const list = body.reservations as Record<string, unknown>[];
        if (dropped) return;
        dropped = list[1]!.id as string;
        delete list[1]!.startTime;
      }),
      { onSkipped: (operation, skipped) => reported.push(...skipped.map((s) => ({ operation, ...s }))) },
    );
    const upstream = await clientFor(BASE, fx, sandboxFetch).reservations.list(apiKey, deviceId).toArray({ limit: 10_000 });
    const pages = [];
    for await (const page of client.reservations.list(apiKey, deviceId).pages()) pages.push(page);
    expect(pages[0]!.skipped).toEqual([{ id: dropped, reason: expect.stringContaining('startTime') as string }]);
    expect(pages.flatMap((p) => p.items.map((r) => r.id))).toEqual(upstream.map((r) => r.id).filter((id) => id !== dropped));
    expect(reported).toEqual([{ operation: 'GET /v1/reservations/{deviceId}/all', id: dropped, reason: expect.stringContaining('startTime') as string }]);
  });

  it('skips an item with a field of the wrong type, and reads a missing continuationToken as the last page', async () => {
    const wrongType = clientFor(BASE, fx, alter((p) => p.includes('/resources/'), (body) => {
      (body.resources as Record<string, unknown>[])[0]!.deviceId = 42;
    }));
    const all = await clientFor(BASE, fx, sandboxFetch).resources.list(apiKey, deviceId).toArray({ limit: 100 });
    const [page] = await collect(wrongType.resources.list(apiKey, deviceId).pages());
    expect(page!.skipped).toEqual([{ id: all[0]!.id, reason: expect.stringContaining('deviceId') as string }]);
    expect(page!.items).toEqual(all.slice(1));

    const noToken = clientFor(BASE, fx, alter((p) => p.startsWith('/v1/usergroups/'), (body) => {
      delete body.continuationToken;
    }));
    const pages = await collect(noToken.userGroups.list(apiKey, deviceId, { pageSize: 5 }).pages());
    expect(pages).toHaveLength(1);
    expect(pages[0]!.items).toHaveLength(5);

    const badAccepted = clientFor(BASE, fx, alter((p) => p === '/v1/reservations', (body) => {
      body.correlationId = 'not-a-guid';
    }));
    const resident = fx.residents.find((r) => r.deviceId === deviceId)!;
    const e3 = await rejection(
      badAccepted.reservations.create(apiKey, { userId: resident.userId, resourceId: resident.resourceIds[0]!, startTime: '2031-01-10T07:00Z', endTime: '2031-01-10T10:00Z' }),
    );
    expect((e3 as ServiceContractError).path).toBe('correlationId');
  });

  it('names a bad token response field', async () => {
    const client = clientFor(BASE, fx, alter((p) => p.endsWith('/oauth2/v2.0/token'), (body) => {
      body.expires_in = 'soon';
    }));
    const error = await rejection(client.users.all(apiKey, deviceId));
    expect(error).toBeInstanceOf(ServiceContractError);
    expect((error as ServiceContractError).path).toBe('expires_in');
  });
});

describe('secrets', () => {
  it('never puts the client secret, a token or an API key in errors, API answers or logs', async () => {
    const lines: string[] = [];
    // Every log line, at every level, as written.
    const restoreLog = captureLog({ write: (line: string) => void lines.push(line) }, 'debug');
    try {
      const rec = recording(sandboxFetch);
      const secrets = [fx.clientSecret, apiKey];
      const errors: unknown[] = [];
      const badSecret = 'sbx~wrong-secret-0123456789';
      secrets.push(badSecret);
      errors.push(await rejection(clientFor(BASE, { ...fx, clientSecret: badSecret }, rec.fetch).users.all(apiKey, deviceId)));
      const client = clientFor(BASE, fx, rec.fetch, { retry: { maxRetries: 1, initialDelayMs: 1, maxDelayMs: 2 } });
      const badKey = 'sbx_not-a-real-key-9876543210';
      secrets.push(badKey);
      errors.push(await rejection(client.users.all(badKey, deviceId)));
      await putFaults(sandboxFetch, BASE, { failures: [{ status: 401, times: 2, pathPrefix: '/v1/' }] });
      errors.push(await rejection(client.users.all(apiKey, deviceId)));
      await putFaults(sandboxFetch, BASE, { errorRate: 1 });
      errors.push(await rejection(client.users.all(apiKey, deviceId)));
      await putFaults(sandboxFetch, BASE, { tokenEndpointDown: true });
      errors.push(await rejection(clientFor(BASE, fx, rec.fetch, { retry: { maxRetries: 1, initialDelayMs: 1, maxDelayMs: 2 } }).users.all(apiKey, deviceId)));
      // Every token that was ever sent counts as a secret too.
      for (const s of rec.sent) if (s.authorization) secrets.push(s.authorization.replace(/^Bearer /, ''));

      expect(errors.map((e) => (e as Error).name)).toEqual([
        'ServiceAuthError',
        'ServiceAuthError',
        'ServiceAuthError',
        'ServiceUnavailableError',
        'ServiceUnavailableError',
      ]);
      expect(lines.length).toBeGreaterThan(0); // the retries were logged
      const answers = await Promise.all(errors.map(async (e) => (await handleApiError(e)).text()));
      const everything = [...errors.map(errorText), ...answers, ...lines].join('\n');
      for (const secret of secrets) expect(everything).not.toContain(secret);
    } finally {
      restoreLog();
    }
  });
});

describe('API error translation', () => {
  it('maps each service error to its HTTP answer', async () => {
    const client = clientFor(BASE, fx, sandboxFetch, { retry: { maxRetries: 0 } });
    const answer = async (promise: Promise<unknown>) => {
      const response = await handleApiError(await rejection(promise));
      return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as { error: { message: string } } };
    };
    await putFaults(sandboxFetch, BASE, { errorRate: 1 });
    const unavailable = await answer(client.users.all(apiKey, deviceId));
    expect(unavailable.status).toBe(503);
    expect(unavailable.body.error.message).toMatch(/^The reservation service answered with an error \(HTTP 503\)/);
    await putFaults(sandboxFetch, BASE, { throttle: { rate: 1, retryAfterSeconds: 7 } });
    expect(await answer(client.users.all(apiKey, deviceId))).toMatchObject({ status: 429, retryAfter: '7' });
    await putFaults(sandboxFetch, BASE, { failures: [{ status: 400, times: 1 }] });
    const invalid = await answer(client.users.all(apiKey, deviceId));
    expect(invalid.status).toBe(422);
    expect(invalid.body.error.message).toContain('Injected by the sandbox fault settings.');
    await clearFaults(sandboxFetch, BASE);
    expect((await answer(client.apiKeys.generate('no-such-approval'))).status).toBe(404);
    expect((await answer(client.users.all('sbx_wrong', deviceId))).status).toBe(502);
  });
});

describe('portal wiring (sandbox mode)', () => {
  it('takes the credentials from the mounted sandbox in-process, then calls it over HTTP only for the service', async () => {
    // The portal mounts the handler at /sandbox and strips the prefix (app/sandbox/[...path]).
    const rec = recording(async (request) => {
      const url = new URL(request.url);
      expect(url.pathname.startsWith('/sandbox/')).toBe(true);
      url.pathname = url.pathname.slice('/sandbox'.length);
      return sandbox.fetch(new Request(url, request));
    });
    const client: ServiceClient = await createPortalServiceClient(
      {
        serviceMode: 'sandbox',
        PORTAL_URL: 'http://portal.test:3000',
        SERVICE_TIMEOUT_MS: 5_000,
        TOKEN_REFRESH_MARGIN_S: 300,
        SERVICE_BASE_URL: undefined,
        SERVICE_TOKEN_URL: undefined,
        SERVICE_CLIENT_ID: undefined,
        SERVICE_CLIENT_SECRET: undefined,
        SERVICE_SCOPE: undefined,
      },
      () => sandbox.fixtures(),
      rec.fetch,
    );
    // Nothing over HTTP yet: the public fixtures route is not the portal's source (issue 47).
    expect(rec.sent).toEqual([]);
    const users = await client.users.all(apiKey, deviceId);
    expect(users.length).toBeGreaterThan(0);
    expect(rec.sent.map((s) => s.path)).toEqual([
      `/sandbox${fx.tokenPath}`,
      `/sandbox/v1/reservations/users/fetch/${deviceId}`,
    ]);
  });
});
