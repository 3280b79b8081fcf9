/**
 * Pure schedule domain: no I/O, safe in server and browser bundles (browser code should import
 * runtime values from the module files, e.g. '@/lib/schedule/labels', to leave zod out).
 *
 * Typical use on a resource page:
 *   const week = weekFromKey(searchParams.week ?? weekKeyOf(now, tz), tz);   // ?week=2026-W48
 *   const slots = overlayReservations(expandWeek(schedule, week, tz), reservations,
 *     { now, resourceId, ownerLabel: createOwnerLabeler({ groups, users }) });
 *   <SlotGrid week={week} slots={slots} now={now} horizonEnd={bookingHorizonEnd(now)} …   // lib/booking-rules … />
 * System page: occupancyByResourceWeek(...), resourceNowStatus(...), occupancyHeatmap(...).
 *
 * Conventions: Week schedules hold UTC minutes, weekday 0 = Monday (service-notes B); weeks run
 * Monday 00:00 to Monday 00:00 in the system's zone; a slot belongs to the local day it starts on.
 */
export * from './types';
export * from './week';
export * from './expand';
export * from './overlay';
export * from './bookable-until';
export * from './labels';
export * from './owner-label';
export * from './status';
export * from './occupancy';
export * from './pending';
export * from './resource-kind';
