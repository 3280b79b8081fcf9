import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

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
