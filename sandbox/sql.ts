import { pgliteRunner, pgPoolRunner, type SqlRunner } from '@/shared/sql-runner';

export interface OpenedSql {
  kind: 'pglite' | 'postgres';
  sql: SqlRunner;
  close(): Promise<void>;
}

/** Opens a database for standalone use and tests: PostgreSQL when a URL is given, else PGlite. */
export async function openSandboxSql(options: { url?: string; dataDir?: string }): Promise<OpenedSql> {
  if (options.url) {
    const { default: pg } = await import('pg');
    const pool = new pg.Pool({ connectionString: options.url, max: 5, connectionTimeoutMillis: 5_000 });
    pool.on('error', () => undefined);
    return { kind: 'postgres', sql: pgPoolRunner(pool), close: () => pool.end() };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const dataDir = options.dataDir ?? 'memory://';
  if (!dataDir.startsWith('memory://')) {
    const { mkdir } = await import('node:fs/promises');
    await mkdir(dataDir, { recursive: true });
  }
  const client = await PGlite.create(dataDir);
  return { kind: 'pglite', sql: pgliteRunner(client), close: () => client.close() };
}
