import { z } from 'zod';
import { CONTROL_CHARACTERS_MESSAGE, noControlCharacters } from '@/lib/http/control-characters';
import { BOOKING_NOTE_MAX } from './types';
import { vkey } from '@/lib/i18n/validation-key';

export const IDEMPOTENCY_KEY_MAX = 200;
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_\-:.]{1,200}$/;

// Ids are compared with what the database returns: lower case.
const id = z.uuid(vkey('validation.uuid')).transform((v) => v.toLowerCase());

const instant = z
  .string()
  .max(40, vkey('validation.isoDateTime'))
  .refine((v) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(v) && Number.isFinite(Date.parse(v)), {
    message: vkey('validation.isoDateTime'),
  });

/** Body of POST /api/reservations. */
export const bookingInputSchema = z
  .object({
    deviceId: id,
    resourceId: id,
    residentUserId: id,
    startTime: instant,
    endTime: instant,
    /** Optional, one line: why or for whom the manager booked. Blank becomes null. */
    note: z
      .string()
      .refine(noControlCharacters, CONTROL_CHARACTERS_MESSAGE)
      .transform((v) => v.trim())
      .refine((v) => v.length <= BOOKING_NOTE_MAX, { message: vkey('validation.tooLong'), params: { maximum: BOOKING_NOTE_MAX } })
      .transform((v) => (v === '' ? null : v))
      .nullish(),
  })
  .strict()
  .refine((v) => Date.parse(v.endTime) > Date.parse(v.startTime), { message: vkey('validation.endAfterStart'), path: ['endTime'] });
export type BookingInput = z.infer<typeof bookingInputSchema>;

export const cancellationInputSchema = z.object({
  deviceId: id,
  reservationId: id,
});
export type CancellationInput = z.infer<typeof cancellationInputSchema>;
