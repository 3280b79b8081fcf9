// JSON shapes the system, resource and residents views send to the browser (route handlers and
// server components alike). Type-only imports keep this file free of zod and server code.
import type { Heatmap, NowStatus, OccupancyStats, StatefulSlot, WeekInfo } from '@/lib/schedule';
import type { RequestView } from '@/lib/events/types';
import type { SystemPublic } from '@/lib/systems/schemas';

/** The longest resident search (an e-mail address); the server's schema and both search boxes use it. */
export const RESIDENT_QUERY_MAX_LENGTH = 254;

/** How current the mirrored copy is. Instants are ISO strings; lastError is a safe, generic sentence. */
export type Freshness =
  | { status: 'loading'; pagesFetched: number; lastError: string | null }
  | { status: 'ready'; refreshedAt: string; refreshing: boolean; lastError: string | null; lastErrorAt: string | null };

export interface ResourceOverview {
  id: string;
  name: string;
  description: string;
  occupancy: OccupancyStats;
  /** What is happening now (`slot` left out: the page does not show it). */
  now: Omit<NowStatus, 'slot'> & { slot: null };
}

export interface SystemOverview {
  system: SystemPublic;
  freshness: Freshness;
  /** Key of the week the occupancy is about (the current week in the system's zone). */
  weekKey: string | null;
  resources: ResourceOverview[];
  /** Booking rate per weekday × hour over the last 8 weeks; null while loading. */
  heatmap: Heatmap | null;
  /** Server time the numbers were computed at (epoch ms). */
  generatedAt: number;
}

export interface ResourceWeekView {
  system: SystemPublic;
  resource: { id: string; name: string; description: string } | null;
  week: WeekInfo;
  slots: StatefulSlot[];
  /** End of the booking horizon (epoch ms). */
  horizonEnd: number;
  freshness: Freshness;
  /** Week keys for navigation. */
  nav: { previous: string; next: string; current: string };
  generatedAt: number;
  /** Open booking/cancel requests of this resource around the week (the grid shows them pending). */
  requests: RequestView[];
}

export interface ResidentResult {
  userId: string;
  name: string;
  email: string;
  deviceId: string;
  systemName: string;
  apartmentId: string | null;
  userGroupId: string | null;
  resources: { id: string; name: string }[];
}

export interface ResidentSearchResult {
  residents: ResidentResult[];
}
