import 'server-only';
import { Column, is, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import type { Database } from './client';

/**
 * One read of several owners' rows in a single statement. Every statement costs a round trip (a
 * network one on PostgreSQL, about 0.3 ms of fixed work on PGlite, measured), which on a warm read
 * is most of its time; independent reads of a page can share one. Each owner module still writes
 * its own typed query (with `queryBuilder`, read back by `selectRows`) and maps its own rows;
 * this only carries them.
 */
export interface JsonRead<T> {
  /** A SELECT whose rows come back as one JSON array. */
  query: SQLWrapper;
  /** Turns that array into the owner's value. */
  parse: (rows: unknown[]) => T;
}

/** Builds typed queries without a database handle (they run inside `readTogether`). */
export const queryBuilder = new QueryBuilder();

/** A typed select of one table's columns (`queryBuilder.select({...}).from(table)…`). */
type ColumnSelect = SQLWrapper & { _: { selectedFields: Record<string, unknown>; result: unknown[] } };

/**
 * The rows of a typed select of one table's columns, as drizzle would return them: each value
 * converted from its JSON form by its column (timestamps to Dates, int8 to numbers…).
 */
export function selectRows<Q extends ColumnSelect>(query: Q): JsonRead<Q['_']['result']> {
  const fields = Object.entries(query._.selectedFields).map(([key, field]) => {
    if (!is(field, Column)) throw new Error(`selectRows: ${key} is not a column`);
    return [key, field] as const;
  });
  if (new Set(fields.map(([, c]) => c.name)).size !== fields.length) throw new Error('selectRows: two columns of one name (a join?)');
  return {
    query,
    parse: (rows) =>
      rows.map((json) => {
        const record = json as Record<string, unknown>;
        const row: Record<string, unknown> = {};
        for (const [key, column] of fields) {
          const value = record[column.name];
          row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
        }
        return row;
      }),
  };
}

/** A JSON value as the driver gives it: parsed by node-postgres, sometimes text on PGlite. */
const fromDriver = (value: unknown): unknown[] => {
  const parsed = typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
  return Array.isArray(parsed) ? parsed : [];
};

/** What a set of reads gives: each owner's value under its name. */
export type ReadResults<R extends Record<string, JsonRead<unknown>>> = { [K in keyof R]: R[K] extends JsonRead<infer T> ? T : never };

/** Runs every read in one statement and returns each owner's value under its name. */
export async function readTogether<R extends Record<string, JsonRead<unknown>>>(db: Database, reads: R): Promise<ReadResults<R>> {
  const names = Object.keys(reads);
  const columns: SQL[] = names.map(
    (name, i) => sql`(SELECT COALESCE(json_agg(t), '[]'::json) FROM (${reads[name]!.query}) t) AS ${sql.identifier(`r${i}`)}`,
  );
  const result = (await db.execute(sql`SELECT ${sql.join(columns, sql`, `)}`)) as { rows: Record<string, unknown>[] };
  const row = result.rows[0] ?? {};
  const out: Record<string, unknown> = {};
  names.forEach((name, i) => (out[name] = reads[name]!.parse(fromDriver(row[`r${i}`]))));
  return out as ReadResults<R>;
}
