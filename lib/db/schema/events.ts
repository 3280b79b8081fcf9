import { sql } from 'drizzle-orm';
import { type AnyPgColumn, bigserial, boolean, index, integer, jsonb, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { roomClosures } from './closures';

/**
 * A request's first answer when it was an error, as stored: its HTTP status, the error map's code
 * (lib/errors/api-error.ts), the sentence, and its Message key and values when it had one.
 */
export interface StoredFirstAnswer {
  status: number;
  code: string;
  message: string;
  reason?: string;
  key?: string;
  values?: Record<string, string | number>;
}

export const reservationRequests = pgTable(
  'reservation_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind', { enum: ['create', 'cancel'] }).notNull(),
    deviceId: uuid('device_id').notNull(),
    resourceId: uuid('resource_id'),
    residentUserId: uuid('resident_user_id'),
    reservationId: uuid('reservation_id'),
    startTime: timestamp('start_time', { withTimezone: true }),
    endTime: timestamp('end_time', { withTimezone: true }),
    requestedBy: text('requested_by').notNull(),
    idempotencyKey: text('idempotency_key'),
    status: text('status', { enum: ['sending', 'pending', 'succeeded', 'failed'] }).notNull().default('sending'),
    correlationId: uuid('correlation_id').unique(),
    errorCode: text('error_code'),
    errorDescription: text('error_description'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    residentName: text('resident_name'),
    residentApartment: text('resident_apartment'),
    residentGroupId: uuid('resident_group_id'),
    resourceName: text('resource_name'),
    requestedByName: text('requested_by_name'),
    /** The first answer when it was an error, answered again to a repeated Idempotency-Key. */
    firstAnswer: jsonb('first_answer').$type<StoredFirstAnswer>(),
    /** Set when the send's effect is unknown (sent, no readable answer); the reconciler settles it. */
    outcomeUnknownSince: timestamp('outcome_unknown_since', { withTimezone: true }),
    /** The manager's note on a booking made on a resident's behalf (trimmed, ≤ 500 characters). */
    note: text('note'),
    /** The room closure that made this cancellation (migration 0021), if one did. */
    closureId: uuid('closure_id').references((): AnyPgColumn => roomClosures.id, { onDelete: 'set null' }),
    /** Migration 0027: how often the reconciler re-sent a cancellation whose effect was unknown, and when it looks next. */
    resends: integer('resends').notNull().default(0),
    resendAfter: timestamp('resend_after', { withTimezone: true }),
  },
  (t) => [
    unique().on(t.requestedBy, t.idempotencyKey),
    // Migration 0017: the Requests list's keyset paging, across systems and per system.
    index('reservation_requests_created_id').on(t.createdAt.desc(), t.id.desc()),
    index('reservation_requests_device_created_id').on(t.deviceId, t.createdAt.desc(), t.id.desc()),
    index('reservation_requests_open_resource').on(t.deviceId, t.resourceId, t.startTime).where(sql`status IN ('sending', 'pending')`),
    // Migration 0025: a room's week of requests, open and booked, in one range read.
    index('reservation_requests_resource_time').on(t.deviceId, t.resourceId, t.startTime),
    index('reservation_requests_pending').on(t.status, t.updatedAt).where(sql`status IN ('sending', 'pending')`),
    index('reservation_requests_booked_reservation').on(t.deviceId, t.reservationId).where(sql`kind = 'create' AND status = 'succeeded'`),
    // Migration 0018: an apartment's request history.
    index('reservation_requests_resident_group').on(t.deviceId, t.residentGroupId, t.createdAt.desc()).where(sql`resident_group_id IS NOT NULL`),
    index('reservation_requests_closure').on(t.closureId).where(sql`closure_id IS NOT NULL`),
    index('reservation_requests_resident_user').on(t.deviceId, t.residentUserId, t.createdAt.desc()).where(sql`resident_user_id IS NOT NULL`),
  ],
);

export const webhookEvents = pgTable(
  'webhook_events',
  {
    webhookId: text('webhook_id').primaryKey(),
    eventType: text('event_type').notNull(),
    correlationId: uuid('correlation_id'),
    succeeded: boolean('succeeded'),
    errorCode: text('error_code'),
    errorDescription: text('error_description'),
    payload: jsonb('payload').notNull(),
    eventTime: timestamp('event_time', { withTimezone: true }),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    appliedAt: timestamp('applied_at', { withTimezone: true }),
  },
  (t) => [index('webhook_events_correlation').on(t.correlationId)],
);

export const portalEvents = pgTable(
  'portal_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    deviceId: uuid('device_id').notNull(),
    type: text('type').notNull(),
    /** A request as a browser may see it (lib/events/types.ts RequestView, which lib/events/store.ts writes and reads). */
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('portal_events_device_id').on(t.deviceId, t.id)],
);
