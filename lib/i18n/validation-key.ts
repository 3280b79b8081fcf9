import type { MessageKey } from './message';

/** A key of the `validation` namespace. */
export type ValidationKey = Extract<MessageKey, `validation.${string}`>;

/**
 * A zod message that is a catalogue key, not English: `z.string().refine(ok, vkey('validation.timeZone'))`.
 * The error map (lib/errors/validation.ts) renders it in the caller's language with the issue's
 * limits (`minimum`, `maximum`) and a custom issue's `params` as its values. Browser-safe.
 */
export function vkey(key: ValidationKey): ValidationKey {
  return key;
}
