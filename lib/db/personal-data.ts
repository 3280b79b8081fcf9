import { is } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import * as schema from './schema';
import { isTableInventory, type PersonalKind, type RetentionClass, type TableInventory } from './personal-marks';

export { PERSONAL_KINDS, RETENTION_CLASSES, type PersonalKind, type RetentionClass } from './personal-marks';

// The personal-data inventory as one list (issue 37, decision 032): what the schema files mark
// next to their tables. Retention, the data extract and erasure plug in here: each states the
// columns it covers, and `uncoveredColumns` says which marked ones it misses.

/** A column that can hold personal data. */
export interface PersonalColumn {
  table: string;
  column: string;
  kind: PersonalKind;
  purpose: string;
  retention: RetentionClass;
}

/** Every table's marks, as the schema files export them. */
export function tableInventories(): TableInventory[] {
  return Object.values(schema).filter(isTableInventory);
}

/** Every table of the schema, by its database name. */
export function schemaTables(): Map<string, PgTable> {
  const tables = new Map<string, PgTable>();
  for (const value of Object.values(schema)) if (is(value, PgTable)) tables.set(getTableConfig(value).name, value);
  return tables;
}

/** Every column marked as personal, in schema order. */
export function personalColumns(): PersonalColumn[] {
  return tableInventories().flatMap((inventory) =>
    Object.entries(inventory.columns).flatMap(([column, mark]) =>
      mark.personal ? [{ table: inventory.table, column, kind: mark.kind, purpose: mark.purpose, retention: mark.retention }] : [],
    ),
  );
}

// Columns that must carry a mark: text of any kind (it can hold a name, an address, a note) and
// ids whose name says they point to a person or an apartment.
const TEXT_TYPES = /^(text|varchar|character varying|char|character|json|jsonb)(\(\d+\))?(\[\])*$/;
const PERSON_POINTER = /(^|_)(user|users|actor|owner|resident|recipient|person|member|group|by)(_|$)/;
// Names that are personal whatever the mark says.
const ALWAYS_PERSONAL = /(^|_)(e_?mail|note|notes|recipient)(_|$)/;

/** What is wrong with the marks of `tables`: a table without an inventory, a column without a mark, a mark that contradicts its column's name. */
export function inventoryProblems(tables: Map<string, PgTable>, inventories: readonly TableInventory[]): string[] {
  const byTable = new Map(inventories.map((i) => [i.table, i]));
  const problems: string[] = [];
  for (const [name, table] of tables) {
    const inventory = byTable.get(name);
    if (!inventory) {
      problems.push(`${name}: no dataInventory(...) next to the table`);
      continue;
    }
    for (const column of getTableConfig(table).columns) {
      const ref = `${name}.${column.name}`;
      const mark = inventory.columns[column.name];
      const type = column.getSQLType();
      if (!mark && TEXT_TYPES.test(type)) problems.push(`${ref}: ${type} column without a mark (personal(...) or notPersonal(...))`);
      else if (!mark && type === 'uuid' && PERSON_POINTER.test(column.name)) problems.push(`${ref}: looks like it points to a person, without a mark`);
      else if (mark && !mark.personal && ALWAYS_PERSONAL.test(column.name)) problems.push(`${ref}: marked not personal, but its name says it is`);
      else if (mark && !mark.personal && type === 'uuid' && PERSON_POINTER.test(column.name)) problems.push(`${ref}: marked not personal, but it points to a person`);
    }
  }
  for (const inventory of inventories) if (!tables.has(inventory.table)) problems.push(`${inventory.table}: an inventory for a table the schema does not export`);
  return problems;
}

/** `table.column`, the way coverage lists and the documentation name a column. */
export const columnRef = (c: { table: string; column: string }) => `${c.table}.${c.column}`;

/**
 * The marked columns a part of the personal-data work does not cover. `covered` lists what it
 * handles as `table.column`; `exempt` says which retention classes it leaves alone by design
 * (e.g. erasure leaves the mirror to the booking system, which owns that data).
 */
export function uncoveredColumns(covered: Iterable<string>, exempt: readonly RetentionClass[] = []): PersonalColumn[] {
  const handled = new Set(covered);
  return personalColumns().filter((c) => !exempt.includes(c.retention) && !handled.has(columnRef(c)));
}
