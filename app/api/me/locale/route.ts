import type { Locale } from '@/lib/i18n/config';
import { ApiError } from '@/lib/errors/api-error';
import { readJson, readTextCapped } from '@/lib/api/body';
import { withErrors } from '@/lib/api/route';
import { msg } from '@/lib/i18n/message';
import { assertSameOrigin } from '@/lib/api/origin';
import { getSession } from '@/lib/api/session';
import { getDb } from '@/lib/db';
import { env } from '@/lib/env';
import { localeChoiceSchema, localeCookie, safeReturnPath, saveUserLocale } from '@/lib/auth/locale-preference';

export const dynamic = 'force-dynamic';

const FORM_BODY_MAX_BYTES = 4096;

/** Saves the choice for the signed-in user (kept across sessions and devices) and in this browser's cookie. */
async function choose(body: unknown): Promise<{ locale: Locale; cookie: string }> {
  const { locale } = localeChoiceSchema.parse(body);
  const user = await getSession();
  if (user) await saveUserLocale((await getDb()).db, user.id, locale);
  return { locale, cookie: localeCookie(locale, env.PORTAL_URL.startsWith('https://')) };
}

// PUT /api/me/locale — choose the portal's language ({ locale: "sv" | "en" }); saved for a signed-in user, remembered in this browser
export const PUT = withErrors(async (request: Request) => {
  assertSameOrigin(request);
  const { locale, cookie } = await choose(await readJson(request, FORM_BODY_MAX_BYTES));
  return Response.json({ locale }, { headers: { 'Set-Cookie': cookie } });
});

// POST /api/me/locale — the same choice from the header's form without JavaScript (locale, returnTo); 303 back to the page
export const POST = withErrors(async (request: Request) => {
  assertSameOrigin(request);
  if (!/^application\/x-www-form-urlencoded\b/i.test(request.headers.get('content-type') ?? '')) {
    throw new ApiError('unsupported_media_type', msg('errors.languageFormType'));
  }
  const form = new URLSearchParams(await readTextCapped(request, FORM_BODY_MAX_BYTES));
  const { cookie } = await choose({ locale: form.get('locale') ?? '' });
  return new Response(null, { status: 303, headers: { Location: safeReturnPath(form.get('returnTo')), 'Set-Cookie': cookie } });
});
