// Booking shapes the browser sees too: type and constant only, safe in the browser.

/** The longest booking note; the server's schema and the booking dialog's field use it. */
export const BOOKING_NOTE_MAX = 500;

/** A reservation booked through the portal: who asked, when, for whom, and the manager's note. */
export interface BookingOrigin {
  reservationId: string;
  /** The manager's name at the time (null on requests made before names were kept). */
  requestedByName: string | null;
  /** When the manager asked (ISO). */
  requestedAt: string;
  residentName: string | null;
  /** Anonymised by retention or erasure: no name given, the reader's language words it (issue 47). */
  residentAnonymised?: boolean;
  note: string | null;
}
