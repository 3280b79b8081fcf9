import type { Reservation, Resource, TimeSchedule, UserGroup } from '@/lib/service/schemas';

export type MirrorReservation = Reservation;
export type MirrorResource = Resource;
export type MirrorTimeSchedule = TimeSchedule;
export type MirrorUserGroup = UserGroup;

/** Where a refresh reads from: each collection as an async sequence of pages. */
export interface MirrorSource {
  reservations(deviceId: string): AsyncIterable<readonly Reservation[]>;
  resources(deviceId: string): AsyncIterable<readonly Resource[]>;
  timeSchedules(deviceId: string): AsyncIterable<readonly TimeSchedule[]>;
  userGroups(deviceId: string): AsyncIterable<readonly UserGroup[]>;
}

export interface MirrorState {
  deviceId: string;
  generation: number;
  /** When the data was read: the start of the last successful refresh. */
  refreshedAt: Date | null;
  /** When that refresh finished; the next one is due a freshness window after this. */
  refreshEndedAt: Date | null;
  refreshing: boolean;
  /** Bumped by every confirmed outcome applied in place (see migration 0010). */
  reservationsVersion: number;
  pagesFetched: number;
  lastError: string | null;
  lastErrorAt: Date | null;
}
