// JSON shapes the system, resource and residents views send to the browser (route handlers and
// server components alike). Type-only imports keep this file free of zod and server code.
import type { Heatmap, NowStatus, OccupancyStats, StatefulSlot, WeekInfo } from '@/lib/schedule';
import type { RequestView } from '@/lib/events/types';
import type { BookingOrigin } from '@/lib/reservations/types';
import type { SystemPublic } from '@/lib/systems/schemas';

/**
 * Why the last refresh failed, as far as it is true: 'unreachable' (no answer, timeout, 5xx),
 * 'unreadable' (an answer the portal cannot read), 'refused' (credentials, a refused request),
 * 'busy' (429: it asked the portal to slow down), 'internal' (the portal's own fault). Mirrors
 * MirrorErrorKind (lib/mirror/types.ts).
 */
export type FreshnessErrorKind = 'unreachable' | 'unreadable' | 'refused' | 'busy' | 'internal';

/** The last refresh's failure, when it failed: a safe sentence, its kind, and the next attempt (ISO). */
export interface FreshnessFailure {
  lastError: string | null;
  lastErrorKind: FreshnessErrorKind | null;
  /** When the portal tries again (after a backoff); null when unknown or not failed. */
  retryAt: string | null;
}

/**
 * A first load whose rooms and schedules are in while its reservations are still read: the week
 * grid and the rooms list show them, with every slot not known yet 'loading'. `reservationsExpected`
 * is an honest estimate of the total (the last complete load's count), else null (the bar is then
 * indeterminate: the service sends items in no order, so a load cannot estimate its own total).
 */
export interface PartialFreshness {
  reservationsRead: number;
  reservationsExpected: number | null;
}

/**
 * When the copy is next re-read from the service (lib/mirror/policy.ts). `deferredBy` says what
 * holds that back beyond the freshness window: 'budget' (the system's upstream request budget:
 * bookings made outside the portal show up only then) or 'backoff' (after a failure; see retryAt).
 */
export interface FreshnessSchedule {
  /** The earliest time the next refresh may start (ISO); null when one is starting or running. */
  nextRefreshAt: string | null;
  deferredBy: 'budget' | 'backoff' | null;
  /**
   * The running refresh waits for the service: a page failed after its retries and is asked for
   * again at `retryAt` (ISO), from where the list stopped ('busy': the service asked it to slow
   * down; 'unreachable': no answer). Absent when not waiting.
   */
  waiting?: { kind: 'busy' | 'unreachable'; retryAt: string };
}

/** How current the mirrored copy is. Instants are ISO strings; lastError is a safe, generic sentence. */
export type Freshness =
  | ({ status: 'loading'; pagesFetched: number; refreshing: boolean; partial: PartialFreshness | null } & FreshnessFailure & FreshnessSchedule)
  | ({
      status: 'ready';
      refreshedAt: string;
      refreshing: boolean;
      lastErrorAt: string | null;
      /**
       * The longest a change made outside the portal stays unseen while the system is viewed, in
       * seconds (lib/mirror/freshness-bound.ts, from the system's size, its budget and the
       * settings): "changes made outside the portal show within about N min". Absent: unknown.
       */
      outsideWithinS?: number;
      /** Lists the service never ended (the copy holds what was read; retried with backoff); absent when every list ended. */
      incomplete?: ('reservations' | 'resources' | 'timeSchedules' | 'userGroups' | 'users')[];
    } & FreshnessFailure &
      FreshnessSchedule);

/** For admins: items of the last refresh the service sent but the portal could not read. */
export interface SkippedItemsView {
  total: number;
  counts: Partial<Record<'reservations' | 'resources' | 'timeSchedules' | 'userGroups', number>>;
  samples: { collection: string; id: string | null; reason: string }[];
}

export interface ResourceOverview {
  id: string;
  name: string;
  description: string;
  /** Null while a first load is still reading the reservations (freshness.partial). */
  occupancy: OccupancyStats | null;
  /** What is happening now (`slot` left out: the page does not show it); null while a first load reads the reservations. */
  now: (Omit<NowStatus, 'slot'> & { slot: null }) | null;
  /** Room closures of this room in force or to come (lib/closures), earliest first. */
  closures?: RoomClosureNote[];
}

/** A room closure as a room's summary mentions it: "Closed: reason (period)". */
export interface RoomClosureNote {
  reason: string;
  startMs: number;
  endMs: number;
}

export interface SystemOverview {
  system: SystemPublic;
  freshness: Freshness;
  /** Key of the week the occupancy is about (the current week in the system's zone). */
  weekKey: string | null;
  /** Empty while loading, unless the first load's rooms are in (freshness.partial): then listed without occupancy. */
  resources: ResourceOverview[];
  /** Booking rate per weekday × hour over the last 8 weeks; null while loading. */
  heatmap: Heatmap | null;
  /** Server time the numbers were computed at (epoch ms). */
  generatedAt: number;
  /** Only for admins (loadSystemOverview's `includeSkipped`), and only when items were skipped. */
  skipped?: SkippedItemsView | null;
}

export interface ResourceWeekView {
  system: SystemPublic;
  /** Null while loading, unless the first load's rooms are in (freshness.partial). */
  resource: { id: string; name: string; description: string } | null;
  week: WeekInfo;
  /**
   * During a partial first load: the known bookings, every other slot 'loading' and none bookable.
   * For a room whose schedule the service does not list (noListedSchedule): its bookings of the
   * week at their own times, none bookable.
   */
  slots: StatefulSlot[];
  /** The service lists no time schedule (that the portal can read) for this room: nothing can be booked here. Absent otherwise. */
  noListedSchedule?: true;
  /** End of the system's booking horizon (epoch ms). */
  horizonEnd: number;
  /**
   * "Bookable until": the end of the room's last slot within every horizon that applies to it (the
   * system's, its rule group's days ahead; lib/schedule bookableUntil); null when none is known.
   */
  bookableUntil: number | null;
  freshness: Freshness;
  /** Week keys for navigation. */
  nav: { previous: string; next: string; current: string };
  generatedAt: number;
  /** Open booking/cancel requests of this resource around the week (the grid shows them pending). */
  requests: RequestView[];
  /** The week's reservations booked through the portal (the slot dialog says by whom). */
  origins: BookingOrigin[];
}
