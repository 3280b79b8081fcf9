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
  /** Who holds it, as the preview showed (the apartment, the resident's name where the mirror knows it). */
  apartment?: string | null;
  residentName?: string | null;
  /**
   * Set by the closure's job when the cancellation made no request: the booking was already gone
   * or had started ('skipped'), or it was refused before a request was recorded ('failed', with the
   * refusal's catalogue key). A target with a request row is followed through that row instead.
   */
  outcome?: { kind: 'gone' | 'started' | 'elsewhere' | 'failed'; key?: string; values?: Record<string, string | number> };
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
    /** Migration 0022: until when the instance running the closure's job holds it. */
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
  },
  (t) => [
    unique('room_closures_idempotency').on(t.createdBy, t.idempotencyKey),
    index('room_closures_device_end').on(t.deviceId, t.endsAt).where(sql`lifted_at IS NULL`),
    index('room_closures_cancelling').on(t.createdAt).where(sql`status = 'cancelling'`),
  ],
);
