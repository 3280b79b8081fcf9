import { createTranslator } from 'next-intl';
import type { Locale } from '@/i18n/config';
import { catalogues } from '@/tests/intl';
import type { Words } from './words';

/** The wording functions' translator and language, as a component of that language has them. */
export function wordsFor(locale: Locale = 'en'): Words {
  return { t: createTranslator({ locale, messages: catalogues[locale] }) as unknown as Words['t'], locale };
}
