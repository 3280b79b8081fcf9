import 'server-only';
import type { Locale } from '@/lib/i18n/config';
import type { Message } from '@/lib/i18n/message';

/**
 * lib/i18n/server.ts's renderMessage, loaded when an error is answered: next-intl is not imported
 * when this module is, so modules that throw ApiErrors stay usable outside Next (the admin
 * command line runs them under plain Node with the react-server condition).
 */
export async function renderMessage(locale: Locale, message: Message): Promise<string> {
  const server = await import('@/lib/i18n/server');
  return server.renderMessage(locale, message);
}
