import type { PGlite } from '@electric-sql/pglite';
import type { Pool, PoolClient } from 'pg';

/** Raw SQL surface the sandbox needs; structurally equal to the portal's SqlRunner. */
export interface SandboxSql {
  exec(script: string): Promise<void>;
  query<T extends Record<string, unknown> = Record<string, unknown>>(
    text: string,
    params?: unknown[],
  ): Promise<{ rows: T[] }>;
  transaction<T>(fn: (tx: SandboxSql) => Promise<T>): Promise<T>;
}

type PgliteLike = Pick<PGlite, 'exec' | 'query' | 'transaction'>;
type PgliteTx = Parameters<Parameters<PGlite['transaction']>[0]>[0];

// Copies of the portal's tiny adapters: the sandbox imports nothing from the portal.
export function pgliteSql(client: PgliteLike | PgliteTx, inTransaction = false): SandboxSql {
  return {
    async exec(script) {
      await client.exec(script);
    },
    async query<T extends Record<string, unknown>>(text: string, params: unknown[] = []) {
      const result = await client.query<T>(text, params);
      return { rows: result.rows };
    },
    async transaction(fn) {
      if (inTransaction) return fn(this);
      return (client as PgliteLike).transaction((tx) => fn(pgliteSql(tx, true)));
    },
  };
}

function pgClientSql(client: PoolClient): SandboxSql {
  return {
    async exec(script) {
      await client.query(script);
    },
    async query<T extends Record<string, unknown>>(text: string, params: unknown[] = []) {
      const result = await client.query<T>(text, params);
      return { rows: result.rows };
    },
    async transaction(fn) {
      return fn(this);
    },
  };
}

export function pgPoolSql(pool: Pool): SandboxSql {
  return {
    async exec(script) {
      await pool.query(script);
    },
    async query<T extends Record<string, unknown>>(text: string, params: unknown[] = []) {
      const result = await pool.query<T>(text, params);
      return { rows: result.rows };
    },
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const value = await fn(pgClientSql(client));
        await client.query('COMMIT');
        return value;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
  };
}

export interface OpenedSql {
  kind: 'pglite' | 'postgres';
  sql: SandboxSql;
  close(): Promise<void>;
}

/** Opens a database for standalone use and tests: PostgreSQL when a URL is given, else PGlite. */
export async function openSandboxSql(options: { url?: string; dataDir?: string }): Promise<OpenedSql> {
  if (options.url) {
    const { default: pg } = await import('pg');
    const pool = new pg.Pool({ connectionString: options.url, max: 5, connectionTimeoutMillis: 5_000 });
    pool.on('error', () => undefined);
    return { kind: 'postgres', sql: pgPoolSql(pool), close: () => pool.end() };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const dataDir = options.dataDir ?? 'memory://';
  if (!dataDir.startsWith('memory://')) {
    const { mkdir } = await import('node:fs/promises');
    await mkdir(dataDir, { recursive: true });
  }
  const client = await PGlite.create(dataDir);
  return { kind: 'pglite', sql: pgliteSql(client), close: () => client.close() };
}
