/**
 * The portal's languages. Adding one (say Norwegian) is its catalogue `messages/nb.json` and one
 * line here; the catalogue tests then hold it to the same keys and placeholders as the others.
 * `intl` is the locale handed to Intl for dates and numbers: English follows British usage
 * (day before month, 24-hour clock), which is what a Swedish property manager reading English expects.
 */
export const LANGUAGES = [
  { code: 'sv', name: 'Svenska', intl: 'sv-SE' },
  { code: 'en', name: 'English', intl: 'en-GB' },
] as const;

export type Locale = (typeof LANGUAGES)[number]['code'];

export const LOCALES: readonly Locale[] = LANGUAGES.map((l) => l.code);

/** The portal's default when neither the user nor the browser says otherwise (setting PORTAL_DEFAULT_LOCALE). */
export const FALLBACK_LOCALE: Locale = 'sv';

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** The BCP 47 tag Intl formats with for a portal locale. */
export function intlLocale(locale: Locale): string {
  return LANGUAGES.find((l) => l.code === locale)?.intl ?? locale;
}

/** The cookie that remembers this browser's last choice (also read before sign-in). */
export const LOCALE_COOKIE = 'portal-locale';
