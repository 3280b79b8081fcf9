import type { MessageData } from '@/lib/events/types';

// What the closures' routes answer (browser-safe types: the page and its client components read them).

/** A booking found in a closure's period: cancelled when it has not started, else left alone. */
export interface PreviewBooking {
  reservationId: string;
  resourceId: string;
  resourceName: string | null;
  startTime: string;
  endTime: string;
  apartment: string | null;
  residentName: string | null;
  willCancel: boolean;
}

export interface ClosurePreview {
  startTime: string;
  endTime: string;
  rooms: { id: string; name: string }[];
  bookings: PreviewBooking[];
  /** How many of `bookings` the closure would cancel. */
  toCancel: number;
}

/**
 * A target's state: 'waiting' (not yet sent), 'sent' (its request waits for the service's answer),
 * 'cancelled', 'failed', 'gone' (no longer in the service: nothing to cancel) or 'skipped' (it
 * had started, or someone else's cancellation of it was on its way).
 */
export type ClosureItemState = 'waiting' | 'sent' | 'cancelled' | 'failed' | 'gone' | 'skipped';

/** A target of a confirmed closure: the booking as the preview showed it, and what became of it. */
export interface ClosureItem extends Omit<PreviewBooking, 'willCancel'> {
  /** The cancellation request (its events carry this id and the closure's). */
  requestId: string | null;
  state: ClosureItemState;
  /** Why it failed or was skipped, to render in the reader's language. */
  reason: MessageData | null;
}

/** Counts of a closure's targets; `skipped` includes the ones already gone. */
export interface ClosureProgress {
  total: number;
  waiting: number;
  sent: number;
  cancelled: number;
  failed: number;
  skipped: number;
}

export interface ClosureView {
  id: string;
  deviceId: string;
  rooms: { id: string; name: string | null }[];
  startTime: string;
  endTime: string;
  reason: string;
  createdByName: string | null;
  createdAt: string;
  status: 'cancelling' | 'done';
  finishedAt: string | null;
  liftedAt: string | null;
  progress: ClosureProgress;
  items: ClosureItem[];
}
