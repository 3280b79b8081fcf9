import { getTranslations } from 'next-intl/server';
import { GridSkeleton } from '@/components/skeletons';

export default async function Loading() {
  const t = await getTranslations('systems');
  return (
    <div className="flex flex-col gap-4" aria-busy="true">
      <p className="sr-only" role="status">
        {t('loadingWeek')}
      </p>
      <div className="h-4 w-56 animate-pulse rounded bg-slate-200 dark:bg-slate-800" />
      <div className="h-8 w-64 animate-pulse rounded bg-slate-200 dark:bg-slate-800" />
      <div className="h-11 w-full animate-pulse rounded bg-slate-100 dark:bg-slate-900" />
      <GridSkeleton />
    </div>
  );
}
