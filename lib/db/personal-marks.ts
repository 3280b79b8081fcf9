import { getTableColumns, type Table } from 'drizzle-orm';
import { getTableConfig, type PgTable } from 'drizzle-orm/pg-core';

// The personal-data inventory's vocabulary (issue 37, decision 032). Each schema file marks its
// tables' columns right after it defines them (`dataInventory` below); lib/db/personal-data.ts
// collects the marks, and its test fails when a column that can hold personal data has none.
// Imports nothing of the domain: lib/db knows no domain (eslint's database zone).

/** What kind of personal data a column holds. */
export const PERSONAL_KINDS = [
  /** A person's name (a resident's, a manager's). */
  'name',
  /** An e-mail address. */
  'email',
  /** Text a person wrote or that may name a person (a note, a closure's reason). */
  'free-text',
  /** An id that points to a person: a portal account, a user of the booking system. */
  'person-id',
  /** An apartment: its number, its group id, its reference id (it points to the people living there). */
  'apartment',
  /** A credential or token that belongs to a person or an apartment (only hashes are kept). */
  'access-token',
  /** A whole e-mail message as sent (body, headers, calendar attachment). */
  'message',
  /** A JSON document that holds several of the above (a request as shown, a webhook's body). */
  'record',
  /** Something about an account's holder: their role, their language, a counter keyed by their address. */
  'account-detail',
] as const;
export type PersonalKind = (typeof PERSONAL_KINDS)[number];

/**
 * How long a column's personal data is kept, by class. `days` is the default (an admin or the
 * environment may set another: lib/personal-data/retention-settings.ts), `action` what happens when
 * it is over. `built` says whether the portal does it (the age-based ones: the retention job,
 * lib/personal-data/retention.ts).
 */
export const RETENTION_CLASSES = {
  'request-13m': {
    days: 396,
    action: 'anonymise',
    built: true,
    summary: 'Booking requests and what was derived from them (their events, webhook deliveries, closures’ target lists): names and notes replaced ("Resident in LGH 1001") after 13 months; counts stay for reports.',
  },
  'email-body-90d': {
    days: 90,
    action: 'drop',
    built: true,
    summary: 'The e-mail as sent (body, .ics, subject, the last delivery error): dropped after 90 days.',
  },
  'email-meta-13m': {
    days: 396,
    action: 'anonymise',
    built: true,
    summary: 'Who an e-mail went to and its facts: anonymised after 13 months; that a message was sent, and when, stays.',
  },
  'audit-24m': {
    days: 730,
    action: 'anonymise',
    built: true,
    summary: 'The admin audit log: names and e-mail addresses in entries anonymised after 24 months; what was done, and when, stays.',
  },
  'account-lifetime': {
    days: null,
    action: 'delete-with-account',
    built: true,
    summary: 'A portal account (admin, manager): kept while the account exists; deleting the account deletes it, and references to it become empty.',
  },
  'feed-until-revoked': {
    days: null,
    action: 'revoke',
    built: true,
    summary: 'A calendar feed of an apartment: its token works until a manager revokes or rotates it (only its SHA-256 is stored).',
  },
  'throttle-window': {
    days: 1,
    action: 'expire',
    built: true,
    summary: 'Sign-in attempt counters keyed by account and client address: they expire within 24 hours.',
  },
  'mirror-service-owned': {
    days: null,
    action: 'replaced-by-refresh',
    built: true,
    summary: 'The local copy of the booking system’s data: replaced by each refresh; the booking system is where it is held, corrected and erased.',
  },
} as const satisfies Record<string, { days: number | null; action: string; built: boolean; summary: string }>;
export type RetentionClass = keyof typeof RETENTION_CLASSES;

/** A column that can hold personal data: what kind, why it is kept, and for how long. */
export interface PersonalMark {
  personal: true;
  kind: PersonalKind;
  purpose: string;
  retention: RetentionClass;
}

/** A column that holds no personal data, and why (so that every text column is a decision). */
export interface NotPersonalMark {
  personal: false;
  why: string;
}

export type ColumnMark = PersonalMark | NotPersonalMark;

export const personal = (kind: PersonalKind, retention: RetentionClass, purpose: string): PersonalMark => ({ personal: true, kind, purpose, retention });
export const notPersonal = (why: string): NotPersonalMark => ({ personal: false, why });

const INVENTORY = Symbol.for('portal.personal-data.inventory');

/** One table's marks, by its column's database name. */
export interface TableInventory {
  readonly [INVENTORY]: true;
  readonly table: string;
  readonly columns: Readonly<Record<string, ColumnMark>>;
}

export function isTableInventory(value: unknown): value is TableInventory {
  return typeof value === 'object' && value !== null && INVENTORY in value;
}

/**
 * Marks a table's columns, by their property names in the schema (a misspelt name does not
 * compile). Columns that are neither text nor a pointer to a person may go unmarked.
 */
export function dataInventory<T extends PgTable>(
  table: T,
  marks: { [K in keyof T['_']['columns']]?: ColumnMark },
): TableInventory {
  const columns: Record<string, { name: string }> = getTableColumns(table as Table);
  const byName: Record<string, ColumnMark> = {};
  for (const [key, mark] of Object.entries<ColumnMark | undefined>(marks)) {
    const column = columns[key];
    if (!column || !mark) throw new Error(`dataInventory: ${getTableConfig(table).name} has no column ${key}`);
    byName[column.name] = mark;
  }
  return { [INVENTORY]: true, table: getTableConfig(table).name, columns: byName };
}
