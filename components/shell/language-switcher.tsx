'use client';

import { useMutation } from '@tanstack/react-query';
import { useLocale, useTranslations } from 'next-intl';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { LANGUAGES, type Locale } from '@/lib/i18n/config';
import { fetchJson } from '@/lib/client/fetch-json';

/**
 * The header's language choice: one button per language, each named in its own language (so a
 * reader finds theirs whatever is shown). A plain form post without JavaScript; with it, the choice
 * is saved with fetch and the page re-rendered in place. Saved for the account, so a new session
 * on any device keeps it.
 */
export function LanguageSwitcher() {
  const t = useTranslations('language');
  const current = useLocale();
  const router = useRouter();
  const pathname = usePathname();
  const search = useSearchParams();
  const returnTo = search.size > 0 ? `${pathname}?${search.toString()}` : pathname;
  const choose = useMutation({
    mutationFn: (locale: Locale) =>
      fetchJson('/api/me/locale', { method: 'PUT', idempotencyKey: crypto.randomUUID(), body: { locale } }),
    onSuccess: () => router.refresh(),
  });
  return (
    <form
      method="post"
      action="/api/me/locale"
      className="flex items-center gap-1"
      onSubmit={(event) => {
        event.preventDefault();
        const submitter = event.nativeEvent.submitter;
        const locale = LANGUAGES.find((l) => submitter instanceof HTMLButtonElement && l.code === submitter.value)?.code;
        if (locale && locale !== current) choose.mutate(locale);
      }}
    >
      <input type="hidden" name="returnTo" value={returnTo} />
      <fieldset className="flex items-center gap-1" aria-describedby={choose.isError ? 'language-error' : undefined}>
        <legend className="sr-only">{t('choose')}</legend>
        {LANGUAGES.map((language) => (
          <button
            key={language.code}
            type="submit"
            name="locale"
            value={language.code}
            lang={language.code}
            aria-pressed={language.code === current}
            disabled={choose.isPending}
            className="rounded-md px-2 py-1 text-xs font-medium text-slate-700 hover:bg-slate-100 focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-500 aria-pressed:bg-brand-50 aria-pressed:text-brand-700 dark:text-slate-200 dark:hover:bg-slate-800 dark:aria-pressed:bg-slate-800 dark:aria-pressed:text-brand-100"
          >
            {language.name}
          </button>
        ))}
      </fieldset>
      <span role="status" className="sr-only">
        {choose.isPending ? t('saving') : ''}
      </span>
      {choose.isError ? (
        <span id="language-error" role="alert" className="text-xs text-red-700 dark:text-red-300">
          {t('failed')}
        </span>
      ) : null}
    </form>
  );
}
