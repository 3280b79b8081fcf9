import { LOCALES, isLocale, type Locale } from '@/lib/i18n/config';

/**
 * The first of the portal's languages an `Accept-Language` header asks for, by quality, or
 * undefined. Matches on the primary subtag ("sv-FI" is Swedish, "en-US" English); a language the
 * portal does not have ("nb", "de") is skipped, and `*` means "anything" (so: undefined, the
 * portal's default decides). Malformed parts are ignored, never an error.
 */
export function localeFromAcceptLanguage(header: string | null | undefined, locales: readonly Locale[] = LOCALES): Locale | undefined {
  if (!header) return undefined;
  const ranges: { tag: string; q: number; order: number }[] = [];
  // A header is a few dozen characters; one of 10 kB is not a browser's, and 64 ranges are plenty.
  header
    .slice(0, 4096)
    .split(',')
    .slice(0, 64)
    .forEach((part, order) => {
      const [rawTag = '', ...params] = part.trim().split(';');
      const tag = rawTag.trim().toLowerCase();
      if (!/^[a-z]{1,8}(-[a-z0-9]{1,8})*$/.test(tag)) return;
      let q = 1;
      for (const param of params) {
        const match = /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(param);
        if (match) q = Number(match[1]);
      }
      if (q > 0) ranges.push({ tag, q, order });
    });
  ranges.sort((a, b) => b.q - a.q || a.order - b.order);
  for (const { tag } of ranges) {
    const primary = tag.split('-')[0];
    const found = locales.find((l) => l === primary);
    if (found) return found;
  }
  return undefined;
}

export interface LocaleSources {
  /** The signed-in user's saved choice. */
  saved?: string | null;
  /** This browser's last choice (the switcher's cookie). */
  cookie?: string | null;
  acceptLanguage?: string | null;
  /**
   * The language the session signed in under (that sign-in's cookie or Accept-Language): for a
   * client that names none on a later request, such as a script using a browser's session.
   */
  signedInUnder?: string | null;
  /** The portal's default (PORTAL_DEFAULT_LOCALE). */
  fallback: Locale;
}

/**
 * Saved preference, else this browser's last choice, else what the browser asks for, else the
 * language the session signed in under, else the portal's default.
 */
export function resolveLocale({ saved, cookie, acceptLanguage, signedInUnder, fallback }: LocaleSources): Locale {
  if (isLocale(saved)) return saved;
  if (isLocale(cookie)) return cookie;
  return localeFromAcceptLanguage(acceptLanguage) ?? (isLocale(signedInUnder) ? signedInUnder : fallback);
}

/** A request's own language, from its cookie and Accept-Language only (no saved choice, no default): undefined when it names none. */
export function requestedLocale(cookie: string | null | undefined, acceptLanguage: string | null | undefined): Locale | undefined {
  return isLocale(cookie) ? cookie : localeFromAcceptLanguage(acceptLanguage);
}
