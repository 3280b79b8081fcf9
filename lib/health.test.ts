import { afterEach, describe, expect, it, vi } from 'vitest';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createPostgresTestDb } from '@/tests/db';
import { checkHealthWith, type HealthDeps } from './health';

// Each case loads the route afresh under its own environment, as a new server process would.
async function loadRoute(vars: Record<string, string>) {
  vi.resetModules();
  for (const [k, v] of Object.entries(vars)) vi.stubEnv(k, v);
  delete (globalThis as { __portalDb?: unknown }).__portalDb;
  return import('@/app/api/health/route');
}

/** Closes and forgets the process's database handle (lib/db keeps it in lib/singleton's registry). */
async function closeDb() {
  const { forgetSingleton, singletonPromise } = await import('@/lib/singleton');
  const handle = await singletonPromise<{ close(): Promise<void> } | null>('database', () => Promise.resolve(null)).catch(() => null);
  await handle?.close().catch(() => undefined);
  forgetSingleton('database');
}

afterEach(async () => {
  await closeDb();
  const pending = (globalThis as { __portalDb?: Promise<{ close(): Promise<void> }> }).__portalDb;
  delete (globalThis as { __portalDb?: unknown }).__portalDb;
  await pending?.then((h) => h.close()).catch(() => undefined);
  vi.unstubAllEnvs();
});

describe('GET /api/health', () => {
  it('answers 503 naming the database when it is unreachable', async () => {
    const { GET } = await loadRoute({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/nothing' });
    const response = await GET(new Request('http://portal.test/api/health'), undefined);
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({
      status: 'error',
      failing: 'database',
      database: 'postgres',
      service: 'sandbox',
    });
  });

  it.runIf(Boolean(process.env.TEST_DATABASE_URL))('reports postgres when DATABASE_URL is set', async () => {
    const fresh = await createPostgresTestDb(process.env.TEST_DATABASE_URL ?? '', { migrate: false });
    try {
      const { GET } = await loadRoute({ DATABASE_URL: fresh.options.url ?? '' });
      const response = await GET(new Request('http://portal.test/api/health'), undefined);
      // 200 whether or not a sandbox answers at PORTAL_URL here: that is `degraded`, not down.
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ database: 'postgres', service: 'sandbox' });
    } finally {
      await closeDb();
      const pending = (globalThis as { __portalDb?: Promise<{ close(): Promise<void> }> }).__portalDb;
      delete (globalThis as { __portalDb?: unknown }).__portalDb;
      await pending?.then((h) => h.close());
      await fresh.dispose();
    }
  });
});

describe('GET /api/health with a sandbox that does not answer', () => {
  it('is 200 "degraded", naming the sandbox address it tried and PORTAL_URL', async () => {
    // Port 1: nothing listens there, as nothing listened on :3000 for a portal started with -p 3300.
    const { GET } = await loadRoute({ DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'health-')), PORTAL_URL: 'http://127.0.0.1:1', SERVICE_TIMEOUT_MS: '2000' });
    // The first open of a fresh PGlite (migrations) may take longer than the health check waits.
    await (await import('@/lib/db')).getDb();
    const response = await GET(new Request('http://portal.test/api/health'), undefined);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { status: string; failing: string; message: string };
    expect(body).toMatchObject({ status: 'degraded', failing: 'service', database: 'pglite', service: 'sandbox' });
    expect(body.message).toContain('The built-in sandbox at http://127.0.0.1:1/sandbox cannot be reached');
    expect(body.message).toContain('PORTAL_URL');
  }, 60_000);
});

describe('checkHealthWith', () => {
  const deps = (over: Partial<HealthDeps>): HealthDeps => ({
    pingDatabase: () => Promise.resolve(),
    accessToken: () => Promise.resolve('token'),
    startupProblems: () => [],
    serviceMode: 'sandbox',
    databaseKind: 'pglite',
    sandboxUrl: 'http://localhost:3300/sandbox',
    timeoutMs: 200,
    ...over,
  });

  it('is ok when the database and the service answer', async () => {
    expect(await checkHealthWith(deps({}))).toEqual({ status: 'ok', database: 'pglite', service: 'sandbox' });
  });

  it('is degraded with the reason when the service gives no token, or does not answer in time', async () => {
    const refused = await checkHealthWith(deps({ serviceMode: 'remote', accessToken: () => Promise.reject(new Error('invalid_client')) }));
    expect(refused).toMatchObject({ status: 'degraded', failing: 'service' });
    expect(refused.message).toBe('The reservation service gives no access token (invalid_client).');
    const hanging = await checkHealthWith(deps({ accessToken: () => new Promise(() => undefined) }));
    expect(hanging.message).toMatch(/sandbox at http:\/\/localhost:3300\/sandbox cannot be reached \(no answer within 200 ms\)/);
  });

  it('is degraded when a start-up connection gave up, though the service answers now', async () => {
    const report = await checkHealthWith(deps({ startupProblems: () => ['The demo systems could not be connected at start.'] }));
    expect(report).toMatchObject({ status: 'degraded', message: 'The demo systems could not be connected at start.' });
  });

  it('is an error, without asking the service, when the database is down', async () => {
    let asked = false;
    const report = await checkHealthWith(deps({ pingDatabase: () => Promise.reject(new Error('down')), accessToken: () => ((asked = true), Promise.resolve()) }));
    expect(report).toMatchObject({ status: 'error', failing: 'database' });
    expect(asked).toBe(false);
  });
});
