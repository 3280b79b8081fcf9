import { z } from 'zod';
import { vkey } from '@/lib/i18n/validation-key';
import { CONTROL_CHARACTERS_MESSAGE, noControlCharacters } from '@/lib/http/control-characters';

/** A closure's reason: one line, 1..200 characters once trimmed. */
export const CLOSURE_REASON_MAX = 200;
/** Rooms one closure may name (the table allows 500; a system has a handful). */
export const CLOSURE_ROOMS_MAX = 100;

// Ids are compared with what the database returns: lower case.
const id = z.uuid(vkey('validation.uuid')).transform((v) => v.toLowerCase());

/**
 * A local date and time in the system's time zone, as an `<input type="datetime-local">` gives it
 * ("2026-11-24T13:00", seconds optional). Its form and meaning are checked by ./period.ts
 * (`localInstant`), which answers with a sentence of its own.
 */
const localDateTime = z.string().max(40, vkey('validation.tooLong')).refine(noControlCharacters, CONTROL_CHARACTERS_MESSAGE);

/**
 * Body of POST /api/systems/{deviceId}/closures and of its preview. `from` and `to` are LOCAL
 * date-times in the system's time zone (what the form's datetime-local inputs give), not instants:
 * a manager closes "Tuesday 13:00–17:00" in the building's own time, whatever their browser's zone.
 */
export const closureInputSchema = z
  .object({
    resourceIds: z
      .array(id)
      .min(1, vkey('validation.tooFewItems'))
      .max(CLOSURE_ROOMS_MAX, vkey('validation.tooManyItems'))
      .transform((ids) => [...new Set(ids)]),
    from: localDateTime,
    to: localDateTime,
    reason: z
      .string()
      .refine(noControlCharacters, CONTROL_CHARACTERS_MESSAGE)
      .transform((v) => v.trim())
      .refine((v) => v.length >= 1, { message: vkey('validation.tooShort'), params: { minimum: 1 } })
      .refine((v) => v.length <= CLOSURE_REASON_MAX, { message: vkey('validation.tooLong'), params: { maximum: CLOSURE_REASON_MAX } }),
  })
  .strict();
export type ClosureInput = z.infer<typeof closureInputSchema>;
