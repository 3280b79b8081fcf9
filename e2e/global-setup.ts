// Before the workers start (issue 46): the production build, once, and the seed world every spec's
// portal starts from a copy of — a demo portal started on a fresh data directory until its demo
// systems are connected and loaded, then stopped cleanly. The webhook it registered with its
// sandbox is taken out of the copy: each portal registers its own address when it starts.
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { request } from '@playwright/test';
import { readFixtures } from '@/sandbox/setup';
import { pgliteRunner } from '@/shared/sql-runner';
import { E2E_LOG_DIR, E2E_SECRETS, ROOT, SEED_DATA_DIR, SEED_FIXTURES_FILE, SEED_PORT, startPortal, WEBHOOK_REGISTERED } from './portal-server';

const DEMO_ADMIN = { email: 'admin@example.com', password: 'portal-demo' };

function build(): void {
  if (process.env.E2E_SKIP_BUILD === '1') return;
  console.log('== e2e: next build');
  const started = Date.now();
  // The known secrets are set for the build too: e2e/bundle-secrets.spec.ts proves none reaches .next/static.
  // Types are checked once, by `npm run typecheck` (PORTAL_BUILD_TYPECHECK=0 skips the build's own check).
  const result = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/next/dist/bin/next'), 'build'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, ...E2E_SECRETS, NODE_ENV: 'production', PORTAL_BUILD_TYPECHECK: process.env.PORTAL_BUILD_TYPECHECK ?? '0' },
  });
  if (result.status !== 0) throw new Error(`next build failed (exit ${result.status})`);
  console.log(`== e2e: built in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

async function makeSeedWorld(): Promise<void> {
  const started = Date.now();
  rmSync(SEED_DATA_DIR, { recursive: true, force: true });
  rmSync(`${SEED_DATA_DIR}.lock`, { force: true });
  const portal = await startPortal(SEED_PORT, SEED_DATA_DIR, 'seed');
  try {
    await portal.logLine(WEBHOOK_REGISTERED, 120_000);
    const api = await request.newContext({ baseURL: portal.url, extraHTTPHeaders: { 'Accept-Language': 'en' } });
    try {
      const csrf = (await (await api.get('/api/auth/csrf')).json()) as { csrfToken: string };
      const signIn = await api.post('/api/auth/callback/credentials', { form: { ...DEMO_ADMIN, csrfToken: csrf.csrfToken, json: 'true' }, headers: { origin: portal.url } });
      if (!signIn.ok()) throw new Error(`the seed world's admin sign-in answered ${signIn.status()}`);
      // Every connected demo system loaded: the first copy of each is what every spec starts from.
      const deadline = Date.now() + 180_000;
      for (;;) {
        const { systems } = (await (await api.get('/api/systems')).json()) as { systems?: { deviceId: string }[] };
        const statuses = await Promise.all(
          (systems ?? []).map(async (s) => ((await (await api.get(`/api/systems/${s.deviceId}/overview`)).json()) as { freshness?: { status?: string } }).freshness?.status),
        );
        if (statuses.length > 0 && statuses.every((status) => status === 'ready')) break;
        if (Date.now() > deadline) throw new Error(`the seed world's systems did not load within 180 s (${statuses.join(', ')})`);
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    } finally {
      await api.dispose();
    }
  } finally {
    await portal.stop('SIGTERM');
  }
  // Its webhook subscription named the seed portal's address: each copy's portal registers its own.
  // The sandbox's fixtures (with its client credentials, which no one is handed over HTTP) are read
  // here once for every spec: each spec's world is a copy of this one (e2e/utils.ts sandboxFixtures).
  const { PGlite } = await import('@electric-sql/pglite');
  const db = await PGlite.create(path.join(SEED_DATA_DIR, 'pglite'));
  try {
    await db.query('DELETE FROM sandbox.webhooks');
    const sql = pgliteRunner(db);
    const { rows } = await sql.query<{ key: string; value: string }>(`SELECT key, value FROM sandbox.meta WHERE key IN ('tenant_id', 'client_id', 'client_secret', 'audience')`);
    const meta = new Map(rows.map((r) => [r.key, r.value]));
    const fixtures = await readFixtures(sql, {
      tenantId: meta.get('tenant_id') ?? '',
      clientId: meta.get('client_id') ?? '',
      clientSecret: meta.get('client_secret') ?? '',
      audience: meta.get('audience') ?? '',
      signingKey: new Uint8Array(),
    });
    writeFileSync(SEED_FIXTURES_FILE, JSON.stringify(fixtures));
    // The areas an admin would have set (issue 49; the service has none): the demo manager's two
    // systems lie in Norr and Söder, so a spec can choose systems by area (e2e/manager-systems.spec.ts).
    const [north, south] = fixtures.approvals[0]?.deviceIds ?? [];
    if (!north || !south) throw new Error('the demo fixtures lack the first approval’s two systems');
    await db.query(`UPDATE systems SET area = CASE device_id WHEN $1::uuid THEN 'Norr' ELSE 'Söder' END WHERE device_id IN ($1::uuid, $2::uuid)`, [north, south]);
  } finally {
    await db.close();
  }
  console.log(`== e2e: seed world ready in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

export default async function globalSetup(): Promise<void> {
  rmSync(E2E_LOG_DIR, { recursive: true, force: true });
  build();
  await makeSeedWorld();
}
