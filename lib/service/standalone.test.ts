// The client over real HTTP against `npm run sandbox` (its own process, own PGlite), faults set
// through PUT /_sandbox/faults. Port 4020 (SERVICE_TEST_PORT overrides it).
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxFixtures } from '@/sandbox';
import { type ServiceAuthError, ServiceUnavailableError } from './errors';
import { env } from '@/lib/env';
import { createPortalServiceClient, getServiceClient } from './client-from-settings';
import { BreakerRegistry } from './policies';
import { clearFaults, clientFor, putFaults, recording } from '@/tests/service';
import type { FetchLike } from './transport';
import { forgetSingleton } from '@/lib/singleton';

const PORT = Number(process.env.SERVICE_TEST_PORT ?? 4020);
const BASE = `http://127.0.0.1:${PORT}`;
const realFetch: FetchLike = (request) => fetch(request);

let child: ChildProcess | undefined;
let dataDir: string;
let fx: SandboxFixtures;
let apiKey: string;
let deviceId: string;
let covered: string[];

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'service-test-sandbox-'));
  child = spawn('npm', ['run', 'sandbox', '--', '--port', String(PORT), '--seed', '7', '--data-dir', dataDir], {
    cwd: process.cwd(),
    detached: true, // its own process group, so afterAll stops npm, tsx and node together
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`sandbox did not start in time:\n${output}`)), 90_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('ready in')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child!.stdout!.on('data', onData);
    child!.stderr!.on('data', onData);
    child!.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`sandbox exited with ${code}:\n${output}`));
    });
  });
  fx = (await (await fetch(`${BASE}/_sandbox/fixtures`)).json()) as SandboxFixtures;
  const grant = await clientFor(BASE, fx, realFetch).apiKeys.generate(fx.approvals[0]!.approvalId);
  apiKey = grant.apiKey;
  deviceId = grant.deviceIds[0]!;
  covered = grant.deviceIds;
}, 120_000);

