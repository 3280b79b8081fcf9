import type { Locale } from '@/lib/i18n/config';
import type en from '@/messages/en.json';

// next-intl checks every key (useTranslations, getTranslations, createTranslator) against the
// English catalogue; the catalogue tests hold the other languages to the same keys.
declare module 'next-intl' {
  interface AppConfig {
    Locale: Locale;
    Messages: typeof en;
  }
}
