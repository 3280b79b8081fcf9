import { sql } from 'drizzle-orm';
import { bigint, doublePrecision, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { dataInventory, notPersonal, personal } from '../personal-marks';

// The shapes stored here are defined here (the schema imports nothing of the domain);
// lib/mirror/types.ts uses them and fails to compile where the service's types differ.

/** How a reservation's owner is stored: the service's tolerant reader's names (lib/service/schemas.ts). */
export type StoredOwnerType = 'User' | 'Group' | 'Service' | 'Unknown';
export type StoredReservationStatus = 'Unused' | 'Used' | 'Unknown';
/** A Week schedule: per weekday (0 = Monday), its slots as [start minute in UTC, length in minutes]. */
export type StoredWeekSchedule = [number, number][][];

/**
 * The user list of the current generation: 'loaded' (read by its refresh), 'kept' (that refresh
 * could not read it, so the previous list was carried over), 'unavailable' (the service has no
 * users/fetch: searches fall back to the exact upstream lookups). Null before the first refresh.
 */
export type MirrorUsersStatus = 'loaded' | 'kept' | 'unavailable';

export type MirrorCollection = 'reservations' | 'resources' | 'timeSchedules' | 'userGroups' | 'users';

/** Items of the last successful refresh that the service sent but the portal could not use. */
export interface SkippedSummary {
  total: number;
  counts: Partial<Record<MirrorCollection, number>>;
  /** The first few (see SKIPPED_SAMPLES_MAX), for the admin's "why". */
  samples: { collection: MirrorCollection; id: string | null; reason: string }[];
}

/**
 * What is true about a failed refresh. unreachable: network, timeout, 5xx, open circuit;
 * unreadable: the service answered something the portal cannot read; refused: it refused the
 * request (credentials, validation, not found); busy: it answered 429 (slow down); internal: the
 * portal's own fault.
 */
export type MirrorErrorKind = 'unreachable' | 'unreadable' | 'refused' | 'busy' | 'internal';

/** Why a refresh waits to read a failed page again (migration 0035): the service said slow down (429), or did not answer. */
export type MirrorWaitKind = 'busy' | 'unreachable';

// Owned by lib/mirror/store.ts (the only code that reads or writes these tables); a refresh's pages
// go in with bulk `unnest` inserts.
export const mirrorState = pgTable('mirror_state', {
  deviceId: uuid('device_id').primaryKey(),
  generation: bigint('generation', { mode: 'number' }).notNull().default(0),
  refreshedAt: timestamp('refreshed_at', { withTimezone: true }),
  refreshStartedAt: timestamp('refresh_started_at', { withTimezone: true }),
  pagesFetched: integer('pages_fetched').notNull().default(0),
  lastError: text('last_error'),
  lastErrorAt: timestamp('last_error_at', { withTimezone: true }),
  refreshEndedAt: timestamp('refresh_ended_at', { withTimezone: true }),
  reservationsVersion: bigint('reservations_version', { mode: 'number' }).notNull().default(0),
  // Migration 0012.
  skippedItems: jsonb('skipped_items').$type<SkippedSummary>(),
  lastErrorKind: text('last_error_kind').$type<MirrorErrorKind>(),
  consecutiveFailures: integer('consecutive_failures').notNull().default(0),
  nextRefreshAt: timestamp('next_refresh_at', { withTimezone: true }),
  // Migration 0018: the user list of the current generation (see MirrorUsersStatus).
  usersRefreshedAt: timestamp('users_refreshed_at', { withTimezone: true }),
  usersStatus: text('users_status').$type<MirrorUsersStatus>(),
  // Migration 0024: a first load's structure and progress (see MirrorState).
  structureGeneration: bigint('structure_generation', { mode: 'number' }),
  reservationsRead: integer('reservations_read').notNull().default(0),
  reservationsLoaded: integer('reservations_loaded'),
  // Migration 0023: the request budget's token bucket (lib/mirror/policy.ts) and the last refresh's cost.
  budgetTokens: doublePrecision('budget_tokens'),
  budgetAt: timestamp('budget_at', { withTimezone: true }),
  lastRequests: integer('last_requests').notNull().default(0),
  // Migration 0026: the lease's owner (the claim's refreshId); refresh_started_at is renewed by its writes.
  refreshId: uuid('refresh_id'),
  // Migration 0027: collections whose list the service never ended (the copy holds what was read).
  incompleteLists: jsonb('incomplete_lists').$type<MirrorCollection[]>(),
  // Migration 0035: a running refresh waiting to read a failed page again, until when and why.
  waitingUntil: timestamp('waiting_until', { withTimezone: true }),
  waitingKind: text('waiting_kind').$type<MirrorWaitKind>(),
  // Migration 0036: when someone last opened the system (the background worker loads the most recently used first).
  viewedAt: timestamp('viewed_at', { withTimezone: true }),
});

export const mirrorReservations = pgTable(
  'mirror_reservations',
  {
    deviceId: uuid('device_id').notNull(),
    generation: bigint('generation', { mode: 'number' }).notNull(),
    id: uuid('id').notNull(),
    resourceId: uuid('resource_id').notNull(),
    userId: uuid('user_id'),
    ownerId: uuid('owner_id'),
    ownerType: text('owner_type').$type<StoredOwnerType>().notNull(),
    status: text('status').$type<StoredReservationStatus>().notNull(),
    startTime: timestamp('start_time', { withTimezone: true }).notNull(),
    endTime: timestamp('end_time', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.deviceId, t.generation, t.id] }),
    index('mirror_reservations_resource_time').on(t.deviceId, t.generation, t.resourceId, t.startTime),
    index('mirror_reservations_time').on(t.deviceId, t.generation, t.startTime),
    index('mirror_reservations_user').on(t.deviceId, t.generation, t.userId),
    index('mirror_reservations_owner').on(t.deviceId, t.generation, t.ownerId),
  ],
);

