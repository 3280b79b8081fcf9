import 'server-only';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { LOCALES, LOCALE_COOKIE, isLocale, type Locale } from '@/lib/i18n/config';
import { vkey } from '@/lib/i18n/validation-key';
import type { Database } from '@/lib/db';
import { noControlCharacters } from '@/lib/http/control-characters';
import { users } from '@/lib/db/schema';

export const localeChoiceSchema = z.object({
  locale: z.string().refine(isLocale, { message: vkey('validation.language'), params: { languages: LOCALES.join(', ') } }),
});

/** Saves a user's language choice; their next request (any device, any new session) uses it. */
export async function saveUserLocale(db: Database, userId: string, locale: Locale): Promise<void> {
  await db.update(users).set({ locale, updatedAt: new Date() }).where(eq(users.id, userId));
}

/** A year: the cookie only remembers this browser's choice; the account keeps the saved one. */
const COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;

/** `Set-Cookie` for this browser's choice (read before sign-in too, so it is not HttpOnly-sensitive data). */
export function localeCookie(locale: Locale, secure: boolean): string {
  return `${LOCALE_COOKIE}=${locale}; Path=/; Max-Age=${COOKIE_MAX_AGE_S}; SameSite=Lax; HttpOnly${secure ? '; Secure' : ''}`;
}

/**
 * Where a form post returns to: a path of this portal only ("/systems?week=…"), never another
 * site ("//evil.example", "https://…"), else the start page.
 */
export function safeReturnPath(value: unknown): string {
  if (typeof value !== 'string' || value.length > 2048) return '/';
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return '/';
  if (!noControlCharacters(value)) return '/';
  return value;
}
