import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPostgresTestDb } from '@/tests/db';

// Each case loads the route afresh under its own environment, as a new server process would.
async function loadRoute(vars: Record<string, string>) {
  vi.resetModules();
  for (const [k, v] of Object.entries(vars)) vi.stubEnv(k, v);
  delete (globalThis as { __portalDb?: unknown }).__portalDb;
  return import('@/app/api/health/route');
}

afterEach(async () => {
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
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ status: 'ok', database: 'postgres', service: 'sandbox' });
    } finally {
      const pending = (globalThis as { __portalDb?: Promise<{ close(): Promise<void> }> }).__portalDb;
      delete (globalThis as { __portalDb?: unknown }).__portalDb;
      await pending?.then((h) => h.close());
      await fresh.dispose();
    }
  });
});
