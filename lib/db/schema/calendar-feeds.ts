import { sql } from 'drizzle-orm';
import { index, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth';
import { systems } from './systems';
import { dataInventory, notPersonal, personal } from '../personal-marks';

/** What a calendar feed covers (migration 0020): one room's bookings, or one apartment's in every room. */
export const FEED_SCOPES = ['room', 'apartment'] as const;
export type FeedScope = (typeof FEED_SCOPES)[number];

/** Calendar feeds (migration 0020; written by lib/feeds only). Only the token's SHA-256 is kept. */
export const calendarFeeds = pgTable(
  'calendar_feeds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => systems.deviceId, { onDelete: 'cascade' }),
    scope: text('scope', { enum: FEED_SCOPES }).notNull(),
    resourceId: uuid('resource_id'),
    groupId: uuid('group_id'),
    tokenHash: text('token_hash').notNull().unique(),
    /** The creator's language when the feed was made: the events' titles are in it. */
    locale: text('locale').notNull(),
    idempotencyKey: text('idempotency_key'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    rotatedAt: timestamp('rotated_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    unique('calendar_feeds_idempotency').on(t.createdBy, t.idempotencyKey),
    index('calendar_feeds_resource').on(t.deviceId, t.resourceId).where(sql`revoked_at IS NULL`),
    index('calendar_feeds_group').on(t.deviceId, t.groupId).where(sql`revoked_at IS NULL`),
  ],
);

/** Personal data in calendar_feeds (decision 032): an apartment's feed names the apartment and works by its token. */
export const calendarFeedsData = dataInventory(calendarFeeds, {
  scope: notPersonal('a room’s or an apartment’s feed'),
  groupId: personal('apartment', 'feed-until-revoked', 'the apartment whose bookings an apartment feed shows'),
  tokenHash: personal('access-token', 'feed-until-revoked', 'opens the feed (an apartment’s feed shows its bookings); SHA-256 only'),
  locale: notPersonal('the language of the events’ titles'),
  idempotencyKey: notPersonal('a random key against double creation'),
  createdBy: personal('person-id', 'account-lifetime', 'the manager who made the feed (emptied when the account is deleted)'),
});