/**
 * Unused bookings the service released (not activated within their room group's window; migration
 * 0030): gone upstream, kept here so that reports still count them as no-shows. Not per generation.
 */
export const mirrorReleasedNoShows = pgTable(
  'mirror_released_no_shows',
  {
    deviceId: uuid('device_id').notNull(),
    id: uuid('id').notNull(),
    resourceId: uuid('resource_id').notNull(),
    userId: uuid('user_id'),
    ownerId: uuid('owner_id'),
    ownerType: text('owner_type').$type<StoredOwnerType>().notNull(),
    startTime: timestamp('start_time', { withTimezone: true }).notNull(),
    endTime: timestamp('end_time', { withTimezone: true }).notNull(),
    releasedAt: timestamp('released_at', { withTimezone: true }).notNull(),
    seenGoneAt: timestamp('seen_gone_at', { withTimezone: true }).notNull().defaultNow(),
    /** Migration 0032: when retention (or erasure) anonymised the row; null: not yet. */
    anonymisedAt: timestamp('anonymised_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.deviceId, t.id] }),
    index('mirror_released_no_shows_time').on(t.deviceId, t.startTime),
    index('mirror_released_no_shows_retention').on(t.startTime).where(sql`anonymised_at IS NULL`),
  ],
);

export const mirrorResources = pgTable(
  'mirror_resources',
  {
    deviceId: uuid('device_id').notNull(),
    generation: bigint('generation', { mode: 'number' }).notNull(),
    id: uuid('id').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull(),
    timeScheduleId: text('time_schedule_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.generation, t.id] })],
);

export const mirrorTimeSchedules = pgTable(
  'mirror_time_schedules',
  {
    deviceId: uuid('device_id').notNull(),
    generation: bigint('generation', { mode: 'number' }).notNull(),
    id: uuid('id').notNull(),
    scheduleType: text('schedule_type').notNull(),
    schedule: jsonb('schedule').$type<StoredWeekSchedule>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.generation, t.id] })],
);

