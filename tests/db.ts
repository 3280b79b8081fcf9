import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, inject } from 'vitest';
import { env } from '@/lib/env';
import { openDatabase, type Database, type DbHandle, type OpenOptions } from '@/lib/db/client';
import * as schema from '@/lib/db/schema';

/** File that .ci/run reads to prove the PostgreSQL runs happened. */
// Under .data/, not test-results/: Playwright empties test-results/ when it starts.
export const POSTGRES_MARKER = path.join(process.cwd(), '.data', 'postgres-suites.log');

export interface TestDatabase {
  kind: DbHandle['kind'];
  /** Options that open this same database again (a second "instance"). */
  options: OpenOptions;
  handle: DbHandle;
  dispose(): Promise<void>;
}

export interface TestDbChoice {
  /**
   * Migrate an empty database instead of starting from the migrated template that
   * tests/global-setup.ts makes once per run (the migration and schema tests).
   */
  fromScratch?: boolean;
}

let pgliteTemplate: Blob | undefined;
/** The migrated PGlite data directory of this run (tests/global-setup.ts), read once per test file. */
function migratedPglite(): Blob | undefined {
  const file = inject('pgliteTemplate');
  if (!file) return undefined;
  pgliteTemplate ??= new Blob([readFileSync(file)]);
  return pgliteTemplate;
}

/** An in-memory PGlite: a copy of the migrated template, or migrated from nothing. */
export async function createPgliteTestDb(options: Partial<OpenOptions> = {}, choice: TestDbChoice = {}): Promise<TestDatabase> {
  const template = choice.fromScratch ? undefined : migratedPglite();
  const opts = { dataDir: 'memory://', ...(template ? { loadDataDir: template } : {}), ...options };
  const handle = await openDatabase(opts);
  return { kind: 'pglite', options: opts, handle, dispose: () => handle.close() };
}

/** A fresh PostgreSQL database created for one test file (from the migrated template) and dropped after it. */
export async function createPostgresTestDb(
  adminUrl: string,
  options: Partial<OpenOptions> = {},
  choice: TestDbChoice = {},
): Promise<TestDatabase> {
  const { default: pg } = await import('pg');
  const name = `portal_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const template = choice.fromScratch ? undefined : inject('postgresTemplate');
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const opts = { url: url.toString(), maxConnections: 5, ...options };
  const handle = await openDatabase(opts);
  mkdirSync(path.dirname(POSTGRES_MARKER), { recursive: true });
  appendFileSync(POSTGRES_MARKER, `${name}\n`);
  return {
    kind: 'postgres',
    options: opts,
    handle,
    async dispose() {
      await handle.close();
      const drop = new pg.Client({ connectionString: adminUrl });
      await drop.connect();
      await drop.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await drop.end();
    },
  };
}

/**
 * A second drizzle instance over the same driver client that counts the statements it sends.
 * It is an object of its own, so caches kept per database handle start empty for it.
 */
export async function countingDb(handle: DbHandle): Promise<{ db: Database; queries: () => number }> {
  let queries = 0;
  const logger = { logQuery: () => void (queries += 1) };
  let db: Database;
  if (handle.driver.kind === 'pglite') {
    const { drizzle } = await import('drizzle-orm/pglite');
    db = drizzle({ client: handle.driver.client, schema, logger });
  } else {
    const { drizzle } = await import('drizzle-orm/node-postgres');
    db = drizzle({ client: handle.driver.client, schema, logger });
  }
  return { db, queries: () => queries };
}

export type DbTarget = 'pglite' | 'postgres';

/** PGlite always; PostgreSQL too when TEST_DATABASE_URL is set. In CI a missing URL is an error. */
export function dbTargets(): DbTarget[] {
  if (env.TEST_DATABASE_URL) return ['pglite', 'postgres'];
  if (process.env.CI === 'true') {
    throw new Error('TEST_DATABASE_URL is not set in CI: the PostgreSQL runs would be skipped');
  }
  return ['pglite'];
}

export function createTestDb(target: DbTarget, options: Partial<OpenOptions> = {}, choice: TestDbChoice = {}) {
  if (target === 'pglite') return createPgliteTestDb(options, choice);
  if (!env.TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set');
  return createPostgresTestDb(env.TEST_DATABASE_URL, options, choice);
}

/**
 * Runs a suite once per database target, sharing one database per target across the suite
 * (PGlite's cold start is seconds; a database per test would dominate the run).
 */
export function describeWithDb(title: string, body: (ctx: () => TestDatabase) => void, choice: TestDbChoice = {}): void {
  for (const target of dbTargets()) {
    describe(`${title} [${target}]`, () => {
      let current: TestDatabase | undefined;
      beforeAll(async () => {
        current = await createTestDb(target, {}, choice);
      }, 60_000);
      afterAll(async () => {
        await current?.dispose();
      }, 60_000);
      body(() => {
        if (!current) throw new Error('test database not ready');
        return current;
      });
    });
  }
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** A file holding the migrated PGlite data directory (a tar), or '' when none was made. */
    pgliteTemplate: string;
    /** The migrated PostgreSQL template database of this run, or '' without TEST_DATABASE_URL. */
    postgresTemplate: string;
  }
}
