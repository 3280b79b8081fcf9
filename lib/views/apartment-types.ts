import type { RoomClosureNote } from './types';
/**
 * The apartment page's data (lib/views/apartment.ts), as the API sends it and the page reads it.
 * Browser-safe: types only, besides the schedule's own pure types.
 */
import type { RequestView } from '@/lib/events/types';
import type { DayPart, FreeSlot } from '@/lib/schedule/next-free';
import type { ResourceKind } from '@/lib/schedule/resource-kind';
import type { Freshness } from './types';

export interface ApartmentResident {
  userId: string;
  /** May be empty upstream. */
  name: string;
  email: string;
}

export interface ApartmentRoom {
  resourceId: string;
  name: string;
  kind: ResourceKind;
  /** May the apartment book it: null when the service could not say (then the service decides). */
  allowed: boolean | null;
  /** Future bookings and open booking requests of the apartment in the room. */
  held: number;
  quota: number;
  atQuota: boolean;
  /**
   * The rooms of its rule group, named, when the room shares its bookings at a time with others
   * (issue 35): `held` and `quota` are the group's, and the note says "in Tvättstuga 1, 4 and 5 together".
   */
  groupRooms?: string[];
  /** Room closures of this room in force or to come (lib/closures), earliest first. */
  closures?: RoomClosureNote[];
}

export interface ApartmentBooking {
  reservationId: string;
  resourceId: string;
  /** Empty when the room has no name upstream (the page words that). */
  resourceName: string;
  /** False when the service's resource list no longer holds the room (the name is then unknown). */
  roomListed: boolean;
  startTime: string;
  endTime: string;
  startMs: number;
  endMs: number;
  /** "07:00–10:00" in the system's zone (the page words the day from startMs in the reader's language). */
  timeLabel: string;
  /** The manager's name for a portal booking (null when not recorded); see bookedThroughPortal. */
  bookedByName: string | null;
  bookedThroughPortal: boolean;
  residentName: string | null;
  /** Upstream 'Used' / 'Unused'; 'Unknown' for a value the interface does not list. */
  status: 'Used' | 'Unused' | 'Unknown';
  cancellable: boolean;
}

export interface ApartmentView {
  system: { deviceId: string; name: string; timeZone: string; bookingQuota: number; bookingHorizonDays: number };
  group: { id: string; name: string; apartmentId: string; referenceId: string };
  /** What names the apartment: its number, else the group's name, else nothing (the page words each). */
  title: ApartmentTitle;
  residents: ApartmentResident[];
  /** False when the portal holds no user list for the system (the service has none): residents then unknown. */
  residentsKnown: boolean;
  /** Whether the service said which rooms the apartment may book. */
  authorizationsKnown: boolean;
  rooms: ApartmentRoom[];
  upcoming: ApartmentBooking[];
  /** The last `pastWeeks` weeks, newest first. */
  past: ApartmentBooking[];
  pastWeeks: number;
  /** Booking and cancellation requests still waiting for their outcome. */
  open: RequestView[];
  /** The portal's requests for the apartment, newest first (capped). */
  history: RequestView[];
  historyLimit: number;
  freshness: Freshness;
  generatedAt: number;
}

/** An apartment's name in parts: `{ apartment: '1203' }` reads "Apartment 1203" / "Lägenhet 1203". */
export interface ApartmentTitle {
  kind: 'apartment' | 'name' | 'unnamed';
  apartment: string;
  name: string;
}

/** A free slot as the page gets it: the day is worded by the page, in the reader's language. */
export type NextFreeSlot = FreeSlot;

export interface NextFreeView {
  slots: NextFreeSlot[];
  kind: ResourceKind | null;
  dayPart: DayPart | null;
  count: number;
  /** Rooms left out because the apartment holds its quota there. */
  atQuota: string[];
  /** The system's time zone, in which the slots' days and times are worded. */
  timeZone: string;
  generatedAt: number;
}

export const PAST_WEEKS = 8;
export const HISTORY_LIMIT = 50;
export const MAX_NEXT_FREE = 20;
