/**
 * The booking rules: small pure checks, one per file with its test, shared by the grid (which
 * slots are shown bookable, lib/schedule/overlay.ts) and the handler (what is refused,
 * lib/reservations/requests.ts), so the two cannot disagree. Browser-safe: no I/O, no server
 * module. A new rule goes in its own file here and into `slotRefusal` (slot-rules.ts; when the grid can know it)
 * or the handler's resident checks (when only the resident's lookup can). The apartment quota
 * (within-quota) is counted by the handler and by the next-free search (lib/schedule/next-free.ts).
 */
export * from './types';
export * from './slot-on-schedule';
export * from './not-started';
export * from './within-booking-horizon';
export * from './slot-free';
export * from './resident-authorized';
export * from './within-quota';
export * from './cancellable-owner';
export * from './not-closed';
export * from './reservations-known';
export * from './rule-set';
export * from './group-rules';
export * from './describe';
export * from './slot-rules';
