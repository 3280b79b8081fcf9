import 'server-only';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { SqlRunner } from '@/shared/sql-runner';

// Read at run time from the checkout (`next start` runs in the project root), not bundled.
export const MIGRATIONS_DIR = path.join(/*turbopackIgnore: true*/ process.cwd(), 'lib', 'db', 'migrations');

// Serialises migrations across processes sharing one PostgreSQL (scale-out).
const MIGRATION_LOCK_KEY = 7_201_311;

export interface Migration {
  id: string;
  sql: string;
}

export async function loadMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const files = (await readdir(/*turbopackIgnore: true*/ dir)).filter((f) => /^\d{4}_[\w-]+\.sql$/.test(f)).sort();
  return Promise.all(
    files.map(async (file) => ({
      id: file.replace(/\.sql$/, ''),
      sql: await readFile(path.join(/*turbopackIgnore: true*/ dir, file), 'utf8'),
    })),
  );
}

/**
 * Applies every migration not yet recorded, each in its own transaction, in file-name order.
 * Safe to run at every start and from several processes at once. Returns the ids applied now.
 */
export async function migrate(runner: SqlRunner, migrations?: Migration[]): Promise<string[]> {
  const all = migrations ?? (await loadMigrations());
  return runner.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await tx.exec(`CREATE TABLE IF NOT EXISTS portal_migrations (
      id text PRIMARY KEY,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const { rows } = await tx.query<{ id: string }>('SELECT id FROM portal_migrations');
    const done = new Set(rows.map((r) => r.id));
    const applied: string[] = [];
    for (const m of all) {
      if (done.has(m.id)) continue;
      await tx.exec(m.sql);
      await tx.query('INSERT INTO portal_migrations (id) VALUES ($1)', [m.id]);
      applied.push(m.id);
    }
    return applied;
  });
}
