import { z } from 'zod';

/**
 * Input shapes of the schedule domain. They structurally match the upstream service's
 * Reservation and Week schedule (lib/service/schemas.ts), so values parsed there can be passed
 * here unchanged; only the fields this module reads are required.
 */

export const MINUTES_PER_DAY = 1440;

/**
 * What a Week schedule's minutes mean. 'utc': minutes from UTC midnight, weekday 0 = UTC Monday
 * (the interface's literal reading, service-notes B). 'local': wall-clock minutes in the system's
 * zone, weekday 0 = local Monday — what a real system may mean; an admin chooses per system.
 */
export const SCHEDULE_BASES = ['utc', 'local'] as const;
export type ScheduleBasis = (typeof SCHEDULE_BASES)[number];
export const DAYS_PER_WEEK = 7;
/** Upstream schedules are read as UTC minutes from midnight; a slot may last at most one day. */
export const MAX_SLOT_MINUTES = MINUTES_PER_DAY;

/** 'Unknown': a value the service sent that the interface does not list; such a booking still occupies its slot. */
export const ownerTypeSchema = z.enum(['User', 'Group', 'Service', 'Unknown']);
export type OwnerType = z.infer<typeof ownerTypeSchema>;
/**
 * Who holds a slot, as facts rather than words (each reader's language words them): an apartment
 * number, a resident's name, or one of the unnamed kinds — an apartment or a resident the portal
 * cannot name, or an owner of a type the interface does not list.
 */
export type Owner =
  | { kind: 'apartment'; apartment: string }
  | { kind: 'name'; name: string }
  | { kind: 'someApartment' }
  | { kind: 'someResident' }
  | { kind: 'unknownType' };

/** 'Unknown' (e.g. `Released` upstream) reads as booked: never as free. */
export const reservationStatusSchema = z.enum(['Unused', 'Used', 'Unknown']);
export type ReservationStatus = z.infer<typeof reservationStatusSchema>;

/** Start/end instants: ISO 8601 strings in UTC (as the upstream sends them) or Date objects. */
const instantSchema = z.union([
  z.string().refine((value) => Number.isFinite(Date.parse(value)), 'must be an ISO 8601 date-time'),
  z.date(),
]);

export const scheduleReservationSchema = z.object({
  id: z.string().min(1),
  userId: z.string().nullable(),
  ownerId: z.string().nullable(),
  ownerType: ownerTypeSchema,
  status: reservationStatusSchema,
  resourceId: z.string().min(1),
  startTime: instantSchema,
  endTime: instantSchema,
  deviceId: z.string().optional(),
});
/** A reservation as read by this module (the upstream Reservation is assignable to it). */
export type ScheduleReservation = z.infer<typeof scheduleReservationSchema>;

/** One slot of a Week schedule: [start minute from UTC midnight, length in minutes]. */
export const scheduleSlotTupleSchema = z.tuple([
  z.int().min(0, 'slot start must be 0..1439 minutes').max(MINUTES_PER_DAY - 1, 'slot start must be 0..1439 minutes'),
  z.int().min(1, 'slot length must be at least 1 minute').max(MAX_SLOT_MINUTES, 'slot length must be at most 1440 minutes'),
]);

/**
 * A Week schedule: `[weekday][slot][startMinuteUTC, lengthMinutes]`, weekday 0 = Monday (UTC).
 * Fewer than 7 days are accepted and the missing days read as empty.
 */
export const weekScheduleSchema = z
  .array(z.array(scheduleSlotTupleSchema))
  .max(DAYS_PER_WEEK, 'a Week schedule has at most 7 days');
export type WeekSchedule = z.infer<typeof weekScheduleSchema>;

/** What callers may pass: the upstream's loosely typed `number[][][]`, validated on use. */
export type WeekScheduleInput = readonly (readonly (readonly number[])[])[];

/** Thrown by the pure functions when given input they cannot make sense of. */
export class ScheduleInputError extends Error {
  override name = 'ScheduleInputError';
}

/** Validates a schedule, throwing ScheduleInputError naming the first bad element. */
export function toWeekSchedule(input: WeekScheduleInput): WeekSchedule {
  const parsed = weekScheduleSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` at [${issue.path.join('][')}]` : '';
    throw new ScheduleInputError(`Invalid Week schedule${where}: ${issue?.message ?? 'malformed'}`);
  }
  return parsed.data;
}

/** Instants accepted by the public functions. */
export type InstantInput = Date | number | string;

export function toMs(value: InstantInput): number {
  const ms = typeof value === 'number' ? value : typeof value === 'string' ? Date.parse(value) : value.getTime();
  return ms;
}

/** Like toMs but throws on an invalid instant (for options such as `now`). */
export function requireMs(value: InstantInput, name: string): number {
  const ms = toMs(value);
  if (!Number.isFinite(ms)) throw new ScheduleInputError(`${name} is not a valid date`);
  return ms;
}
