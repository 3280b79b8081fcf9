import 'server-only';
import type { z } from 'zod';
import type { Locale } from '@/lib/i18n/config';
import { msg } from '@/lib/i18n/message';
import { renderMessage } from './render';
import { clip, issueMessage } from './validation-issue';

export { clip, issueMessage };

/** A zod error in a language: each issue's path and sentence (clipped, at most `max`), and a summary sentence. */
export async function localizeZodError(
  error: z.ZodError,
  locale: Locale,
  max = 20,
): Promise<{ summary: string; issues: { path: string; message: string }[] }> {
  const issues = await Promise.all(
    error.issues.slice(0, max).map(async (i) => ({
      path: clip(i.path.map(String).join('.')),
      message: clip(await renderMessage(locale, issueMessage(i))),
    })),
  );
  const more = error.issues.length - issues.length;
  const joined = issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');
  const summary = await renderMessage(locale, msg('validation.summary', { issues: joined, more }));
  return { summary, issues };
}
