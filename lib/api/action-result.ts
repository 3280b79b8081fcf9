import 'server-only';
import { log } from '@/lib/log';
import { msg } from '@/lib/i18n/message';
import { getRequestLocale } from '@/lib/api/request-locale';
import { renderMessage } from '@/lib/i18n/server';
import { env } from '@/lib/env';
import type { Locale } from '@/lib/i18n/config';
import { handleApiError, isApiError, isZodError, renderApiError, type ErrorBody } from '@/lib/errors/api-error';
import { clip, issueMessage } from '@/lib/errors/validation';

/** What a server action answers to its form: a success line or an error line, both safe to show. */
export interface ActionState {
  ok?: string;
  error?: string;
}

/**
 * Runs a server action's work; known errors become their sentence in the caller's language
 * (lib/api/request-locale.ts), unknown ones a generic line.
 */
export async function runAction(work: () => Promise<string>): Promise<ActionState> {
  try {
    return { ok: await work() };
  } catch (error) {
    const locale: Locale = await getRequestLocale().catch(() => env.PORTAL_DEFAULT_LOCALE);
    if (isApiError(error)) return { error: await renderApiError(error, locale) };
    if (isZodError(error)) {
      const lines = await Promise.all(
        error.issues.slice(0, 20).map(async (i) => {
          const text = clip(await renderMessage(locale, issueMessage(i)));
          return i.path.length ? `${clip(i.path.map(String).join('.'))} ${text}` : text;
        }),
      );
      return { error: lines.join('; ') };
    }
    // Other families (upstream errors) get the same wording as in route handlers; unknown errors
    // are logged there and answered with a generic line.
    try {
      const body = (await (await handleApiError(error, locale)).json()) as ErrorBody;
      return { error: body.error.message };
    } catch {
      log.error('server action failed', { error });
      return { error: await renderMessage(locale, msg('errors.internal')).catch(() => 'Something went wrong on our side. Please try again.') };
    }
  }
}
