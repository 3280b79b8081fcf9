import type {
  MirrorCollection,
  MirrorErrorKind,
  MirrorUsersStatus,
  MirrorWaitKind,
  SkippedSummary,
  StoredOwnerType,
  StoredReservationStatus,
  StoredWeekSchedule,
} from '@/lib/db/schema/mirror';
import type { Assert, SameType } from '@/lib/same-type';
import type { PageResume } from '@/lib/service/paginator';
import type { Reservation, Resource, SkippedItem, TimeSchedule, UserAccount, UserGroup } from '@/lib/service/schemas';

export type { MirrorCollection, MirrorErrorKind, MirrorUsersStatus, MirrorWaitKind, SkippedSummary };

// The mirror stores what the service's reader gives (lib/db/schema/mirror.ts names it for storage).
type _OwnerTypes = Assert<SameType<StoredOwnerType, Reservation['ownerType']>>;
type _Statuses = Assert<SameType<StoredReservationStatus, Reservation['status']>>;
type _Schedules = Assert<SameType<StoredWeekSchedule, TimeSchedule['schedule']>>;

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

/** One page: its usable items and those the reader skipped. A bare array is a page with none skipped. */
/** A page of a collection; `incomplete` on the last one when the list did not end (lib/service/paginator.ts). */
export type MirrorPage<T> = readonly T[] | { items: readonly T[]; skipped: readonly SkippedItem[]; incomplete?: 'repeated' | 'pageLimit' };

/** How a refresh reads a collection: `resume` decides whether a page that failed is asked for again (lib/service/paginator.ts). */
export interface SourceOptions {
  resume?: PageResume;
}

/** Where a refresh reads from: each collection as an async sequence of pages. */
export interface MirrorSource {
  reservations(deviceId: string, options?: SourceOptions): AsyncIterable<MirrorPage<Reservation>>;
  resources(deviceId: string, options?: SourceOptions): AsyncIterable<MirrorPage<Resource>>;
  timeSchedules(deviceId: string, options?: SourceOptions): AsyncIterable<MirrorPage<TimeSchedule>>;
  userGroups(deviceId: string, options?: SourceOptions): AsyncIterable<MirrorPage<UserGroup>>;
  /** Every user of the system in one answer (not paged upstream); absent: the source has no user list. */
  users?(deviceId: string): Promise<MirrorPage<UserAccount>>;
}

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
  /**
   * Collections of the current copy whose list the service never ended (migration 0027): the copy
   * holds what was read and is used; a refresh is tried again with backoff. Null: every list ended.
   */
  incompleteLists: MirrorCollection[] | null;
  /**
   * The running refresh waits to read a page that failed after its retries again, from where it
   * stopped (migration 0035): until when, and why. Null otherwise (and once its lease ran out).
   */
  waiting: { until: Date; kind: MirrorWaitKind } | null;
  /** When someone last opened the system (at most a minute off: markViewed); the background worker loads the most recently used first. */
  viewedAt: Date | null;
}
