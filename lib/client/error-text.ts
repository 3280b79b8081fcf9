import { isMessage, type Message } from '@/lib/i18n/message';

/** A translator of the whole catalogue: next-intl's `useTranslations()` / `getTranslations()` without a namespace. */
export type Translate = (key: Message['key'], values?: Message['values']) => string;

/**
 * What to show a person for a failed call or a refusal, in their language: a Message rendered with
 * `t`; an HttpError's own fallback sentence (`text`) likewise; the portal's answer as it came (the
 * portal already answered in the reader's language); any other error as the generic sentence.
 */
export function errorText(error: unknown, t: Translate): string {
  if (isMessage(error)) return t(error.key, error.values);
  if (typeof error === 'object' && error !== null && (error as { kind?: unknown }).kind === 'http') {
    const http = error as { text?: Message | null; message: string };
    return http.text ? t(http.text.key, http.text.values) : http.message;
  }
  return t('errors.internal');
}
