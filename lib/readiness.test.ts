import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMigrations } from '@/lib/db/migrate';
import { BreakerRegistry, createServiceClient, type ServiceClient } from '@/lib/service';
import type { Sandbox, SandboxFixtures } from '@/sandbox';
import { describeWithDb } from '@/tests/db';
import { startTestSandbox } from '@/tests/sandbox-service';
import { readinessResponse, type ReadinessDeps, type ReadinessReport } from './readiness';

const migrationIds = async () => (await loadMigrations()).map((m) => m.id);

describeWithDb('GET /api/health/ready', (ctx) => {
  let sandbox: Sandbox;
  let fixtures: SandboxFixtures;
  let client: ServiceClient;

  beforeAll(async () => {
    ({ sandbox, fixtures, client } = await startTestSandbox({ sql: ctx().handle.sql, preset: 'demo', seed: 1 }));
  }, 120_000);
  afterAll(async () => {
    await sandbox.stop();
  });

  const deps = (overrides: Partial<ReadinessDeps> = {}): ReadinessDeps => ({
    db: () => Promise.resolve(ctx().handle),
    migrationIds,
    accessToken: () => client.accessToken(),
    ...overrides,
  });
  const ready = async (d: ReadinessDeps) => {
    const response = await readinessResponse(d);
    return { status: response.status, body: (await response.json()) as ReadinessReport };
  };

  it('answers 200 when the database answers, every migration is applied and the sandbox issues a token', async () => {
    const { status, body } = await ready(deps());
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 'ready', failing: [], checks: { database: { ok: true }, migrations: { ok: true }, upstreamToken: { ok: true } } });
  });

  it('answers 503 naming the migrations check, and which are missing, when one is not applied', async () => {
    const ids = await migrationIds();
    const last = ids.at(-1) ?? '';
    await ctx().handle.sql.query('DELETE FROM portal_migrations WHERE id = $1', [last]);
    try {
      const { status, body } = await ready(deps());
      expect(status).toBe(503);
      expect(body.status).toBe('not_ready');
      expect(body.failing).toEqual(['migrations']);
      expect(body.checks.migrations).toMatchObject({ ok: false, missing: [last], message: '1 migration is not applied.' });
    } finally {
      await ctx().handle.sql.query('INSERT INTO portal_migrations (id) VALUES ($1)', [last]);
    }
    expect((await ready(deps())).status).toBe(200);
  });

  it('answers 503 naming the token check when the credentials are refused, without echoing them', async () => {
    const wrongSecret = 'not-the-sandbox-secret-1234';
    const refused = createServiceClient({
      baseUrl: 'http://sandbox.test',
      tokenUrl: `http://sandbox.test${fixtures.tokenPath}`,
      clientId: fixtures.clientId,
      clientSecret: wrongSecret,
      scope: fixtures.scope,
      breaker: { registry: new BreakerRegistry() },
      fetch: (request) => sandbox.fetch(request),
    });
    const response = await readinessResponse(deps({ accessToken: () => refused.accessToken() }));
    const text = await response.text();
    expect(response.status).toBe(503);
    expect(text).not.toContain(wrongSecret);
    const body = JSON.parse(text) as ReadinessReport;
    expect(body.failing).toEqual(['upstreamToken']);
    expect(body.checks.upstreamToken.message).toMatch(/^No access token from the reservation service: /);
  });
});

describe('readiness without a database', () => {
  it('names the database, and the migrations as not checked, and gives up on a hanging check', async () => {
    const response = await readinessResponse({
      db: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:5432')),
      migrationIds,
      accessToken: () => new Promise(() => undefined),
      timeoutMs: 50,
    });
    expect(response.status).toBe(503);
    const body = (await response.json()) as ReadinessReport;
    expect(body.failing).toEqual(['database', 'migrations', 'upstreamToken']);
    expect(body.checks.database.message).toContain('ECONNREFUSED');
    expect(body.checks.migrations.message).toBe('Not checked: the database is unreachable.');
    expect(body.checks.upstreamToken.message).toContain('no answer within 50 ms');
  });
});
