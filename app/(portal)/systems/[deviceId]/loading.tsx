import { getTranslations } from 'next-intl/server';
import { OverviewSkeleton } from '@/components/skeletons';

export default async function Loading() {
  const t = await getTranslations('systems');
  return (
    <div className="flex flex-col gap-4" aria-busy="true">
      <p className="sr-only" role="status">
        {t('loadingSystem')}
      </p>
      <div className="h-4 w-40 animate-pulse rounded bg-slate-200 dark:bg-slate-800" />
      <div className="h-8 w-72 animate-pulse rounded bg-slate-200 dark:bg-slate-800" />
      <OverviewSkeleton />
    </div>
  );
}
