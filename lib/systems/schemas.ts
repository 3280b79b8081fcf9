import { z } from 'zod';
import { vkey } from '@/lib/i18n/validation-key';
import { SYSTEM_STATUSES, type STORED_RESOURCE_KINDS, type STORED_SCHEDULE_BASES } from '@/lib/db/schema/systems';
import type { ResourceKind } from '@/lib/schedule/resource-kind';
import { SCHEDULE_BASES, type ScheduleBasis } from '@/lib/schedule/types';
import type { Assert, SameType } from '@/lib/same-type';
import { CONTROL_CHARACTERS_MESSAGE, noControlCharacters } from '@/lib/http/control-characters';
import { wholeNumberInput } from '@/lib/http/whole-number';

// What the schema stores is what lib/schedule means (the schema imports nothing of the domain).
type _StoredScheduleBases = Assert<SameType<(typeof STORED_SCHEDULE_BASES)[number], ScheduleBasis>>;
type _StoredResourceKinds = Assert<SameType<(typeof STORED_RESOURCE_KINDS)[number], ResourceKind>>;

export const DEFAULT_TIME_ZONE = 'Europe/Stockholm';
export const SYSTEM_NAME_MAX_LENGTH = 120;
export const APPROVAL_ID_MAX_LENGTH = 200;
export const BOOKING_HORIZON_MAX_DAYS = 365;
export const BOOKING_QUOTA_MAX = 100;
/** The longest street, city or area an admin may set (issue 49). */
export const SYSTEM_PLACE_MAX_LENGTH = 120;

// IANA zones known to this runtime, plus UTC (which supportedValuesOf leaves out).
const knownZones = new Set<string>([...Intl.supportedValuesOf('timeZone'), 'UTC']);

export function isIanaTimeZone(value: string): boolean {
  if (knownZones.has(value)) return true;
  // Aliases such as Europe/Kiev are valid too, when the runtime can format with them.
  if (!/^[A-Za-z_]+(\/[A-Za-z0-9_+-]+){1,2}$/.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

export const timeZoneSchema = z
  .string()
  .trim()
  .min(1, vkey('validation.required'))
  .refine(isIanaTimeZone, vkey('validation.timeZone'));

export const deviceIdSchema = z.uuid(vkey('validation.systemId'));

// An approval id is a GUID (the service is a .NET one; the sandbox's are UUIDs). Checked before
// anything is sent, so a typo is a sentence at once, not a round trip and a 404.
export const approvalIdSchema = z
  .string()
  .trim()
  .min(1, vkey('validation.required'))
  .max(APPROVAL_ID_MAX_LENGTH)
  .pipe(z.guid(vkey('validation.approvalId')));

/** A system's name: what the settings form and the import accept. */
export const systemNameSchema = z
  .string()
  .trim()
  .min(1, vkey('validation.required'))
  .max(SYSTEM_NAME_MAX_LENGTH)
  .refine(noControlCharacters, CONTROL_CHARACTERS_MESSAGE);

/** A street, city or area: trimmed, at most SYSTEM_PLACE_MAX_LENGTH, empty clears it (null). */
export const systemPlaceSchema = z
  .string()
  .trim()
  .max(SYSTEM_PLACE_MAX_LENGTH)
  .refine(noControlCharacters, CONTROL_CHARACTERS_MESSAGE)
  .transform((v) => (v === '' ? null : v))
  .nullable();

export const systemUpdateSchema = z
  .object({
    name: systemNameSchema.optional(),
    street: systemPlaceSchema.optional(),
    city: systemPlaceSchema.optional(),
    area: systemPlaceSchema.optional(),
    timeZone: timeZoneSchema.optional(),
    // Digits or a JSON number only: z.coerce read "0x10" as 16 (issue 47). The catalogue's sentence
    // names the limits (1 to BOOKING_HORIZON_MAX_DAYS, 1 to BOOKING_QUOTA_MAX).
    bookingHorizonDays: z
      .preprocess(
        wholeNumberInput,
        z.number({ error: vkey('validation.days') }).int(vkey('validation.days')).min(1, vkey('validation.days')).max(BOOKING_HORIZON_MAX_DAYS, vkey('validation.days')),
      )
      .optional(),
    scheduleBasis: z.enum(SCHEDULE_BASES).optional(),
    bookingQuota: z
      .preprocess(
        wholeNumberInput,
        z.number({ error: vkey('validation.bookings') }).int(vkey('validation.bookings')).min(1, vkey('validation.bookings')).max(BOOKING_QUOTA_MAX, vkey('validation.bookings')),
      )
      .optional(),
  })
  .strict()
  .refine(
    (v) => v.name !== undefined || v.street !== undefined || v.city !== undefined || v.area !== undefined || v.timeZone !== undefined || v.bookingHorizonDays !== undefined || v.scheduleBasis !== undefined || v.bookingQuota !== undefined,
    vkey('validation.nothingToChange'),
  );
export type SystemUpdate = z.infer<typeof systemUpdateSchema>;

/** The most a system's request budget may be set to (as MIRROR_REQUEST_BUDGET_PER_HOUR). */
export const REQUEST_BUDGET_MAX = 10_000_000;

/** A system's own request budget per hour: a whole number of at least 1, or empty for the setting's default. */
export const requestBudgetSchema = z.union([
  z.literal('').transform(() => null),
  z.preprocess(
    wholeNumberInput,
    z
      .number({ error: vkey('validation.requestBudget') })
      .int(vkey('validation.requestBudget'))
      .min(1, vkey('validation.requestBudget'))
      .max(REQUEST_BUDGET_MAX, vkey('validation.requestBudget')),
  ),
]);

/** What a browser may see of a system: never the connection or its key. */
export const systemPublicSchema = z.object({
  deviceId: z.uuid(),
  name: z.string(),
  timeZone: z.string(),
  status: z.enum(SYSTEM_STATUSES),
  /** How far ahead its rooms can be booked, in days. */
  bookingHorizonDays: z.number().int(),
  /** What its schedules' minutes mean: UTC (the interface's reading) or local wall time. */
  scheduleBasis: z.enum(SCHEDULE_BASES),
  /** Future bookings an apartment may hold per room (the service's own rule is not readable). */
  bookingQuota: z.number().int(),
  /** Where it stands and the area (organisational unit) it belongs to, as an admin set them; null: not set. */
  street: z.string().nullable(),
  city: z.string().nullable(),
  area: z.string().nullable(),
});
export type SystemPublic = z.infer<typeof systemPublicSchema>;
