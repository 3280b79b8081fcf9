import { z } from 'zod';
import { CONTROL_CHARACTERS_MESSAGE, noControlCharacters } from '@/lib/http/control-characters';
import { BOOKING_NOTE_MAX } from '@/lib/views/types';

export const IDEMPOTENCY_KEY_MAX = 200;
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_\-:.]{1,200}$/;

// Ids are compared with what the database returns: lower case.
const id = (message: string) => z.uuid(message).transform((v) => v.toLowerCase());

const instant = z
  .string()
  .max(40, 'must be an ISO 8601 date-time')
  .refine((v) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(v) && Number.isFinite(Date.parse(v)), {
    message: 'must be an ISO 8601 date-time such as 2026-11-24T06:00Z',
  });

/** Body of POST /api/reservations. */
export const bookingInputSchema = z
  .object({
    deviceId: id('must be a UUID'),
    resourceId: id('must be a UUID'),
    residentUserId: id('must be a UUID'),
    startTime: instant,
    endTime: instant,
    /** Optional, one line: why or for whom the manager booked. Blank becomes null. */
    note: z
      .string('note must be text')
      .refine(noControlCharacters, `note ${CONTROL_CHARACTERS_MESSAGE}`)
      .transform((v) => v.trim())
      .refine((v) => v.length <= BOOKING_NOTE_MAX, `note must be at most ${BOOKING_NOTE_MAX} characters`)
      .transform((v) => (v === '' ? null : v))
      .nullish(),
  })
  .strict()
  .refine((v) => Date.parse(v.endTime) > Date.parse(v.startTime), { message: 'endTime must be after startTime', path: ['endTime'] });
export type BookingInput = z.infer<typeof bookingInputSchema>;

export const cancellationInputSchema = z.object({
  deviceId: id('deviceId must be a UUID'),
  reservationId: id('the reservation id must be a UUID'),
});
export type CancellationInput = z.infer<typeof cancellationInputSchema>;
