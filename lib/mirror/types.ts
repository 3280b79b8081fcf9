import type { Reservation, Resource, SkippedItem, TimeSchedule, UserAccount, UserGroup } from '@/lib/service/schemas';

export type MirrorReservation = Reservation;
export type MirrorResource = Resource;
export type MirrorTimeSchedule = TimeSchedule;
export type MirrorUserGroup = UserGroup;

/** A user of the system as users/fetch lists it (no authorizations); display fields may be empty. */
export interface MirrorUser {
  id: string;
  name: string;
  email: string;
  userGroupId: string | null;
}

/**
 * The user list of the current generation: 'loaded' (read by its refresh), 'kept' (that refresh
 * could not read it, so the previous list was carried over), 'unavailable' (the service has no
 * users/fetch: searches fall back to the exact upstream lookups). Null before the first refresh.
 */
export type MirrorUsersStatus = 'loaded' | 'kept' | 'unavailable';

export type MirrorCollection = 'reservations' | 'resources' | 'timeSchedules' | 'userGroups' | 'users';

/** One page: its usable items and those the reader skipped. A bare array is a page with none skipped. */
export type MirrorPage<T> = readonly T[] | { items: readonly T[]; skipped: readonly SkippedItem[] };

/** Where a refresh reads from: each collection as an async sequence of pages. */
export interface MirrorSource {
  reservations(deviceId: string): AsyncIterable<MirrorPage<Reservation>>;
  resources(deviceId: string): AsyncIterable<MirrorPage<Resource>>;
  timeSchedules(deviceId: string): AsyncIterable<MirrorPage<TimeSchedule>>;
  userGroups(deviceId: string): AsyncIterable<MirrorPage<UserGroup>>;
  /** Every user of the system in one answer (not paged upstream); absent: the source has no user list. */
  users?(deviceId: string): Promise<MirrorPage<UserAccount>>;
}

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

export interface MirrorState {
  deviceId: string;
  generation: number;
  /** When the data was read: the start of the last successful refresh. */
  refreshedAt: Date | null;
  /** When that refresh finished; the next one is due a freshness window after this. */
  refreshEndedAt: Date | null;
  refreshing: boolean;
  /** When the running refresh claimed its lease (null: none runs); a lease older than REFRESH_LEASE_SECONDS is dead. */
  refreshStartedAt: Date | null;
  /** Bumped by every confirmed outcome applied in place (see migration 0010). */
  reservationsVersion: number;
  pagesFetched: number;
  /** The raw failure (for the log and admins), never shown as such: see lastErrorKind. */
  lastError: string | null;
  lastErrorAt: Date | null;
  lastErrorKind: MirrorErrorKind | null;
  /** Failed refreshes since the last success; 0 after one. */
  consecutiveFailures: number;
  /** After a failure: no refresh starts before this (backoff). */
  nextRefreshAt: Date | null;
  skipped: SkippedSummary | null;
  /** When the current generation's user list was read (null: none held); see MirrorUsersStatus. */
  usersRefreshedAt: Date | null;
  usersStatus: MirrorUsersStatus | null;
  /**
   * The generation being loaded, once its resources and time schedules are complete (its rooms and
   * slots may be shown while its reservations are still read); null when none is (migration 0024).
   */
  structureGeneration: number | null;
  /** Reservations of the loading generation written so far. */
  reservationsRead: number;
  /** Reservations the last complete load read (an estimate of the next load's total); null before one. */
  reservationsLoaded: number | null;
  /** The request budget's bucket as of budgetAt (null: full); see lib/mirror/policy.ts. */
  budgetTokens: number | null;
  budgetAt: Date | null;
  /** Upstream requests the last refresh made (0 before the first). */
  lastRequests: number;
}
