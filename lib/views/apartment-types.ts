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
  /** "1 of 2 future bookings in Tvättstuga 1". */
  usage: string;
}

export interface ApartmentBooking {
  reservationId: string;
  resourceId: string;
  resourceName: string;
  startTime: string;
  endTime: string;
  startMs: number;
  endMs: number;
  /** "Monday 24 November" and "07:00–10:00" in the system's zone. */
  dayLabel: string;
  timeLabel: string;
  /** Who made it: the manager's name for a portal booking, else "the resident or the booking system". */
  bookedBy: string;
  bookedThroughPortal: boolean;
  residentName: string | null;
  /** Upstream 'Used' / 'Unused'; 'Unknown' for a value the interface does not list. */
  status: 'Used' | 'Unused' | 'Unknown';
  cancellable: boolean;
}

export interface ApartmentView {
  system: { deviceId: string; name: string; timeZone: string; bookingQuota: number; bookingHorizonDays: number };
  group: { id: string; name: string; apartmentId: string; referenceId: string };
  /** "Apartment 1203", else the group's name, else "Unnamed apartment". */
  title: string;
  residents: ApartmentResident[];
  /** False when the portal holds no user list for the system (the service has none): residents then unknown. */
  residentsKnown: boolean;
  /** Whether the service said which rooms the apartment may book. */
  authorizationsKnown: boolean;
  rooms: ApartmentRoom[];
  upcoming: ApartmentBooking[];
  /** The last eight weeks, newest first. */
  past: ApartmentBooking[];
  /** Booking and cancellation requests still waiting for their outcome. */
  open: RequestView[];
  /** The portal's requests for the apartment, newest first (capped). */
  history: RequestView[];
  historyLimit: number;
  freshness: Freshness;
  generatedAt: number;
}

export interface NextFreeView {
  slots: FreeSlot[];
  kind: ResourceKind | null;
  dayPart: DayPart | null;
  count: number;
  /** Rooms left out because the apartment holds its quota there. */
  atQuota: string[];
  generatedAt: number;
}

export const PAST_WEEKS = 8;
export const HISTORY_LIMIT = 50;
export const MAX_NEXT_FREE = 20;
