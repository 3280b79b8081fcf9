import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth';
import { systems } from './systems';
import { dataInventory, notPersonal, personal } from '../personal-marks';

/** The languages a display can speak (its own, not a viewer's: nobody signs in at a display). */
export const DISPLAY_LOCALES = ['sv', 'en'] as const;
export type DisplayLocale = (typeof DISPLAY_LOCALES)[number];

/** Laundry-room displays (migration 0031; written by lib/displays only). Only the token's SHA-256 is kept. */
export const displays = pgTable(
  'displays',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => systems.deviceId, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The rooms shown; null: every room the system has. */
    resourceIds: uuid('resource_ids').array(),
    locale: text('locale', { enum: DISPLAY_LOCALES }).notNull(),
    showApartments: boolean('show_apartments').notNull().default(false),
    tokenHash: text('token_hash').notNull().unique(),
    idempotencyKey: text('idempotency_key'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    rotatedAt: timestamp('rotated_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [unique('displays_idempotency').on(t.createdBy, t.idempotencyKey), index('displays_device').on(t.deviceId).where(sql`revoked_at IS NULL`)],
);

/** Personal data in displays (decision 032): a display shows a room, not a person; only its maker is one. */
export const displaysData = dataInventory(displays, {
  name: notPersonal('the display’s place, named by a manager (a room, an entrance)'),
  locale: notPersonal('the display’s language'),
  tokenHash: notPersonal('opens a room’s display, not a person’s data; SHA-256 only'),
  idempotencyKey: notPersonal('a random key against double creation'),
  createdBy: personal('person-id', 'account-lifetime', 'the manager who set the display up (emptied when the account is deleted)'),
});
