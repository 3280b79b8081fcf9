import 'server-only';
import path from 'node:path';
import { env } from '@/lib/env';
import { openDatabase, type DbHandle } from './client';
import { existingSingleton, singletonPromise } from '@/lib/singleton';

export type { Database, DatabaseKind, DbHandle } from './client';

// One handle per process, kept on globalThis so that Next's dev reloads reuse it:
// two PGlite instances on one data directory would corrupt it.
/** The portal's database, opened and migrated on first use (never at build time). */
export function getDb(): Promise<DbHandle> {
  // A failure is forgotten: the next caller tries again (e.g. PostgreSQL was down at first use).
  return singletonPromise('database', () =>
    openDatabase(env.DATABASE_URL ? { url: env.DATABASE_URL } : { dataDir: path.resolve(env.DATA_DIR, 'pglite') }),
  );
}

/** Closes the portal's database if this process opened it (shutdown). */
export async function closeDb(): Promise<void> {
  const handle = existingSingleton<Promise<DbHandle>>('database');
  await (await handle?.catch(() => undefined))?.close();
}
