/**
 * Whole numbers typed by people (forms, query strings, JSON strings, settings): decimal digits
 * only. `Number()` and `z.coerce.number()` also read `0x10` as 16, `1e3` as 1000, `0b11` as 3 and
 * an empty or blank text as 0 (issue 47: booking-rule limits took `0x10`).
 */
const DIGITS = /^\d{1,15}$/;

/** The number written in `text` with the digits 0–9 (spaces around allowed), else undefined. */
export function parseWholeNumber(text: string): number | undefined {
  const trimmed = text.trim();
  return DIGITS.test(trimmed) ? Number(trimmed) : undefined;
}

/**
 * For `z.preprocess(wholeNumberInput, z.number().int()…)`: a text must be digits (else NaN, which
 * the number schema refuses with its own sentence); a JSON number passes as it is (the schema checks
 * that it is whole); undefined stays undefined (optional, default); anything else is refused.
 */
export function wholeNumberInput(value: unknown): unknown {
  if (value === undefined || typeof value === 'number') return value;
  if (typeof value === 'string') return parseWholeNumber(value) ?? Number.NaN;
  return Number.NaN;
}
