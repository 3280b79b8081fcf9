import 'server-only';
import path from 'node:path';
import { env } from '@/lib/env';
import { openDatabase, type DbHandle } from './client';

export type { Database, DatabaseKind, DbHandle } from './client';

// One handle per process, kept on globalThis so that Next's dev reloads reuse it:
// two PGlite instances on one data directory would corrupt it.
const globalForDb = globalThis as typeof globalThis & { __portalDb?: Promise<DbHandle> };

/** The portal's database, opened and migrated on first use (never at build time). */
export function getDb(): Promise<DbHandle> {
  globalForDb.__portalDb ??= openDatabase(
    env.DATABASE_URL
      ? { url: env.DATABASE_URL }
      : { dataDir: path.resolve(env.DATA_DIR, 'pglite') },
  ).catch((error: unknown) => {
    // Let the next caller try again (e.g. PostgreSQL was down at first use).
    globalForDb.__portalDb = undefined;
    throw error;
  });
  return globalForDb.__portalDb;
}
