import 'server-only';
import { z } from 'zod';
import { OUTCOME_ERROR_CODES } from './error-codes';

/**
 * Every shape the reservation service sends or receives (spec/service-interface.md, completed by
 * spec/service-notes.md). Types come from `z.infer` only. Client components may still
 * `import type` from here (type imports are erased).
 *
 * Reading is tolerant (service-notes part C): a real service sends nulls, empty strings or nothing
 * for fields the portal only displays, date-times in several ISO forms, unknown fields and enum
 * values. Those are normalised here. What the portal relies on (ids, instants, schedule arrays) is
 * validated per item: the list and lookup readers (`parseItems`) skip an unusable item, count it
 * and keep the rest of its page, instead of failing the page and with it the whole mirror refresh.
 */

/** Page sizes of the four list endpoints. */
export const PAGE_SIZE_DEFAULT = 50;
export const PAGE_SIZE_MAX = 100;
/** Minutes in a day; `Week` schedule slots start within one day and last at most one. */
export const MINUTES_PER_DAY = 1440;
export const DAYS_PER_WEEK = 7;

// The upstream is a .NET service: ids are GUIDs, not necessarily RFC 9562 UUIDs (no version checks).
const guid = z.guid();
// .NET's "B" form, `{…}`: one pair of braces around the hyphenated digits.
const BRACED = /^\{(.*)\}$/s;

/**
 * The one spelling of a service id inside the portal: lower case, hyphenated, no braces. A .NET
 * service may write a GUID in upper or mixed case (SQL Server does) or in braces; the same id in
 * every spelling must compare equal everywhere, so each is normalised once, here, where it is
 * read. Null for anything that is not a GUID. What the portal sends back is this form: the
 * interface's string(uuid), which a service reads whatever spelling it wrote.
 */
export function canonicalId(value: string): string | null {
  const trimmed = value.trim();
  const bare = BRACED.exec(trimmed)?.[1] ?? trimmed;
  return guid.safeParse(bare).success ? bare.toLowerCase() : null;
}

/** An id the portal relies on: canonical (canonicalId), or an issue (the item is skipped). */
export const serviceId = z.string().transform((value, ctx) => {
  const canonical = canonicalId(value);
  if (canonical === null) {
    ctx.addIssue({ code: 'custom', message: 'is not a GUID' });
    return z.NEVER;
  }
  return canonical;
});
const id = serviceId;
/** Strict form, for webhook envelopes (their parsing belongs to the events code and stays as it was). */
const strictDateTime = z.iso.datetime({ offset: true });

// yyyy-mm-ddThh:mm[:ss[.f{1,7}]](Z|±hh:mm|±hhmm). No offset is refused: local to whom?
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,7}))?)?(?:([Zz])|([+-])(\d{2}):?(\d{2}))$/;

/**
 * Reads an ISO 8601 date-time with or without seconds, with a fraction of up to 7 digits (.NET
 * writes ticks), with `Z` or an offset, and returns the same instant as `toISOString()` (UTC,
 * milliseconds; digits beyond the millisecond are truncated, as `Date.parse` does). Null for
 * anything else, including a date-time without an offset and impossible dates (Feb 30).
 */
