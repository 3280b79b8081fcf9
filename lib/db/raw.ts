import 'server-only';
import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Database } from './client';

/**
 * Runs hand-written SQL (drizzle's `sql` template) and returns its rows as the caller declares
 * them. Both drivers answer `db.execute` with a result carrying `.rows`; only the row type is the
 * caller's to state. Values come back as the driver gives them, not through the schema's column
 * mapping: drizzle hands timestamps over as strings and node-postgres int8 as strings, so callers
 * convert what they read (`new Date(...)`, `Number(...)`).
 */
export async function rawRows<T extends Record<string, unknown>>(db: Database, query: SQLWrapper): Promise<T[]> {
  const result = (await db.execute<T>(query)) as { rows: T[] };
  return result.rows;
}

/** An array bound as one parameter (a bare array in the `sql` template expands to a list). */
export function arrayParam(values: readonly unknown[]): SQL {
  return sql`${sql.param(values)}`;
}

/**
 * `expression = ANY($n::uuid[])`: the values as one array parameter. drizzle's `inArray` binds one
 * parameter per value, and a bare array in the `sql` template expands to a list.
 */
export function equalsAnyUuid(expression: SQLWrapper, values: readonly string[]): SQL {
  return sql`${expression} = ANY(${arrayParam(values)}::uuid[])`;
}
