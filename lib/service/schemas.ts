import 'server-only';
import { z } from 'zod';
import { OUTCOME_ERROR_CODES } from './error-codes';

/**
 * Every shape the reservation service sends or receives (spec/service-interface.md, completed by
 * spec/service-notes.md). Types come from `z.infer` only. Unknown extra fields are dropped, so the
 * upstream may add fields without breaking us; missing or mistyped ones are contract violations.
 * Client components may still `import type` from here (type imports are erased).
 */

/** Page sizes of the four list endpoints. */
export const PAGE_SIZE_DEFAULT = 50;
export const PAGE_SIZE_MAX = 100;
/** Minutes in a day; `Week` schedule slots start within one day and last at most one. */
export const MINUTES_PER_DAY = 1440;
export const DAYS_PER_WEEK = 7;

// The upstream is a .NET service: ids are GUIDs, not necessarily RFC 9562 UUIDs (no version checks).
const id = z.guid();
// "ISO 8601 date-time in UTC"; an explicit offset is required so no time is read as local.
const dateTime = z.iso.datetime({ offset: true });

export const ReservationOwnerType = z.enum(['User', 'Group', 'Service']);
export const ReservationStatus = z.enum(['Unused', 'Used']);

export const ReservationSchema = z.object({
  id,
  /** null when ownerType is Service (a maintenance window). */
  userId: id.nullable(),
  ownerId: id.nullable(),
  ownerType: ReservationOwnerType,
  status: ReservationStatus,
  resourceId: id,
  startTime: dateTime,
  endTime: dateTime,
  deviceId: id,
});
export type Reservation = z.infer<typeof ReservationSchema>;

/** One slot: [start in UTC minutes from midnight, length in minutes]. */
export const WeekSlotSchema = z.tuple([
  z.number().int().min(0).max(MINUTES_PER_DAY - 1),
  z.number().int().min(1).max(MINUTES_PER_DAY),
]);
export type WeekSlot = z.infer<typeof WeekSlotSchema>;

/** `[WeekDay][Slot][StartTime, Length]`, weekday 0 = Monday. */
export const WeekScheduleSchema = z.array(z.array(WeekSlotSchema)).length(DAYS_PER_WEEK);
export type WeekSchedule = z.infer<typeof WeekScheduleSchema>;

export const TimeScheduleSchema = z.object({
  id,
  deviceId: id,
  scheduleType: z.literal('Week'),
  schedule: WeekScheduleSchema,
});
export type TimeSchedule = z.infer<typeof TimeScheduleSchema>;
/** The interface document's name for the same shape. */
export const ReservationTimeScheduleSchema = TimeScheduleSchema;
export type ReservationTimeSchedule = TimeSchedule;

export const ResourceSchema = z.object({
  id,
  name: z.string(),
  description: z.string(),
  deviceId: id,
  /** Typed as a plain string upstream; it holds a schedule id. */
  timeScheduleId: z.string(),
});
export type Resource = z.infer<typeof ResourceSchema>;
export const ReservationResourceSchema = ResourceSchema;
export type ReservationResource = Resource;

export const UserGroupSchema = z.object({
  id,
  name: z.string(),
  apartmentId: z.string(),
  referenceId: z.string(),
  deviceId: id,
});
export type UserGroup = z.infer<typeof UserGroupSchema>;

export const UserAccountSchema = z.object({
  deviceId: id,
  userId: id,
  name: z.string(),
  email: z.string(),
  /** null when the user belongs to no group (e-mail lookup). */
  userGroupId: id.nullable(),
  /** Absent when `includeReservationResources=false` and from `users/fetch`. */
  reservationResources: z.array(id).optional(),
});
export type UserAccount = z.infer<typeof UserAccountSchema>;

/** `continuationToken` is required on every page and null on the last one. */
const continuationToken = z.string().min(1).nullable();

export const ReservationPageSchema = z.object({ reservations: z.array(ReservationSchema), continuationToken });
export const TimeSchedulePageSchema = z.object({ timeSchedules: z.array(TimeScheduleSchema), continuationToken });
export const ResourcePageSchema = z.object({ resources: z.array(ResourceSchema), continuationToken });
export const UserGroupPageSchema = z.object({ userGroups: z.array(UserGroupSchema), continuationToken });
export type ReservationPage = z.infer<typeof ReservationPageSchema>;
export type TimeSchedulePage = z.infer<typeof TimeSchedulePageSchema>;
export type ResourcePage = z.infer<typeof ResourcePageSchema>;
export type UserGroupPage = z.infer<typeof UserGroupPageSchema>;

/** Body of the three user lookups and of `users/fetch/{deviceId}`. */
export const UserLookupSchema = z.object({ userAccounts: z.array(UserAccountSchema) });
export type UserLookup = z.infer<typeof UserLookupSchema>;

/** `GET /v1/reservations/users/{userId}/reservations`: a bare array, not paged. */
export const UserReservationsSchema = z.array(ReservationSchema);

/**
 * The 202 body of create and cancel. Only the correlation id is relied on; the timestamp is kept
 * as sent (a service may write it without seconds, `2026-11-24T07:00Z`, or leave it out).
 */
