import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { roomClosures } from './closures';
import { reservationRequests } from './events';
import { systems } from './systems';
import { dataInventory, notPersonal, personal } from '../personal-marks';

/** What an e-mail tells a resident: a booking made, cancelled, or cancelled by a room closure. */
export const MAIL_KINDS = ['booked', 'cancelled', 'closed'] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

export const MAIL_STATUSES = ['queued', 'sent', 'captured', 'skipped', 'failed'] as const;
export type MailStatus = (typeof MAIL_STATUSES)[number];

/** Why a message was not sent at all: the resident has no address, or the system has e-mail off. */
export const MAIL_SKIP_REASONS = ['noAddress', 'disabled', 'erased'] as const;
export type MailSkipReason = (typeof MAIL_SKIP_REASONS)[number];

/** The facts a message is rendered from (times as ISO instants, shown in `timeZone`). */
export interface MailFacts {
  systemName: string;
  timeZone: string;
  resourceId: string;
  resourceName: string | null;
  startTime: string;
  endTime: string;
  /** Who arranged it: the manager's name. */
  arrangedBy: string | null;
  residentApartment: string | null;
  /** A closure's reason (kind 'closed'). */
  reason?: string | null;
}

/** The e-mail outbox (migration 0021; written by lib/mail only). */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => systems.deviceId, { onDelete: 'cascade' }),
    kind: text('kind', { enum: MAIL_KINDS }).notNull(),
    reservationId: uuid('reservation_id').notNull(),
    requestId: uuid('request_id').references(() => reservationRequests.id, { onDelete: 'set null' }),
    closureId: uuid('closure_id').references(() => roomClosures.id, { onDelete: 'set null' }),
    recipient: text('recipient'),
    recipientName: text('recipient_name'),
    locale: text('locale').notNull(),
    facts: jsonb('facts').$type<MailFacts>().notNull(),
    status: text('status', { enum: MAIL_STATUSES }).notNull().default('queued'),
    skipReason: text('skip_reason', { enum: MAIL_SKIP_REASONS }),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    lastError: text('last_error'),
    subject: text('subject'),
    messageId: text('message_id'),
    raw: text('raw'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /** Migration 0032: when retention dropped the message as sent (raw, subject, last error). */
    bodyDroppedAt: timestamp('body_dropped_at', { withTimezone: true }),
    /** Migration 0032: when retention (or erasure) anonymised the row; null: not yet. */
    anonymisedAt: timestamp('anonymised_at', { withTimezone: true }),
  },
  (t) => [
    unique('mail_outbox_once').on(t.reservationId, t.kind),
    index('mail_outbox_due').on(t.nextAttemptAt).where(sql`status = 'queued'`),
    index('mail_outbox_device_created').on(t.deviceId, t.createdAt.desc(), t.id.desc()),
    // Migration 0032: the messages retention has yet to strip, oldest first.
    index('mail_outbox_retention_body').on(t.createdAt).where(sql`body_dropped_at IS NULL`),
    index('mail_outbox_retention').on(t.createdAt).where(sql`anonymised_at IS NULL`),
  ],
);

/** Personal data in mail_outbox (decision 032): e-mails to residents about bookings made or cancelled for them. */
export const mailOutboxData = dataInventory(mailOutbox, {
  kind: notPersonal('what the e-mail tells'),
  recipient: personal('email', 'email-meta-13m', 'where the e-mail goes: the resident’s address in the booking system'),
  recipientName: personal('name', 'email-meta-13m', 'the resident’s name in the greeting and the list of sent e-mails'),
  locale: notPersonal('the e-mail’s language'),
  facts: personal('record', 'email-meta-13m', 'what the e-mail is rendered from: the apartment, who arranged it, a closure’s reason'),
  status: notPersonal('the delivery’s state'),
  skipReason: notPersonal('why nothing was sent'),
  lastError: personal('free-text', 'email-body-90d', 'the mail server’s last refusal, which may quote the address'),
  subject: personal('message', 'email-body-90d', 'the subject as sent'),
  messageId: notPersonal('the message’s id, for tracing a delivery'),
  raw: personal('message', 'email-body-90d', 'the message as sent (body and calendar attachment), shown to managers and resent as is'),
});
