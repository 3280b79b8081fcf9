import 'server-only';
import { getRequestConfig } from 'next-intl/server';
import { getRequestLocale } from '@/lib/api/request-locale';
import { loadMessages } from '@/lib/i18n/messages';

// next-intl without locale routing: URLs stay as they are, the language comes from the user.
export default getRequestConfig(async () => {
  const locale = await getRequestLocale();
  return {
    locale,
    messages: await loadMessages(locale),
    // Dates are formatted in each system's own zone, passed explicitly; this is only the default.
    timeZone: 'Europe/Stockholm',
  };
});