export const AcceptedSchema = z.object({ correlationId: id, timestamp: z.string().nullish() });
export type Accepted = z.infer<typeof AcceptedSchema>;

export const ApiKeySchema = z.object({ apiKey: z.string().min(1), deviceIds: z.array(id) });
export type ApiKeyGrant = z.infer<typeof ApiKeySchema>;

/** OAuth2 token response (RFC 6749 §5.1). Some identity providers send expires_in as a string. */
export const TokenResponseSchema = z.object({
  access_token: z.string().min(1),
  token_type: z.string().regex(/^bearer$/i, 'must be Bearer'),
  expires_in: z.coerce.number().int().positive(),
});
export type TokenResponse = z.infer<typeof TokenResponseSchema>;

/** RFC 6749 §5.2 error body of the token endpoint. */
export const OAuthErrorSchema = z.object({
  error: z.string(),
  error_description: z.string().optional(),
});

/** RFC 9457 problem details; every member optional, since we read it only to explain a failure. */
export const ProblemSchema = z.object({
  type: z.string().optional(),
  title: z.string().optional(),
  status: z.number().int().optional(),
  detail: z.string().optional(),
});
export type Problem = z.infer<typeof ProblemSchema>;

// ---------------------------------------------------------------------------------------------
// Requests

/** `yyyy-mm-ddThh:mmZ`, exactly as the create operation wants it. */
export const MINUTE_TIME = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\dZ$/;

/** Formats a Date as `yyyy-mm-ddThh:mmZ`; refuses a Date that is not on a whole minute. */
export function toMinuteTime(date: Date): string {
  if (Number.isNaN(date.getTime())) throw new RangeError('Invalid Date');
  if (date.getUTCSeconds() !== 0 || date.getUTCMilliseconds() !== 0) {
    throw new RangeError('must be on a whole minute');
  }
  return `${date.toISOString().slice(0, 16)}Z`;
}

const minuteTime = z.union([
  z.string().regex(MINUTE_TIME, 'must be of the form yyyy-mm-ddThh:mmZ'),
  z.date().transform((d, ctx) => {
    try {
      return toMinuteTime(d);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: `must be a valid date on a whole minute (${(error as Error).message})` });
      return z.NEVER;
    }
  }),
]);

export const CreateReservationInputSchema = z
  .object({ userId: id, resourceId: id, startTime: minuteTime, endTime: minuteTime })
  .refine((v) => Date.parse(v.endTime) > Date.parse(v.startTime), {
    path: ['endTime'],
    message: 'must be after startTime',
  });
export type CreateReservationInput = z.input<typeof CreateReservationInputSchema>;
export type CreateReservationBody = z.output<typeof CreateReservationInputSchema>;

// ---------------------------------------------------------------------------------------------
// Webhook events

/** Every webhook event shares this envelope; `eventData` depends on `eventType`. */
export const WebhookEventEnvelopeSchema = z.object({
  correlationId: id,
  eventType: z.string().min(1),
  eventData: z.record(z.string(), z.unknown()),
  timestamp: dateTime,
});
export type WebhookEventEnvelope = z.infer<typeof WebhookEventEnvelopeSchema>;

export const ReservationErrorCode = z.enum(OUTCOME_ERROR_CODES);

/**
 * Result data. The service spells the flag `succeded`; `succeeded` is accepted too, and the parsed
 * value always carries the correct spelling. errorCode stays a string: codes we do not know yet
 * must not make a real outcome unreadable.
 */
export const ResultEventDataSchema = z
  .object({
    succeded: z.boolean().optional(),
    succeeded: z.boolean().optional(),
    errorCode: z.string().nullable().optional(),
    errorDescription: z.string().nullable().optional(),
    data: z
      .object({ reservationId: id, operation: z.enum(['create', 'cancel']) })
      .nullable()
      .optional(),
  })
  .refine((v) => v.succeded !== undefined || v.succeeded !== undefined, {
    message: 'one of succeded or succeeded is required',
    path: ['succeded'],
  })
  .refine((v) => v.succeded === undefined || v.succeeded === undefined || v.succeded === v.succeeded, {
    message: 'succeded and succeeded disagree',
    path: ['succeeded'],
  })
  .transform((v) => ({
    succeeded: (v.succeded ?? v.succeeded) as boolean,
    errorCode: v.errorCode ?? null,
    errorDescription: v.errorDescription ?? null,
    data: v.data ?? null,
  }));
export type ResultEventData = z.infer<typeof ResultEventDataSchema>;

export const ReservationResultEventSchema = WebhookEventEnvelopeSchema.extend({
  eventType: z.literal('reservationResult'),
  eventData: ResultEventDataSchema,
});
export type ReservationResultEvent = z.infer<typeof ReservationResultEventSchema>;

/**
 * Any event: reservationResult parsed fully, other types kept as an envelope. A reservationResult
 * with bad data fails; it never slips through as a generic envelope.
 */
export const WebhookEventSchema = z.union([
  ReservationResultEventSchema,
  WebhookEventEnvelopeSchema.refine((e) => e.eventType !== 'reservationResult', {
    path: ['eventData'],
    message: 'is not a valid reservationResult',
  }),
]);
export type WebhookEvent = z.infer<typeof WebhookEventSchema>;