export const mirrorUserGroups = pgTable(
  'mirror_user_groups',
  {
    deviceId: uuid('device_id').notNull(),
    generation: bigint('generation', { mode: 'number' }).notNull(),
    id: uuid('id').notNull(),
    name: text('name').notNull(),
    apartmentId: text('apartment_id'),
    referenceId: text('reference_id'),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.generation, t.id] })],
);

/** The system's users (users/fetch, migration 0018); display fields may be missing upstream. */
export const mirrorUsers = pgTable(
  'mirror_users',
  {
    deviceId: uuid('device_id').notNull(),
    generation: bigint('generation', { mode: 'number' }).notNull(),
    id: uuid('id').notNull(),
    name: text('name'),
    email: text('email'),
    userGroupId: uuid('user_group_id'),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.generation, t.id] }), index('mirror_users_group').on(t.deviceId, t.generation, t.userGroupId)],
);

// Personal data in the mirror (decision 032): the booking system's data, copied; each refresh
// replaces it, and the booking system is where it is corrected or erased.

export const mirrorStateData = dataInventory(mirrorState, {
  lastError: notPersonal('why the last refresh failed, in the portal’s words'),
  skippedItems: personal('person-id', 'mirror-service-owned', 'items the booking system sent unreadable, for the admin’s “why”: a user’s id among them'),
  lastErrorKind: notPersonal('a fixed kind of failure'),
  usersStatus: notPersonal('whether the user list was read'),
  incompleteLists: notPersonal('which lists the service did not end'),
  waitingKind: notPersonal('why a refresh waits for the service'),
});

export const mirrorReservationsData = dataInventory(mirrorReservations, {
  userId: personal('person-id', 'mirror-service-owned', 'who holds the booking'),
  ownerId: personal('person-id', 'mirror-service-owned', 'the booking’s owner: a user or an apartment’s group'),
  ownerType: notPersonal('what kind of owner'),
  status: notPersonal('used or not'),
});

export const mirrorReleasedNoShowsData = dataInventory(mirrorReleasedNoShows, {
  userId: personal('person-id', 'request-13m', 'who held the released booking: kept after the booking system dropped it, for no-show reports'),
  ownerId: personal('person-id', 'request-13m', 'the released booking’s owner: a user or an apartment’s group'),
  ownerType: notPersonal('what kind of owner'),
});

export const mirrorResourcesData = dataInventory(mirrorResources, {
  name: notPersonal('a room’s name'),
  description: notPersonal('a room’s description'),
  timeScheduleId: notPersonal('its schedule'),
});

export const mirrorTimeSchedulesData = dataInventory(mirrorTimeSchedules, {
  scheduleType: notPersonal('a schedule’s type'),
  schedule: notPersonal('a schedule’s slots'),
});

export const mirrorUserGroupsData = dataInventory(mirrorUserGroups, {
  id: personal('apartment', 'mirror-service-owned', 'the apartment’s group'),
  name: personal('apartment', 'mirror-service-owned', 'the apartment’s name (“Lägenhet 1203”)'),
  apartmentId: personal('apartment', 'mirror-service-owned', 'the apartment’s number, to find and show it'),
  referenceId: personal('apartment', 'mirror-service-owned', 'the housing company’s reference for the apartment, to find it'),
});

export const mirrorUsersData = dataInventory(mirrorUsers, {
  id: personal('person-id', 'mirror-service-owned', 'the resident in the booking system'),
  name: personal('name', 'mirror-service-owned', 'to find and show the resident'),
  email: personal('email', 'mirror-service-owned', 'to find the resident and to e-mail them about bookings made on their behalf'),
  userGroupId: personal('apartment', 'mirror-service-owned', 'the resident’s apartment'),
});
