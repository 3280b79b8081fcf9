import { getTranslations } from 'next-intl/server';
import { ResultsSkeleton } from '@/components/skeletons';

export default async function Loading() {
  const t = await getTranslations('residents');
  return (
    <div className="flex flex-col gap-4" aria-busy="true">
      <p className="sr-only" role="status">
        {t('searching')}
      </p>
      <div className="h-8 w-40 animate-pulse rounded bg-slate-200 dark:bg-slate-800" />
      <div className="h-11 w-full max-w-md animate-pulse rounded bg-slate-100 dark:bg-slate-900" />
      <ResultsSkeleton />
    </div>
  );
}
