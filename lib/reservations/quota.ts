import 'server-only';
import type { Database } from '@/lib/db';
import { readReservationsOfApartment, readUsers } from '@/lib/mirror/store';
import type { MirrorReservation } from '@/lib/mirror/types';
import type { RequestView } from '@/lib/events/types';
import type { HeldBooking } from '@/lib/booking-rules';
import { listOpenApartmentBookings, type ApartmentKeys } from './lifecycle';

// Bookings upstream are never further ahead than this; the read stays bounded all the same.
const FAR_AHEAD_MS = 400 * 86_400_000;

/** The apartment of a resident: their group with its members, or the resident alone without one. */
export async function apartmentOf(db: Database, deviceId: string, resident: { userId: string; userGroupId: string | null }): Promise<ApartmentKeys> {
  if (!resident.userGroupId) return { groupId: null, userIds: [resident.userId] };
  const members = await readUsers(db, deviceId, [resident.userGroupId]);
  return { groupId: resident.userGroupId, userIds: [...new Set([resident.userId, ...members.map((m) => m.id)])] };
}

/** What the apartment holds now: its future bookings in the mirror (not maintenance) and its open booking requests. */
export interface ApartmentHoldings {
  /** Future bookings (end after now), sorted by start. */
  bookings: MirrorReservation[];
  /** Open booking requests for slots not yet over. */
  open: RequestView[];
}

export async function readApartmentHoldings(db: Database, deviceId: string, apartment: ApartmentKeys, now: Date): Promise<ApartmentHoldings> {
  const [reservations, open] = await Promise.all([
    readReservationsOfApartment(db, deviceId, apartment, { from: now, to: new Date(now.getTime() + FAR_AHEAD_MS) }),
    listOpenApartmentBookings(db, deviceId, apartment, now),
  ]);
  // As the service counts: every future reservation of the apartment but maintenance windows.
  return { bookings: reservations.filter((r) => r.ownerType !== 'Service'), open };
}

/** Held per resource id: future bookings plus open requests (what the service will count once they succeed). */
export function heldPerResource(holdings: ApartmentHoldings): Map<string, number> {
  const held = new Map<string, number>();
  const add = (resourceId: string | null) => {
    if (resourceId) held.set(resourceId, (held.get(resourceId) ?? 0) + 1);
  };
  const booked = new Set<string>();
  for (const r of holdings.bookings) {
    add(r.resourceId);
    booked.add(`${r.resourceId}|${Date.parse(r.startTime)}`);
  }
  // A request whose booking the mirror already shows (its outcome not yet matched, e.g. the answer
  // was lost and a refresh read the booking) is one booking, not two.
  for (const r of holdings.open) {
    if (r.startTime && booked.has(`${r.resourceId}|${Date.parse(r.startTime)}`)) continue;
    add(r.resourceId);
  }
  return held;
}

/**
 * What a rule group counts (lib/booking-rules/group-rules.ts): the apartment's bookings from
 * `from` on — past ones too, for "N in D days" — and its open requests, each once (a request whose
 * booking the mirror already shows is that booking). Maintenance windows are not the apartment's.
 */
export async function readApartmentHistory(db: Database, deviceId: string, apartment: ApartmentKeys, now: Date, from: Date): Promise<HeldBooking[]> {
  const [reservations, open] = await Promise.all([
    readReservationsOfApartment(db, deviceId, apartment, { from, to: new Date(now.getTime() + FAR_AHEAD_MS) }),
    listOpenApartmentBookings(db, deviceId, apartment, now),
  ]);
  const held: HeldBooking[] = reservations
    .filter((r) => r.ownerType !== 'Service')
    .map((r) => ({ resourceId: r.resourceId, startMs: Date.parse(r.startTime), endMs: Date.parse(r.endTime), status: r.status }));
  const booked = new Set(held.map((h) => `${h.resourceId}|${h.startMs}`));
  for (const r of open) {
    if (!r.resourceId || !r.startTime || !r.endTime) continue;
    const startMs = Date.parse(r.startTime);
    if (booked.has(`${r.resourceId}|${startMs}`)) continue;
    held.push({ resourceId: r.resourceId, startMs, endMs: Date.parse(r.endTime), status: null });
  }
  return held;
}
