import 'server-only';
import { mkdir } from 'node:fs/promises';
import type { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { Pool } from 'pg';
import { migrate } from './migrate';
import { lockDataDir } from './pglite-lock';
import { observedQueries } from './query-observer';
import * as schema from './schema';
import { pgliteRunner, pgPoolRunner, type SqlRunner } from '@/shared/sql-runner';

export type Schema = typeof schema;
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
export type DatabaseKind = 'pglite' | 'postgres';

export interface DbHandle {
  kind: DatabaseKind;
  /** Every query of the portal: typed, or hand-written with drizzle's `sql` (see ./raw.ts). */
  db: Database;
  /** Raw SQL runner for multi-statement scripts: migrations, and the sandbox mounted on this database. */
  sql: SqlRunner;
  /** The driver's own client, for what neither surface offers (LISTEN on PostgreSQL). */
  driver: { kind: 'pglite'; client: PGlite } | { kind: 'postgres'; client: Pool };
  close(): Promise<void>;
}

export interface OpenOptions {
  /** A postgres:// URL; when absent PGlite is used. */
  url?: string;
  /** PGlite data directory, or `memory://` for an in-memory database. */
  dataDir?: string;
  /** Apply pending migrations before returning (default true). */
  migrate?: boolean;
  /** Pool size for PostgreSQL. */
  maxConnections?: number;
  /** PGlite: start from this dumped data directory (`dumpDataDir`) instead of an empty one (tests' migrated template). */
  loadDataDir?: Blob;
}

export async function openDatabase(options: OpenOptions): Promise<DbHandle> {
  const handle = options.url
    ? await openPostgres(options.url, options.maxConnections ?? 10)
    : await openPglite(options.dataDir ?? 'memory://', options.loadDataDir);
  if (options.migrate !== false) {
    try {
      await migrate(handle.sql);
    } catch (error) {
      await handle.close().catch(() => undefined);
      throw error;
    }
  }
  return handle;
}

/**
 * PGlite's postgres touches its whole shared_buffers (128 MB by default) in the WASM heap at start,
 * and a WASM heap never shrinks. 32 MB cut the process's RSS at open from 286 to 180 MB; pages
 * beyond it are read from the data files through the OS page cache (docs/decisions/027).
 */
export const PGLITE_SETTINGS = ['-c', 'shared_buffers=32MB'] as const;

async function openPglite(dataDir: string, loadDataDir?: Blob): Promise<DbHandle> {
  const [{ PGlite }, { drizzle }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('drizzle-orm/pglite'),
  ]);
  let unlock = () => undefined as void;
  if (!dataDir.startsWith('memory://')) {
    await mkdir(dataDir, { recursive: true });
    unlock = lockDataDir(dataDir);
  }
  let client: PGlite;
  try {
    client = await PGlite.create(dataDir, { startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS], ...(loadDataDir ? { loadDataDir } : {}) });
  } catch (error) {
    unlock();
    throw error;
  }
  // Each statement reported to the query observer (the request's Server-Timing, when on).
  client.query = observedQueries(client.query.bind(client)) as PGlite['query'];
  return {
    kind: 'pglite',
    db: drizzle({ client, schema }) as unknown as Database,
    sql: pgliteRunner(client),
    driver: { kind: 'pglite', client },
    close: async () => {
      await client.close();
      unlock();
    },
  };
}

async function openPostgres(url: string, max: number): Promise<DbHandle> {
  const [{ default: pg }, { drizzle }] = await Promise.all([
    import('pg'),
    import('drizzle-orm/node-postgres'),
  ]);
  const pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: 5_000 });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  // Each statement outside a transaction reported to the query observer (Server-Timing, when on).
  pool.query = observedQueries(pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>) as Pool['query'];
  return {
    kind: 'postgres',
    db: drizzle({ client: pool, schema }) as unknown as Database,
    sql: pgPoolRunner(pool),
    driver: { kind: 'postgres', client: pool },
    close: () => pool.end(),
  };
}
