import { isBookable } from '@/lib/booking-rules/slot-rules';
import type { StatefulSlot } from './overlay';
import type { Owner } from './types';

/** The fields of a portal request (lib/events RequestView) this module reads. */
export interface SlotRequest {
  id: string;
  kind: 'create' | 'cancel';
  status: 'sending' | 'pending' | 'succeeded' | 'failed';
  startTime: string | null;
  endTime: string | null;
  reservationId: string | null;
  /** Who the booking is for (an apartment, a name). */
  label?: Owner | null;
}

/**
 * Overlays the portal's own requests on the slots, so a request shows the moment it is made and
 * until the mirror has caught up: an open booking makes a free slot 'pending'; a booking that
 * succeeded makes it 'booked'; an open cancellation marks a booked slot; a cancellation that
 * succeeded frees it. Failed requests change nothing.
 */
export function applyOpenRequests<T extends StatefulSlot>(slots: readonly T[], requests: readonly SlotRequest[], nowMs: number): T[] {
  if (requests.length === 0) return [...slots];
  return slots.map((slot) => {
    for (const r of requests) {
      if (r.status === 'failed') continue;
      if (r.kind === 'create') {
        const start = Date.parse(r.startTime ?? '');
        const end = Date.parse(r.endTime ?? '');
        if (!(start < slot.endMs && end > slot.startMs)) continue;
        if (slot.state !== 'free' && slot.state !== 'pending') continue;
        const open = r.status === 'sending' || r.status === 'pending';
        return {
          ...slot,
          state: open ? 'pending' : 'booked',
          ownerLabel: r.label ?? null,
          bookable: false,
          pending: open ? { requestId: r.id, kind: 'create' as const } : null,
        };
      }
      if (r.reservationId && slot.reservation?.id === r.reservationId) {
        if (r.status === 'succeeded') {
          const isPast = slot.endMs <= nowMs;
          const reservations = slot.reservations.filter((x) => x.id !== r.reservationId);
          return {
            ...slot,
            // During a first load another reservation may still turn up: the slot is being checked.
            state: slot.checking ? 'loading' : isPast ? 'past' : 'free',
            ownerLabel: null,
            reservation: null,
            reservations,
            // A booking cancelled in a closed room leaves it free but not bookable.
            bookable:
              !slot.closed &&
              isBookable({ startMs: slot.startMs, overlapping: reservations.length, beyondHorizon: slot.beyondHorizon, reservationsKnown: !slot.checking }, nowMs),
            pending: null,
          };
        }
        return { ...slot, pending: { requestId: r.id, kind: 'cancel' as const } };
      }
    }
    return slot;
  });
}
