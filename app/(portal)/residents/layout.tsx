import type { ReactNode } from 'react';
import { getTranslations } from 'next-intl/server';
import { ResidentSearch } from '@/components/resident-search';

/**
 * The Residents heading and search box live in the layout, not the page: a new `?q=` renders a
 * new page (and its loading state) but keeps the layout, so the box — the one owner of the text
 * (decision 018) — keeps what is being typed while a navigation finishes.
 */
export default async function ResidentsLayout({ children }: { children: ReactNode }) {
  const t = await getTranslations('residents');
  return (
    <div className="flex flex-col gap-4">
      <header className="flex flex-col gap-1">
        <h1 className="text-2xl font-semibold tracking-tight">{t('pageTitle')}</h1>
        <p className="text-sm text-slate-700 dark:text-slate-300">{t('intro')}</p>
      </header>
      <ResidentSearch />
      {children}
    </div>
  );
}
