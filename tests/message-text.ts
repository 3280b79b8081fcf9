import { createTranslator } from 'next-intl';
import type { Locale } from '@/lib/i18n/config';
import { issueMessage } from '@/lib/errors/validation-issue';
import type { Message } from '@/lib/i18n/message';
import en from '@/messages/en.json';
import sv from '@/messages/sv.json';

const translators = {
  en: createTranslator({ locale: 'en', messages: en }),
  sv: createTranslator({ locale: 'sv', messages: sv }),
};

/** A Message as a person reads it, in a language (English by default): for tests of lib/ code that returns Messages. */
export function messageText(message: Message, locale: Locale = 'en'): string {
  return (translators[locale] as unknown as (key: string, values?: Message['values']) => string)(message.key, message.values);
}

/** A zod issue's sentence as the error map answers it (lib/errors/validation-issue.ts), in a language. */
export function issueText(issue: Parameters<typeof issueMessage>[0], locale: Locale = 'en'): string {
  return messageText(issueMessage(issue), locale);
}

/** An ApiError's sentence as a route handler answers it (renderApiError, synchronously), in a language. */
export function apiErrorText(error: unknown, locale: Locale = 'en'): string {
  const e = error as { text?: Message; localValues?: (l: Locale) => Message['values'] };
  if (!e?.text) throw new Error(`not an ApiError: ${String(error)}`);
  return messageText({ key: e.text.key, values: { ...e.text.values, ...e.localValues?.(locale) } }, locale);
}

/** The sentence of the ApiError `fn` throws (fails when it throws none). */
export function thrownText(fn: () => unknown, locale: Locale = 'en'): string {
  try {
    fn();
  } catch (error) {
    return apiErrorText(error, locale);
  }
  throw new Error('nothing was thrown');
}
