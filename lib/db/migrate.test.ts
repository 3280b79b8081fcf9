import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { describeWithDb } from '@/tests/db';
import { loadMigrations, migrate } from './migrate';

// From nothing, as a new installation migrates (the other suites start from the run's template).
describeWithDb('migrations', (ctx) => {
  it('have already run once when the database was opened', async () => {
    const { sql } = ctx().handle;
    const all = await loadMigrations();
    const { rows } = await sql.query<{ id: string }>('SELECT id FROM portal_migrations ORDER BY id');
    expect(rows.map((r) => r.id)).toEqual(all.map((m) => m.id));
    expect(all.length).toBeGreaterThan(0);
  });

  it('apply nothing the second time and keep the data', async () => {
    const { sql } = ctx().handle;
    await sql.query(`INSERT INTO app_settings (key, value) VALUES ('probe', '1'::jsonb)`);
    expect(await migrate(sql)).toEqual([]);
    expect(await migrate(sql)).toEqual([]);
    const { rows } = await sql.query<{ n: number }>('SELECT count(*)::int AS n FROM portal_migrations');
    expect(rows[0]?.n).toBe((await loadMigrations()).length);
    const kept = await sql.query(`SELECT 1 FROM app_settings WHERE key = 'probe'`);
    expect(kept.rows).toHaveLength(1);
  });

  it('apply only the new migration, in order, and tolerate concurrent runs', async () => {
    const { sql } = ctx().handle;
    const dir = await mkdtemp(path.join(os.tmpdir(), 'mig-'));
    const existing = await loadMigrations();
    for (const m of existing) await writeFile(path.join(dir, `${m.id}.sql`), m.sql);
    await writeFile(path.join(dir, '9998_probe_a.sql'), 'CREATE TABLE probe_a (id int);');
    await writeFile(path.join(dir, '9999_probe_b.sql'), 'INSERT INTO probe_a VALUES (1);');
    const migrations = await loadMigrations(dir);
    const results = await Promise.all([migrate(sql, migrations), migrate(sql, migrations)]);
    expect(results.flat().sort()).toEqual(['9998_probe_a', '9999_probe_b']);
    const { rows } = await sql.query<{ n: number }>('SELECT count(*)::int AS n FROM probe_a');
    expect(rows[0]?.n).toBe(1);
    await sql.exec(
      `DROP TABLE probe_a; DELETE FROM portal_migrations WHERE id IN ('9998_probe_a','9999_probe_b')`,
    );
  });

  it('roll back a failing migration completely', async () => {
    const { sql } = ctx().handle;
    const broken = [{ id: '9997_broken', sql: 'CREATE TABLE half_done (id int); SELECT * FROM no_such_table;' }];
    await expect(migrate(sql, broken)).rejects.toThrow();
    const { rows } = await sql.query(`SELECT to_regclass('half_done') AS t`);
    expect(rows[0]).toEqual({ t: null });
    const recorded = await sql.query(`SELECT 1 FROM portal_migrations WHERE id = '9997_broken'`);
    expect(recorded.rows).toHaveLength(0);
  });
}, { fromScratch: true });