export function normaliseDateTime(value: string): string | null {
  const m = DATE_TIME.exec(value.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, sec = '0', frac = '', zulu, sign, oh = '0', om = '0'] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(sec);
  const offsetHours = Number(oh);
  const offsetMinutes = Number(om);
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  if (!zulu && (offsetHours > 23 || offsetMinutes > 59)) return null;
  const ms = Number(frac.padEnd(3, '0').slice(0, 3));
  const local = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  // Date.UTC rolls Feb 30 over into March: compare the calendar day back.
  if (new Date(local).getUTCDate() !== day || new Date(local).getUTCMonth() !== month - 1) return null;
  const offsetMs = zulu ? 0 : (sign === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60_000;
  const instant = new Date(local - offsetMs);
  return Number.isNaN(instant.getTime()) ? null : instant.toISOString();
}

/** A date-time the portal relies on: normalised to `toISOString()`, or an issue (the item is skipped). */
const dateTime = z.string().transform((value, ctx) => {
  const normalised = normaliseDateTime(value);
  if (normalised === null) {
    ctx.addIssue({ code: 'custom', message: 'is not an ISO 8601 date-time with Z or an offset' });
    return z.NEVER;
  }
  return normalised;
});

/**
 * A field the portal only displays: a string as sent; a number as its digits (an apartment 1203
 * sent as a number); null, missing or anything else as ''. '' rather than null keeps the types and
 * the NOT NULL mirror columns as they were, and every display already treats '' as "not set".
 */
const displayText = z.unknown().optional().transform((v): string => (typeof v === 'string' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : ''));

/** An id the portal can do without (owner, user, group in lookups): canonical, and anything but a GUID reads as null. */
const optionalId = z.unknown().optional().transform((v): string | null => (typeof v === 'string' ? canonicalId(v) : null));

/**
 * A room's `timeScheduleId`, typed as a plain string upstream: a GUID in any spelling reads as its
 * canonical form (so it equals the schedule's own id however either was written); anything else
 * is kept as sent, trimmed (it then names no listed schedule). Missing reads as ''.
 */
const scheduleRef = z.unknown().optional().transform((v): string => {
  const text = typeof v === 'string' ? v.trim() : typeof v === 'number' && Number.isFinite(v) ? String(v) : '';
  return canonicalId(text) ?? text;
});

/** An enum read case-insensitively (a .NET service may write `user`); unknown or missing → 'Unknown'. */
function tolerantEnum<const T extends readonly string[]>(values: T) {
  const byLower = new Map(values.map((v) => [v.toLowerCase(), v] as const));
  return z.unknown().optional().transform((v): T[number] | 'Unknown' => (typeof v === 'string' ? (byLower.get(v.trim().toLowerCase()) ?? 'Unknown') : 'Unknown'));
}

export const RESERVATION_OWNER_TYPES = ['User', 'Group', 'Service'] as const;
export const RESERVATION_STATUSES = ['Unused', 'Used'] as const;
/** 'Unknown': a value the interface does not list (e.g. `Facility`); the reservation still occupies its slot. */
export const ReservationOwnerType = z.enum([...RESERVATION_OWNER_TYPES, 'Unknown']);
/** 'Unknown': e.g. `Released`; shown as booked, never as free. */
export const ReservationStatus = z.enum([...RESERVATION_STATUSES, 'Unknown']);
export type ReservationOwnerType = z.infer<typeof ReservationOwnerType>;
export type ReservationStatus = z.infer<typeof ReservationStatus>;

export const ReservationSchema = z
  .object({
    id,
    /** null when ownerType is Service (a maintenance window), and when not a GUID. */
    userId: optionalId,
    ownerId: optionalId,
    ownerType: tolerantEnum(RESERVATION_OWNER_TYPES),
    status: tolerantEnum(RESERVATION_STATUSES),
    resourceId: id,
    startTime: dateTime,
    endTime: dateTime,
    deviceId: id,
  })
  .refine((r) => Date.parse(r.endTime) > Date.parse(r.startTime), { path: ['endTime'], message: 'is not after startTime' });
export type Reservation = z.infer<typeof ReservationSchema>;

/** One slot: [start in UTC minutes from midnight, length in minutes]. */
export const WeekSlotSchema = z.tuple([
  z.number().int().min(0).max(MINUTES_PER_DAY - 1),
  z.number().int().min(1).max(MINUTES_PER_DAY),
]);
export type WeekSlot = z.infer<typeof WeekSlotSchema>;

/**
 * `[WeekDay][Slot][StartTime, Length]`, weekday 0 = Monday. Fewer than 7 days are padded with
 * empty days (lib/schedule reads missing days as empty too); more than 7 is not a week.
 */
export const WeekScheduleSchema = z
  .array(z.array(WeekSlotSchema))
  .max(DAYS_PER_WEEK)
  .transform((days) => [...days, ...Array.from({ length: DAYS_PER_WEEK - days.length }, (): WeekSlot[] => [])]);
export type WeekSchedule = z.infer<typeof WeekScheduleSchema>;

/** The only schedule type the portal can lay out; any other makes its schedule skipped (counted). */
const scheduleType = z.unknown().optional().superRefine((v, ctx) => {
  if (typeof v !== 'string' || v.trim().toLowerCase() !== 'week') {
    ctx.addIssue({ code: 'custom', message: `scheduleType ${JSON.stringify(v ?? null).slice(0, 40)} is not supported (only Week)` });
  }
}).transform(() => 'Week' as const);

export const TimeScheduleSchema = z.object({
  id,
  deviceId: id,
  scheduleType,
  schedule: WeekScheduleSchema,
});
export type TimeSchedule = z.infer<typeof TimeScheduleSchema>;
/** The interface document's name for the same shape. */
export const ReservationTimeScheduleSchema = TimeScheduleSchema;
export type ReservationTimeSchedule = TimeSchedule;

export const ResourceSchema = z.object({
  id,
  name: displayText,
  description: displayText,
  deviceId: id,
  /** Typed as a plain string upstream; it holds a schedule id (canonical when a GUID). Missing: no schedule is listed for the room. */
  timeScheduleId: scheduleRef,
});
export type Resource = z.infer<typeof ResourceSchema>;
export const ReservationResourceSchema = ResourceSchema;
export type ReservationResource = Resource;

export const UserGroupSchema = z.object({
  id,
  name: displayText,
  apartmentId: displayText,
  referenceId: displayText,
  deviceId: id,
});
export type UserGroup = z.infer<typeof UserGroupSchema>;

export const UserAccountSchema = z.object({
  deviceId: id,
  userId: id,
  name: displayText,
  email: displayText,
  /** null when the user belongs to no group (e-mail lookup), or the service sent no usable id. */
  userGroupId: optionalId,
  /**
   * Absent when `includeReservationResources=false` and from `users/fetch`; null reads as absent,
   * and entries that are not GUIDs are dropped (the rest of the user is still usable).
   */
  reservationResources: z
    .array(z.unknown())
    .nullish()
    .transform((list) => (list ? list.flatMap((v) => (typeof v === 'string' ? (canonicalId(v) ?? []) : [])) : undefined)),
});
export type UserAccount = z.infer<typeof UserAccountSchema>;

// ---------------------------------------------------------------------------------------------
// Envelopes, read before their items

/**
 * The token of the next page. Null or missing ends the list; an empty string ends it too (a
 * service that writes `""` for "none" must not be asked for `?continuationToken=` forever).
 */
const continuationToken = z
  .string()
  .nullish()
  .transform((t) => (t ? t : null));

/** Items of an envelope, each still to be parsed; a missing or null array reads as empty. */
const rawItems = z
  .array(z.unknown())
  .nullish()
  .transform((v) => v ?? []);

export const ReservationPageEnvelope = z.object({ reservations: rawItems, continuationToken });
export const TimeSchedulePageEnvelope = z.object({ timeSchedules: rawItems, continuationToken });
export const ResourcePageEnvelope = z.object({ resources: rawItems, continuationToken });
export const UserGroupPageEnvelope = z.object({ userGroups: rawItems, continuationToken });
/** Body of the three user lookups and of `users/fetch/{deviceId}`. */
export const UserLookupEnvelope = z.object({ userAccounts: rawItems });
/** `GET /v1/reservations/users/{userId}/reservations`: a bare array, not paged. */
export const UserReservationsEnvelope = z.array(z.unknown());

/** An item the reader could not use: its id when it had a readable one, and why. */
export interface SkippedItem {
  id: string | null;
  reason: string;
}

const MAX_REASON_LENGTH = 200;

function idOfRaw(item: unknown, keys: readonly string[]): string | null {
  if (typeof item !== 'object' || item === null) return null;
  for (const key of keys) {
    const value = (item as Record<string, unknown>)[key];
    if (typeof value === 'string' && value.length > 0) return value.slice(0, 100);
    if (typeof value === 'number') return String(value);
  }
  return null;
}

/**
 * Parses each item on its own: the usable ones in order, and for the others their id (if any)
 * and the first reason. `defaults` fills fields the caller knows better than a missing value
 * (the system of a list the portal asked for).
 */
export function parseItems<S extends z.ZodType>(
  schema: S,
  raw: readonly unknown[],
  options: { idKeys?: readonly string[]; defaults?: Record<string, unknown> } = {},
): { items: z.output<S>[]; skipped: SkippedItem[] } {
  const items: z.output<S>[] = [];
  const skipped: SkippedItem[] = [];
  for (const item of raw) {
    const input =
      options.defaults && typeof item === 'object' && item !== null && !Array.isArray(item) ? withDefaults(item as Record<string, unknown>, options.defaults) : item;
    const result = schema.safeParse(input);
    if (result.success) {
      items.push(result.data);
      continue;
    }
    const issue = result.error.issues[0];
    const where = issue && issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ` : '';
    skipped.push({
      id: idOfRaw(item, options.idKeys ?? ['id']),
      reason: `${where}${issue?.message ?? 'unreadable'}`.slice(0, MAX_REASON_LENGTH),
    });
  }
  return { items, skipped };
}

function withDefaults(item: Record<string, unknown>, defaults: Record<string, unknown>): Record<string, unknown> {
  const out = { ...item };
  for (const [key, value] of Object.entries(defaults)) if (out[key] === undefined || out[key] === null) out[key] = value;
  return out;
}

/**
 * The 202 body of create and cancel. Only the correlation id is relied on; the timestamp is kept
 * as sent (a service may write it without seconds, `2026-11-24T07:00Z`, or leave it out).
 */
export const AcceptedSchema = z.object({ correlationId: id, timestamp: z.string().nullish() });

/**
 * The correlation id of a 2xx answer to a write whose body was cut off or is otherwise not JSON
 * (`{"correlationId":"…","timestamp":`): the service accepted the request and said which outcome
 * will tell. Only a body that names exactly one correlation id is read; anything else stays unknown.
 */
export function salvageAccepted(text: string): Accepted | undefined {
  const found = [...text.matchAll(/"correlationId"\s*:\s*"\{?([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\}?"/gi)];
  const ids = new Set(found.map((m) => m[1]?.toLowerCase()));
  if (ids.size !== 1) return undefined;
  return { correlationId: [...ids][0] ?? '', timestamp: null };
}
export type Accepted = z.infer<typeof AcceptedSchema>;

/**
 * The answer of apikey/generate, whose body the interface does not show: `{ apiKey, deviceIds }`
 * (service-notes B), read tolerantly — a bare string, `key`/`api_key`/`ApiKey`, and `deviceId` as
 * one id are accepted; systems without a readable GUID are dropped. No systems is `[]`.
 */
export const ApiKeySchema = z
  .preprocess((body) => {
    if (typeof body === 'string') return { apiKey: body, deviceIds: [] };
    if (typeof body !== 'object' || body === null) return body;
    const b = body as Record<string, unknown>;
    const devices = b.deviceIds ?? b.DeviceIds ?? b.deviceId ?? b.DeviceId ?? [];
    return {
      apiKey: b.apiKey ?? b.ApiKey ?? b.key ?? b.api_key,
      deviceIds: (Array.isArray(devices) ? devices : [devices]).flatMap((d) => (typeof d === 'string' ? (canonicalId(d) ?? []) : [])),
    };
  }, z.object({ apiKey: z.string().trim().min(1), deviceIds: z.array(id) }));
export type ApiKeyGrant = z.infer<typeof ApiKeySchema>;

/**
 * OAuth2 token response (RFC 6749 §5.1), whose body the interface does not show. Some identity
 * providers send expires_in as a string; `token_type` and `expires_in` are RECOMMENDED, not
 * required, so either may be missing (the token provider then reads the JWT's `exp`, or assumes a
 * short life).
 */
export const TokenResponseSchema = z.object({
  access_token: z.string().min(1),
  token_type: z.string().regex(/^bearer$/i, 'must be Bearer').nullish(),
  expires_in: z.preprocess(
    (v) => (v === undefined || v === null || v === '' ? undefined : Number(v)),
    z.number().positive().optional(),
  ),
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
  timestamp: strictDateTime,
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
