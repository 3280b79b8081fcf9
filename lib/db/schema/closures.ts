import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth';
import { systems } from './systems';
import { dataInventory, notPersonal, personal } from '../personal-marks';

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
    /** Migration 0032: when retention (or erasure) anonymised the row; null: not yet. */
    anonymisedAt: timestamp('anonymised_at', { withTimezone: true }),
  },
  (t) => [
    unique('room_closures_idempotency').on(t.createdBy, t.idempotencyKey),
    index('room_closures_device_end').on(t.deviceId, t.endsAt).where(sql`lifted_at IS NULL`),
    index('room_closures_cancelling').on(t.createdAt).where(sql`status = 'cancelling'`),
  ],
);

/** Personal data in room_closures (decision 032): the bookings a closure cancelled name their holders. */
export const roomClosuresData = dataInventory(roomClosures, {
  reason: personal('free-text', 'request-13m', 'the reason residents are told (a manager may name someone in it)'),
  createdBy: personal('person-id', 'account-lifetime', 'the manager who closed the rooms (emptied when the account is deleted)'),
  createdByName: personal('name', 'request-13m', 'who closed the rooms, readable after their account is gone'),
  idempotencyKey: notPersonal('a random key against double creation'),
  targets: personal('record', 'request-13m', 'the bookings the closure cancelled: each one’s apartment and resident’s name, as the preview showed'),
  status: notPersonal('the closure job’s state'),
  liftedBy: personal('person-id', 'account-lifetime', 'the manager who lifted the closure (emptied when the account is deleted)'),
});
