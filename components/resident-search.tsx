'use client';

import { useRouter } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { apartmentHref } from '@/lib/residents/search';
import { ResidentCombobox } from './resident-combobox';
import { Button } from './ui/button';

export interface ResidentSearchProps {
  /** The search in the URL when the page was loaded (its results are rendered by the server below). */
  initialQuery: string;
}

/**
 * The Residents page's search: as you type, picking a resident opens their apartment. Without
 * JavaScript it is a plain GET form, and the server renders the results of `?q=`.
 */
export function ResidentSearch({ initialQuery }: ResidentSearchProps) {
  const router = useRouter();
  const t = useTranslations('residents');
  return (
    <form method="get" action="/residents" role="search" aria-label={t('search.formLabel')} className="flex flex-col gap-2 sm:flex-row sm:items-start">
      <div className="w-full sm:max-w-md">
        <ResidentCombobox
          label={t('search.label')}
          hint={t('search.hint')}
          placeholder={t('search.placeholder')}
          name="q"
          defaultValue={initialQuery}
          onPick={(hit) => router.push(apartmentHref(hit))}
        />
      </div>
      <Button type="submit" className="min-h-11 sm:mt-6">
        {t('search.submit')}
      </Button>
    </form>
  );
}
