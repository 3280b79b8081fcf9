import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth';
import { systems } from './systems';

/** A booking found in a closure when it was confirmed: the closure cancels it on the resident's behalf. */
export interface ClosureTarget {
  reservationId: string;
  resourceId: string;
  startTime: string;
  endTime: string;
}

export const CLOSURE_STATUSES = ['cancelling', 'done'] as const;

/** Room closures (migration 0021; written by lib/closures only). */
export const roomClosures = pgTable(
  'room_closures',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => systems.deviceId, { onDelete: 'cascade' }),
    resourceIds: uuid('resource_ids').array().notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    reason: text('reason').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdByName: text('created_by_name'),
    idempotencyKey: text('idempotency_key'),
    targets: jsonb('targets').$type<ClosureTarget[]>().notNull().default(sql`'[]'::jsonb`),
    status: text('status', { enum: CLOSURE_STATUSES }).notNull().default('cancelling'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    liftedAt: timestamp('lifted_at', { withTimezone: true }),
    liftedBy: uuid('lifted_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    unique('room_closures_idempotency').on(t.createdBy, t.idempotencyKey),
    index('room_closures_device_end').on(t.deviceId, t.endsAt).where(sql`lifted_at IS NULL`),
    index('room_closures_cancelling').on(t.createdAt).where(sql`status = 'cancelling'`),
  ],
);
