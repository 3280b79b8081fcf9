import { NextIntlClientProvider } from 'next-intl';
import type { ReactNode } from 'react';
import type { Locale } from '@/lib/i18n/config';
import en from '@/messages/en.json';
import sv from '@/messages/sv.json';

export const catalogues = { en, sv } as const;

/** A component as the portal renders it: inside the message provider of a language (English by default). */
export function withIntl(node: ReactNode, locale: Locale = 'en'): ReactNode {
  return (
    <NextIntlClientProvider locale={locale} messages={catalogues[locale]} timeZone="Europe/Stockholm">
      {node}
    </NextIntlClientProvider>
  );
}
