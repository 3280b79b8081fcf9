import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { dataInventory, personal } from '../personal-marks';

export const USER_ROLES = ['admin', 'manager'] as const;
export type UserRole = (typeof USER_ROLES)[number];

export const users = pgTable('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  email: text('email').notNull().unique(),
  name: text('name').notNull(),
  role: text('role', { enum: USER_ROLES }).notNull(),
  passwordHash: text('password_hash'),
  sessionVersion: integer('session_version').notNull().default(1),
  /** The language the user chose in the portal (lib/i18n/config.ts); null follows the browser (migration 0019). */
  locale: text('locale'),
  /** Set while the account is deactivated: no sign-in, no session (migration 0015). */
  deactivatedAt: timestamp('deactivated_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Column names fixed by rate-limiter-flexible's RateLimiterDrizzle (key, points, expire). */
export const authRateLimits = pgTable(
  'auth_rate_limits',
  {
    key: text('key').primaryKey(),
    points: integer('points').notNull().default(0),
    expire: timestamp('expire', { withTimezone: true }),
  },
  (t) => [index('auth_rate_limits_expire_idx').on(t.expire)],
);

/** Personal data in users (decision 032): the portal's own accounts (admins and managers, not residents). */
export const usersData = dataInventory(users, {
  id: personal('person-id', 'account-lifetime', 'the account'),
  email: personal('email', 'account-lifetime', 'sign-in name and the account’s contact address'),
  name: personal('name', 'account-lifetime', 'shown in the portal and written into what the account does (requests, closures, audit)'),
  role: personal('account-detail', 'account-lifetime', 'what the account may do'),
  passwordHash: personal('access-token', 'account-lifetime', 'signing in (bcrypt hash only)'),
  locale: personal('account-detail', 'account-lifetime', 'the language the holder chose'),
});

/** Personal data in auth_rate_limits (decision 032): counters of sign-in attempts. */
export const authRateLimitsData = dataInventory(authRateLimits, {
  key: personal('account-detail', 'throttle-window', 'limits sign-in attempts: keyed by the account’s e-mail address and the client address'),
});
