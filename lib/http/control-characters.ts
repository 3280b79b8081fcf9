import { vkey } from '@/lib/i18n/validation-key';

// NUL, C0 and C1 control characters: never part of a name, an e-mail address or an id. Input that
// holds them is refused at the portal, so it never reaches the service (which may answer it 500).
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;

export function hasControlCharacters(text: string): boolean {
  return CONTROL_CHARACTERS.test(text);
}

/** For a zod `.refine` on any single-line text the portal stores or forwards. */
export const noControlCharacters = (text: string): boolean => !CONTROL_CHARACTERS.test(text);
/** The refine's message: a catalogue key, rendered in the caller's language (lib/errors/validation.ts). */
export const CONTROL_CHARACTERS_MESSAGE = vkey('validation.controlCharacters');
