import { createTranslator } from 'next-intl';
import type { Locale } from '@/i18n/config';
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