afterAll(async () => {
  if (child?.pid !== undefined && child.exitCode === null) {
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    process.kill(-child.pid, 'SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
  }
  rmSync(dataDir, { recursive: true, force: true });
}, 20_000);

afterEach(async () => {
  await clearFaults(realFetch, BASE);
});

const rejection = async (promise: Promise<unknown>): Promise<unknown> => {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
};

describe('over HTTP against npm run sandbox', () => {
  it('works as the portal configures it in remote mode', async () => {
    const client = await createPortalServiceClient({
      serviceMode: 'remote',
      PORTAL_URL: 'http://localhost:3000',
      SERVICE_BASE_URL: BASE,
      SERVICE_TOKEN_URL: `${BASE}${fx.tokenPath}`,
      SERVICE_CLIENT_ID: fx.clientId,
      SERVICE_CLIENT_SECRET: fx.clientSecret,
      SERVICE_SCOPE: fx.scope,
      SERVICE_TIMEOUT_MS: 5_000,
      TOKEN_REFRESH_MARGIN_S: 300,
    });
    const groups = await client.userGroups.list(apiKey, deviceId, { pageSize: 10 }).toArray({ limit: 10_000 });
    expect(groups.length).toBeGreaterThan(10);
    expect(new Set(groups.map((g) => g.id)).size).toBe(groups.length);
  });

  it('getServiceClient: credentials from the reader it is given, every call over HTTP to the sandbox mounted at PORTAL_URL/sandbox', async () => {
    // A stand-in for the portal's mount: strips /sandbox and forwards over HTTP to the standalone.
    const mount = createServer((req, res) => {
      const target = (req.url ?? '/').replace(/^\/sandbox/, '') || '/';
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const headers = new Headers();
        for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host') headers.set(k, v);
        fetch(`${BASE}${target}`, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined })
          .then(async (upstream) => {
            res.statusCode = upstream.status;
            upstream.headers.forEach((v, k) => {
              if (k !== 'content-encoding' && k !== 'content-length') res.setHeader(k, v);
            });
            res.end(Buffer.from(await upstream.arrayBuffer()));
          })
          .catch(() => {
            res.statusCode = 502;
            res.end();
          });
      });
    });
    const portalUrl = env.PORTAL_URL;
    env.PORTAL_URL = `http://127.0.0.1:${PORT + 1}`;
    try {
      // A reader that fails (the sandbox not started): reported, and not cached.
      await expect(getServiceClient(() => Promise.reject(new Error('not started')))).rejects.toBeInstanceOf(ServiceUnavailableError);
      await new Promise<void>((resolve) => mount.listen(PORT + 1, '127.0.0.1', resolve));
      const client = await getServiceClient(() => Promise.resolve(fx));
      expect(await getServiceClient(() => Promise.resolve(fx))).toBe(client); // one per process
      const resident = fx.residents.find((r) => r.deviceId === deviceId && r.apartmentId.includes('/'))
        ?? fx.residents.find((r) => r.deviceId === deviceId)!;
      expect((await client.users.byApartment(apiKey, resident.apartmentId)).map((u) => u.userId)).toContain(resident.userId);
    } finally {
      env.PORTAL_URL = portalUrl;
      forgetSingleton('service-client');
      await new Promise((resolve) => mount.close(resolve));
    }
  });

  it('makes one token request for 50 concurrent calls', async () => {
    const rec = recording(realFetch);
    const client = clientFor(BASE, fx, rec.fetch);
    await Promise.all(Array.from({ length: 50 }, () => client.resources.list(apiKey, deviceId).toArray({ limit: 100 })));
    expect(rec.tokenRequests()).toBe(1);
    expect(rec.serviceRequests()).toHaveLength(50);
  });

  it('reaches the right user through real URL parsing: +, @, upper case, spaces and /', async () => {
    const client = clientFor(BASE, fx, realFetch);
    const mine = fx.residents.filter((r) => covered.includes(r.deviceId));
    const tricky = mine.filter((r) => /[+A-Z]/.test(r.email) || /[ /]/.test(r.apartmentId));
    expect(tricky.some((r) => r.email.includes('+'))).toBe(true);
    expect(tricky.some((r) => r.apartmentId.includes('/'))).toBe(true);
    for (const r of tricky) {
      expect((await client.users.byEmail(apiKey, r.email)).map((u) => u.userId), r.email).toContain(r.userId);
      const byApartment = await client.users.byApartment(apiKey, r.apartmentId);
      expect(byApartment.map((u) => u.userId), r.apartmentId).toContain(r.userId);
      // The key may cover several systems, each with its own apartment of that number.
      expect(byApartment.filter((u) => u.deviceId === r.deviceId).every((u) => u.userGroupId === r.userGroupId)).toBe(true);
    }
  });

  it('answers a 401 with one refresh and one retry, and a second 401 with an auth error', async () => {
    const rec = recording(realFetch);
    const client = clientFor(BASE, fx, rec.fetch);
    await putFaults(realFetch, BASE, { failures: [{ status: 401, times: 1, pathPrefix: '/v1/' }] });
    expect((await client.users.all(apiKey, deviceId)).length).toBeGreaterThan(0);
    expect(rec.tokenRequests()).toBe(2);
    await putFaults(realFetch, BASE, { failures: [{ status: 401, times: 2, pathPrefix: '/v1/' }] });
    const error = await rejection(client.users.all(apiKey, deviceId));
    expect((error as ServiceAuthError).credential).toBe('token');
    expect(rec.tokenRequests()).toBe(3);
  });

  it('waits out a 429 with Retry-After: 1, then succeeds', async () => {
    const client = clientFor(BASE, fx, realFetch);
    await client.users.all(apiKey, deviceId);
    await putFaults(realFetch, BASE, { failures: [{ status: 429, times: 1, retryAfterSeconds: 1, pathPrefix: '/v1/' }] });
    const started = performance.now();
    expect((await client.users.all(apiKey, deviceId)).length).toBeGreaterThan(0);
    expect(performance.now() - started).toBeGreaterThanOrEqual(1000);
  });

  it('retries a 503 on page 3 of 5 (every item once); exhausted retries fail the iteration', async () => {
    const rec = recording(realFetch);
    const client = clientFor(BASE, fx, rec.fetch);
    const expected = (await client.userGroups.list(apiKey, deviceId).toArray({ limit: 10_000 })).map((g) => g.id);
    const pageSize = Math.ceil(expected.length / 5);
    const listPath = `/v1/usergroups/${deviceId}/all`;
    await putFaults(realFetch, BASE, { failures: [{ status: 503, times: 1, skip: 2, pathPrefix: listPath }] });
    rec.reset();
    const ids: string[] = [];
    for await (const g of client.userGroups.list(apiKey, deviceId, { pageSize })) ids.push(g.id);
    expect(ids).toEqual(expected);
    expect(rec.serviceRequests(listPath)).toHaveLength(6);

    await putFaults(realFetch, BASE, { failures: [{ status: 503, times: 50, skip: 2, pathPrefix: listPath }] });
    await expect(client.userGroups.list(apiKey, deviceId, { pageSize }).toArray({ limit: 10_000 })).rejects.toBeInstanceOf(ServiceUnavailableError);
  });

  it('cuts a hanging upstream at the timeout', async () => {
    const client = clientFor(BASE, fx, realFetch, { timeoutMs: 250, retry: { maxRetries: 0 } });
    await client.users.all(apiKey, deviceId);
    await putFaults(realFetch, BASE, { hang: { ms: 10_000, pathPrefix: '/v1/' } });
    const started = performance.now();
    const error = await rejection(client.users.all(apiKey, deviceId));
    const elapsed = performance.now() - started;
    expect((error as ServiceUnavailableError).reason).toBe('timeout');
    expect(elapsed).toBeGreaterThanOrEqual(240);
    expect(elapsed).toBeLessThan(1_000);
  });

  it('opens the breaker on a failing upstream and recovers when it is back', async () => {
    const rec = recording(realFetch);
    const client = clientFor(BASE, fx, rec.fetch, {
      retry: { maxRetries: 1, initialDelayMs: 5, maxDelayMs: 10 },
      breaker: { registry: new BreakerRegistry(), consecutiveFailures: 4, halfOpenAfterMs: 400 },
    });
    await client.users.all(apiKey, deviceId);
    await putFaults(realFetch, BASE, { errorRate: 1 });
    await rejection(client.users.all(apiKey, deviceId)); // 2 failures
    await rejection(client.users.all(apiKey, deviceId)); // 4: open
    rec.reset();
    const open = await rejection(client.users.all(apiKey, deviceId));
    expect((open as ServiceUnavailableError).reason).toBe('circuit-open');
    expect(rec.sent).toHaveLength(0);
    await clearFaults(realFetch, BASE);
    await new Promise((r) => setTimeout(r, 450));
    expect((await client.users.all(apiKey, deviceId)).length).toBeGreaterThan(0);
    expect(rec.serviceRequests()).toHaveLength(1);
  });

  it('treats a refused connection as unavailable, retried, and counted by the breaker', async () => {
    const dead = `http://127.0.0.1:${PORT + 4}`; // nothing listens there
    const rec = recording(realFetch);
    const client = createDeadClient(dead, rec.fetch);
    const error = await rejection(client.users.all(apiKey, deviceId));
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect((error as ServiceUnavailableError).reason).toBe('network');
    expect(rec.tokenRequests()).toBe(3); // first try and two retries of the token request
  });
});

function createDeadClient(base: string, fetchFn: FetchLike) {
  return clientFor(base, fx, fetchFn, { retry: { maxRetries: 2, initialDelayMs: 5, maxDelayMs: 10 } });
}
