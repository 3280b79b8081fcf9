// Pure and browser-safe (no server-only): the reasons shown in the browser are keyed by these.

/** The outcome error codes of the reservation service (service-notes.md B). */
export const OUTCOME_ERROR_CODES = [
  'SlotUnavailable',
  'InvalidTimeSlot',
  'QuotaExceeded',
  'OutsideBookingWindow',
  'InPast',
  'UserNotAuthorized',
  'UserNotFound',
  'ResourceNotFound',
  'ReservationNotFound',
  'NotCancellable',
  'InternalError',
] as const;
export type OutcomeErrorCode = (typeof OUTCOME_ERROR_CODES)[number];
