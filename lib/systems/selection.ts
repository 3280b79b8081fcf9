import { and, asc, count, eq, ilike, isNotNull, min, or, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '@/lib/db';
import { connections, managerSystems, systems } from '@/lib/db/schema';
import { CONTROL_CHARACTERS_MESSAGE, noControlCharacters } from '@/lib/http/control-characters';
import { vkey } from '@/lib/i18n/validation-key';
import { sha256 } from '@/lib/crypto';
import type { Assert, SameType } from '@/lib/same-type';

// A set of systems named by a filter rather than one by one (issue 49: a manager is given 300 of
// 1,000 systems at once): text in the name, street or city, an area, the systems of one approval
// (a connection), or all of them. The filter becomes one SQL condition on `systems`, so whoever
// counts, assigns or takes back the set does it in one statement, whatever its size.

export const SELECTION_TEXT_MAX_LENGTH = 120;

// An empty field is "not filtered by this" (a form sends every field).
const optionalText = z
  .string()
  .trim()
  .max(SELECTION_TEXT_MAX_LENGTH)
  .refine(noControlCharacters, CONTROL_CHARACTERS_MESSAGE)
  .optional()
  .transform((v) => (v === '' ? undefined : v));

const filterFields = {
  /** Text found in the name, street or city, any case. */
  match: optionalText,
  /** The area (systems.area) exactly, any case. */
  area: optionalText,
  /** The systems one approval connected. */
  connectionId: z.union([z.literal('').transform(() => undefined), z.uuid(vkey('validation.connectionId'))]).optional(),
};

/** A filter as a page's search fields give it: nothing given is every system. */
export const systemFilterSchema = z.object(filterFields).strict();
/** What a filter names; a field left out is not filtered by. */
export interface SystemFilter {
  match?: string | undefined;
  area?: string | undefined;
  connectionId?: string | undefined;
}
type _FilterParses = Assert<SameType<z.output<typeof systemFilterSchema> extends SystemFilter ? true : false, true>>;

const isFiltered = (f: SystemFilter) => f.match !== undefined || f.area !== undefined || f.connectionId !== undefined;

/** The systems a change applies to: a filter, or every system said outright — an empty form never selects everything by mistake. */
export const systemSelectionSchema = z
  .object({ ...filterFields, all: z.boolean().optional() })
  .strict()
  .transform((s): SystemFilter & { all: boolean } => ({ match: s.match, area: s.area, connectionId: s.connectionId, all: s.all === true }))
  .refine((s) => s.all || isFiltered(s), { message: vkey('validation.selectionEmpty') })
  .refine((s) => !(s.all && isFiltered(s)), { message: vkey('validation.selectionAllAndFilter') });

export type SystemSelection = z.output<typeof systemSelectionSchema>;

/** LIKE's own characters taken literally: "50%" finds "50%", not everything starting with 50. */
const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The filter (or selection) as a condition on `systems` (undefined: every system). */
export function selectionWhere(selection: SystemFilter): SQL | undefined {
  const conditions: SQL[] = [];
  if (selection.match !== undefined) {
    const pattern = `%${likeEscaped(selection.match)}%`;
    conditions.push(or(ilike(systems.name, pattern), ilike(systems.street, pattern), ilike(systems.city, pattern))!);
  }
  if (selection.area !== undefined) conditions.push(sql`lower(${systems.area}) = lower(${selection.area})`);
  if (selection.connectionId !== undefined) conditions.push(eq(systems.connectionId, selection.connectionId));
  return conditions.length === 0 ? undefined : and(...conditions);
}

/** The selection as plain facts for the audit log and the success line (no connection id: it tells a reader nothing). */
export function describeSelection(selection: SystemSelection): { all?: true; match?: string; area?: string; approval?: true } {
  if (selection.all || !isFiltered(selection)) return { all: true };
  return {
    ...(selection.match !== undefined ? { match: selection.match } : {}),
    ...(selection.area !== undefined ? { area: selection.area } : {}),
    ...(selection.connectionId !== undefined ? { approval: true as const } : {}),
  };
}

export interface SelectionChoices {
  /** The areas systems have, with how many systems each. */
  areas: { area: string; systems: number }[];
  /** Each connection (one approval's systems): when it was made, how many systems, the first by name. */
  connections: { id: string; createdAt: Date; systems: number; firstName: string }[];
}

/** What the filter's lists offer: one statement each over all systems. */
export async function selectionChoices(db: Database): Promise<SelectionChoices> {
  const [areas, connectionRows] = await Promise.all([
    db
      .select({ area: systems.area, systems: count() })
      .from(systems)
      .where(and(isNotNull(systems.area), sql`${systems.area} <> ''`))
      .groupBy(systems.area)
      .orderBy(asc(systems.area)),
    db
      .select({ id: connections.id, createdAt: connections.createdAt, systems: count(systems.deviceId), firstName: min(systems.name) })
      .from(connections)
      .innerJoin(systems, eq(systems.connectionId, connections.id))
      .groupBy(connections.id, connections.createdAt)
      .orderBy(asc(connections.createdAt), asc(connections.id)),
  ]);
  return {
    areas: areas.flatMap((a) => (a.area === null ? [] : [{ area: a.area, systems: a.systems }])),
    connections: connectionRows.map((c) => ({ ...c, firstName: c.firstName ?? '' })),
  };
}

export const MANAGER_SYSTEMS_PAGE_SIZE = 50;

export interface ManagerSystemsPage {
  systems: { deviceId: string; name: string; street: string | null; city: string | null; area: string | null }[];
  page: number;
  pageCount: number;
  /** The manager's systems the filter selects, over all pages. */
  total: number;
}

/** One page of a manager's systems that the filter selects, by name: one statement (the total rides along as a window count). */
export async function pageOfManagerSystems(db: Database, userId: string, filter: SystemFilter, page: number, pageSize = MANAGER_SYSTEMS_PAGE_SIZE): Promise<ManagerSystemsPage> {
  const current = Math.max(1, Math.floor(page));
  const rows = await db
    .select({ deviceId: systems.deviceId, name: systems.name, street: systems.street, city: systems.city, area: systems.area, total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(systems)
    .innerJoin(managerSystems, and(eq(managerSystems.deviceId, systems.deviceId), eq(managerSystems.userId, userId)))
    .where(selectionWhere(filter))
    .orderBy(asc(systems.name), asc(systems.deviceId))
    .limit(pageSize)
    .offset((current - 1) * pageSize);
  // A page past the end has no rows to carry the total: counted on its own then.
  const total = rows[0]?.total ?? (current > 1 ? (await pageOfManagerSystems(db, userId, filter, 1, 1)).total : 0);
  return { systems: rows.map(({ total: _total, ...s }) => s), page: current, pageCount: Math.max(1, Math.ceil(total / pageSize)), total };
}

/** The connection an approval id made, found by its fingerprint (the id itself is never stored). */
export async function connectionOfApproval(db: Database, approvalId: string): Promise<string | undefined> {
  const [row] = await db.select({ id: connections.id }).from(connections).where(eq(connections.approvalFingerprint, sha256(approvalId.trim()))).limit(1);
  return row?.id;
}
