import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth';
import { dataInventory, notPersonal, personal } from '../personal-marks';

export const SYSTEM_STATUSES = ['active', 'error', 'disconnected'] as const;
export type SystemStatus = (typeof SYSTEM_STATUSES)[number];

// The schema imports nothing of the domain: these are lib/schedule's SCHEDULE_BASES and
// RESOURCE_KINDS as stored, and lib/systems/schemas.ts fails to compile when they differ.
export const STORED_SCHEDULE_BASES = ['utc', 'local'] as const;
export const STORED_RESOURCE_KINDS = ['laundry', 'drying', 'other'] as const;

export const connections = pgTable('connections', {
  id: uuid('id').primaryKey().defaultRandom(),
  approvalFingerprint: text('approval_fingerprint').notNull().unique(),
  apiKeyCiphertext: text('api_key_ciphertext').notNull(),
  createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const systems = pgTable(
  'systems',
  {
    deviceId: uuid('device_id').primaryKey(),
    connectionId: uuid('connection_id')
      .notNull()
      .references(() => connections.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    timeZone: text('time_zone').notNull().default('Europe/Stockholm'),
    /** How far ahead its rooms can be booked (migration 0013). */
    bookingHorizonDays: integer('booking_horizon_days').notNull().default(28),
    /** What its Week schedules' minutes mean (migration 0014; lib/schedule ScheduleBasis). */
    scheduleBasis: text('schedule_basis', { enum: STORED_SCHEDULE_BASES }).notNull().default('utc'),
    /** Future bookings an apartment may hold per room (migration 0018; upstream's rule is not readable). */
    bookingQuota: integer('booking_quota').notNull().default(2),
    /** Whether residents get e-mail about bookings made or cancelled on their behalf (migration 0021). */
    residentMail: boolean('resident_mail').notNull().default(true),
    /** The language of those e-mails (migration 0021; checked against lib/i18n/config.ts). */
    mailLocale: text('mail_locale').notNull().default('sv'),
    /** Its own upstream request budget per hour (migration 0028; null: MIRROR_REQUEST_BUDGET_PER_HOUR). */
    requestBudgetPerHour: integer('request_budget_per_hour'),
    /** Where it stands and the organisational unit it belongs to, set by an admin (migration 0036). */
    street: text('street'),
    city: text('city'),
    area: text('area'),
    status: text('status', { enum: SYSTEM_STATUSES }).notNull().default('active'),
    statusDetail: text('status_detail'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('systems_connection_idx').on(t.connectionId), index('systems_area_idx').on(t.area)],
);

export const managerSystems = pgTable(
  'manager_systems',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => systems.deviceId, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.deviceId] }), index('manager_systems_device_idx').on(t.deviceId)],
);

/** A room's kind where an admin corrected the guess from its name (migration 0018). */
export const resourceKinds = pgTable(
  'resource_kinds',
  {
    deviceId: uuid('device_id')
      .notNull()
      .references(() => systems.deviceId, { onDelete: 'cascade' }),
    resourceId: uuid('resource_id').notNull(),
    kind: text('kind', { enum: STORED_RESOURCE_KINDS }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.resourceId] })],
);

/**
 * A system's booking rules by group of rooms, as its installation publishes them (migration 0029;
 * lib/booking-rules/rule-set.ts is the model, lib/systems/booking-rules.ts reads it through that
 * model's schema, so a row that no longer fits reads as "no stated rules").
 */
export const systemBookingRules = pgTable('system_booking_rules', {
  deviceId: uuid('device_id')
    .primaryKey()
    .references(() => systems.deviceId, { onDelete: 'cascade' }),
  rules: jsonb('rules').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Personal data in connections (decision 032): none but the account that connected it. */
export const connectionsData = dataInventory(connections, {
  approvalFingerprint: notPersonal('which approval of the booking system this is'),
  apiKeyCiphertext: notPersonal('the system’s API key, encrypted: a secret, not personal'),
  createdBy: personal('person-id', 'account-lifetime', 'the admin who connected it (emptied when the account is deleted)'),
});

/** Personal data in systems (decision 032): none; a housing company's system and its settings. */
export const systemsData = dataInventory(systems, {
  name: notPersonal('the system’s name (a property, a co-op)'),
  timeZone: notPersonal('a setting'),
  scheduleBasis: notPersonal('a setting'),
  mailLocale: notPersonal('a setting'),
  street: notPersonal('the building’s street address'),
  city: notPersonal('the building’s city'),
  area: notPersonal('the housing company’s area or unit'),
  status: notPersonal('the connection’s state'),
  statusDetail: notPersonal('why the connection is in that state, in the portal’s words'),
});

/** Personal data in manager_systems (decision 032): which manager may see which system. */
export const managerSystemsData = dataInventory(managerSystems, {
  userId: personal('person-id', 'account-lifetime', 'the manager’s account'),
});

/** Personal data in resource_kinds (decision 032): none. */
export const resourceKindsData = dataInventory(resourceKinds, {
  kind: notPersonal('a room’s kind'),
});

/** Personal data in system_booking_rules (decision 032): none. */
export const systemBookingRulesData = dataInventory(systemBookingRules, {
  rules: notPersonal('a system’s booking rules'),
});
