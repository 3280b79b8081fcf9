// Vitest's global setup (issue 46): the migrations run once per test run, not once per test file.
// A migrated PGlite is dumped to a file each file's database is loaded from (`loadDataDir`), and
// with TEST_DATABASE_URL a migrated PostgreSQL database is made the template each file's database
// is created from (`CREATE DATABASE … TEMPLATE`). lib/db/migrate.test.ts and schema.test.ts still
// migrate from nothing (`describeWithDb(…, { fromScratch: true })`).
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '@/lib/db/client';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = path.join(process.cwd(), '.data', 'test-templates');
  mkdirSync(dir, { recursive: true });
  const tag = `${process.pid}_${randomBytes(3).toString('hex')}`;

  const pglite = await openDatabase({ dataDir: 'memory://' });
  const file = path.join(dir, `pglite-${tag}.tar`);
  try {
    if (pglite.driver.kind !== 'pglite') throw new Error('expected PGlite');
    const dump = await pglite.driver.client.dumpDataDir('none');
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await pglite.close();
  }
  project.provide('pgliteTemplate', file);

  const adminUrl = process.env.TEST_DATABASE_URL;
  let template = '';
  if (adminUrl) {
    template = `portal_template_${tag}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${template}`);
    await admin.end();
    const url = new URL(adminUrl);
    url.pathname = `/${template}`;
    // Migrated, then closed: a template database must have no connection when it is copied.
    const handle = await openDatabase({ url: url.toString(), maxConnections: 1 });
    await handle.close();
  }
  project.provide('postgresTemplate', template);

  return async () => {
    rmSync(file, { force: true });
    if (!adminUrl || !template) return;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
    await admin.end();
  };
}
