import { bigserial, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** What an audit entry is about (migration 0015; written by lib/admin/audit.ts only). */
export const AUDIT_TARGET_TYPES = ['system', 'account', 'display'] as const;
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
  },
  (t) => [index('admin_audit_created').on(t.createdAt.desc(), t.id.desc())],
);
