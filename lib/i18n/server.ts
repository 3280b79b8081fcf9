import 'server-only';
import { createTranslator } from 'next-intl';
import type { Locale } from '@/lib/i18n/config';
import { loadMessages } from '@/lib/i18n/messages';
import type { Message } from './message';

/** A message in a language, outside a React render (route handlers, logs for people, e-mails). */
export async function renderMessage(locale: Locale, message: Message): Promise<string> {
  const t = createTranslator({ locale, messages: await loadMessages(locale) });
  // Keys are checked where the Message is made (msg()); values are plain strings, numbers and dates.
  return (t as unknown as (key: string, values?: Message['values']) => string)(message.key, message.values);
}
