import 'server-only';
import { cookies, headers } from 'next/headers';
import { cache } from 'react';
import { LOCALE_COOKIE, type Locale } from '@/lib/i18n/config';
import { getSession } from '@/lib/api/session';
import { env } from '@/lib/env';
import { resolveLocale } from '@/lib/i18n/negotiate';

/**
 * The language of this request: the signed-in user's saved choice, else this browser's last
 * choice (cookie), else Accept-Language, else the language the session signed in under (a client
 * that names none, e.g. a script on a browser's session, issue 48), else PORTAL_DEFAULT_LOCALE.
 * Once per page render.
 */
export const getRequestLocale = cache(async (): Promise<Locale> => {
  const [jar, head, user] = await Promise.all([cookies(), headers(), getSession().catch(() => null)]);
  return resolveLocale({
    saved: user?.locale,
    cookie: jar.get(LOCALE_COOKIE)?.value,
    acceptLanguage: head.get('accept-language'),
    signedInUnder: user?.signedInUnder,
    fallback: env.PORTAL_DEFAULT_LOCALE,
  });
});
