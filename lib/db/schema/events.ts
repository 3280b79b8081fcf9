import { sql } from 'drizzle-orm';
import { type AnyPgColumn, bigserial, boolean, index, integer, jsonb, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { roomClosures } from './closures';
import { dataInventory, notPersonal, personal } from '../personal-marks';

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
    /** Migration 0032: when retention (or erasure) anonymised the row; null: not yet. */
    anonymisedAt: timestamp('anonymised_at', { withTimezone: true }),
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
    // Migration 0032: the rows retention has yet to anonymise, oldest first (anonymised ones leave the index).
    index('reservation_requests_retention').on(t.createdAt).where(sql`anonymised_at IS NULL`),
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
    /** Migration 0032: when retention (or erasure) anonymised the row; null: not yet. */
    anonymisedAt: timestamp('anonymised_at', { withTimezone: true }),
  },
  (t) => [index('webhook_events_correlation').on(t.correlationId), index('webhook_events_retention').on(t.receivedAt).where(sql`anonymised_at IS NULL`)],
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
    /** Migration 0032: when retention (or erasure) anonymised the row; null: not yet. */
    anonymisedAt: timestamp('anonymised_at', { withTimezone: true }),
  },
  (t) => [index('portal_events_device_id').on(t.deviceId, t.id), index('portal_events_retention').on(t.createdAt).where(sql`anonymised_at IS NULL`)],
);

/** Personal data in reservation_requests (decision 032): who asked for which booking on whose behalf, and the manager's note. */
export const reservationRequestsData = dataInventory(reservationRequests, {
  kind: notPersonal('booking or cancellation'),
  residentUserId: personal('person-id', 'request-13m', 'the resident the booking is for (the booking system’s user id)'),
  requestedBy: personal('person-id', 'request-13m', 'the manager’s account who asked (also the idempotency scope)'),
  idempotencyKey: notPersonal('a random key against double sending'),
  status: notPersonal('the request’s state'),
  errorCode: notPersonal('the booking system’s error code'),
  errorDescription: notPersonal('the booking system’s refusal, in its words (about the slot and the rules, not the person)'),
  residentName: personal('name', 'request-13m', 'the resident’s name as shown when the request was made (requests list, e-mail, reports)'),
  residentApartment: personal('apartment', 'request-13m', 'the resident’s apartment as shown (requests list, building view, quota)'),
  residentGroupId: personal('apartment', 'request-13m', 'the apartment’s group in the booking system (its history, its quota)'),
  resourceName: notPersonal('the room’s name'),
  requestedByName: personal('name', 'request-13m', 'who asked, readable after their account is gone'),
  firstAnswer: personal('record', 'request-13m', 'the first answer to the request when it was an error, answered again to a repeat (its sentence may carry the resident’s name or apartment)'),
  note: personal('free-text', 'request-13m', 'the manager’s note on a booking made on a resident’s behalf'),
});

/** Personal data in webhook_events (decision 032): the booking system's deliveries, as received. */
export const webhookEventsData = dataInventory(webhookEvents, {
  webhookId: notPersonal('the delivery’s id'),
  eventType: notPersonal('the event’s type'),
  errorCode: notPersonal('the booking system’s error code'),
  errorDescription: notPersonal('the booking system’s refusal, in its words'),
  payload: personal('record', 'request-13m', 'the delivery as received: a booking’s outcome, with the user and apartment it was for'),
});

/** Personal data in portal_events (decision 032): a request as browsers see it, for live updates and reconnects. */
export const portalEventsData = dataInventory(portalEvents, {
  type: notPersonal('the event’s type'),
  data: personal('record', 'request-13m', 'the request as a browser may see it: the resident’s name and apartment, who asked'),
});
