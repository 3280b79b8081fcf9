import { z } from 'zod';
import { SYSTEM_STATUSES } from '@/lib/db/schema/systems';
import { SCHEDULE_BASES } from '@/lib/schedule/types';
import { CONTROL_CHARACTERS_MESSAGE, noControlCharacters } from '@/lib/http/control-characters';

export const DEFAULT_TIME_ZONE = 'Europe/Stockholm';
export const SYSTEM_NAME_MAX_LENGTH = 120;
export const APPROVAL_ID_MAX_LENGTH = 200;
export const BOOKING_HORIZON_MAX_DAYS = 365;
export const BOOKING_QUOTA_MAX = 100;

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
  .min(1, 'is required')
  .refine(isIanaTimeZone, 'must be an IANA time zone such as Europe/Stockholm');

export const deviceIdSchema = z.uuid('must be a system id (UUID)');

// An approval id is a GUID (the service is a .NET one; the sandbox's are UUIDs). Checked before
// anything is sent, so a typo is a sentence at once, not a round trip and a 404.
export const approvalIdSchema = z
  .string()
  .trim()
  .min(1, 'is required')
  .max(APPROVAL_ID_MAX_LENGTH, `must be at most ${APPROVAL_ID_MAX_LENGTH} characters`)
  .pipe(z.guid('must be an approval id as the system owner gave it: 32 hexadecimal digits in groups, such as 1b4e28ba-2fa1-11d2-883f-0016d3cca427'));

export const systemUpdateSchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, 'is required')
      .max(SYSTEM_NAME_MAX_LENGTH, `must be at most ${SYSTEM_NAME_MAX_LENGTH} characters`)
      .refine(noControlCharacters, CONTROL_CHARACTERS_MESSAGE)
      .optional(),
    timeZone: timeZoneSchema.optional(),
    bookingHorizonDays: z.coerce
      .number({ error: 'must be a number of days' })
      .int('must be a whole number of days')
      .min(1, 'must be at least 1 day')
      .max(BOOKING_HORIZON_MAX_DAYS, `must be at most ${BOOKING_HORIZON_MAX_DAYS} days`)
      .optional(),
    scheduleBasis: z.enum(SCHEDULE_BASES, { error: "must be 'utc' or 'local'" }).optional(),
    bookingQuota: z.coerce
      .number({ error: 'must be a number of bookings' })
      .int('must be a whole number of bookings')
      .min(1, 'must be at least 1 booking')
      .max(BOOKING_QUOTA_MAX, `must be at most ${BOOKING_QUOTA_MAX} bookings`)
      .optional(),
  })
  .strict()
  .refine(
    (v) => v.name !== undefined || v.timeZone !== undefined || v.bookingHorizonDays !== undefined || v.scheduleBasis !== undefined || v.bookingQuota !== undefined,
    'give a name, timeZone, bookingHorizonDays, scheduleBasis or bookingQuota to change',
  );
export type SystemUpdate = z.infer<typeof systemUpdateSchema>;

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
});
export type SystemPublic = z.infer<typeof systemPublicSchema>;
