import type { Messages } from 'next-intl';
import type { Locale } from './config';

const loaded = new Map<Locale, Promise<Messages>>();

/** A language's catalogue, `messages/{locale}.json`, loaded once per process. */
export function loadMessages(locale: Locale): Promise<Messages> {
  let messages = loaded.get(locale);
  if (!messages) {
    messages = import(`../../messages/${locale}.json`).then((m: { default: Messages }) => m.default);
    loaded.set(locale, messages);
  }
  return messages;
}
