// shared/: server-side, dependency-free (type imports aside) helpers that both the portal and the sandbox import (the
// sandbox imports nothing else of the portal). Nothing here imports from lib/, app/, components/ or
// sandbox/. No `import 'server-only'`: the standalone sandbox runs these under plain Node (tsx),
// where that marker throws; the portal's own guard is lib/db/client.ts, which hands the runner out.
import type { PGlite } from '@electric-sql/pglite';
import type { Pool, PoolClient } from 'pg';

/**
 * The smallest raw-SQL surface both drivers share: multi-statement scripts (migrations),
 * parameterised queries, and transactions. Drizzle covers typed queries; this covers the rest.
 */
export interface SqlRunner {
  exec(script: string): Promise<void>;
  query<T extends Record<string, unknown> = Record<string, unknown>>(
    text: string,
    params?: unknown[],
  ): Promise<{ rows: T[] }>;
  transaction<T>(fn: (tx: SqlRunner) => Promise<T>): Promise<T>;
}

type PgliteLike = Pick<PGlite, 'exec' | 'query' | 'transaction'>;
type PgliteTx = Parameters<Parameters<PGlite['transaction']>[0]>[0];

export function pgliteRunner(client: PgliteLike | PgliteTx, inTransaction = false): SqlRunner {
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
      return (client as PgliteLike).transaction((tx) => fn(pgliteRunner(tx, true)));
    },
  };
}

function pgClientRunner(client: PoolClient): SqlRunner {
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

export function pgPoolRunner(pool: Pool): SqlRunner {
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
        const value = await fn(pgClientRunner(client));
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
