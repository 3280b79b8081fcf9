import { is } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { expect, it } from 'vitest';
import { describeWithDb } from '@/tests/db';
import * as schema from './schema';

/**
 * The migrations are what the database is; the drizzle schema is what the code believes it is.
 * This compares the two after applying every migration, so neither can drift from the other:
 * a new column, index, key or default must be written in both places.
 */

interface TableShape {
  columns: Record<string, string>;
  primaryKey: string[];
  uniques: string[];
  indexes: string[];
  foreignKeys: string[];
}

// drizzle's type names where PostgreSQL reports another spelling.
const TYPE_ALIASES: Record<string, string> = { bigserial: 'bigint', serial: 'integer' };

function declaredShapes(): Record<string, TableShape> {
  const shapes: Record<string, TableShape> = {};
  for (const value of Object.values(schema)) {
    if (!is(value, PgTable)) continue;
    const config = getTableConfig(value);
    const columns: Record<string, string> = {};
    const uniques: string[] = [];
    let primaryKey: string[] = [];
    for (const column of config.columns) {
      const type = column.getSQLType();
      const serial = type in TYPE_ALIASES;
      const hasDefault = serial || column.default !== undefined || column.hasDefault;
      columns[column.name] = `${TYPE_ALIASES[type] ?? type}${column.notNull ? ' not null' : ''}${hasDefault ? ' default' : ''}`;
      if (column.primary) primaryKey = [column.name];
      if (column.isUnique) uniques.push(column.name);
    }
    for (const pk of config.primaryKeys) primaryKey = pk.columns.map((c) => c.name);
    for (const unique of config.uniqueConstraints) uniques.push(unique.columns.map((c) => c.name).join(','));
    shapes[config.name] = {
      columns,
      primaryKey,
      uniques: uniques.sort(),
      indexes: config.indexes
        .map((i) => `${i.config.name ?? '(unnamed)'} (${i.config.columns.map((c) => ('name' in c ? c.name : '?')).join(',')})${i.config.where ? ' partial' : ''}`)
        .sort(),
      foreignKeys: config.foreignKeys
        .map((fk) => {
          const ref = fk.reference();
          const target = getTableConfig(ref.foreignTable).name;
          return `${ref.columns.map((c) => c.name).join(',')} -> ${target}(${ref.foreignColumns.map((c) => c.name).join(',')}) on delete ${fk.onDelete ?? 'no action'}`;
        })
        .sort(),
    };
  }
  return shapes;
}

const ON_DELETE: Record<string, string> = { a: 'no action', r: 'restrict', c: 'cascade', n: 'set null', d: 'set default' };

// Migrated from nothing, not from the run's template (tests/global-setup.ts): this is the test that
// proves the migrations alone make the schema.
describeWithDb('the drizzle schema', (ctx) => {
  it('describes exactly the tables, columns, keys and indexes the migrations create', async () => {
    const { sql } = ctx().handle;
    const { rows: columnRows } = await sql.query<{ table: string; column: string; type: string; not_null: boolean; has_default: boolean }>(
      `SELECT c.relname AS table, a.attname AS column, format_type(a.atttypid, a.atttypmod) AS type,
              a.attnotnull AS not_null, a.atthasdef AS has_default
         FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped AND c.relname <> 'portal_migrations'`,
    );
    const { rows: constraintRows } = await sql.query<{ table: string; type: string; columns: string[]; target: string | null; target_columns: string[] | null; on_delete: string }>(
      `SELECT c.relname AS table, k.contype AS type,
              ARRAY(SELECT a.attname::text FROM unnest(k.conkey) WITH ORDINALITY u(n, i) JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = u.n ORDER BY u.i) AS columns,
              f.relname AS target,
              ARRAY(SELECT a.attname::text FROM unnest(k.confkey) WITH ORDINALITY u(n, i) JOIN pg_attribute a ON a.attrelid = k.confrelid AND a.attnum = u.n ORDER BY u.i) AS target_columns,
              k.confdeltype AS on_delete
         FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
         LEFT JOIN pg_class f ON f.oid = k.confrelid
        WHERE n.nspname = 'public' AND k.contype IN ('p', 'u', 'f') AND c.relname <> 'portal_migrations'`,
    );
    const { rows: indexRows } = await sql.query<{ table: string; index: string; columns: string[]; partial: boolean }>(
      `SELECT t.relname AS table, i.relname AS index, x.indpred IS NOT NULL AS partial,
              ARRAY(SELECT a.attname::text FROM unnest(x.indkey) WITH ORDINALITY u(n, o) JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = u.n ORDER BY u.o) AS columns
         FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
         JOIN pg_namespace n ON n.oid = t.relnamespace
        WHERE n.nspname = 'public' AND t.relname <> 'portal_migrations'
          AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = x.indexrelid)`,
    );

    const actual: Record<string, TableShape> = {};
    const shape = (table: string) => (actual[table] ??= { columns: {}, primaryKey: [], uniques: [], indexes: [], foreignKeys: [] });
    for (const r of columnRows) {
      shape(r.table).columns[r.column] = `${r.type}${r.not_null ? ' not null' : ''}${r.has_default ? ' default' : ''}`;
    }
    for (const r of constraintRows) {
      const s = shape(r.table);
      if (r.type === 'p') s.primaryKey = r.columns;
      else if (r.type === 'u') s.uniques.push(r.columns.join(','));
      else s.foreignKeys.push(`${r.columns.join(',')} -> ${r.target}(${(r.target_columns ?? []).join(',')}) on delete ${ON_DELETE[r.on_delete] ?? r.on_delete}`);
    }
    for (const r of indexRows) shape(r.table).indexes.push(`${r.index} (${r.columns.join(',')})${r.partial ? ' partial' : ''}`);
    for (const s of Object.values(actual)) {
      s.uniques.sort();
      s.indexes.sort();
      s.foreignKeys.sort();
    }

    const declared = declaredShapes();
    // One comparison, so a failure lists every difference at once.
    expect(declared).toEqual(actual);
  });
}, { fromScratch: true });
