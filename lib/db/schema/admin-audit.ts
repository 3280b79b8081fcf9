import { sql } from 'drizzle-orm';
import { bigserial, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { dataInventory, notPersonal, personal } from '../personal-marks';

/** What an audit entry is about (migration 0015; written by lib/admin/audit.ts only). */
// 'portal': the portal as a whole (its retention settings, the retention job's runs); 'resident': a
// resident of a booking system (a data extract).
export const AUDIT_TARGET_TYPES = ['system', 'account', 'display', 'portal', 'resident'] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

export const adminAudit = pgTable(
  'admin_audit',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    // No foreign keys: entries outlive the accounts and systems they name.
    actorId: uuid('actor_id'),
    actorName: text('actor_name').notNull(),
    action: text('action').notNull(),
    targetType: text('target_type', { enum: AUDIT_TARGET_TYPES }).notNull(),
    targetId: text('target_id'),
    targetName: text('target_name'),
    detail: jsonb('detail').$type<Record<string, unknown>>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Migration 0032: when retention (or erasure) anonymised the row; null: not yet. */
    anonymisedAt: timestamp('anonymised_at', { withTimezone: true }),
  },
  (t) => [index('admin_audit_created').on(t.createdAt.desc(), t.id.desc()), index('admin_audit_retention').on(t.createdAt).where(sql`anonymised_at IS NULL`)],
);

/** Personal data in admin_audit (decision 032): who did what to whom, kept as accountability. */
export const adminAuditData = dataInventory(adminAudit, {
  actorId: personal('person-id', 'audit-24m', 'who did it: the admin’s account'),
  actorName: personal('name', 'audit-24m', 'who did it, readable after their account is gone'),
  action: notPersonal('what was done, a fixed action name'),
  targetType: notPersonal('what kind of thing it was done to'),
  targetId: personal('person-id', 'audit-24m', 'what it was done to: an account’s id when the target is an account, a resident’s system and user id when a resident'),
  targetName: personal('name', 'audit-24m', 'what it was done to, readable: an account holder’s or a resident’s name'),
  detail: personal('record', 'audit-24m', 'the change itself: an account’s e-mail address and role, the names of systems added or removed'),
});
